/**
 * The group transform: one row per category of `by` (and `series`) with the
 * aggregate of the measure — missing keys kept as a group — then what the
 * table, bar and pie preparers make of that frame (compile-plan.ts declares
 * it pre-aggregated): a table sorted largest first, ties in key order; a bar
 * in key order and a pie largest first, both folded to their top N.
 */
import {
  additiveLabel,
  answerSidesOf,
  groupChartParams,
  groupY,
  inPercent,
  intervalOf,
  isRate,
  namedAs,
  NO_SCALES,
  quotientFor,
  rankingLabel,
  moneyFor,
} from '../agent/compile-plan.js';
import type { Transform } from '../agent/plan.js';
import type { Quotient } from '../agent/semantics-quotients.js';
import { ident, literal } from './duckdb.js';
import { isOther, OTHER_SQL, toNumber } from './insights-values.js';
import { rankingInsights, scaleInsights, shareInsights } from './insights.js';
import type { Insight, RowCounts, Spread } from './insights.js';
import { indicatorSql } from './sql-filter.js';
import { foldDtypes, foldedSql, unfoldedSql } from './sql-fold.js';
import type { Fold } from './sql-fold.js';
import { columnOf, distinctColumns } from './sql-rows.js';
import {
  columnsOf,
  failedDeclaration,
  infos,
  keeping,
  over,
  params,
  query,
  queryRow,
  tableOf,
} from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import { capsOf, idents, isBoolean, isFloat, keyOrder } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

type Group = Extract<Transform, { type: 'group' }>;

/** Groups passed whole to the findings; past this, the rest is summed into one catch-all row. */
const INSIGHT_ROWS = 10_000;

/**
 * The aggregate of a measure as pandas' groupby computes it: count skips missing values; the sum
 * of none is 0 (`gaps`: NULL, as resample's sum(min_count=1) leaves a period without values).
 */
export function aggregateSql(agg: Group['agg'], measure: Column | null, gaps = false): string {
  if (!measure) return 'count(*)';
  const m = ident(measure.name);
  const n =
    isBoolean(measure.type) || measure.type.startsWith('DECIMAL') ? `CAST(${m} AS DOUBLE)` : m;
  // Floats add with compensation (fsum, favg), as pandas' groupby sums and means do; integers exactly.
  const f = isFloat(measure.type) ? 'f' : '';
  switch (agg) {
    case 'sum':
      return gaps ? `${f}sum(${n})` : `coalesce(${f}sum(${n}), 0)`;
    case 'mean':
      return `${f}avg(${n})`;
    case 'median':
      return `median(${n})`;
    case 'min':
      return `min(${m})`;
    case 'max':
      return `max(${m})`;
    case 'count':
      return `count(${m})`;
  }
}

/**
 * A quotient's value over a group's (or a period's) rows, as compile-plan.ts's _quotient computes
 * it: scale × the numerator's total ÷ the denominator's, over the rows that have both; NULL where
 * the denominator's total is 0 or there are no such rows.
 */
export function quotientSql(q: Omit<Quotient, 'column'>, rows: Ctx['rows']): string {
  const [n, d] = [columnOf(rows, q.numerator), columnOf(rows, q.denominator)];
  const both = `${ident(n.name)} IS NOT NULL AND ${ident(d.name)} IS NOT NULL`;
  const total = (c: Column): string => {
    const m = ident(c.name);
    const x = isBoolean(c.type) || c.type.startsWith('DECIMAL') ? `CAST(${m} AS DOUBLE)` : m;
    return `CAST(${isFloat(c.type) ? 'fsum' : 'sum'}(${x}) FILTER (WHERE ${both}) AS DOUBLE)`;
  };
  return `CAST(${q.scale} AS DOUBLE) * ${total(n)} / nullif(${total(d)}, 0)`;
}

/**
 * A sum or mean of floats with compensation (fsum, favg), as pandas adds them — but where an
 * infinity makes the compensation NaN (∞ − ∞), the plain one: 1, 2 and ∞ sum to ∞ (pandas' too),
 * ∞ and −∞ to NaN. Integers add exactly. (A plan's sum or mean of a measure with infinities is
 * refused, agent/infinities.ts; a summary still describes one.)
 */
