/**
 * Machine-readable provenance of a fast-mode report: what a row is, each column's role and
 * evidence, what was not charted and why, and for every chart how its numbers were derived
 * (measure, aggregation, grouping, time bucket, filter, rows used, sampling) — the same object
 * the chart's caption is written from.
 */
import type { Declaration, RenderSpec } from '../spec/schema.js';
import { declarationsInOrder } from '../spec/schema.js';
import { rateValue } from './compile-plan.js';
import { listed } from '../util/sentence.js';
import { CYCLE_PERIOD } from './plan.js';
import type { Analysis, Cycle, Plan } from './plan.js';
import type { DataProfile } from './profile.js';
import { semanticsOf } from './semantics.js';
import type { Semantics } from './semantics.js';
import { quotientFormula } from './semantics-quotients.js';

/** pandas offset aliases of the plan's frequencies (period starts, as the charts are drawn). */
const FREQ_ALIAS: Record<string, string> = { H: 'h', D: 'D', W: 'W', M: 'MS', Q: 'QS', Y: 'YS' };

const CYCLE_WORD: Record<Cycle, string> = {
  month: 'month of year',
  weekday: 'weekday',
  hour: 'hour of day',
  weekday_hour: 'weekday and hour',
};

/** How one chart's numbers were derived. */
export interface Derivation {
  measure: string | null;
  agg: 'sum' | 'mean' | 'median' | 'count' | 'last' | 'min' | 'max' | 'none';
  group_by: string[];
  time: { column: string; freq: string } | null;
  filter: NonNullable<Analysis['filters']> | null;
  rows_used: number | null;
  sampled: boolean;
  /** For a scatter: the column across (the measure is the one up). */
  against?: string;
  /**
   * For a seasonal profile: the cycle its groups follow. With agg sum or count, each value is the
   * average, over the periods (time.freq) of that month, weekday or hour, of the period's total.
   */
  cycle?: 'month' | 'weekday' | 'hour' | 'weekday_hour';
  /** A resample of several measures, one line each (`measure` is then null). */
  measures?: string[];
  /** A resample of several series kept to the largest `top` of them. */
  top?: number;
  /** Each series as an index, 100 at the first period every series has a value. */
  rebased?: true;
  /** Each series as its share (%) of the period's total over every series. */
  shares?: true;
  /** A rate: the share (%) of the rows with a measure whose measure is this value. */
  equals?: string;
  /** Groups with fewer values of the measure (rows, counting) left out. */
  min_rows?: number;
  /**
   * A quotient column's mean (semantics-quotients.ts): each group's value is this formula of its
   * totals ("Clicks ÷ Impr. × 100"), over the rows that have both parts.
   */
  quotient?: string;
}

/** The derivation of an analysis (rows and sampling from its declaration, when it has one). */
export function derivationOf(
  a: Analysis,
  decl?: Declaration,
  rowsUsed?: number,
  quotients: NonNullable<Semantics['quotients']> = [],
): Derivation {
  return transformDerivation(a.transform, {
    filter: a.filters?.length ? a.filters : null,
    rows_used: rowsUsed ?? null,
    sampled: decl ? decl.data.sampled : false,
    ...quotientOf(a.transform, quotients),
  });
}

/** A group's or a period's mean of a quotient column: the formula of its totals. */
function quotientOf(
  t: Analysis['transform'],
  quotients: NonNullable<Semantics['quotients']>,
): Pick<Derivation, 'quotient'> {
  if (t.type !== 'group' && t.type !== 'resample' && t.type !== 'season') return {};
  if (t.agg !== 'mean' || (t.type !== 'season' && t.equals !== undefined)) return {};
  const found = quotients.find((q) => q.column === t.measure);
  return found ? { quotient: quotientFormula(found) } : {};
}

