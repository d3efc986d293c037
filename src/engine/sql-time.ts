/**
 * The resample transform: pd.Grouper buckets at period starts (month,
 * quarter, year, day, hour) or, for weeks, pandas' "W" — weeks ending on
 * Sunday, labelled at that Sunday — one row per period over the whole span
 * (a period without rows is a gap: NULL, or 0 of a count or sum in a quiet period of a sparse
 * event log); with a series, each series over its own span, its gaps the same way, and a category
 * of rows holds 0 of a count or sum in a period with rows of others (compile-plan's _fill_gaps).
 */
import type { Transform } from '../agent/plan.js';
import { PERIOD_WORD } from '../agent/periods.js';
import { OTHER } from '../../renderers/frame.js';
import { ident, literal } from './duckdb.js';
import { seriesTrendInsights, trendInsights } from './insights.js';
import type { Insight } from './insights.js';
import { foldDtypes, foldedSql, unfoldedSql } from './sql-fold.js';
import {
  asLines,
  groupY,
  isRate,
  LINES,
  meltedNames,
  namedAs,
  NO_SCALES,
  QUIET_ROWS,
  fromZero,
  ordinalOf,
  periodAgg,
  rebaseLabel,
  trendHow,
  trendLabel,
  moneyFor,
  blankZero,
  newestFirst,
  quotientFor,
  quotientNote,
} from '../agent/compile-plan.js';
import { indicatorSql } from './sql-filter.js';
import { aggregateSql, quotientSql } from './sql-group.js';
import { columnOf, distinctColumns } from './sql-rows.js';
import {
  columnsOf,
  countOf,
  infos,
  keeping,
  over,
  params,
  query,
  queryRow,
  tableOf,
} from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import { downsampledSql } from './sql-downsample.js';
import { capsOf, idents, isFloat, isTemporal } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

type Resample = Extract<Transform, { type: 'resample' }>;

/** Points passed to the trend findings at most (over a million hourly periods is not a trend sentence). */
const TREND_POINTS = 200_000;

const STEP: Readonly<Record<Resample['freq'], string>> = {
  H: 'INTERVAL 1 HOUR',
  D: 'INTERVAL 1 DAY',
  W: 'INTERVAL 7 DAY',
  M: 'INTERVAL 1 MONTH',
  Q: 'INTERVAL 3 MONTH',
  Y: 'INTERVAL 1 YEAR',
};

/** The label of the period a timestamp falls in (pandas' "W": the Sunday ending its Monday-to-Sunday week). */
export function periodSql(date: string, freq: Resample['freq']): string {
  const start = `date_trunc('${PERIOD_WORD[freq]}', ${date})`;
  return freq === 'W' ? `${start} + INTERVAL 6 DAY` : `CAST(${start} AS TIMESTAMP)`;
}

/**
 * The periods a line is drawn over, `calendar`: the span of `periods` at the data's own spacing
 * (periods every 5 or 10 years, a census, step by that many, so only a period the data skips
 * inside its spacing is a gap; a spacing is seen in three periods or more), and for days of a
 * business calendar (rows on weekdays only, over two weekends or more) weekdays only.
 */
function calendarCtes(d: string, freq: Resample['freq']): Cte[] {
  const full = `SELECT ${d}, row_number() OVER (ORDER BY ${d}) - 1 AS i\nFROM (SELECT unnest(generate_series(min(${d}), max(${d}), ${STEP[freq]})) AS ${d} FROM periods)`;
  const weekend = `isodow(${d}) >= 6`;
  const business =
    freq === 'D'
      ? `,\n  count(*) FILTER (WHERE ${weekend}) = 0 AND (SELECT count(*) FROM timeline WHERE ${weekend}) >= 4 AS business`
      : '';
  const spacing = `SELECT CASE WHEN count(*) >= 3 THEN coalesce(nullif(list_reduce(list(i), lambda a, b: gcd(a, b)), 0), 1) ELSE 1 END AS step${business}\nFROM timeline\nWHERE ${d} IN (SELECT ${d} FROM periods)`;
  const workdays = freq === 'D' ? ` AND NOT (${weekend} AND (SELECT business FROM spacing))` : '';
  const calendar = `SELECT ${d}\nFROM timeline\nWHERE i % (SELECT step FROM spacing) = 0${workdays}`;
  return [
    ['timeline', full],
    ['spacing', spacing],
    ['calendar', calendar],
  ];
}

