/**
 * execute_analysis, part one: a plan compiled to one readable pandas program
 * that uses the preamble. Cleaning is explicit code at the top (numbers stored
 * as text, dates stored as text) for exactly the columns the plan uses; each
 * analysis runs in its own try block, so one that fails is reported and
 * skipped, never the whole report. Insights are computed from the exact
 * frames charted and written to insights.json.
 */
import { RENDERERS } from '../../renderers/index.js';
import { CYCLE_PERIOD } from './plan.js';
import type { Analysis, Plan, Transform } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { PERIOD_WORD } from './roles.js';
import { semanticsOf } from './semantics.js';
import { pairedFlows } from './semantics-balances.js';
import { named, statsOf, TEMPERATURE_WORDS, yearValued } from './semantics-evidence.js';
import { listed } from '../util/sentence.js';
import { currencyMeasures, moneyOf } from './currency.js';
import { answerColumns, ordinalColumns } from './semantics-ordinal.js';
import { quotientFormula } from './semantics-quotients.js';
import type { Quotient } from './semantics-quotients.js';

/** Text safe inside a Python comment: no line breaks of any kind (Python also ends lines at \r). */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ');
}

const PERIOD_START: Readonly<Record<string, string>> = { M: 'MS', Q: 'QS', Y: 'YS' };

/** A Python string literal (JSON string syntax is valid Python). */
const py = (value: string): string => JSON.stringify(value);

function kwargs(entries: Record<string, unknown>): string {
  return Object.entries(entries)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(
      ([k, v]) =>
        `${k}=${typeof v === 'string' ? py(v) : typeof v === 'boolean' ? (v ? 'True' : 'False') : JSON.stringify(v)}`,
    )
    .join(', ');
}

/**
 * The `agg` a chart of an already grouped frame is declared with: counts are summed, not counted
 * again (counting the counts would draw every category as 1); summing them over unique keys is the
 * identity and keeps the top-N "Other" additive.
 */
export function chartAgg(agg: Extract<Transform, { type: 'group' }>['agg']): string {
  return agg === 'count' ? 'sum' : agg;
}

type Group = Extract<Transform, { type: 'group' | 'resample' }>;

/**
 * The quotient a group's or a period's mean of the measure is (semantics-quotients.ts): its
 * numerator's total over its denominator's, over the rows that have both; undefined otherwise.
 */
export function quotientFor(
  t: { measure?: string | null; agg?: string; equals?: unknown },
  scales: Scales,
): Omit<Quotient, 'column'> | undefined {
  if (!t.measure || t.agg !== 'mean' || t.equals !== undefined) return undefined;
  return scales.quotients?.[t.measure];
}

/** A chart's note with how a quotient's values were computed: "CTR is Clicks ÷ Impr. × 100 of …". */
export function quotientNote(
  t: { measure?: string | null; agg?: string; equals?: unknown },
  scales: Scales,
  why: string | undefined,
  per: string,
): string | undefined {
  const q = quotientFor(t, scales);
  if (!q || !t.measure) return why;
  const how = `${t.measure} per ${per} is ${quotientFormula(q)} of its totals, not a mean of its rows' ${t.measure}, as ${t.measure} = ${quotientFormula(q)} on every row.`;
  return why ? `${why} ${how}` : how;
}

/** The value a rate counts, as the report writes it: the file's word, 1, True. */
export function rateValue(value: string | number | boolean): string {
  return typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value);
}

/** Whether a group or resample transform is a rate: the share of rows whose measure equals a value. */
export function isRate(
  t: Group,
): t is Group & { measure: string; equals: string | number | boolean } {
  return t.equals !== undefined && Boolean(t.measure);
}

/**
 * A transform as both engines run it: a rate is always the mean of its indicator, whatever agg
 * a plan checked without its semantics gave it.
 */
export function asRun<T extends Transform>(t: T): T {
  return (t.type === 'group' || t.type === 'resample') && isRate(t) ? { ...t, agg: 'mean' } : t;
}

/**
 * The column of a group's or resample's frame (both engines): the measure; for a rate, what it
 * counts in percent ("Survived = 1 (%)"), so that no table or axis shows a share under the
 * measure's name.
 */
export function groupY(t: Group): string {
  if (isRate(t)) return `${t.measure} = ${rateValue(t.equals)} (%)`;
  return t.measure ?? 'count';
}

/**
 * The parameters a group transform's bar or pie is declared with, the same in both engines (the
 * pandas program's declare_chart kwargs and the DuckDB engine's declaration); undefined ones are
 * left out by each.
 */
export function groupChartParams(
  a: Analysis,
  t: Extract<Transform, { type: 'group' }>,
  y: string,
  name: (column: string) => string = (c) => c,
  scales: Scales = NO_SCALES,
): Record<string, unknown> {
  const o = a.options ?? {};
  const common = { title: a.title, note: quotientNote(t, scales, a.why, t.by) };
  if (a.chart === 'pie')
    return { names: t.by, values: y, top_n: t.top_n ?? 6, agg: chartAgg(t.agg), ...common };
  const label = axisLabel(y, name, !isRate(t) && inPercent(t, scales), moneyFor(t, scales));
  // Categories with an order of their own are drawn in it, unless the plan ranks them.
  const order = scales.ordinals?.[t.by];
  const sort = o.sort ?? (order ? 'none' : 'descending');
  return {
    x: t.by,
    y,
    color: t.series,
    top_n: t.top_n,
    agg: chartAgg(t.agg),
    sort,
    ...(order && sort === 'none' ? { order: [...order] } : {}),
    orientation: o.orientation,
    log_y: o.log_y,
    // The measure's axis: across, under bars lying on their side.
    ...(o.orientation === 'h' ? { x_label: label } : { y_label: label }),
    ...common,
  };
}

/**
 * The columns naming a panel's entity. Per series, a period inside the series' span without rows
 * is a gap (NULL) when the series is such an entity (a store that did not report), but 0 for a
 * sum or count of a category of rows (no rain-labelled day in July: 0 mm of it).
 */
export function entityKeys(profile: DataProfile): string[] {
  const table = semanticsOf(profile).table;
  return table.grain === 'panel' ? [...table.keys] : [];
}

/**
 * The measures that are standing numbers (people unemployed this month): summed across entities
 * within a period, but a year of them is compared by its average period, never by its sum.
 */
export function stockMeasures(profile: DataProfile): string[] {
  return semanticsOf(profile)
    .columns.filter((c) => c.role === 'stock')
    .map((c) => c.name);
}

/**
 * The levels on an interval scale, whose zero is not "none": a temperature in °C or °F, or any
 * level with values below zero (an anomaly, a return). Their findings say differences, never
 * percentages or ratios (9.3 °C is not "64×" 0.15 °C). The name breaks the tie only for
 * temperatures that stay above zero. Whole numbers between 1500 and 2100 are years (a reign's
 * start beside its end): differences too.
 */
export function intervalMeasures(profile: DataProfile): string[] {
  const levels = new Set(
    semanticsOf(profile)
      .columns.filter((c) => c.role === 'level')
      .map((c) => c.name),
  );
  // Years (a reign's start): 1820 is no 1.2× 1565.
  return profile.column_profiles
    .filter((c) => levels.has(c.name))
    .filter((c) => (statsOf(c)?.min ?? 0) < 0 || named(c.name, TEMPERATURE_WORDS) || yearValued(c))
    .map((c) => c.name);
}

