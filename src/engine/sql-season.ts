/**
 * The season transform: a measure by month of year, weekday or hour of day (or weekday × hour).
 * Sums and counts total each period first (month, day or hour: pd.Grouper's bins over the whole
 * span; a period without rows counts 0 rows and has no sum) and average those totals per cycle
 * value; other aggregates go over the rows. As compile-plan.ts's _season computes it in pandas.
 */
import {
  inPercent,
  intervalOf,
  namedAs,
  NO_SCALES,
  unitLabel,
  seasonLabel,
  seasonMean,
  seasonX,
  moneyFor,
  blankZero,
  quotientFor,
  quotientNote,
} from '../agent/compile-plan.js';
import { CYCLE_PERIOD } from '../agent/plan.js';
import type { Transform } from '../agent/plan.js';
import { ident } from './duckdb.js';
import { rankingInsights } from './insights.js';
import { blockedAnova } from './insights-welch.js';
import type { BlockedTest } from './insights-welch.js';
import type { Insight, Spread } from './insights.js';
import { aggregateSql, quotientSql } from './sql-group.js';
import { columnOf, distinctColumns } from './sql-rows.js';
import { columnsOf, infos, over, params, query, tableOf } from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import { capsOf, isTemporal } from './sql-text.js';
import type { Cte } from './sql-text.js';

type Season = Extract<Transform, { type: 'season' }>;

const MONTHS =
  "['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']";
const DAYS = "['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']";
const UNIT = { M: 'month', D: 'day', H: 'hour' } as const;

/** The cycle's keys of a timestamp expression: [name, ordering number, label]. */
function keysOf(cycle: Season['cycle'], p: string): [string, string, string][] {
  const month: [string, string, string] = ['month', `month(${p})`, `${MONTHS}[month(${p})]`];
  const weekday: [string, string, string] = ['weekday', `isodow(${p})`, `${DAYS}[isodow(${p})]`];
  const hour: [string, string, string] = ['hour', `hour(${p})`, `hour(${p})`];
  return { month: [month], weekday: [weekday], hour: [hour], weekday_hour: [weekday, hour] }[cycle];
}

/** What a season averages ("v", in `filled`) and its CTEs: each period's total, or each row's value. */
function seasonParts(ctx: Ctx, t: Season): { ctes: Cte[]; value: string; y: string } {
  const date = columnOf(ctx.rows, t.date);
  if (!isTemporal(date.type))
    throw new Error(`TypeError: "${t.date}" holds ${date.type}, not dates, so it has no seasons`);
  const measure = t.measure ? columnOf(ctx.rows, t.measure) : null;
  const y = measure ? measure.name : 'count';
  // The date column is not in the frame: only the measure may collide with the cycle's keys.
  distinctColumns([y, 'month', 'weekday', 'hour']);
  const d = ident(date.name);
  const unit = UNIT[CYCLE_PERIOD[t.cycle]];
  const additive = !measure || t.agg === 'sum' || t.agg === 'count';
  const quotient = quotientFor(t, ctx.scales ?? NO_SCALES);
  const ctes: Cte[] = [];
  let value: string;
  if (additive) {
    // A day with rows totals 0 of a measure whose blanks are zeros (blankZero), else nothing.
    const gaps = !blankZero(t, ctx.scales ?? NO_SCALES);
    const total = !measure ? 'count(*)' : aggregateSql(t.agg, measure, gaps);
    ctes.push(
      [
        'periods',
        `SELECT CAST(date_trunc('${unit}', ${d}) AS TIMESTAMP) AS p, ${total} AS v\nFROM source\nWHERE ${d} IS NOT NULL\nGROUP BY ALL`,
      ],
      [
        'span',
        `SELECT unnest(generate_series(min(p), max(p), INTERVAL 1 ${unit.toUpperCase()})) AS p\nFROM periods`,
      ],
      [
        'filled',
        `SELECT span.p, ${!measure || t.agg === 'count' ? 'coalesce(periods.v, 0)' : 'periods.v'} AS v\nFROM span\nLEFT JOIN periods USING (p)`,
      ],
    );
    value = 'favg(CAST(v AS DOUBLE))';
  } else if (quotient) {
    // A quotient: each month's (weekday's, hour's) totals' quotient, over its rows.
    const parts = [quotient.numerator, quotient.denominator].map((c) => ident(c)).join(', ');
    ctes.push(['filled', `SELECT ${d} AS p, ${parts}\nFROM source\nWHERE ${d} IS NOT NULL`]);
    value = quotientSql(quotient, ctx.rows);
  } else {
    ctes.push([
      'filled',
      `SELECT ${d} AS p, ${ident(measure.name)} AS v\nFROM source\nWHERE ${d} IS NOT NULL`,
    ]);
    value = aggregateSql(t.agg, { ...measure, name: 'v' }, true);
  }
  return { ctes, value, y };
}