export function added(fn: 'sum' | 'avg', n: string, float: boolean): string {
  if (!float) return `${fn}(${n})`;
  return `CASE WHEN isnan(f${fn}(${n})) THEN ${fn}(${n}) ELSE f${fn}(${n}) END`;
}

interface Shape {
  keys: Column[];
  y: string;
  grouped: Cte;
}

function shape(ctx: Ctx, t: Group): Shape {
  const keys = [columnOf(ctx.rows, t.by), ...(t.series ? [columnOf(ctx.rows, t.series)] : [])];
  const measure = t.measure ? columnOf(ctx.rows, t.measure) : null;
  const y = groupY(t);
  distinctColumns([...keys.map((k) => k.name), y]);
  // A rate: the mean of its indicator, in percent (pandas: mean, then times 100).
  const quotient = quotientFor(t, ctx.scales ?? NO_SCALES);
  const value =
    measure && isRate(t)
      ? `avg(${indicatorSql(measure, t.equals)}) * 100`
      : quotient
        ? quotientSql(quotient, ctx.rows)
        : aggregateSql(t.agg, measure);
  // min_rows: a group is kept with at least that many values of its measure (rows, counting).
  const counted = measure ? `count(${ident(measure.name)})` : 'count(*)';
  const sql = [
    `SELECT ${idents(keys.map((k) => k.name))}, ${value} AS ${ident(y)}`,
    'FROM source',
    'GROUP BY ALL',
    ...(t.min_rows ? [`HAVING ${counted} >= ${t.min_rows}`] : []),
  ].join('\n');
  return { keys, y, grouped: ['grouped', sql] };
}

async function groupStats(ctx: Ctx, s: Shape): Promise<Record<string, unknown>> {
  const by = ident(s.keys[0]?.name ?? '');
  const sql = over(
    ctx,
    [s.grouped],
    [
      'SELECT count(*) AS groups,',
      `  count(DISTINCT ${by}) + coalesce(max(CASE WHEN ${by} IS NULL THEN 1 ELSE 0 END), 0) AS categories,`,
      `  count(*) FILTER (WHERE ${ident(s.y)} < 0) AS negatives`,
      'FROM grouped',
    ].join('\n'),
  );
  return queryRow(ctx, sql);
}

/** The pie's own aggregation when a series splits the frame: the agg again, over the series (count: summed). */
function pieFrame(t: Group, s: Shape): Cte {
  const y = ident(s.y);
  const again = t.agg === 'count' ? 'sum' : t.agg;
  const expr =
    again === 'sum' ? `coalesce(sum(${y}), 0)` : `${again === 'mean' ? 'avg' : again}(${y})`;
  const sql = `SELECT ${ident(t.by)}, ${expr} AS ${y}\nFROM grouped\nGROUP BY ALL`;
  return ['pie', sql];
}

function chartParams(ctx: Ctx, t: Group, y: string): Record<string, unknown> {
  const name = namedAs(ctx.analysis, ctx.scales ?? NO_SCALES);
  return params(groupChartParams(ctx.analysis, t, y, name, ctx.scales));
}

async function chartDeclared(ctx: Ctx, t: Group, s: Shape): Promise<Declared> {
  const pie = ctx.analysis.chart === 'pie';
  const stats = await groupStats(ctx, s);
  const source = await columnsOf(ctx, over(ctx, [s.grouped], 'SELECT * FROM grouped'));
  const base = {
    kind: ctx.analysis.chart,
    table: false,
    params: chartParams(ctx, t, s.y),
    sourceColumns: infos(source),
    sourceRows: Number(stats.groups),
  };
  const ctes: Cte[] = [s.grouped, ...(pie && t.series ? [pieFrame(t, s)] : [])];
  if (pie && Number(stats.negatives) > 0)
    return failedDeclaration(
      { ...base, sql: over(ctx, ctes, 'SELECT * FROM grouped') },
      `ValueError: pie values must not be negative; column "${s.y}" has negative values (use a bar chart)`,
    );
  const cap = pie ? (t.top_n ?? 6) : (t.top_n ?? capsOf('bar').categories ?? 50);
  const fold: Fold = {
    frame: pie && t.series ? 'pie' : 'grouped',
    key: s.keys[0] as Column,
    series: pie ? null : (s.keys[1] ?? null),
    value: s.y,
    n: cap,
    additive: t.agg === 'sum' || t.agg === 'count',
    order: pie ? 'values' : 'keys',
  };
  const folded = Number(stats.categories) > cap;
  const parts = folded ? foldedSql(fold) : { ctes: [], body: unfoldedSql(fold) };
  const sql = over(ctx, [...ctes, ...parts.ctes], parts.body);
  const frame = await query(ctx, sql);
  const reductions: Declared['reductions'] = folded ? ['aggregated', 'top_n'] : ['aggregated'];
  const dtypes = foldDtypes(fold, folded);
  return { ...base, sql, frame, reductions, sampled: false, cap, error: null, dtypes };
}