/** What the findings need of the table's measures (both engines): stocks and interval levels. */
export interface Scales {
  stocks: readonly string[];
  intervals: readonly string[];
  /** Measures whose quantity a column names (a long table's value, named by its indicator). */
  facets?: readonly { column: string; measure: string }[];
  /** The entity of a table with one row each: grouped by it, a mean is the row's own value. */
  unique?: readonly string[];
  /** Measures whose values are calendar years (yearValued): 1687, not "1,687". */
  years?: readonly string[];
  /** Measures whose values are percentages (percentMeasures): 17.9%, apart by percentage points. */
  percents?: readonly string[];
  /** Compass bearings (role 'direction'): their distribution's findings are on the circle. */
  directions?: readonly string[];
  /** Measures whose values are money, each with its currency (currencyMeasures): "$1,234". */
  currencies?: Readonly<Record<string, string>>;
  /** Running totals (role 'cumulative'): a group's largest value is its latest. */
  runningTotals?: readonly string[];
  /** The quantity the table's one measure holds, said for it (semantics' quantity). */
  quantity?: { measure: string; value: string };
  /** Categories with an order of their own (semantics-ordinal.ts), each with its levels in order. */
  ordinals?: Readonly<Record<string, readonly string[]>>;
  /** Columns that are one column divided by another on every row (semantics-quotients.ts). */
  quotients?: Readonly<Record<string, Omit<Quotient, 'column'>>>;
  /** A survey's questions (semantics-ordinal.ts answerSides): the levels below and above the middle. */
  answers?: Readonly<Record<string, { low: readonly string[]; high: readonly string[] }>>;
  /** A yearly panel unique on entity × year (semantics' latest): one year's value per entity is one row. */
  latest?: { entity: string; column: string };
  /**
   * Measures whose rows run newest first (a running balance as banks list it): of rows at one time,
   * the first is the latest, so a period's closing value (agg "last") is its first row.
   */
  newestFirst?: readonly string[];
  /**
   * Money in and money out in two columns (a statement's Paid in and Paid out): a blank is 0, the
   * row's money went the other way, so a period or day with rows and only blanks totals 0.
   */
  blankZero?: readonly string[];
}

export const NO_SCALES: Scales = { stocks: [], intervals: [] };

/**
 * The sides of a survey question's scale when a chart counts its answers (rows per answer, no
 * series): the findings say the share of the answers on each side.
 */
export function answerSidesOf(
  t: Extract<Transform, { type: 'group' }>,
  scales: Scales,
): { low: string[]; high: string[] } | undefined {
  const sides = scales.answers?.[t.by];
  if (!sides || t.measure || t.agg !== 'count' || t.series) return undefined;
  return { low: [...sides.low], high: [...sides.high] };
}

/** The levels of `column` in their own order (Scales.ordinals), when it has one. */
export function ordinalOf(column: string | undefined, scales: Scales): string[] | undefined {
  const order = column === undefined ? undefined : scales.ordinals?.[column];
  return order ? [...order] : undefined;
}

/** The table's stocks and interval levels, as both engines' findings read them. */
export function scalesOf(profile: DataProfile): Scales {
  const facets = (semanticsOf(profile).facets ?? []).map(({ column, measure }) => ({
    column,
    measure,
  }));
  const { grain, entity } = semanticsOf(profile).table;
  const { quantity, latest } = semanticsOf(profile);
  const key = profile.column_profiles.find((c) => c.name === entity);
  const unique =
    grain === 'cross_section' && key && key.missing === 0 && key.distinct === profile.rows
      ? [key.name]
      : [];
  const years = profile.column_profiles.filter(yearValued).map((c) => c.name);
  return {
    stocks: stockMeasures(profile),
    intervals: intervalMeasures(profile),
    facets,
    unique,
    years,
    percents: percentMeasures(profile),
    directions: semanticsOf(profile)
      .columns.filter((c) => c.role === 'direction')
      .map((c) => c.name),
    currencies: currencyMeasures(profile),
    runningTotals: semanticsOf(profile)
      .columns.filter((c) => c.role === 'cumulative')
      .map((c) => c.name),
    ordinals: ordinalColumns(profile),
    answers: answerColumns(profile),
    quotients: Object.fromEntries(
      (semanticsOf(profile).quotients ?? []).map(({ column, ...parts }) => [column, parts]),
    ),
    newestFirst: (semanticsOf(profile).balances ?? [])
      .filter((b) => b.order === 'descending')
      .map((b) => b.balance),
    blankZero: pairedFlows(semanticsOf(profile)),
    ...(quantity ? { quantity: { measure: quantity.measure, value: quantity.value } } : {}),
    ...(latest ? { latest: { entity: latest.entity, column: latest.column } } : {}),
  };
}

/** The name words that say a column holds percentages, not a share of 1 or a rate per minute. */
const PERCENT_WORDS = new Set(['percent', 'percentage', 'pct', 'perc', '%']);

/**
 * The measures whose values are percentages: written with "%" in the data ("17.9%", read as
 * 17.9), or averaged measures (semantics' ratio or level) whose name says percent ("margin_pct",
 * "Growth (%)") and whose values are not fractions of 1 (some beyond ±1). Their findings say
 * "17.9%" and differences in percentage points, and their axes add "(%)"; a rate's share is
 * already in percent (isRate).
 */
export function percentMeasures(profile: DataProfile): string[] {
  const averaged = new Set(
    semanticsOf(profile)
      .columns.filter((c) => c.role === 'ratio' || c.role === 'level')
      .map((c) => c.name),
  );
  const beyondOne = (c: ColumnProfile): boolean => {
    const s = statsOf(c);
    return Boolean(s && Math.max(Math.abs(s.min), Math.abs(s.max)) > 1);
  };
  return profile.column_profiles
    .filter(
      (c) =>
        c.numeric_text?.style === 'percent' ||
        (averaged.has(c.name) && named(c.name, PERCENT_WORDS) && beyondOne(c)),
    )
    .map((c) => c.name);
}

/**
 * Whether the values an aggregate of `measure` gives are percentages (Scales.percents): its mean,
 * median, minimum or maximum; a count is of values, and a sum of percentages is no percentage.
 */
export function inPercent(
  t: { measure?: string | null; agg?: string | null },
  scales: Scales,
): boolean {
  return Boolean(
    t.measure && scales.percents?.includes(t.measure) && t.agg !== 'count' && t.agg !== 'sum',
  );
}

/**
 * The findings' name of a ranking of groups (both engines): "mean price", or "conversion_rate"
 * when each group is one row (a campaign's mean conversion rate is its rate; a country's population
 * in one year of a panel, "population in 2020"), or "latest cases" for the largest value of a
 * running total.
 */
export function rankingLabel(
  t: Extract<Transform, { type: 'group' }>,
  y: string,
  name: (column: string) => string,
  scales: Scales,
  filters: Analysis['filters'] = [],
): string {
  if (isRate(t)) return `share with ${name(t.measure)} = ${rateValue(t.equals)}`;
  if (scales.unique?.includes(t.by) && !t.series) return name(y);
  const panel = scales.latest;
  const year =
    panel && t.by === panel.entity && !t.series
      ? filters.find(
          (f) => f.column === panel.column && f.op === '==' && typeof f.value === 'number',
        )
      : undefined;
  if (year) return `${name(y)} in ${String(year.value)}`;
  if (quotientFor(t, scales)) return name(y);
  // A running total's largest value is its latest, as the chart is titled ("Latest cases by country").
  const latest = t.agg === 'max' && t.measure && scales.runningTotals?.includes(t.measure);
  return `${latest ? 'latest' : t.agg} ${name(y)}`;
}

/** The rows and columns of a matrix a heatmap draws (its renderer's cap): the findings read the same. */
export const HEATMAP_CELLS = RENDERERS.heatmap?.caps.categories ?? 60;
/** The groups a box draws (its renderer's cap): past it, its findings name no highest or lowest. */
export const BOX_GROUPS = RENDERERS.box?.caps.categories ?? 30;

/** A season's period, as its average total is said: "average monthly revenue", "… rows a day". */
const CYCLE_UNIT = {
  M: ['monthly', 'a month'],
  D: ['daily', 'a day'],
  H: ['hourly', 'an hour'],
} as const;

/**
 * An axis title of a column of percentages or of money, or of their `agg` (a season's mean):
 * "margin (%)", "price ($)"; else none (both engines: a scatter's axes, a season's y).
 */
export function unitLabel(
  column: string,
  name: (column: string) => string,
  scales: Scales = NO_SCALES,
  agg?: string,
): string | undefined {
  if (inPercent({ measure: column, agg: agg ?? null }, scales))
    return axisLabel(column, name, true);
  const money = moneyOf([column], agg, scales.currencies);
  return money ? axisLabel(column, name, false, money) : undefined;
}

/** The x axis of a season chart: its cycle's key (weekday × hour, a heatmap's, has two; hour across). */
export function seasonX(t: Extract<Transform, { type: 'season' }>): 'month' | 'weekday' | 'hour' {
  return t.cycle === 'month' ? 'month' : t.cycle === 'weekday' ? 'weekday' : 'hour';
}

/**
 * Whether a season chart's value is a mean — of each period's total (a sum, a count), or of the
 * rows — whose ranking then tests its gap (Welch's t-test over the periods or rows of each month,
 * weekday or hour); a median, a minimum or a maximum is not tested.
 */