interface Shape {
  date: Column;
  series: Column | null;
  y: string;
  ctes: Cte[];
}

/**
 * A period's value: the aggregate; for a rate, its indicator in percent averaged (pandas: 100, 0 or
 * NaN per row, then the mean); for a closing value, the latest row's that has one: in time, then in
 * the rows' own order (reversed for rows listed newest first), as the pandas program sorts them.
 */
function periodValue(ctx: Ctx, plan: Resample, measure: Column | null, date: Column): string {
  const scales = ctx.scales ?? NO_SCALES;
  // As run (several measures as one melted series), its measures as planned.
  const t = asLines(plan);
  const quotient = quotientFor(t, scales);
  if (measure && quotient) return quotientSql(quotient, ctx.rows);
  if (t.agg === 'last') {
    // A plan's closing value names a measure (checkPlan); without one it counts rows, as pandas' size.
    if (!measure) return 'count(*)';
    const m = ident(measure.name);
    const row = `${ident(ctx.rows.row)}${newestFirst(plan, scales) ? ' DESC' : ''}`;
    return `last(${m} ORDER BY ${ident(date.name)}, ${row}) FILTER (WHERE ${m} IS NOT NULL)`;
  }
  return measure && isRate(t)
    ? `avg(${indicatorSql(measure, t.equals, 100)})`
    : aggregateSql(t.agg, measure, !blankZero(plan, scales));
}

/**
 * A resample of several measures: its rows melted to one row per row and measure (compile-plan's
 * `data.melt`), the measure's name in `series`, its value in `value`, of one type (DOUBLE unless
 * every measure has the same type, as pandas' melt keeps int64 only when every column is).
 */
function melted(
  ctx: Ctx,
  t: Resample,
  date: Column,
): { from: string; series: Column; measure: Column } | null {
  if (!t.measures) return null;
  const { series, value } = meltedNames(t);
  const columns = t.measures.map((m) => columnOf(ctx.rows, m));
  const first = columns[0]?.type ?? 'DOUBLE';
  const type = columns.every((c) => c.type === first) ? first : 'DOUBLE';
  const rows = columns.map(
    (c) =>
      `SELECT ${ident(date.name)}, ${ident(ctx.rows.row)}, ${literal(c.name)} AS ${ident(series)}, CAST(${ident(c.name)} AS ${type}) AS ${ident(value)} FROM source`,
  );
  return {
    from: `(${rows.join('\nUNION ALL ')}) AS melted`,
    series: { name: series, type: 'VARCHAR' },
    measure: { name: value, type },
  };
}