/** The derivation's part that each kind of transform says. */
function transformDerivation(
  t: Analysis['transform'],
  base: Pick<Derivation, 'filter' | 'rows_used' | 'sampled' | 'quotient'>,
): Derivation {
  switch (t.type) {
    case 'group':
      return {
        ...base,
        measure: t.measure,
        agg: t.measure ? t.agg : 'count',
        group_by: [t.by, ...(t.series ? [t.series] : [])],
        time: null,
        ...(t.measure && t.equals !== undefined ? { equals: rateValue(t.equals) } : {}),
        ...(t.min_rows ? { min_rows: t.min_rows } : {}),
      };
    case 'resample':
      return {
        ...base,
        measure: t.measure,
        ...(t.measures ? { measures: t.measures } : {}),
        agg: t.measure || t.measures ? t.agg : 'count',
        group_by: t.series ? [t.series] : [],
        time: { column: t.date, freq: FREQ_ALIAS[t.freq] ?? t.freq },
        ...(t.measure && t.equals !== undefined ? { equals: rateValue(t.equals) } : {}),
        ...(t.series && t.top ? { top: t.top } : {}),
        ...(t.series && t.rebase ? { rebased: true as const } : {}),
        ...(t.series && t.share ? { shares: true as const } : {}),
      };
    case 'season':
      return {
        ...base,
        measure: t.measure,
        agg: t.measure ? t.agg : 'count',
        group_by: t.cycle === 'weekday_hour' ? ['weekday', 'hour'] : [CYCLE_WORD[t.cycle]],
        time: { column: t.date, freq: FREQ_ALIAS[CYCLE_PERIOD[t.cycle]] ?? 'D' },
        cycle: t.cycle,
      };
    case 'distribution':
      return { ...base, measure: t.column, agg: 'none', group_by: t.by ? [t.by] : [], time: null };
    case 'relationship':
      return {
        ...base,
        measure: t.y,
        agg: 'none',
        group_by: t.color ? [t.color] : [],
        time: null,
        against: t.x,
      };
    case 'top_rows':
      return { ...base, measure: t.sort_by, agg: 'none', group_by: [], time: null };
    case 'correlation':
    case 'summary':
    case 'missing':
      return { ...base, measure: null, agg: 'none', group_by: [], time: null };
  }
}

/** The report's provenance block. */
export interface Provenance {
  table: Semantics['table'];
  columns: Semantics['columns'];
  skipped: Semantics['skipped'];
  /** One entry per declared chart or table, by declaration id. */
  derivations: { id: string; analysis: number; derivation: Derivation }[];
}

/**
 * The provenance of a fast run: declarations follow the plan's analyses in order, but for the
 * analyses that failed before declaring anything.
 */
export function provenanceOf(
  profile: DataProfile,
  plan: Plan,
  spec: RenderSpec | null,
  failed: readonly { analysis: number }[],
  rowsUsed: Readonly<Record<number, number>> = {},
): Provenance {
  const sem = semanticsOf(profile);
  const declared = plan.analyses
    .map((a, i) => ({ a, n: i + 1 }))
    .filter(({ n }) => !failed.some((f) => f.analysis === n));
  const decls = spec ? declarationsInOrder(spec) : [];
  const derivations =
    decls.length === declared.length
      ? decls.map((d, i) => {
          const { a, n } = declared[i] as { a: Analysis; n: number };
          return {
            id: d.id,
            analysis: n,
            derivation: derivationOf(a, d, rowsUsed[n], sem.quotients),
          };
        })
      : [];
  return { table: sem.table, columns: sem.columns, skipped: sem.skipped, derivations };
}

const AGG_CAPTION: Record<Derivation['agg'], string> = {
  sum: 'Sum',
  mean: 'Mean',
  median: 'Median',
  count: 'Count of rows',
  last: "Closing value (the latest row's)",
  min: 'Minimum',
  max: 'Maximum',
  none: '',
};
const FREQ_CAPTION: Record<string, string> = {
  h: 'hour',
  D: 'day',
  W: 'week',
  MS: 'month',
  QS: 'quarter',
  YS: 'year',
};

/** A caption names at most this many of a filter's values. */
const FILTER_VALUES = 6;