export function seasonMean(
  t: Extract<Transform, { type: 'season' }>,
  scales: Scales = NO_SCALES,
): boolean {
  if (quotientFor(t, scales)) return false;
  return !t.measure || t.agg === 'sum' || t.agg === 'count' || t.agg === 'mean';
}

/**
 * What a season chart's ranking calls its values (both engines): the average period total of a
 * sum or a count ("average monthly revenue", "average number of rows a day"), else the aggregate
 * of the rows ("mean unit_price").
 */
export function seasonLabel(
  t: Extract<Transform, { type: 'season' }>,
  name: (column: string) => string,
  scales: Scales = NO_SCALES,
): string {
  const [adjective, per] = CYCLE_UNIT[CYCLE_PERIOD[t.cycle]];
  if (!t.measure) return `average number of rows ${per}`;
  if (quotientFor(t, scales)) return name(t.measure);
  if (t.agg === 'sum') return `average ${adjective} ${name(t.measure)}`;
  if (t.agg === 'count') return `average number of ${name(t.measure)} values ${per}`;
  return `${t.agg} ${name(t.measure)}`;
}

/**
 * How the findings of analysis `a` name a column (both engines): a long table's measure by the
 * value of the column naming it that the analysis keeps ("Population", not "value").
 */
export function namedAs(a: Pick<Analysis, 'filters'>, scales: Scales): (name: string) => string {
  return (name) => {
    const facet = scales.facets?.find((f) => f.measure === name);
    const kept = facet && a.filters?.find((f) => f.column === facet.column && f.op === '==');
    if (typeof kept?.value === 'string') return kept.value;
    return scales.quantity?.measure === name ? scales.quantity.value : name;
  };
}

/**
 * `counts=` for a line (or lines split by a series) of a mean, a median, a min or a max of one
 * measure: how many values each period's is of, so a period of few values beside busy ones is
 * said to be (trend_insights, series_trend_insights; sql-time.ts's periodCounts in the DuckDB
 * engine). Nothing for a total, a count, a share of rows or several measures.
 */
function countsArg(
  t: Extract<Transform, { type: 'resample' }>,
  how: ReturnType<typeof trendHow>,
): string {
  if ((how !== 'mean' && how !== 'interval') || t.measures || !t.measure) return '';
  return isRate(t) || t.agg === 'last' ? '' : `, counts=grouped[${py(t.measure)}].count()`;
}

/**
 * The subject of a resampled line's findings in the pandas program (trendLabel), said as the
 * measure itself when no period of any line holds more than one value (a series of one row per
 * year: "life_expectancy grew", not "mean life_expectancy grew"); sql-time's findings alike.
 */
function oneEachLabel(
  t: Extract<Transform, { type: 'resample' }>,
  how: ReturnType<typeof trendHow>,
  y: string,
  name: (column: string) => string,
  scales: Scales,
): string {
  const label = py(trendLabel(t, y, name, scales));
  if (countsArg(t, how) === '' || !t.measure) return label;
  return `(${py(name(y))} if grouped[${py(t.measure)}].count().max() == 1 else ${label})`;
}

/**
 * What each period of a resampled line holds, for its findings (both engines): a total ("sum",
 * a year is the sum of its periods), a total of a stock ("stock", a year is their average), a
 * level ("mean"), a level on an interval scale ("interval": said as differences), or a share in
 * percent ("share": averaged, said in percentage points).
 */
export function trendHow(
  t: Extract<Transform, { type: 'resample' }>,
  scales: Scales,
): 'sum' | 'mean' | 'stock' | 'interval' | 'share' {
  // A share in % changes by points: 5% to 7.5% is "rose by 2.5 percentage points", not "grew 50%".
  if (isRate(t) || t.share) return 'share';
  const measures = measuresOf(t);
  // A column of percentages averaged (a rebased line is an index, not its percentages).
  const percent = (m: string): boolean => inPercent({ measure: m, agg: t.agg }, scales);
  if (!t.rebase && measures.length && measures.every(percent)) return 'share';
  if (t.agg !== 'sum' && t.agg !== 'count')
    return measures.length && measures.every((m) => scales.intervals.includes(m))
      ? 'interval'
      : 'mean';
  return t.agg === 'sum' && measures.length && measures.every((m) => scales.stocks.includes(m))
    ? 'stock'
    : 'sum';
}

/**
 * The agg a bar of periods is declared with (both engines): a mean, median, min or max, so that
 * past the bar's cap the rest of the periods is left out, not summed into "Other"; nothing for a
 * sum or count (the default, whose rest is summed) and for other charts.
 */
/**
 * Whether a line of totals or counts per period starts its axis at zero (renderers/line.ts'
 * from_zero): not an index rebased to 100, nor a logarithmic axis, nor any other chart.
 */
export function fromZero(
  a: Analysis,
  t: Extract<Transform, { type: 'resample' }>,
): boolean | undefined {
  const additive = t.agg === 'sum' || t.agg === 'count';
  return a.chart === 'line' && additive && !t.rebase && !a.options?.log_y ? true : undefined;
}

export function periodAgg(
  chart: Analysis['chart'],
  t: Extract<Transform, { type: 'resample' }>,
): string | undefined {
  // Each period is one row by then: a closing value is declared as a mean of it (the renderers have no "last").
  if (chart !== 'bar' || !t.measure || t.agg === 'sum' || t.agg === 'count') return undefined;
  return t.agg === 'last' ? 'mean' : t.agg;
}

/** Whether a group's or line's measure is a level on an interval scale (both engines). */
export function intervalOf(t: { measure?: string | null }, scales: Scales): boolean {
  return Boolean(t.measure && scales.intervals.includes(t.measure));
}

/**
 * The currency an analysis's values are in, for both engines' findings and axes: a sum, mean,
 * median or extreme of money (Scales.currencies); none for a count, a rate's share, a rebased
 * index or a mean of percentages.
 */
export function moneyFor(t: Transform, scales: Scales): string | undefined {
  switch (t.type) {
    case 'group':
      return isRate(t) ? undefined : moneyOf([t.measure], t.agg, scales.currencies);
    case 'resample':
      return isRate(t) || t.rebase || trendHow(t, scales) === 'share'
        ? undefined
        : moneyOf(measuresOf(t), t.agg, scales.currencies);
    case 'season':
      return moneyOf([t.measure], t.agg, scales.currencies);
    case 'distribution':
      return moneyOf([t.column], null, scales.currencies);
    // A scatter's and a matrix's findings are correlations; tables say nothing of their own.
    case 'relationship':
    case 'correlation':
    case 'summary':
    case 'missing':
    case 'top_rows':
      return undefined;
  }
}

/** The `money=` argument of a Python finding, or nothing (moneyFor). */
function moneyArg(t: Transform, scales: Scales): string {
  const money = moneyFor(t, scales);
  return money ? `, money=${py(money)}` : '';
}

/** Whether a row is an event (a sale, a crash, a tweet): what makes a period without rows a quiet one. */
export function eventLog(profile: DataProfile): boolean {
  return semanticsOf(profile).table.grain === 'event';
}

/**
 * An event log with fewer rows than this per period on average (over the span) has quiet periods:
 * one without rows holds none of a count or sum (0). Busier logs, and tables of any other grain,
 * leave such a period as a gap: no rows there is missing data, not a zero.
 */
export const QUIET_ROWS = 5;

/** What the program knows of the table's grain: a panel's entity keys, and whether rows are events. */
interface Grain {
  entities: readonly string[];
  events: boolean;
  scales: Scales;
}

/**
 * The findings' name of an additive y (both engines): "count" says rows, so a measure that is
 * itself called "count" (unemployed people per month) is its "total count", never rows.
 */
export function additiveLabel(measure: string | null | undefined): string {
  return !measure ? 'count' : measure === 'count' ? 'total count' : measure;
}

type Resample = Extract<Transform, { type: 'resample' }>;

/** What the findings call the lines of several measures: "all 3 lines", not "all 3 measure lines". */
export const LINES = 'lines';

/** A name none of `taken` has: the first free candidate, else the first with a number. */
function freeName(candidates: readonly string[], taken: ReadonlySet<string>): string {
  const free = candidates.find((c) => !taken.has(c));
  if (free) return free;
  let i = 2;
  while (taken.has(`${candidates[0]}_${i}`)) i += 1;
  return `${candidates[0]}_${i}`;
}