/**
 * The rows the findings read: the frame largest first. Past INSIGHT_ROWS groups, the rest is one
 * catch-all row for shares (which count it in the total, never as a top category), or its
 * lowest row for rankings (which only name the highest and the lowest), with `groups`: how many
 * groups a ranking picks its two from (a value, a name not "Other"-like), which its test of the
 * gap is corrected for.
 */
async function insightRows(
  ctx: Ctx,
  s: Shape,
  additive: boolean,
): Promise<{ rows: { category: unknown; value: unknown }[]; groups?: number } | null> {
  const key = s.keys[0]?.name ?? '';
  const [by, y] = [ident(key), ident(s.y)];
  const pick = (order: string): string =>
    over(ctx, [s.grouped], `SELECT ${by}, ${y}\nFROM grouped\nORDER BY ${order}`);
  const sql = pick(`${y} DESC NULLS LAST, ${keyOrder([key])}`);
  const head = await query(ctx, `${sql}\nLIMIT ${INSIGHT_ROWS}`);
  // A missing key is NaN in the pandas frame the Python findings read ("nan" in a sentence).
  const rows = head.rows.map(([category, value]) => ({ category: category ?? NaN, value }));
  if (rows.length < INSIGHT_ROWS) return { rows };
  // As the rows ranked here (a value, not NaN; a name not "Other"-like), in SQL.
  const other = `coalesce(NOT regexp_matches(trim(CAST(category AS VARCHAR)), ${literal(OTHER_SQL)}, 'i'), true)`;
  const valued = 'coalesce(NOT isnan(TRY_CAST(y AS DOUBLE)), true)';
  const rest = await queryRow(
    ctx,
    `SELECT sum(y) AS total, min(y) AS low, count(*) AS n, count(y) FILTER (WHERE ${other} AND ${valued}) AS ranked FROM (\n${sql}\nOFFSET ${INSIGHT_ROWS}\n) AS t(category, y)`,
  );
  if (Number(rest.n) === 0) return { rows };
  if (additive)
    return Number(rest.low) < 0
      ? null
      : { rows: [...rows, { category: 'Other', value: rest.total }] };
  const lowest = await query(ctx, `${pick(`${y} ASC, ${by} DESC NULLS FIRST`)}\nLIMIT 1`);
  const [category, value] = lowest.rows[0] ?? [null, null];
  const ranked = rows.filter((r) => !Number.isNaN(toNumber(r.value)) && !isOther(r.category));
  return {
    rows: [...rows, { category: category ?? NaN, value }],
    groups: ranked.length + Number(rest.ranked),
  };
}

/** A group's key as a map holds it: its value with its type (the number 1 and the text "1" apart). */
const groupKey = (v: unknown): string => `${typeof v}:${String(v)}`;

/**
 * Each group's count, mean and sample variance of what its mean averages (the measure, or a
 * rate's indicator in percent), for the ranking's test of its gap; undefined for other aggregates.
 */