function shape(ctx: Ctx, plan: Resample): Shape {
  const date = columnOf(ctx.rows, plan.date);
  if (!isTemporal(date.type))
    throw new Error(
      `TypeError: "${plan.date}" holds ${date.type}, not dates, so it cannot be resampled`,
    );
  // Several measures: one line each, over the rows melted (the transform as run: asLines).
  const melt = melted(ctx, plan, date);
  const t = asLines(plan);
  const from = melt?.from ?? 'source';
  const series = melt?.series ?? (t.series ? columnOf(ctx.rows, t.series) : null);
  const measure = melt?.measure ?? (t.measure ? columnOf(ctx.rows, t.measure) : null);
  const y = groupY(t);
  distinctColumns([date.name, ...(series ? [series.name] : []), y]);
  const [d, s] = [ident(date.name), series ? ident(series.name) : null];
  const present = [`${d} IS NOT NULL`, ...(s ? [`${s} IS NOT NULL`] : [])].join(' AND ');
  const periods = [
    `SELECT ${periodSql(d, t.freq)} AS ${d}, ${s ? `${s}, ` : ''}${periodValue(ctx, plan, measure, date)} AS ${ident(y)}`,
    `FROM ${from}`,
    `WHERE ${present}`,
    'GROUP BY ALL',
  ].join('\n');
  const count = !measure || t.agg === 'count';
  const ctes: Cte[] = [['periods', periods]];
  // A period without rows (the LEFT JOIN finds none): 0 of a count or sum only where it is a quiet
  // period of a sparse event log, or (for a category of rows) where other series have rows.
  const missing = `periods.${d} IS NULL`;
  // Quiet (compile-plan's _quiet): under QUIET_ROWS rows a period, some period holding two or
  // more (one row in each period it has is a series with periods missing, as a census without
  // 1950), and no more empty periods than chance leaves at that rate (Poisson: twice the expected
  // number, plus 2), so a run of empty years among busy ones stays a gap.
  const quiet = ctx.eventLog ? '(SELECT quiet FROM quiet)' : null;
  const quietCte: Cte = [
    'quiet',
    [
      `SELECT rows < ${QUIET_ROWS} * n AND busiest >= 2 AND empty <= 2 * n * exp(-rows / n) + 2 AS quiet`,
      `FROM (SELECT CAST((SELECT count(*) FROM ${from} WHERE ${present}) AS DOUBLE) AS rows,`,
      '  (SELECT count(*) FROM calendar) AS n,',
      `  (SELECT count(*) FROM calendar WHERE ${d} NOT IN (SELECT ${d} FROM periods)) AS empty,`,
      `  (SELECT max(c) FROM (SELECT count(*) AS c FROM ${from} WHERE ${present} GROUP BY ${periodSql(d, t.freq)})) AS busiest)`,
    ].join('\n'),
  ];
  const filledAs = (zero: string | null): string =>
    zero === null
      ? `periods.${ident(y)}`
      : `CASE WHEN ${missing} AND ${zero} THEN 0 ELSE periods.${ident(y)} END`;
  ctes.push(...calendarCtes(d, t.freq), ...(quiet === null ? [] : [quietCte]));
  if (!series) {
    const zero = quiet !== null && (count || t.agg === 'sum') ? quiet : null;
    const frame = `SELECT ${d}, ${filledAs(zero)} AS ${ident(y)}\nFROM calendar\nLEFT JOIN periods USING (${d})`;
    ctes.push(['series', frame]);
  } else {
    // Each series over its own span: a period inside it without rows is a gap (NULL), so its line
    // breaks there instead of joining across the missing periods.
    const own = `SELECT ${s}, unnest(generate_series(min(${d}), max(${d}), ${STEP[t.freq]})) AS ${d}\nFROM periods\nGROUP BY ${s}`;
    const span = `SELECT ${s}, ${d}\nFROM (${own})\nWHERE ${d} IN (SELECT ${d} FROM calendar)`;
    // A category of rows (not a panel's entity) holds none of a count or sum in a period that has
    // rows of other categories: 0 there.
    const zeroable = count || (t.agg === 'sum' && !(ctx.entityKeys ?? []).includes(series.name));
    const seen = `span.${d} IN (SELECT ${d} FROM periods)`;
    const zero = zeroable ? (quiet === null ? seen : `(${seen} OR ${quiet})`) : null;
    const frame = `SELECT ${d}, ${s}, ${filledAs(zero)} AS ${ident(y)}\nFROM span\nLEFT JOIN periods USING (${d}, ${s})`;
    ctes.push(['span', span]);
    ctes.push(['filled', frame]);
    const sum = measure && isFloat(measure.type) ? 'fsum' : 'sum';
    ctes.push(...topSeries(t, d, s as string, ident(y), count || t.agg === 'sum', sum));
    if (t.rebase) {
      // The series so far become "unbased"; the index takes the name "series".
      const last = ctes.findIndex(([name]) => name === 'series');
      ctes[last] = ['unbased', ctes[last]?.[1] ?? 'SELECT * FROM filled'];
      ctes.push(...rebased(d, s as string, ident(y)));
    }
    if (t.share) {
      // Each series' part (%) of its period's total over them all, "Other" too (_share).
      const last = ctes.findIndex(([name]) => name === 'series');
      ctes[last] = ['parts', ctes[last]?.[1] ?? 'SELECT * FROM filled'];
      const whole = `sum(${ident(y)}) OVER (PARTITION BY ${d})`;
      ctes.push([
        'series',
        `SELECT ${d}, ${s as string}, 100.0 * ${ident(y)} / nullif(${whole}, 0) AS ${ident(y)}
FROM parts`,
      ]);
    }
  }
  return { date, series, y, ctes };
}