export function seasonSql(ctx: Ctx, t: Season): { sql: string; y: string } {
  const { ctes, value, y } = seasonParts(ctx, t);
  const from = 'filled';
  const keys = keysOf(t.cycle, 'p');
  const labels = keys.map(([name, , label]) => `${label} AS ${ident(name)}`);
  const order = keys.map(([, n]) => n).join(', ');
  const select = [
    `SELECT ${labels.join(', ')}, ${value} AS ${ident(y)}`,
    `FROM ${from}`,
    `GROUP BY ${order}`,
    `ORDER BY ${order}`,
  ].join('\n');
  // A heatmap's long frame: hour across, weekday down, the value last (as _season returns it).
  const body =
    t.cycle === 'weekday_hour' ? `SELECT "hour", "weekday", ${ident(y)}\nFROM (${select})` : select;
  return { sql: over(ctx, ctes, body), y };
}

function chartParams(ctx: Ctx, t: Season, y: string): Record<string, unknown> {
  const a = ctx.analysis;
  if (a.chart === 'heatmap')
    return params({ title: a.title, x: 'hour', y: 'weekday', z: y, note: a.why });
  const x = seasonX(t);
  return params({
    title: a.title,
    x,
    y,
    ...(a.chart === 'bar' ? { sort: 'none' } : {}),
    y_label: unitLabel(y, namedAs(a, ctx.scales ?? NO_SCALES), ctx.scales, t.agg),
    note: quotientNote(t, ctx.scales ?? NO_SCALES, a.why, seasonX(t)),
  });
}

/** The block of each cycle, as SQL of a timestamp and in words: a month's year, a weekday's week, an hour's day. */
const BLOCKS: Record<Season['cycle'], (p: string) => [string, string]> = {
  month: (p: string) => ['year', `year(${p})`],
  weekday: (p: string) => ['week', `date_trunc('week', ${p})`],
  hour: (p: string) => ['day', `date_trunc('day', ${p})`],
  weekday_hour: (p: string) => ['day', `date_trunc('day', ${p})`],
};

/**
 * The cycle's two-way ANOVA within its blocks (months year by year: blockedAnova) over the mean
 * of what the season chart averages in each cell, as _season_spread gives the pandas engine.
 */
async function seasonBlocks(
  ctx: Ctx,
  t: Season,
): Promise<(BlockedTest & { block: string }) | null> {
  const { ctes } = seasonParts(ctx, t);
  const [[, , label]] = keysOf(t.cycle, 'p') as [[string, string, string]];
  const [block, sql] = BLOCKS[t.cycle]('p');
  const cells = await query(
    ctx,
    over(
      ctx,
      ctes,
      `SELECT CAST(${sql} AS VARCHAR) AS b, ${label} AS k, favg(CAST(v AS DOUBLE)) AS v\nFROM filled\nGROUP BY ALL`,
    ),
  );
  const test = blockedAnova(
    cells.rows.map(([b, k, v]) => ({
      block: String(b),
      key: cycleKey(k),
      value: v === null || v === undefined ? NaN : Number(v),
    })),
  );
  return test ? { ...test, block } : null;
}

