/**
 * Hand-written profiles for planner tests: a column of a semantic type with plausible figures, and
 * a dataset of such columns. Fixtures only (no assertions): imported by the *.test.ts files.
 */
import type { ColumnProfile, DataProfile } from '../../src/agent/profile.js';

const stats = (min: number, max: number) => ({
  min,
  max,
  mean: (min + max) / 2,
  std: (max - min) / 4,
  median: (min + max) / 2,
  q1: min,
  q3: max,
  zeros: 0,
  negatives: min < 0 ? 1 : 0,
  outliers: 0,
  skew: 0.2,
});

export function col(
  name: string,
  semantic: ColumnProfile['semantic'],
  extra: Partial<ColumnProfile> = {},
): ColumnProfile {
  return {
    name,
    dtype: semantic === 'numeric' ? 'float64' : 'object',
    semantic,
    missing: 0,
    missing_share: 0,
    distinct: 100,
    top: [],
    numeric: semantic === 'numeric' ? stats(0, 100) : null,
    datetime: null,
    numeric_text: null,
    text: null,
    notes: [],
    ...extra,
  };
}

export function profile(columns: ColumnProfile[], extra: Partial<DataProfile> = {}): DataProfile {
  return {
    rows: 1000,
    columns: columns.length,
    duplicate_rows: 0,
    source: { name: 'd.csv', format: 'csv', encoding: 'utf-8', delimiter: ',' },
    column_profiles: columns,
    omitted_columns: { count: 0, by_dtype: {} },
    correlations: [],
    warnings: [],
    ...extra,
  };
}

/** A sales table: orders with a daily date over two years, two categories and two measures. */
export const date = col('order_date', 'datetime', {
  distinct: 730,
  datetime: {
    min: '2023-01-01',
    max: '2024-12-31',
    span_days: 730,
    frequency: 'D',
    parse_share: 1,
  },
});
const region = col('region', 'category', { distinct: 5 });
const product = col('product', 'category', { distinct: 40 });
const revenue = col('revenue', 'numeric');
const units = col('units', 'numeric');
const orderId = col('order_id', 'identifier', { distinct: 1000 });
const comment = col('comment', 'text', { distinct: 990 });
export const SALES = profile([orderId, date, region, product, revenue, units, comment], {
  correlations: [{ a: 'units', b: 'revenue', r: 0.82 }],
});