function filterText(f: NonNullable<Derivation['filter']>[number]): string {
  const op = {
    '==': '=',
    '!=': '≠',
    '>': '>',
    '>=': '≥',
    '<': '<',
    '<=': '≤',
    in: 'in',
    'not in': 'not in',
    notna: 'present',
  }[f.op];
  if (f.op === 'notna') return `${f.column} present`;
  if (!Array.isArray(f.value)) return `${f.column} ${op} ${JSON.stringify(f.value)}`;
  // A long list (the groups of a World Bank file) is said by its first values and its length.
  const shown = f.value.slice(0, FILTER_VALUES).join(', ');
  return `${f.column} ${op} ${shown}${f.value.length > FILTER_VALUES ? ` … (${f.value.length} values)` : ''}`;
}

/** The chart's caption, written from its derivation: what was computed, over which rows. */
export function captionOf(d: Derivation): string {
  const parts = [d.cycle ? cycleHead(d) : head(d)].filter(Boolean);
  if (d.top) parts.push(`the ${d.top} largest ${d.group_by[0] ?? 'series'}`);
  if (d.rebased) parts.push('as an index, 100 at the first period every series has a value');
  if (d.shares) parts.push(`each ${d.group_by[0] ?? 'series'}'s share (%) of the period's total`);
  if (d.filter) parts.push(`rows where ${d.filter.map(filterText).join(' and ')}`);
  if (d.rows_used !== null) parts.push(`${d.rows_used.toLocaleString('en-US')} rows used`);
  parts.push(d.sampled ? 'sampled for drawing' : 'all rows');
  return parts.join(' · ');
}

/** "per month of order_date"; "per year" of a column named Year, not "per year of Year". */
function perPeriod(time: NonNullable<Derivation['time']>): string {
  const unit = FREQ_CAPTION[time.freq] ?? time.freq;
  const named = time.column.trim().toLowerCase();
  return named === unit || named === `${unit}s` ? `per ${unit}` : `per ${unit} of ${time.column}`;
}

/** What was computed, per which period and by which groups. */
function head(d: Derivation): string {
  const what =
    d.agg === 'none'
      ? d.measure
        ? d.against
          ? `${d.measure} against ${d.against}`
          : `Values of ${d.measure}`
        : ''
      : d.agg === 'count'
        ? d.measures
          ? `Count of values of each of ${listed(d.measures)}`
          : AGG_CAPTION.count
        : d.quotient !== undefined
          ? `${d.measure ?? ''} as ${d.quotient} of the totals`
          : d.equals !== undefined
            ? `Share (%) of rows with ${d.measure ?? 'a value'} = ${d.equals} (rows without ${d.measure ?? 'a value'} left out)`
            : `${AGG_CAPTION[d.agg]} of ${d.measures ? `each of ${listed(d.measures)}` : (d.measure ?? 'rows')}`;
  const per = [
    ...(d.time ? [perPeriod(d.time)] : []),
    ...(d.group_by.length ? [`by ${d.group_by.join(' and ')}`] : []),
    ...(d.min_rows
      ? [
          `groups with fewer than ${d.min_rows} ${d.measure ? `${d.measure} values` : 'rows'} left out`,
        ]
      : []),
  ].join(', ');
  return [what, per].filter(Boolean).join(' ');
}

/** A seasonal profile: sums and counts are each period's total, averaged per cycle value. */
function cycleHead(d: Derivation): string {
  const unit = FREQ_CAPTION[d.time?.freq ?? ''] ?? 'period';
  const every = { hour: 'hourly', day: 'daily', month: 'monthly' }[unit] ?? 'per period';
  const by = `by ${d.group_by.join(' and ')} of ${d.time?.column ?? 'the date'}`;
  if (d.agg === 'count')
    return `Average ${every} rows ${by} (each ${unit}'s count, averaged over the ${unit}s of the span; a ${unit} without rows counts 0)`;
  if (d.agg === 'sum')
    return `Average ${every} total ${d.measure ?? 'rows'} ${by} (each ${unit}'s total, averaged over the ${unit}s of the span; ${unit}s without values left out)`;
  if (d.quotient !== undefined) return `${d.measure ?? ''} as ${d.quotient} of the totals ${by}`;
  return `${AGG_CAPTION[d.agg]} of ${d.measure ?? 'rows'} ${by}, over rows`;
}