/**
 * The frame of a resample of several measures (both engines): the data melted to one row per row
 * and measure, its column named `series` holding the measure's name and `value` its value.
 */
export function meltedNames(t: Resample): { series: string; value: string } {
  const taken = new Set([t.date, ...(t.measures ?? [])]);
  const series = freeName(['measure', 'series', 'variable'], taken);
  return { series, value: freeName(['value', 'amount', 'level'], new Set([...taken, series])) };
}

/**
 * A resample as both engines run it: one of several measures is the resample of their melted
 * values (meltedNames) with a series per measure; any other is itself.
 */
export function asLines(t: Resample): Resample {
  if (!t.measures) return t;
  const { series, value } = meltedNames(t);
  const { measures: _, ...rest } = t;
  return { ...rest, measure: value, series };
}

/**
 * Whether a resample's closing values are taken from rows listed newest first (Scales.newestFirst):
 * then of rows at one time the first is the latest. Several measures need all of them so.
 */
export function newestFirst(t: Resample, scales: Scales): boolean {
  const measures = measuresOf(t);
  return measures.length > 0 && measures.every((m) => scales.newestFirst?.includes(m));
}

/**
 * Whether a sum's blanks are zeros (Scales.blankZero): a period (a day of a season) with rows then
 * totals 0, not a gap; one without rows stays a gap. Both engines: the pandas program fills the
 * measures' blanks with 0 first (blankFill), the SQL sums them with coalesce(…, 0).
 */
export function blankZero(
  t: Resample | Extract<Transform, { type: 'season' }>,
  scales: Scales,
): boolean {
  const measures = t.type === 'resample' ? measuresOf(t) : t.measure ? [t.measure] : [];
  // Split by a series, a category whose rows hold only blanks (a salary's Paid out) has no line.
  const apart = t.type === 'resample' && (isRate(t) || t.series !== undefined);
  return (
    t.agg === 'sum' &&
    !apart &&
    measures.length > 0 &&
    measures.every((m) => scales.blankZero?.includes(m))
  );
}

/** The pandas lines that fill a sum's blanks with 0 where they are zeros (blankZero), else none. */
function blankFill(t: Resample | Extract<Transform, { type: 'season' }>, scales: Scales): string[] {
  if (!blankZero(t, scales)) return [];
  const measures = t.type === 'resample' ? measuresOf(t) : [t.measure ?? ''];
  return [`data = data.fillna({${measures.map((m) => `${py(m)}: 0`).join(', ')}})`];
}

/** The measures a resample draws: its `measures`, else its one measure (none for a count of rows). */
export function measuresOf(t: Resample): string[] {
  return t.measures ?? (t.measure ? [t.measure] : []);
}

/** The findings' name of a line of row counts (both engines): "The number of rows peaked at 61 in 1982". */
export const ROWS_LABEL = 'the number of rows';

/**
 * The findings' name of a resampled line (both engines): its aggregate and measure for a level,
 * the number of rows for a count, else the measure (additiveLabel).
 */
export function trendLabel(
  t: Extract<Transform, { type: 'resample' }>,
  y: string,
  name: (column: string) => string = (c) => c,
  scales: Scales = NO_SCALES,
): string {
  if (isRate(t)) return `% with ${name(t.measure)} = ${rateValue(t.equals)}`;
  if (quotientFor(t, scales)) return name(y);
  if (t.share) return `the share of ${t.measure ? name(t.measure) : 'rows'}`;
  // Each line is named by its measure: the sentence's subject is what they all hold.
  if (t.measures) return t.agg === 'count' ? 'the number of values' : 'the value';
  if (t.agg === 'count')
    return t.measure ? `the number of rows with ${name(t.measure)}` : ROWS_LABEL;
  if (t.agg === 'last') return `closing ${name(y)}`;
  return t.agg === 'sum' ? additiveLabel(t.measure && name(t.measure)) : `${t.agg} ${name(y)}`;
}

/** The y axis of a rebased resample: what 100 is (both engines). */
export function rebaseLabel(
  t: Extract<Transform, { type: 'resample' }>,
  y: string,
  name: (column: string) => string = (c) => c,
  scales: Scales = NO_SCALES,
): string | undefined {
  if (t.measures) {
    const what = listed(t.measures.map(name));
    if (t.rebase)
      return `${what}, index (100 = the first ${PERIOD_WORD[t.freq]} every line has a value)`;
    if (trendHow(t, scales) === 'share' && !what.includes('%')) return `${what} (%)`;
    const money = moneyFor(t, scales);
    return money && !what.toUpperCase().includes(money) ? `${what} (${money})` : what;
  }
  if (t.share && t.series) return `share of ${t.measure ? name(y) : 'rows'} (%)`;
  if (!t.rebase || !t.series)
    return axisLabel(y, name, !isRate(t) && inPercent(t, scales), moneyFor(t, scales));
  return `${name(y)}, index (100 = the first ${PERIOD_WORD[t.freq]} every ${t.series} has a value)`;
}

/**
 * An axis's title when the findings name the column otherwise (a long table's indicator), or
 * when its values are percentages its name does not say ("margin (%)"), else none.
 */
export function axisLabel(
  column: string,
  name: (column: string) => string,
  percent = false,
  money?: string,
): string | undefined {
  const label = name(column);
  if (percent && !label.includes('%')) return `${label} (%)`;
  if (money && !label.toUpperCase().includes(money)) return `${label} (${money})`;
  return label === column ? undefined : label;
}

/** The columns a transform reads (the cleaning converts these, and only these; both engines). */
export function usedColumns(t: Transform): string[] {
  switch (t.type) {
    case 'group':
      return [t.by, t.measure, t.series].filter((c): c is string => Boolean(c));
    case 'resample':
      return [t.date, t.measure, ...(t.measures ?? []), t.series].filter((c): c is string =>
        Boolean(c),
      );
    case 'season':
      return [t.date, t.measure].filter((c): c is string => Boolean(c));
    case 'distribution':
      return [t.column, t.by].filter((c): c is string => Boolean(c));
    case 'relationship':
      return [t.x, t.y, t.color].filter((c): c is string => Boolean(c));
    case 'correlation':
      return t.columns;
    case 'summary':
      return t.columns ?? [];
    case 'missing':
      return [];
    case 'top_rows':
      return [t.sort_by];
  }
}

/** How the file was read, where pandas must be told (the DuckDB engine's reading of a day-first file). */
export interface CompileOptions {
  /** Dates written day first (31.12.2024): parse them so, as the engine did. */
  dayFirst?: boolean;
}

/**
 * Whole-number year columns the plan resamples as time (the table's time is a year column): both
 * engines turn each year into the timestamp of its first day, for these columns only.
 */
export function yearColumns(plan: Plan, profile: DataProfile): Set<string> {
  const time = profile.semantics?.table.time;
  if (time?.kind !== 'year') return new Set();
  const resampled = plan.analyses.some(
    (a) => a.transform.type === 'resample' && a.transform.date === time.column,
  );
  return resampled ? new Set([time.column]) : new Set();
}

/**
 * A filter as it reads a year column both engines turned into timestamps (yearColumns): a whole
 * year stands for its first day, so `year == 2020` keeps 2020's rows, as on the column as read.
 */
export function onYears(
  filter: NonNullable<Analysis['filters']>[number],
  years: ReadonlySet<string>,
): NonNullable<Analysis['filters']>[number] {
  if (!years.has(filter.column)) return filter;
  const whole = (v: string | number | boolean): number | null =>
    typeof v === 'number' && Number.isInteger(v)
      ? v
      : typeof v === 'string' && /^\s*\d{4}\s*$/.test(v)
        ? Number(v)
        : null;
  const day = (v: string | number | boolean): string | number | boolean => {
    const year = whole(v);
    return year !== null && year >= 1 && year <= 9999
      ? `${String(year).padStart(4, '0')}-01-01 00:00:00`
      : v;
  };
  const { value } = filter;
  if (value === undefined) return filter;
  return {
    ...filter,
    value: Array.isArray(value) ? value.map((v) => day(v) as string | number) : day(value),
  };
}

/**
 * The columns a plan's cleaning reads (both engines): those its transforms use, and the parts of
 * a quotient whose mean one takes (numbers stored as text among them: "1,234.56").
 */
