/**
 * The distribution transform: a histogram (numpy's "auto" bin count, edges
 * as np.histogram_bin_edges lays them out, each finite value counted in the
 * bin np.histogram puts it in — edges[i] <= x < edges[i+1], the last bin
 * closed) or a box (quartiles, 1.5 IQR fences clipped to the data, mean and
 * count per group of the most frequent values of `by`), exact over all rows.
 */
import { moneyOf } from '../agent/currency.js';
import {
  axisLabel,
  BOX_GROUPS,
  inPercent,
  intervalOf,
  namedAs,
  NO_SCALES,
  ordinalOf,
  moneyFor,
} from '../agent/compile-plan.js';
import type { Transform } from '../agent/plan.js';
import { ident, literal } from './duckdb.js';
import { compassInsights } from './insights-compass.js';
import { distributionInsights, rankingInsights } from './insights.js';
import type { Insight } from './insights.js';
import type { CompassStats } from './insights-compass.js';
import { columnOf } from './sql-rows.js';
import { failedDeclaration, over, params, query, queryRow, sourceInfos } from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import { columnStats, statsSql, valuesCte } from './sql-stats.js';
import type { ColumnStats } from './sql-stats.js';
import {
  asDouble,
  capsOf,
  isBoolean,
  isNumber,
  isTemporal,
  labelText,
  sqlDouble,
} from './sql-text.js';
import type { Column } from './sql-text.js';

type Distribution = Extract<Transform, { type: 'distribution' }>;

/** numpy's "auto" bin count (max of Sturges and Freedman-Diaconis), as opsmind_chart_histogram.auto_bin_count. */
export function autoBinCount(s: Pick<ColumnStats, 'n' | 'min' | 'max' | 'q1' | 'q3'>): number {
  const span = s.max - s.min;
  if (span === 0 || s.n < 2) return 1;
  const sturges = span / (Math.log2(s.n) + 1);
  const fd = 2 * (s.q3 - s.q1) * s.n ** (-1 / 3);
  const width = fd > 0 ? Math.min(fd, sturges) : sturges;
  return Math.ceil(span / width);
}

/** np.histogram_bin_edges(values, bins): np.linspace from the minimum to the maximum (±0.5 when they are equal). */
export function binEdges(min: number, max: number, bins: number): number[] {
  const [first, last] = min === max ? [min - 0.5, max + 0.5] : [min, max];
  const step = (last - first) / bins;
  const edges = Array.from({ length: bins + 1 }, (_, i) =>
    step === 0 ? (i / bins) * (last - first) + first : i * step + first,
  );
  edges[bins] = last;
  return edges;
}

/**
 * The counts per bin in SQL: a CASE over the edge literals, counted per bin before the bins are
 * listed (every one, empty ones 0) — not every value joined to its bin first, which cost a third
 * more (1M values: 90-101 against 59-67 CPU-ms).
 */
export function histogramSql(ctx: Ctx, column: Column, edges: readonly number[]): string {
  const bins = edges.length - 1;
  const whens = edges
    .slice(1, -1)
    .map((edge, i) => `    WHEN v < ${sqlDouble(edge)} THEN ${i}`)
    .join('\n');
  const bin = bins > 1 ? `CASE\n${whens}\n    ELSE ${bins - 1}\n  END` : '0';
  const rows = edges
    .slice(0, -1)
    .map((edge, i) => `(${i}, ${sqlDouble(edge)}, ${sqlDouble(edges[i + 1] ?? edge)})`);
  const table = `SELECT *\nFROM (VALUES\n  ${rows.join(',\n  ')}\n) AS e(bin, bin_start, bin_end)`;
  return over(
    ctx,
    [
      valuesCte(column),
      ['binned', `SELECT ${bin} AS bin, count(*) AS n\nFROM vals\nGROUP BY 1`],
      ['edges', table],
    ],
    [
      'SELECT edges.bin_start, edges.bin_end, coalesce(binned.n, 0) AS count',
      'FROM edges',
      'LEFT JOIN binned USING (bin)',
      'ORDER BY edges.bin',
    ].join('\n'),
  );
}

async function histogram(ctx: Ctx, column: Column, stats: ColumnStats): Promise<Declared> {
  const a = ctx.analysis;
  const base = {
    kind: 'histogram',
    table: false,
    params: params({
      title: a.title,
      x: column.name,
      bins: a.options?.bins,
      log_y: a.options?.log_y,
      x_label: axisLabel(
        column.name,
        namedAs(a, ctx.scales ?? NO_SCALES),
        inPercent({ measure: column.name }, ctx.scales ?? NO_SCALES),
        moneyOf([column.name], null, ctx.scales?.currencies),
      ),
      note: a.why,
    }),
    sourceColumns: sourceInfos(ctx),
    sourceRows: stats.rows,
  };
  if (stats.n === 0)
    return failedDeclaration(
      { ...base, sql: statsSql(ctx, column) },
      `ValueError: column "${column.name}" has no finite numbers to bin`,
    );
  const bins = a.options?.bins ?? Math.min(autoBinCount(stats), capsOf('histogram').bins ?? 60);
  const sql = histogramSql(ctx, column, binEdges(stats.min, stats.max, bins));
  const frame = await query(ctx, sql);
  return { ...base, sql, frame, reductions: ['binned'], sampled: false, cap: bins, error: null };
}