/** A cycle's key as text: a month's or weekday's name, an hour's number. */
const cycleKey = (k: unknown): string =>
  typeof k === 'string' || typeof k === 'number' ? String(k) : '';

/**
 * Each month's (weekday's, hour's) count, mean and sample variance of what the season chart
 * averages — its periods' totals, or its rows' values — for the ranking's test of its gap.
 */
async function seasonSpreads(ctx: Ctx, t: Season): Promise<Map<string, Spread>> {
  const { ctes } = seasonParts(ctx, t);
  const [[, , label]] = keysOf(t.cycle, 'p') as [[string, string, string]];
  const sql = over(
    ctx,
    ctes,
    `SELECT ${label} AS k, count(v) AS n, favg(CAST(v AS DOUBLE)) AS mean, var_samp(CAST(v AS DOUBLE)) AS variance\nFROM filled\nGROUP BY ALL`,
  );
  const found = new Map<string, Spread>();
  for (const [k, n, mean, variance] of (await query(ctx, sql)).rows)
    if (k !== null && Number(n) > 0)
      found.set(cycleKey(k), {
        n: Number(n),
        mean: Number(mean),
        variance: Number(variance ?? NaN),
      });
  return found;
}

/**
 * The season chart's findings: its highest and lowest month (weekday, hour) and how far apart, as
 * a ranking of groups says them ("Dec has the highest average monthly revenue (118,403); Feb the
 * lowest (45,000), 2.6× apart"), and for a mean (seasonMean) whether chance alone could give
 * differences this size between them (Welch's ANOVA of every month). Not of a table, which
 * speaks for itself, nor a heatmap.
 */
async function seasonFindings(
  ctx: Ctx,
  t: Season,
  declared: Declared,
  y: string,
): Promise<Insight[]> {
  if (declared.table || ctx.analysis.chart === 'heatmap' || !declared.frame) return [];
  const { columns, rows } = declared.frame;
  const [at, of] = [columns.indexOf(seasonX(t)), columns.indexOf(y)];
  const scales = ctx.scales ?? NO_SCALES;
  const [spreads, blocked] = seasonMean(t, scales)
    ? await Promise.all([seasonSpreads(ctx, t), seasonBlocks(ctx, t)])
    : [null, null];
  return rankingInsights(
    rows.map((row) => ({ category: row[at], value: row[of] })),
    seasonLabel(t, namedAs(ctx.analysis, scales), scales),
    intervalOf(t, scales),
    false,
    seasonX(t),
    spreads ? (category) => spreads.get(cycleKey(category)) ?? null : undefined,
    undefined,
    `${seasonX(t)}s`,
    inPercent(t, scales),
    blocked,
    moneyFor(t, scales),
  );
}

/** The season transform of an analysis: its declaration and findings. */
export async function seasonAnalysis(ctx: Ctx, t: Season): Promise<Outcome> {
  const { sql, y } = seasonSql(ctx, t);
  let declared: Declared;
  if (ctx.analysis.chart === 'table') declared = await tableOf(ctx, sql, 200);
  else {
    // As the preparers declare the frame _season returns: a heatmap's long frame becomes x, y, z.
    const heat = ctx.analysis.chart === 'heatmap';
    const drawn = heat
      ? over(ctx, [], `SELECT "hour" AS x, "weekday" AS y, ${ident(y)} AS z\nFROM (${sql})`)
      : sql;
    const frame = await query(ctx, drawn);
    const caps = capsOf(ctx.analysis.chart);
    declared = {
      kind: ctx.analysis.chart,
      table: false,
      params: chartParams(ctx, t, y),
      sql: drawn,
      frame,
      sourceColumns: infos(await columnsOf(ctx, sql)),
      sourceRows: frame.rows.length,
      reductions: heat ? ['aggregated'] : [],
      sampled: false,
      cap: caps.categories ?? caps.points ?? 0,
      error: null,
    };
  }
  return { declared, findings: () => seasonFindings(ctx, t, declared, y) };
}