export function cleanedColumns(plan: Plan, profile: DataProfile): Set<string> {
  const quotients = semanticsOf(profile).quotients ?? [];
  return new Set(
    plan.analyses.flatMap((a) => {
      const t = a.transform;
      const q =
        (t.type === 'group' || t.type === 'resample' || t.type === 'season') && t.agg === 'mean'
          ? quotients.find((x) => x.column === t.measure)
          : undefined;
      return [...usedColumns(t), ...(q ? [q.numerator, q.denominator] : [])];
    }),
  );
}

function cleaning(plan: Plan, profile: DataProfile, options: CompileOptions): string[] {
  const used = cleanedColumns(plan, profile);
  const years = yearColumns(plan, profile);
  const lines: string[] = [];
  for (const name of years)
    lines.push(
      `df[${py(name)}] = pd.to_datetime(df[${py(name)}].astype("Int64").astype("string"), format="%Y", errors="coerce")  # whole years as their first day`,
    );
  for (const col of profile.column_profiles.filter((c) => used.has(c.name) && !years.has(c.name))) {
    if (col.semantic === 'numeric_text') lines.push(numericText(col));
    // Also when the profile's engine typed it (DuckDB reads dates as dates; pandas reads them as text).
    if (col.semantic === 'datetime')
      lines.push(
        timeOfDay(col)
          ? `df[${py(col.name)}] = pd.to_datetime(_sem.on_one_day(df[${py(col.name)}]), errors="coerce")  # times of day, on one day (1900-01-01)`
          : `df[${py(col.name)}] = pd.to_datetime(df[${py(col.name)}], errors="coerce"${options.dayFirst ? ', dayfirst=True' : ''})  # dates stored as text${options.dayFirst ? ', day first' : ''}`,
      );
  }
  return lines.length
    ? ['# Cleaning: only the columns this plan uses, each conversion explicit.', ...lines, '']
    : [];
}

/**
 * A column of times of day alone ("06:00", "6:05 PM"): both profiles read it on 1900-01-01 (DuckDB's
 * TIME, opsmind_semantic.on_one_day), and so does the program, not on the day it runs.
 */
function timeOfDay(col: ColumnProfile): boolean {
  const { min = '', max = '' } = col.datetime ?? {};
  const time = /^\s*\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:[ap]\.?m\.?)?\s*$/i;
  return (
    min.startsWith('1900-01-01') &&
    max.startsWith('1900-01-01') &&
    col.top.length > 0 &&
    col.top.every((t) => time.test(t.value))
  );
}

function numericText(col: ColumnProfile): string {
  const style = col.numeric_text?.style ?? 'plain';
  return `df[${py(col.name)}] = _sem.parse_number_text(df[${py(col.name)}].to_numpy(dtype=object))  # numbers stored as text (${style}), read as the profile reads them`;
}

function filterCode(analysis: Analysis, years: ReadonlySet<string>): string {
  const filters = (analysis.filters ?? []).map((f) => onYears(f, years));
  if (filters.length === 0) return 'data = df';
  const masks = filters.map((f) => {
    const col = `df[${py(f.column)}]`;
    // A year column made timestamps: compared with the timestamps of the years' first days.
    if (years.has(f.column) && f.op !== 'notna') {
      const stamp = (v: string | number | boolean | undefined): string =>
        typeof v === 'string' ? `pd.Timestamp(${py(v)})` : v === undefined ? 'None' : pyValue(v);
      const list = Array.isArray(f.value) ? f.value : [f.value];
      if (f.op === 'in' || f.op === 'not in')
        return `${f.op === 'in' ? '' : '~'}${col}.isin([${list.map(stamp).join(', ')}])`;
      const one = Array.isArray(f.value) ? JSON.stringify(f.value) : stamp(f.value);
      return `(${col} ${f.op} ${one})`;
    }
    if (f.op === 'notna') return `${col}.notna()`;
    if (f.op === 'in' || f.op === 'not in')
      return `${f.op === 'in' ? '' : '~'}${col}.isin(${JSON.stringify(Array.isArray(f.value) ? f.value : [f.value])})`;
    const value =
      typeof f.value === 'boolean'
        ? f.value
          ? 'True'
          : 'False'
        : JSON.stringify(f.value ?? null).replace(/^null$/, 'None');
    return `(${col} ${f.op} ${value})`;
  });
  return `data = df[${masks.join(' & ')}]`;
}

/** A Python literal of a filter's or rate's value. */
function pyValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'string' ? py(value) : JSON.stringify(value);
}

/**
 * A rate in pandas: 1.0 where the measure equals the value, 0.0 where it differs, NaN where it is
 * missing; averaged per group, in percent.
 */
function groupedRate(
  keys: string[],
  t: Group & { measure: string; equals: string | number | boolean },
) {
  const m = `data[${py(t.measure)}]`;
  const by = `[${keys.map((k) => `data[${py(k)}]`).join(', ')}]`;
  const y = groupY(t);
  return {
    code: `frame = ${m}.eq(${pyValue(t.equals)}).astype(float).where(${m}.notna()).groupby(${by}, dropna=False).mean().mul(100).reset_index(name=${py(y)})`,
    y,
  };
}

/**
 * ranking_insights' keys and values of a mean (the measure, or a rate's indicator in percent):
 * each row's group and value, for the test of the gap between the highest and the lowest.
 */
function spreadArgs(t: Extract<Transform, { type: 'group' }>, scales: Scales): string {
  if (!t.measure || (t.agg !== 'mean' && !isRate(t)) || quotientFor(t, scales)) return '';
  const m = `data[${py(t.measure)}]`;
  const values =
    t.equals !== undefined
      ? `${m}.eq(${pyValue(t.equals)}).astype(float).where(${m}.notna()).mul(100)`
      : m;
  return `, keys=data[${py(t.by)}], values=${values}`;
}

/**
 * A quotient per group in pandas: the numerator's and the denominator's totals over the rows that
 * have both, then numerator × scale ÷ denominator (NaN where the denominator's total is 0).
 */
function groupedQuotient(
  keys: string[],
  y: string,
  q: Omit<Quotient, 'column'>,
): { code: string; y: string } {
  const by = `[${keys.map((k) => `data[${py(k)}]`).join(', ')}]`;
  return {
    code: `frame = _quotient(_quotient_parts(data, ${py(q.numerator)}, ${py(q.denominator)}).groupby(${by}, dropna=False).sum(min_count=1), ${q.scale}).reset_index(name=${py(y)})`,
    y,
  };
}

/** share_insights' keys and values of a sum: each row's group and value, to weigh the top two totals by their rows. */
function rowArgs(t: Extract<Transform, { type: 'group' }>): string {
  if (!t.measure || t.agg !== 'sum') return '';
  return `, keys=data[${py(t.by)}], values=data[${py(t.measure)}]`;
}

function grouped(keys: string[], measure: string | null, agg: string): { code: string; y: string } {
  const by = keys.length === 1 ? py(keys[0] ?? '') : `[${keys.map(py).join(', ')}]`;
  if (!measure)
    return {
      code: `frame = data.groupby(${by}, dropna=False).size().reset_index(name="count")`,
      y: 'count',
    };
  return {
    code: `frame = data.groupby(${by}, dropna=False)[${py(measure)}].agg(${py(agg)}).reset_index()`,
    y: measure,
  };
}