/**
 * Box statistics per group: the top `cap` groups by frequency (ties in order of first appearance).
 * One grouping gives each group's size, quartiles and mean (its finite values only); a second pass
 * over the rows of those groups clips the 1.5 IQR fences to the data. (Grouping the finite values
 * apart from the sizes took a CTE of every value, read twice: twice the time at 1M rows.)
 */
export function boxSql(ctx: Ctx, y: Column, by: Column | null, cap: number): string {
  const joinOn = (a: string, b: string): string => `${a}.grp IS NOT DISTINCT FROM ${b}.grp`;
  const v = asDouble(ident(y.name), y.type);
  const finite = `FILTER (WHERE isfinite(${v}))`;
  const grp = by ? ident(by.name) : 'NULL';
  // favg: compensated, as the group means are (aggregateSql), rather than a plain sum.
  const stats = [
    'SELECT grp, size, first, qs[1] AS q1, qs[2] AS median, qs[3] AS q3, mean, n',
    `FROM (SELECT ${grp} AS grp, count(*) AS size, min(${ident(ctx.rows.row)}) AS first,`,
    `    quantile_cont(${v}, [0.25, 0.5, 0.75]) ${finite} AS qs,`,
    `    favg(${v}) ${finite} AS mean, count(*) ${finite} AS n`,
    '  FROM source',
    '  GROUP BY 1)',
    ...(by ? ['ORDER BY size DESC, first', `LIMIT ${cap}`] : []),
  ].join('\n');
  const fences = [
    'SELECT vals.grp, min(v) AS lowerfence, max(v) AS upperfence',
    'FROM vals',
    `JOIN stats ON ${joinOn('vals', 'stats')}`,
    'WHERE v >= q1 - 1.5 * (q3 - q1) AND v <= q3 + 1.5 * (q3 - q1)',
    'GROUP BY vals.grp',
  ].join('\n');
  const label = by ? `coalesce(${labelText('stats.grp', by.type)}, '(missing)')` : literal(y.name);
  return over(
    ctx,
    [['stats', stats], valuesCte(y, grp), ['fences', fences]],
    [
      `SELECT ${literal(y.name)} AS series, ${label} AS "group", q1, median, q3, lowerfence, upperfence, mean, n`,
      'FROM stats',
      `JOIN fences ON ${joinOn('stats', 'fences')}`,
      'ORDER BY stats.size DESC, stats.first',
    ].join('\n'),
  );
}

async function box(
  ctx: Ctx,
  y: Column,
  by: Column | null,
  rows: number,
): Promise<{ declared: Declared; groups: number; unnamed: boolean }> {
  const a = ctx.analysis;
  const cap = BOX_GROUPS;
  const sql = boxSql(ctx, y, by, cap);
  const base = {
    kind: 'box',
    table: false,
    params: params({
      title: a.title,
      y: y.name,
      x: by?.name,
      y_label: axisLabel(
        y.name,
        namedAs(a, ctx.scales ?? NO_SCALES),
        inPercent({ measure: y.name }, ctx.scales ?? NO_SCALES),
        moneyOf([y.name], null, ctx.scales?.currencies),
      ),
      order: ordinalOf(by?.name, ctx.scales ?? NO_SCALES),
      note: a.why,
    }),
    sourceColumns: sourceInfos(ctx),
    sourceRows: rows,
    sql,
  };
  const frame = await query(ctx, sql);
  if (frame.rows.length === 0)
    return {
      declared: failedDeclaration(base, 'ValueError: no finite numbers to summarise'),
      groups: 0,
      unnamed: false,
    };
  let reductions: Declared['reductions'] = ['summarized'];
  let [groups, unnamed] = [1, false];
  if (by) {
    const b = ident(by.name);
    const distinct = await queryRow(
      ctx,
      over(
        ctx,
        [],
        `SELECT count(DISTINCT ${b}) AS named, max(CASE WHEN ${b} IS NULL THEN 1 ELSE 0 END) AS unnamed FROM source`,
      ),
    );
    groups = Number(distinct.named) + Number(distinct.unnamed);
    unnamed = Number(distinct.unnamed) > 0;
    if (groups > cap) reductions = ['summarized', 'top_n'];
  }
  const declared = { ...base, frame, reductions, sampled: false, cap, error: null };
  return { declared, groups, unnamed };
}