/**
 * `top` series of many: those with the largest total |y| (sum, count) or mean y (other aggs),
 * ties in key order; the rest of a sum or count is one "Other" series per period, the rest of a
 * mean is left out (compile-plan's _top_series).
 */
function topSeries(
  t: Resample,
  d: string,
  s: string,
  y: string,
  additive: boolean,
  sum: string,
): Cte[] {
  if (!t.top) return [['series', 'SELECT *\nFROM filled']];
  const weight = additive ? `coalesce(sum(abs(${y})), 0)` : `avg(${y})`;
  // A sum's own "Other" series ranks last: it joins the rest summed as "Other" (never two).
  const own = additive ? `coalesce(CAST(${s} AS VARCHAR) = ${literal(OTHER)}, false), ` : '';
  const ranked = `SELECT ${s}\nFROM filled\nGROUP BY ${s}\nORDER BY ${own}${weight} DESC NULLS LAST, ${s}\nLIMIT ${t.top}`;
  const kept = `SELECT * FROM filled WHERE ${s} IN (SELECT ${s} FROM ranked)`;
  if (!additive)
    return [
      ['ranked', ranked],
      ['series', kept],
    ];
  const rest = `SELECT ${d}, ${literal(OTHER)} AS ${s}, ${sum}(${y}) AS ${y}\nFROM filled\nWHERE ${s} NOT IN (SELECT ${s} FROM ranked)\nGROUP BY ${d}`;
  return [
    ['ranked', ranked],
    ['series', `${kept}\nUNION ALL\n${rest}`],
  ];
}

/**
 * Each series as an index: 100 at the first period in which every series has a value, periods
 * before it left out (compile-plan's _rebase). No common period: no rows (the analysis fails).
 */
function rebased(d: string, s: string, y: string): Cte[] {
  const common = `SELECT min(${d}) AS start\nFROM (SELECT ${d} FROM unbased WHERE ${y} IS NOT NULL GROUP BY ${d} HAVING count(DISTINCT ${s}) = (SELECT count(DISTINCT ${s}) FROM unbased))`;
  const base = `SELECT ${s}, ${y} AS base\nFROM unbased\nWHERE ${d} = (SELECT start FROM common)`;
  const index = `SELECT unbased.${d}, unbased.${s}, 100.0 * unbased.${y} / nullif(base.base, 0) AS ${y}\nFROM unbased\nJOIN base USING (${s})\nWHERE unbased.${d} >= (SELECT start FROM common)`;
  return [
    ['common', common],
    ['base', base],
    ['series', index],
  ];
}

const keysOf = (s: Shape): string[] => [s.date.name, ...(s.series ? [s.series.name] : [])];