/** The statements of one analysis (without the try wrapper). */
function analysisBody(a: Analysis, n: number, grain: Grain): string[] {
  const t = asRun(a.transform);
  const o = a.options ?? {};
  const name = namedAs(a, grain.scales);
  const common = { title: a.title, note: a.why };
  switch (t.type) {
    case 'group': {
      const keys = [t.by, ...(t.series ? [t.series] : [])];
      const quotient = quotientFor(t, grain.scales);
      const { code, y } = isRate(t)
        ? groupedRate(keys, t)
        : quotient && t.measure
          ? groupedQuotient(keys, t.measure, quotient)
          : grouped(keys, t.measure, t.agg);
      // min_rows: the groups' values counted by the same grouping, so in the frame's row order.
      const by = `[${keys.map((k) => `data[${py(k)}]`).join(', ')}]`;
      const counted = t.measure
        ? `data[${py(t.measure)}].groupby(${by}, dropna=False).count()`
        : `data.groupby(${by}, dropna=False).size()`;
      const kept = t.min_rows
        ? [`frame = frame[${counted}.to_numpy() >= ${t.min_rows}].reset_index(drop=True)`]
        : [];
      // A stable sort: categories with equal values keep their key order, as the DuckDB engine orders them.
      const lines = [
        code,
        ...kept,
        `frame = frame.sort_values(${py(y)}, ascending=False, kind="stable")`,
      ];
      if (a.chart === 'table')
        return [
          ...lines,
          `declare_table(frame, ${kwargs({ title: a.title, max_rows: 50, note: a.why })})`,
        ];
      const params = groupChartParams(a, t, y, name, grain.scales);
      const additive = t.agg === 'sum' || t.agg === 'count';
      const share = t.series
        ? []
        : [
            additive
              ? `_insight(${n}, _ins.share_insights(frame, ${py(t.by)}, ${py(y)}, ${py(additiveLabel(t.measure && name(t.measure)))}${rowArgs(t)}${moneyArg(t, grain.scales)}${t.named === undefined ? '' : `, named=${py(String(t.named))}`}))`
              : `_insight(${n}, _ins.ranking_insights(frame, ${py(t.by)}, ${py(y)}, ${py(rankingLabel(t, y, name, grain.scales, a.filters))}${intervalOf(t, grain.scales) ? ', interval=True' : ''}${isRate(t) ? ', percent=True' : inPercent(t, grain.scales) ? ', points=True' : ''}${spreadArgs(t, grain.scales)}${moneyArg(t, grain.scales)}))`,
          ];
      const sides = answerSidesOf(t, grain.scales);
      const answers = sides
        ? [
            `_insight(${n}, _ins.scale_insights(frame, ${py(t.by)}, ${py(y)}, ${JSON.stringify(sides.low)}, ${JSON.stringify(sides.high)}))`,
          ]
        : [];
      return [
        ...lines,
        `declare_chart(${py(a.chart)}, frame, ${kwargs(params)})`,
        ...answers,
        ...share,
      ];
    }
    case 'resample': {
      // Several measures: one line each, over the data melted to one row per row and measure.
      const r = asLines(t);
      const names = meltedNames(t);
      const melt = t.measures
        ? [
            `data = data.melt(id_vars=[${py(t.date)}], value_vars=[${t.measures.map(py).join(', ')}], var_name=${py(names.series)}, value_name=${py(names.value)})`,
          ]
        : [];
      // Period starts ("MS", not pandas' month-end "M"), so December's total is drawn at December, not at the edge of January.
      const keys = `[pd.Grouper(key=${py(r.date)}, freq=${py(PERIOD_START[r.freq] ?? r.freq)})${r.series ? `, ${py(r.series)}` : ''}]`;
      const y = groupY(r);
      // A rate: the indicator in percent (100 where the measure equals the value, 0 where it
      // differs, NaN where it is missing) as a column of its own, averaged per period.
      const quotient = quotientFor(r, grain.scales);
      const rated = quotient
        ? [
            `data = data.assign(**_quotient_parts(data, ${py(quotient.numerator)}, ${py(quotient.denominator)}).add_prefix("__opsmind_"))`,
          ]
        : isRate(r)
          ? [
              `data = data.assign(**{${py(y)}: data[${py(r.measure)}].eq(${pyValue(r.equals)}).astype(float).where(data[${py(r.measure)}].notna()).mul(100)})`,
            ]
          : [];
      // A period without rows is a gap, not a zero: sum it with min_count=1, its count NaN (unless
      // it is a quiet period of a sparse event log: 0 then, see QUIET_ROWS).
      const agg = !r.measure
        ? '.size().reset_index(name="count")'
        : quotient
          ? `.pipe(_grouped_quotient, ${quotient.scale}).reset_index(name=${py(y)})`
          : r.agg === 'sum' && !isRate(r)
            ? `[${py(r.measure)}].sum(min_count=1).reset_index()`
            : `[${py(y)}].agg(${py(isRate(r) ? 'mean' : r.agg)}).reset_index()`;
      const count = !r.measure || r.agg === 'count';
      const events = grain.events ? 'True' : 'False';
      const freq = py(PERIOD_START[r.freq] ?? r.freq);
      // A closing value: the rows in time order (ties in the rows' own order, newest first
      // reversed), so each period's last non-missing value is its latest (sql-time's last(… ORDER BY)).
      const closing =
        r.agg === 'last'
          ? [
              `data = data${newestFirst(t, grain.scales) ? '.iloc[::-1]' : ''}.sort_values(${py(r.date)}, kind="stable")`,
            ]
          : [];
      // No dropna: the Grouper leaves out missing dates itself, and copying the frame would touch every string in it.
      const lines = [
        ...blankFill(t, grain.scales),
        ...melt,
        ...closing,
        ...rated,
        `grouped = data.groupby(${keys})`,
        `frame = grouped${agg}`,
      ];
      if (!r.series) {
        lines.push(
          `frame, empty = _spaced(frame, grouped.size().to_numpy() > 0, ${py(r.date)}, ${freq})`,
        );
        if (count || (r.agg === 'sum' && grain.events))
          lines.push(
            `frame = _empty_periods(frame, empty, ${py(y)}, ${events} and _quiet(data, [${py(r.date)}], len(frame), int(empty.sum()), ${freq}))`,
          );
      } else {
        // Each series over its own span: a period inside it without rows is a gap, not a join.
        const zeroable = count || (r.agg === 'sum' && !grain.entities.includes(r.series));
        lines.push(
          `frame = _fill_gaps(frame, data, ${py(r.date)}, ${py(r.series)}, ${py(y)}, ${freq}, ${zeroable ? 'True' : 'False'}, ${events})`,
        );
      }
      if (r.series && r.top)
        lines.push(
          `frame = _top_series(frame, ${py(r.date)}, ${py(r.series)}, ${py(y)}, ${r.top}, ${!r.measure || r.agg === 'count' || r.agg === 'sum' ? 'True' : 'False'})`,
        );
      if (r.series && r.rebase)
        lines.push(`frame = _rebase(frame, ${py(r.date)}, ${py(r.series)}, ${py(y)})`);
      if (r.series && r.share) lines.push(`frame = _share(frame, ${py(r.date)}, ${py(y)})`);
      if (a.chart === 'table')
        return [
          ...lines,
          `declare_table(frame, ${kwargs({ title: a.title, max_rows: 100, note: a.why })})`,
        ];
      const how = trendHow(t, grain.scales);
      const label = oneEachLabel(t, how, y, name, grain.scales);
      const trend = r.series
        ? [
            `_insight(${n}, _ins.series_trend_insights(frame, ${py(r.date)}, ${py(r.series)}, ${py(y)}, ${label}, how=${py(how)}, period=${py(r.freq)}${t.measures ? `, word=${py(LINES)}` : ''}${countsArg(t, how)}${moneyArg(t, grain.scales)}))`,
          ]
        : [
            `_insight(${n}, _ins.trend_insights(frame, ${py(r.date)}, ${py(y)}, ${label}, how=${py(how)}, period=${py(r.freq)}${countsArg(t, how)}${moneyArg(t, grain.scales)}))`,
          ];
      return [
        ...lines,
        `declare_chart(${py(a.chart)}, frame, ${kwargs({ x: r.date, y, color: r.series, agg: periodAgg(a.chart, r), log_y: o.log_y, from_zero: fromZero(a, t), order: ordinalOf(r.series, grain.scales), y_label: rebaseLabel(t, y, name, grain.scales), title: a.title, note: quotientNote(r, grain.scales, a.why, PERIOD_WORD[r.freq]) })})`,
        ...trend,
      ];
    }
    case 'season': {
      const y = t.measure ?? 'count';
      const args = `data, ${py(t.date)}, ${t.measure ? py(t.measure) : 'None'}, ${py(t.agg)}, ${py(t.cycle)}`;
      const q = quotientFor(t, grain.scales);
      const lines = [
        ...blankFill(t, grain.scales),
        `frame = _season(${args}${q ? `, quotient=(${py(q.numerator)}, ${py(q.denominator)}, ${q.scale})` : ''})`,
      ];
      if (a.chart === 'table')
        return [
          ...lines,
          `declare_table(frame, ${kwargs({ title: a.title, max_rows: 200, note: a.why })})`,
        ];
      if (a.chart === 'heatmap')
        return [
          ...lines,
          `declare_chart("heatmap", frame, ${kwargs({ x: 'hour', y: 'weekday', z: y, ...common })})`,
        ];
      const x = seasonX(t);
      const sort = a.chart === 'bar' ? { sort: 'none' } : {};
      return [
        ...lines,
        `declare_chart(${py(a.chart)}, frame, ${kwargs({ x, y, ...sort, y_label: unitLabel(y, name, grain.scales, t.agg), title: a.title, note: quotientNote(t, grain.scales, a.why, x) })})`,
        `_insight(${n}, _ins.ranking_insights(frame, ${py(x)}, ${py(y)}, ${py(seasonLabel(t, name, grain.scales))}${intervalOf(t, grain.scales) ? ', interval=True' : ''}${inPercent(t, grain.scales) ? ', points=True' : ''}${seasonMean(t, grain.scales) ? `, overall=${py(`${x}s`)}, **_season_spread(${args})` : ''}${moneyArg(t, grain.scales)}))`,
      ];
    }
    case 'distribution': {
      const percent = inPercent({ measure: t.column }, grain.scales);
      const chart =
        a.chart === 'box'
          ? `declare_chart("box", data, ${kwargs({ y: t.column, x: t.by, y_label: axisLabel(t.column, name, percent, moneyFor(t, grain.scales)), order: ordinalOf(t.by, grain.scales), ...common })})`
          : `declare_chart("histogram", data, ${kwargs({ x: t.column, bins: o.bins, log_y: o.log_y, x_label: axisLabel(t.column, name, percent, moneyFor(t, grain.scales)), ...common })})`;
      const byGroup =
        a.chart === 'box' && t.by
          ? [
              `_insight(${n}, _ins.box_insights(data, ${py(t.by)}, ${py(t.column)}, ${py(`median ${name(t.column)}`)}${intervalOf({ measure: t.column }, grain.scales) ? ', interval=True' : ''}${percent ? ', points=True' : ''}, groups=${BOX_GROUPS}${moneyArg(t, grain.scales)}))`,
            ]
          : [];
      return [
        chart,
        `_insight(${n}, _ins.distribution_insights(data[${py(t.column)}], ${py(name(t.column))}${grain.scales.years?.includes(t.column) ? ', years=True' : ''}${percent ? ', points=True' : ''}${grain.scales.directions?.includes(t.column) ? ', direction=True' : ''}${moneyArg(t, grain.scales)}))`,
        ...byGroup,
      ];
    }
    case 'relationship':
      return [
        `declare_chart("scatter", data, ${kwargs({ x: t.x, y: t.y, color: t.color, trendline: o.trendline ?? true, max_points: o.max_points, x_label: unitLabel(t.x, name, grain.scales), y_label: unitLabel(t.y, name, grain.scales), ...common })})`,
        ...(o.correlation === false
          ? []
          : [
              `_insight(${n}, _ins.correlation_insights(data, ${py(t.x)}, ${py(t.y)}))`,
              ...(t.color
                ? [
                    `_insight(${n}, _ins.group_correlation_insights(data, ${py(t.x)}, ${py(t.y)}, ${py(t.color)}) if any(i["analysis"] == ${n} for i in _INSIGHTS) else [])`,
                  ]
                : []),
            ]),
      ];
    case 'correlation': {
      const frame = `frame = data[[${t.columns.map(py).join(', ')}]].corr()`;
      return a.chart === 'table'
        ? [frame, `declare_table(frame.round(3), ${kwargs({ title: a.title, note: a.why })})`]
        : [
            frame,
            `declare_chart("heatmap", frame, ${kwargs({ zmid: 0, ...common })})`,
            `_insight(${n}, _ins.matrix_insights(frame.iloc[:${HEATMAP_CELLS}, :${HEATMAP_CELLS}]))`,
          ];
    }
    case 'summary': {
      const cols = t.columns?.length ? `[[${t.columns.map(py).join(', ')}]]` : '';
      return [
        `frame = _describe(data${cols})`,
        `declare_table(frame, ${kwargs({ title: a.title, max_rows: 60, note: a.why })})`,
      ];
    }
    case 'missing':
      return [
        'frame = pd.DataFrame({"missing": data.isna().sum(), "missing %": (data.isna().mean() * 100).round(1)}).rename_axis("column")',
        'frame = frame[frame["missing"] > 0].sort_values("missing", ascending=False, kind="stable")',
        `declare_table(frame, ${kwargs({ title: a.title, max_rows: 100, note: a.why })})`,
      ];
    case 'top_rows':
      return [
        `frame = data.${t.ascending ? 'nsmallest' : 'nlargest'}(${t.n}, ${py(t.sort_by)})`,
        `declare_table(frame, ${kwargs({ title: a.title, max_rows: t.n, note: a.why })})`,
      ];
  }
}

