/**
 * Statistics of a column's finite values in SQL, as opsmind_profile.number_stats
 * computes them in numpy: count, range, mean, linear quartiles (quantile_cont
 * is np.percentile's default), outliers beyond 1.5 IQR, and pandas' adjusted
 * skew from the sums of centred squares and cubes, with the same guards.
 */
import { ident } from './duckdb.js';
import type { DistributionStats } from './insights.js';
import { over, queryRow } from './sql-spec.js';
import type { Ctx } from './sql-spec.js';
import { asDouble } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

/** A column's finite values as the CTE `vals` (column v, and grp: the `group` expression, if any). */
export function valuesCte(column: Column, group?: string): Cte {
  const v = asDouble(ident(column.name), column.type);
  const grp = group ? `${group} AS grp, ` : '';
  return ['vals', `SELECT ${grp}${v} AS v\nFROM source\nWHERE isfinite(${v})`];
}

/** The statistics of the finite values, and the rows of the data they come from. */
export interface ColumnStats extends DistributionStats {
  rows: number;
}

/**
 * One quantile state for the three quartiles (three calls would hold every value three times).
 * Means and sums compensated (favg, fsum), as the profile's and the group means are. Beside them,
 * the rows, and how many values are ±inf (left out of every figure, and said so), in one scan.
 */
function statsCte(column: Column): Cte {
  const v = asDouble(ident(column.name), column.type);
  const sql = [
    'SELECT n, min, max, mean, qs[1] AS q1, qs[2] AS median, qs[3] AS q3, rows, infinite',
    'FROM (SELECT count(v) AS n, min(v) AS min, max(v) AS max, favg(v) AS mean,',
    '  quantile_cont(v, [0.25, 0.5, 0.75]) AS qs FROM vals),',
    `  (SELECT count(*) AS rows, count_if(isinf(${v})) AS infinite FROM source)`,
  ].join('\n');
  return ['stats', sql];
}

// The sums over the values beside the one row of stats (no values: NULL sums, no outliers). Not a
// GROUP BY of the stats columns, which hashes every value's row on eight keys.
const MOMENTS = [
  'SELECT stats.*, m.m2, m.m3, m.outliers',
  'FROM stats, (SELECT fsum((v - s.mean) * (v - s.mean)) AS m2,',
  '  fsum((v - s.mean) * (v - s.mean) * (v - s.mean)) AS m3,',
  '  count(v) FILTER (WHERE v < s.q1 - 1.5 * (s.q3 - s.q1) OR v > s.q3 + 1.5 * (s.q3 - s.q1)) AS outliers',
  '  FROM vals, stats AS s) AS m',
].join('\n');

/** pandas' adjusted Fisher-Pearson skew (number_stats' guards: over two values, a spread that is not noise). */
export function adjustedSkew(n: number, m2: number, m3: number): number | null {
  if (!(n > 2) || !(m2 >= 1e-14) || !Number.isFinite(m2)) return null;
  const skew = ((n * Math.sqrt(n - 1)) / (n - 2)) * ((Math.abs(m3) >= 1e-14 ? m3 : 0) / m2 ** 1.5);
  return Number.isFinite(skew) ? skew : null;
}

/** The statistics query of a column over the analysis' rows. */
export function statsSql(ctx: Ctx, column: Column): string {
  return over(ctx, [valuesCte(column), statsCte(column)], MOMENTS);
}

/**
 * The statistics of a column's finite values (n = 0 when it has none). Over every row of a column
 * as read, they are the profile's (ctx.known), which are the same figures: no second scan.
 */
export async function columnStats(ctx: Ctx, column: Column): Promise<ColumnStats> {
  const whole = !ctx.rows.filtered && !ctx.rows.cleaned.has(column.name);
  const known = whole ? ctx.known?.get(column.name) : undefined;
  if (known) return known;
  const row = await queryRow(ctx, statsSql(ctx, column));
  const num = (key: string): number => (row[key] === null ? NaN : Number(row[key]));
  const n = num('n');
  return {
    n,
    min: num('min'),
    max: num('max'),
    q1: num('q1'),
    median: num('median'),
    q3: num('q3'),
    mean: num('mean'),
    skew: adjustedSkew(n, num('m2'), num('m3')),
    outliers: num('outliers') || 0,
    rows: num('rows'),
    ...(num('infinite') > 0 ? { infinite: num('infinite') } : {}),
  };
}