function chartParams(ctx: Ctx, t: Resample, y: string): Record<string, unknown> {
  const a = ctx.analysis;
  const run = asLines(t);
  return params({
    title: a.title,
    x: t.date,
    y,
    color: run.series,
    agg: periodAgg(a.chart, run),
    log_y: a.options?.log_y,
    from_zero: fromZero(a, t),
    order: ordinalOf(run.series, ctx.scales ?? NO_SCALES),
    y_label: rebaseLabel(t, y, namedAs(a, ctx.scales ?? NO_SCALES), ctx.scales),
    note: quotientNote(t, ctx.scales ?? NO_SCALES, a.why, PERIOD_WORD[t.freq]),
  });
}

async function lineDeclared(ctx: Ctx, t: Resample, s: Shape): Promise<Declared> {
  const cap = capsOf(ctx.analysis.chart).points ?? 5000;
  const ordered = over(ctx, s.ctes, `SELECT *\nFROM series\nORDER BY ${idents(keysOf(s))}`);
  const stats = await queryRow(
    ctx,
    over(
      ctx,
      s.ctes,
      `SELECT count(*) AS n, count(DISTINCT ${s.series ? ident(s.series.name) : 1}) AS groups FROM series`,
    ),
  );
  const n = Number(stats.n);
  const down = n > cap ? downsampledSql(s, cap, Number(stats.groups)) : null;
  const sql = down ? over(ctx, [...s.ctes, ...down.ctes], down.body) : ordered;
  const frame = await query(ctx, sql);
  return {
    kind: ctx.analysis.chart,
    table: false,
    params: chartParams(ctx, t, s.y),
    sql,
    frame,
    sourceColumns: infos(await columnsOf(ctx, ordered)),
    sourceRows: n,
    reductions: down ? down.reductions : [],
    sampled: down !== null,
    cap,
    error: null,
  };
}

// A bar of periods: the bar preparer's fold (the 50 largest periods kept, the rest summed into "Other").
async function barDeclared(ctx: Ctx, t: Resample, s: Shape): Promise<Declared> {
  const cap = capsOf('bar').categories ?? 50;
  // A mean's periods are declared with their agg, as the preamble's bar aggregates them (again,
  // one row each): the rest of them past the cap is left out, not summed.
  const agg = periodAgg('bar', asLines(t));
  const d = ident(s.date.name);
  const fold = {
    frame: 'series',
    key: s.date,
    series: s.series,
    value: s.y,
    n: cap,
    additive: agg === undefined,
    order: 'keys' as const,
  };
  const periods = await queryRow(
    ctx,
    over(ctx, s.ctes, `SELECT count(DISTINCT ${d}) AS n FROM series`),
  );
  const folded = Number(periods.n) > cap;
  const parts = folded ? foldedSql(fold) : { ctes: [], body: unfoldedSql(fold) };
  const sql = over(ctx, [...s.ctes, ...parts.ctes], parts.body);
  const all = over(ctx, s.ctes, 'SELECT * FROM series');
  return {
    kind: 'bar',
    table: false,
    params: chartParams(ctx, t, s.y),
    sql,
    frame: await query(ctx, sql),
    sourceColumns: infos(await columnsOf(ctx, all)),
    sourceRows: await countOf(ctx, all),
    reductions: [
      ...(agg ? (['aggregated'] as const) : []),
      ...(folded ? (['top_n'] as const) : []),
    ],
    sampled: false,
    cap,
    error: null,
    dtypes: foldDtypes(fold, folded),
  };
}