const HEADER = `import json as _json
import sys as _sys

import opsmind_insights as _ins
import opsmind_semantic as _sem

_INSIGHTS, _FAILED = [], []
QUIET_ROWS = ${QUIET_ROWS}


def _insight(n, found):
    for item in found:
        _INSIGHTS.append(dict(item, analysis=n))


def _quotient_parts(data, numerator, denominator):
    """A quotient's parts on the rows that have both (compile-plan.ts quotientFor): "n" and "d"."""
    both = data[numerator].notna() & data[denominator].notna()
    return pd.DataFrame({"n": data[numerator].where(both), "d": data[denominator].where(both)})


def _quotient(parts, scale):
    """scale × numerator ÷ denominator of each group's totals; NaN where the denominator's is 0."""
    with np.errstate(all="ignore"):
        return float(scale) * parts["n"] / parts["d"].where(parts["d"] != 0)


def _grouped_quotient(grouped, scale):
    """_quotient of a groupby of data with its parts as __opsmind_n and __opsmind_d (a resample)."""
    parts = grouped[["__opsmind_n", "__opsmind_d"]].sum(min_count=1)
    parts.columns = ["n", "d"]
    return _quotient(parts, scale)


def _describe(data):
    """describe(include="all"), its quartiles of a column holding infinities by sorted_quantiles: numpy
    says NaN for the 75% of -inf, 0.5, 1.5, 2.5 and inf, which is 2.5."""
    frame = data.describe(include="all").T.rename_axis("column")
    for name in data.columns:
        if not pd.api.types.is_float_dtype(data[name].dtype):
            continue
        x = np.sort(data[name].dropna().to_numpy(dtype=float))
        if len(x) and np.isinf(x).any():
            frame.loc[name, ["25%", "50%", "75%"]] = _ins.sorted_quantiles(x, (0.25, 0.5, 0.75))
    return frame


def _quiet(data, present, periods, empty, freq):
    """Whether an event log's empty periods are quiet ones: fewer than QUIET_ROWS rows a period on
    average, some period holding two or more (one row in each period it has is a series with
    periods missing), and no more empty periods than chance leaves at that rate (Poisson: twice
    the expected number, plus 2)."""
    rows = data[data[present].notna().all(axis=1)]
    if not periods or len(rows) >= QUIET_ROWS * periods:
        return False
    if empty > 2 * periods * np.exp(-len(rows) / periods) + 2:
        return False
    return int(rows.groupby(pd.Grouper(key=present[0], freq=freq)).size().max()) >= 2


def _step(found):
    """The data's own spacing, in periods: the gcd of the places of the periods with rows, when
    three or more have rows (else 1)."""
    places = np.flatnonzero(found)
    return max(int(np.gcd.reduce(places)), 1) if len(places) >= 3 else 1


def _on_calendar(dates, found, freq):
    """Which periods of a span are on the data's calendar: at its own spacing (every 5 years for a
    census), and for days of a business calendar (rows on weekdays only, over two weekends or more)
    weekdays only."""
    keep = np.arange(len(dates)) % _step(found) == 0
    if freq == "D":
        weekend = pd.DatetimeIndex(dates).dayofweek.to_numpy() >= 5
        if weekend.sum() >= 4 and not (found & weekend).any():
            keep &= ~weekend
    return keep


def _spaced(frame, found, date, freq):
    """A resample's periods on the data's calendar, and which of them have no rows."""
    keep = _on_calendar(frame[date], found, freq)
    return frame[keep].reset_index(drop=True), ~found[keep]


def _empty_periods(frame, empty, y, quiet):
    """Periods without rows: 0 of a count or sum when they are quiet ones, else gaps (NaN)."""
    if quiet:
        frame.loc[empty, y] = 0
    else:
        frame[y] = frame[y].where(~empty)
    return frame


def _fill_gaps(frame, data, date, series, y, freq, zero, events):
    if frame.empty:
        return frame
    full = pd.date_range(frame[date].min(), frame[date].max(), freq=freq)
    calendar = full[_on_calendar(full, full.isin(frame[date]), freq)]
    parts = []
    for key, part in frame.groupby(series, sort=False):
        own = pd.date_range(part[date].min(), part[date].max(), freq=freq)
        part = part.assign(_found=True).set_index(date).reindex(own[own.isin(calendar)]).rename_axis(date).reset_index()
        part[series] = key
        parts.append(part)
    out = pd.concat(parts, ignore_index=True)
    if zero:
        # Counts, and sums of a category of rows: a period the series lacks holds none of it when
        # other series have rows then (or it is a quiet period of a sparse event log).
        quiet = events and _quiet(data, [date, series], len(calendar), int((~calendar.isin(frame[date])).sum()), freq)
        fill = out["_found"].isna() & (out[date].isin(frame[date]) | quiet)
        filled = out[y].mask(fill, 0)
        out[y] = filled.astype("int64") if pd.api.types.is_integer_dtype(frame[y].dtype) and filled.notna().all() else filled
    out = out[list(frame.columns)]
    return out.sort_values([date, series], kind="mergesort").reset_index(drop=True)


def _top_series(frame, date, series, y, n, additive):
    values = frame.groupby(series, sort=True)[y]
    weights = values.apply(lambda v: v.abs().sum()) if additive else values.mean()
    order = weights.sort_values(ascending=False, kind="mergesort", na_position="last")
    if len(order) <= n:
        return frame
    if additive:
        # A sum's own "Other" series ranks last: it joins the rest summed as "Other" (never two).
        own = order.index.map(lambda k: isinstance(k, str) and k == "Other").to_numpy(dtype=bool)
        order = pd.concat([order[~own], order[own]])
    inside = frame[series].isin(list(order.index[:n]))
    if not additive:
        return frame[inside].reset_index(drop=True)
    rest = frame[~inside].groupby(date, as_index=False)[y].sum(min_count=1)
    rest[series] = "Other"
    out = pd.concat([frame[inside], rest[list(frame.columns)]], ignore_index=True)
    return out.sort_values([date, series], kind="mergesort").reset_index(drop=True)


def _rebase(frame, date, series, y):
    wide = frame.pivot(index=date, columns=series, values=y)
    full = wide.dropna()
    if full.empty:
        raise ValueError("no period in which every series has a value: nothing to rebase on")
    start = full.index[0]
    base = wide.loc[start].replace(0, float("nan"))
    out = frame[frame[date] >= start].copy()
    out[y] = 100.0 * out[y].astype(float) / out[series].map(base)
    return out.reset_index(drop=True)


def _share(frame, date, y):
    # Each series' part (%) of its period's total over them all, "Other" too; no total, no part.
    whole = frame.groupby(date)[y].transform("sum")
    out = frame.copy()
    out[y] = 100.0 * out[y].astype(float) / whole.where(whole != 0)
    return out


_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


def _season_parts(data, date, measure, agg, cycle, blocks=False):
    """What a season averages ("v": each period's total for sums and counts, else each row's value) with its
    cycle keys (month 1-12, weekday 0-6, hour), and how it is aggregated per key; with blocks, each value's
    block too (for the test of the cycle within them)."""
    if not pd.api.types.is_datetime64_any_dtype(data[date]):
        raise TypeError(f'"{date}" holds {data[date].dtype}, not dates, so it has no seasons')
    rows = data[data[date].notna()]
    if measure is None or agg in ("sum", "count"):
        # Each period's total over the whole span (a period without rows: 0 rows, no sum), averaged per cycle value.
        unit = {"month": "MS", "weekday": "D", "hour": "h", "weekday_hour": "h"}[cycle]
        grouped = rows.groupby(pd.Grouper(key=date, freq=unit))
        per = grouped.size() if measure is None else grouped[measure].sum(min_count=1) if agg == "sum" else grouped[measure].count()
        when, values, how = pd.DatetimeIndex(per.index), per.astype(float).to_numpy(), "mean"
    else:
        when, values, how = pd.DatetimeIndex(rows[date]), rows[measure].to_numpy(), agg
    parts = pd.DataFrame({"v": values})
    for key in _SEASON_KEYS[cycle]:
        parts[key] = {"month": when.month, "weekday": when.dayofweek, "hour": when.hour}[key].to_numpy()
    if blocks:
        # The cycle's block: the year of a month, the week (from Monday) of a weekday, the day of an hour.
        day = when.normalize()
        parts["block"] = (when.year.to_numpy() if cycle == "month" else
                          (day - pd.to_timedelta(when.dayofweek, unit="D")).asi8 if cycle == "weekday" else day.asi8)
    return parts, how


_SEASON_KEYS = {"month": ["month"], "weekday": ["weekday"], "hour": ["hour"], "weekday_hour": ["weekday", "hour"]}


def _season_label(key, values):
    return [_MONTHS[m - 1] for m in values] if key == "month" else [_DAYS[d] for d in values] if key == "weekday" else values


def _season(data, date, measure, agg, cycle, quotient=None):
    y = "count" if measure is None else measure
    if quotient is None:
        parts, how = _season_parts(data, date, measure, agg, cycle)
        frame = parts.groupby(_SEASON_KEYS[cycle], sort=True)["v"].agg(how).reset_index().rename(columns={"v": y})
    else:
        # A quotient (numerator, denominator, scale): each month's (weekday's, hour's) totals' quotient.
        _season_parts(data, date, None, "count", cycle)  # the same check of the dates
        rows = data[data[date].notna()]
        when = pd.DatetimeIndex(rows[date])
        parts = _quotient_parts(rows, quotient[0], quotient[1]).reset_index(drop=True)
        for key in _SEASON_KEYS[cycle]:
            parts[key] = {"month": when.month, "weekday": when.dayofweek, "hour": when.hour}[key].to_numpy()
        totals = parts.groupby(_SEASON_KEYS[cycle], sort=True)[["n", "d"]].sum(min_count=1)
        frame = _quotient(totals, quotient[2]).reset_index(name=y)
    for key in _SEASON_KEYS[cycle]:
        frame[key] = _season_label(key, frame[key])
    return frame[["hour", "weekday", y]] if cycle == "weekday_hour" else frame


def _season_spread(data, date, measure, agg, cycle):
    """ranking_insights' keys and values of a season's mean: each cycle value's periods (rows), for the test of
    whether they differ, with each value's block (its year, week or day) for the test within the blocks."""
    parts, _ = _season_parts(data, date, measure, agg, cycle, blocks=True)
    key = _SEASON_KEYS[cycle][0]
    return {"keys": pd.Series(_season_label(key, parts[key]), index=parts.index), "values": parts["v"],
            "blocks": parts["block"], "block": {"month": "year", "weekday": "week", "hour": "day"}[cycle]}


def _failed(n, title, error):
    _FAILED.append({"analysis": n, "title": title, "error": f"{type(error).__name__}: {error}"})
    print(f"analysis {n} ({title}) failed: {type(error).__name__}: {error}", file=_sys.stderr)
`;