async function spreads(
  ctx: Ctx,
  t: Group,
): Promise<((category: unknown) => Spread | null) | undefined> {
  if (!t.measure || (t.agg !== 'mean' && !isRate(t))) return undefined;
  if (quotientFor(t, ctx.scales ?? NO_SCALES)) return undefined;
  const measure = columnOf(ctx.rows, t.measure);
  const value =
    t.equals !== undefined
      ? indicatorSql(measure, t.equals, 100)
      : `CAST(${ident(measure.name)} AS DOUBLE)`;
  const by = ident(columnOf(ctx.rows, t.by).name);
  const sql = over(
    ctx,
    [],
    [
      'SELECT k, count(v) AS n, avg(v) AS mean, var_samp(v) AS variance',
      `FROM (SELECT ${by} AS k, ${value} AS v FROM source)`,
      'GROUP BY ALL',
    ].join('\n'),
  );
  const found = new Map<string, Spread>();
  for (const [k, n, mean, variance] of (await query(ctx, sql)).rows)
    if (k !== null && k !== undefined && Number(n) > 0)
      found.set(groupKey(k), {
        n: Number(n),
        mean: Number(mean),
        variance: Number(variance ?? NaN),
      });
  return (category) => found.get(groupKey(category)) ?? null;
}

/**
 * For a sum: how many rows hold a value of the measure in each group and in all (shareInsights
 * weighs the top two totals by them); undefined for other aggregates.
 */
async function rowCounts(ctx: Ctx, t: Group): Promise<RowCounts | undefined> {
  if (!t.measure || t.agg !== 'sum') return undefined;
  const by = ident(columnOf(ctx.rows, t.by).name);
  const m = ident(columnOf(ctx.rows, t.measure).name);
  const sql = over(ctx, [], `SELECT ${by} AS k, count(${m}) AS n\nFROM source\nGROUP BY ALL`);
  const found = new Map<string, number>();
  let total = 0;
  for (const [k, n] of (await query(ctx, sql)).rows) {
    total += Number(n);
    if (k !== null && k !== undefined) found.set(groupKey(k), Number(n));
  }
  return { of: (category) => found.get(groupKey(category)) ?? null, total };
}

async function findings(ctx: Ctx, t: Group, s: Shape): Promise<Insight[]> {
  // compile-plan.ts states findings of charts only; a table is left to speak for itself.
  if (t.series || ctx.analysis.chart === 'table') return [];
  const additive = t.agg === 'sum' || t.agg === 'count';
  const picked = await insightRows(ctx, s, additive);
  if (!picked) return [];
  const { rows, groups } = picked;
  const name = namedAs(ctx.analysis, ctx.scales ?? NO_SCALES);
  const sides = answerSidesOf(t, ctx.scales ?? NO_SCALES);
  const answers = sides ? scaleInsights(rows, t.by, sides) : [];
  return additive
    ? [
        ...answers,
        ...shareInsights(
          rows,
          additiveLabel(t.measure && name(t.measure)),
          t.by,
          await rowCounts(ctx, t),
          moneyFor(t, ctx.scales ?? NO_SCALES),
          t.named,
        ),
      ]
    : rankingInsights(
        rows,
        rankingLabel(t, s.y, name, ctx.scales ?? NO_SCALES, ctx.analysis.filters),
        intervalOf(t, ctx.scales ?? NO_SCALES),
        isRate(t),
        t.by,
        await spreads(ctx, t),
        groups,
        undefined,
        !isRate(t) && inPercent(t, ctx.scales ?? NO_SCALES),
        undefined,
        moneyFor(t, ctx.scales ?? NO_SCALES),
      );
}

/** The group transform of an analysis: its declaration and findings. */
export async function groupAnalysis(base: Ctx, t: Group): Promise<Outcome> {
  const s = shape(base, t);
  // Its queries (sizes, frame, findings) all start from the groups: aggregated once.
  const ctx = await keeping(base, s.grouped);
  let declared: Declared;
  if (ctx.analysis.chart === 'table') {
    const keys = s.keys.map((k) => k.name);
    const order = `ORDER BY ${ident(s.y)} DESC NULLS LAST, ${keyOrder(keys)}`;
    const sql = over(ctx, [s.grouped], `SELECT *\nFROM grouped\n${order}`);
    declared = await tableOf(ctx, sql, 50);
  } else {
    declared = await chartDeclared(ctx, t, s);
  }
  return { declared, findings: () => findings(ctx, t, s) };
}