async function findings(ctx: Ctx, t: Resample, s: Shape): Promise<Insight[]> {
  if (ctx.analysis.chart === 'table') return [];
  const how = trendHow(t, ctx.scales ?? NO_SCALES);
  const [d, y] = [ident(s.date.name), ident(s.y)];
  const by = s.series ? `${ident(s.series.name)}, ` : '';
  const sql = over(ctx, s.ctes, `SELECT ${d}, ${by}${y}\nFROM series\nORDER BY ${d}`);
  const points = await query(ctx, `${sql}\nLIMIT ${TREND_POINTS + 1}`);
  if (points.rows.length > TREND_POINTS) return [];
  const named = namedAs(ctx.analysis, ctx.scales ?? NO_SCALES);
  const counts = await periodCounts(ctx, t, s, how);
  // No period of any line holds more than one value: the points are the values themselves.
  // (A loop, not Math.max(...): a panel's periods × entities can pass the arguments' limit.)
  let most = 0;
  for (const n of counts?.values() ?? []) most = Math.max(most, n);
  const oneEach = most === 1;
  const label = oneEach ? named(s.y) : trendLabel(t, s.y, named, ctx.scales ?? NO_SCALES);
  if (s.series)
    return seriesTrendInsights(
      points.rows.map(([x, series, value]) => {
        const n = counts?.get(countKey(x, series));
        return n === undefined ? { x, series, y: value } : { x, series, y: value, n };
      }),
      label,
      how,
      t.freq,
      s.series.name,
      t.measures ? LINES : undefined,
      moneyFor(t, ctx.scales ?? NO_SCALES),
    );
  return trendInsights(
    points.rows.map(([x, value]) => {
      const n = counts?.get(countKey(x));
      return n === undefined ? { x, y: value } : { x, y: value, n };
    }),
    label,
    how,
    t.freq,
    moneyFor(t, ctx.scales ?? NO_SCALES),
  );
}

/** A period (and a series' value) as both queries return them, to match the two. */
const countKey = (x: unknown, series?: unknown): string =>
  JSON.stringify([x instanceof Date ? x.toISOString() : x, series ?? null]);

/**
 * How many values each period's mean (or median, min or max) of one measure is of, per series
 * when the line is split: a period of few values beside busy ones is said to be (trendInsights,
 * seriesTrendInsights). Null for a total, a count, a share of rows or several measures.
 */
async function periodCounts(
  ctx: Ctx,
  t: Resample,
  s: Shape,
  how: ReturnType<typeof trendHow>,
): Promise<Map<string, number> | null> {
  const closing = t.agg === 'last';
  if ((how !== 'mean' && how !== 'interval') || t.measures || !t.measure || isRate(t) || closing)
    return null;
  const d = ident(s.date.name);
  const by = s.series ? ident(s.series.name) : null;
  const present = by ? `${d} IS NOT NULL AND ${by} IS NOT NULL` : `${d} IS NOT NULL`;
  const sql = over(
    ctx,
    [],
    `SELECT ${periodSql(d, t.freq)} AS ${d}${by ? `, ${by}` : ''}, count(${ident(t.measure)}) AS n\nFROM source\nWHERE ${present}\nGROUP BY ALL`,
  );
  const result = await query(ctx, sql);
  return new Map(
    result.rows.map((row) =>
      by ? [countKey(row[0], row[1]), Number(row[2])] : [countKey(row[0]), Number(row[1])],
    ),
  );
}

/** The resample transform of an analysis: its declaration and findings. */
export async function resampleAnalysis(base: Ctx, t: Resample): Promise<Outcome> {
  const s = shape(base, t);
  // Its queries (sizes, frame, findings) all start from the periods: aggregated once.
  const ctx = await keeping(base, s.ctes[0] as Cte);
  if (t.rebase && (t.series || t.measures)) {
    const start = await queryRow(ctx, over(ctx, s.ctes, 'SELECT start FROM common'));
    if (start.start === null)
      throw new Error(
        'ValueError: no period in which every series has a value: nothing to rebase on',
      );
  }
  let declared: Declared;
  if (ctx.analysis.chart === 'table') {
    const sql = over(ctx, s.ctes, `SELECT *\nFROM series\nORDER BY ${idents(keysOf(s))}`);
    declared = await tableOf(ctx, sql, 100);
  } else if (ctx.analysis.chart === 'bar') {
    declared = await barDeclared(ctx, t, s);
  } else {
    declared = await lineDeclared(ctx, t, s);
  }
  return { declared, findings: () => findings(ctx, t, s) };
}