const FOOTER = `
with open("insights.json", "w", encoding="utf-8") as _out:
    _json.dump({"insights": _INSIGHTS, "failed": _FAILED}, _out, allow_nan=False, default=str)
`;

/** The program for a plan: cleaning, then one guarded block per analysis, then insights.json. */
export function compilePlan(
  plan: Plan,
  profile: DataProfile,
  planner: string,
  options: CompileOptions = {},
): string {
  const years = yearColumns(plan, profile);
  const grain = {
    entities: entityKeys(profile),
    events: eventLog(profile),
    scales: scalesOf(profile),
  };
  const blocks = plan.analyses.map((a, i) => {
    const n = i + 1;
    const body = [filterCode(a, years), ...analysisBody(a, n, grain)].map((line) => `    ${line}`);
    return [
      `# ${n}. ${oneLine(a.title)} (${a.chart})`,
      'try:',
      ...body,
      'except Exception as error:',
      `    _failed(${n}, ${py(a.title)}, error)`,
      '',
    ].join('\n');
  });
  const header = `# OpsMind fast mode: the analysis program for ${profile.source.name}, planned by the ${planner} planner.\n# Re-run it with: opsmind run <this file> --data ${profile.source.name}\n`;
  return [header, HEADER, ...cleaning(plan, profile, options), ...blocks, FOOTER].join('\n');
}