/** Code point order, as Python orders str (and pandas' groupby its text keys). */
const byCodePoint = (a: string, b: string): number => {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/** Whole-number types: a grouping by them (a class 1, 2, 3) names its groups "Pclass 1". */
const isWhole = (type: string): boolean =>
  /^U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)$/.test(type);

/**
 * A box by a text or whole-number grouping: its highest and lowest median, as a ranking of
 * groups says them (box_insights in opsmind_insights.py) — when every group is drawn (no more
 * than the box's cap) and each has a name (a missing one is drawn as "(missing)", which pandas
 * calls nan). Read from the box's own frame, groups in pandas' groupby order (their names' code
 * points; numbers ascending).
 */
function boxRanking(
  ctx: Ctx,
  t: Distribution,
  drawn: Awaited<ReturnType<typeof box>>,
  label: string,
  whole: boolean,
): Insight[] {
  const { declared, groups, unnamed } = drawn;
  const frame = declared.frame;
  if (!frame || unnamed || groups > (declared.cap ?? 0) || !t.by) return [];
  const [at, median] = [frame.columns.indexOf('group'), frame.columns.indexOf('median')];
  const rows = whole
    ? frame.rows
        .map((row) => ({ category: Number(row[at]), value: row[median] }))
        .sort((a, b) => a.category - b.category)
    : frame.rows
        .map((row) => ({ category: String(row[at]), value: row[median] }))
        .sort((a, b) => byCodePoint(a.category, b.category));
  const scales = ctx.scales ?? NO_SCALES;
  return rankingInsights(
    rows,
    `median ${label}`,
    intervalOf({ measure: t.column }, scales),
    false,
    t.by,
    undefined,
    undefined,
    undefined,
    inPercent({ measure: t.column }, scales),
    undefined,
    moneyFor(t, scales),
  );
}

/**
 * A compass bearing's sums over its finite values (compassInsights): count, Σ sin, Σ cos (each an
 * exact-rounded fsum, as math.fsum) and the values per 45° sector, north first.
 */
async function compassStats(ctx: Ctx, column: Column): Promise<CompassStats> {
  const v = asDouble(ident(column.name), column.type);
  const turned = `(((${v} % 360) + 360) % 360)`;
  const sectors = Array.from(
    { length: 8 },
    (_, i) => `count_if(CAST(floor((${turned} + 22.5) / 45) AS INTEGER) % 8 = ${i}) AS s${i}`,
  );
  const row = await queryRow(
    ctx,
    over(
      ctx,
      [],
      [
        `SELECT count(*) AS n, fsum(sin(radians(${v}))) AS sin, fsum(cos(radians(${v}))) AS cos,`,
        `  ${sectors.join(', ')}`,
        `FROM source WHERE isfinite(${v})`,
      ].join('\n'),
    ),
  );
  return {
    n: Number(row.n),
    sin: Number(row.sin ?? NaN),
    cos: Number(row.cos ?? NaN),
    sectors: Array.from({ length: 8 }, (_, i) => Number(row[`s${i}`] ?? 0)),
  };
}

/** The distribution transform of an analysis: its declaration and findings. */
export async function distributionAnalysis(ctx: Ctx, t: Distribution): Promise<Outcome> {
  const column = columnOf(ctx.rows, t.column);
  const by = t.by ? columnOf(ctx.rows, t.by) : null;
  const stats = await columnStats(ctx, column);
  const boxed = ctx.analysis.chart === 'box' ? await box(ctx, column, by, stats.rows) : null;
  const declared = boxed?.declared ?? (await histogram(ctx, column, stats));
  // numbers() in opsmind_insights reads booleans and dates as no measure at all.
  const measured = !isBoolean(column.type) && !isTemporal(column.type);
  const label = namedAs(ctx.analysis, ctx.scales ?? NO_SCALES)(t.column);
  const years = ctx.scales?.years?.includes(t.column) ?? false;
  const points = inPercent({ measure: t.column }, ctx.scales ?? NO_SCALES);
  const bearing = measured && (ctx.scales?.directions?.includes(t.column) ?? false);
  const insights: Insight[] = bearing
    ? compassInsights(await compassStats(ctx, column), label)
    : measured
      ? distributionInsights(stats, label, years, points, moneyFor(t, ctx.scales ?? NO_SCALES))
      : [];
  const ranked =
    boxed && by && (by.type === 'VARCHAR' || isWhole(by.type)) && isNumber(column.type)
      ? boxRanking(ctx, t, boxed, label, isWhole(by.type))
      : [];
  return { declared, findings: () => Promise.resolve([...insights, ...ranked]) };
}
