/** Sorting a profile's columns into the roles an analyst's rules use, and picking a time frequency. */
import type { ColumnProfile, DataProfile } from './profile.js';
import { aggregationFor, roleOf, semanticsOf } from './semantics.js';
import type { Role, Semantics } from './semantics.js';
import { ADDITIVE_WORDS, integral, named } from './semantics-evidence.js';
import { frequencyFor, PERIOD_DAYS, PERIOD_ORDER, PERIOD_WORD } from './periods.js';
import type { Period } from './periods.js';

export { frequencyFor, PERIOD_DAYS, PERIOD_ORDER, PERIOD_WORD } from './periods.js';
export type { Period } from './periods.js';

/** Measure names in the order an analyst reaches for them: money first, then prices, then quantities. */
const MEASURE_TIERS = [
  /revenue|sales|turnover|income|profit|amount|total|spend|gmv|margin/i,
  /price|cost|value|fee|salary|wage/i,
  /units|qty|quantity|count|volume|orders|visits|users|sessions/i,
  /score|rating|duration|latency|time_ms|pm25|pm10|temperature|concentration|level|magnitude|^mag$/i,
];

function tier(name: string): number {
  const index = MEASURE_TIERS.findIndex((re) => re.test(name));
  return index < 0 ? MEASURE_TIERS.length : index;
}

/** The columns of a profile sorted into the roles the rules use. */
export interface Roles {
  /** The time columns: dates, or the year column that is the table's time. */
  dates: ColumnProfile[];
  measures: ColumnProfile[];
  categories: ColumnProfile[];
  /** Categories with too many members to chart as groups, repeated enough to rank (top 10). */
  rankings: ColumnProfile[];
  semantics: Semantics;
}

function spread(c: ColumnProfile): number {
  const s = c.numeric ?? c.numeric_text?.stats;
  if (!s || s.std === null || s.mean === 0) return 0;
  return Math.abs(s.std / s.mean);
}

/** A value written as a date: 31.12.2024, 12/31/24, 2024-12-31. */
const DATE_LIKE = /^(\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|\d{4}-\d{2}-\d{2})([ T].*)?$/;

const MEASURE_ROLES: ReadonlySet<Role> = new Set([
  'amount',
  'count',
  'stock',
  'level',
  'ratio',
  'cumulative',
]);
const ADDITIVE_ROLES: ReadonlySet<Role> = new Set(['amount', 'count', 'stock']);

/** A handful of whole numbers: a discrete attribute, not a measurement. */
const discrete = (c: ColumnProfile): boolean => c.distinct <= 8 && integral(c);

/** Sorts columns into dates, measures (most important first) and chartable categories, by their roles. */
export function roles(profile: DataProfile): Roles {
  const semantics = semanticsOf(profile);
  const role = (c: ColumnProfile): Role | undefined => roleOf(semantics, c.name)?.role;
  const usable = profile.column_profiles.filter((c) => c.missing_share < 0.95);
  const time = semantics.table.time;
  const dates = usable
    .filter(
      (c) =>
        (c.semantic === 'datetime' && (c.datetime?.span_days ?? 0) > 0) ||
        (time?.kind === 'year' && c.name === time.column),
    )
    .sort((a, b) => Number(b.name === time?.column) - Number(a.name === time?.column));
  // In one row per event the rows are the leading count: a count per event leads only when its
  // name says what it counts (units, passengers). A number of stations per earthquake, summed per
  // day, is no figure anyone reads first; the events per day and their magnitude are.
  const leadsAdditive = (c: ColumnProfile): boolean =>
    ADDITIVE_ROLES.has(role(c) ?? 'level') &&
    !(semantics.table.grain === 'event' && role(c) === 'count' && !named(c.name, ADDITIVE_WORDS));
  // Zero on most of its rows (refunds beside the payments): it leads no other measure of its
  // kind, whose values most rows hold.
  const mostlyZero = (c: ColumnProfile): boolean => {
    const s = c.numeric ?? c.numeric_text?.stats;
    return s !== null && s !== undefined && s.zeros * 2 > profile.rows - c.missing;
  };
  const measures = usable
    .filter(
      (c) =>
        (c.semantic === 'numeric' || c.semantic === 'numeric_text') &&
        MEASURE_ROLES.has(role(c) ?? 'code') &&
        c.distinct > 2,
    )
    // A mostly-missing measure never leads, whatever its name: half the rows would be silent.
    // Amounts an analyst adds up lead, before those zero on most rows; a handful of whole numbers (a visit's number, a rating
    // 1–5) never leads a measurement; then the name's tier, then the spread.
    .sort(
      (a, b) =>
        Number(a.missing_share > 0.5) - Number(b.missing_share > 0.5) ||
        Number(!leadsAdditive(a)) - Number(!leadsAdditive(b)) ||
        Number(mostlyZero(a)) - Number(mostlyZero(b)) ||
        Number(discrete(a)) - Number(discrete(b)) ||
        tier(a.name) - tier(b.name) ||
        spread(b) - spread(a),
    );
  // A code beside its name draws the name's charts again: only the name is charted.
  const aliased = new Set((semantics.aliases ?? []).map((a) => a.column));
  const categories = usable
    .filter(
      (c) =>
        !aliased.has(c.name) &&
        (c.semantic === 'category' || c.semantic === 'boolean') &&
        (role(c) === 'category' || role(c) === 'code') &&
        c.distinct >= 2 &&
        c.distinct <= 50,
    )
    .sort((a, b) => score(a) - score(b));
  const rankings = usable
    .filter(
      (c) =>
        !aliased.has(c.name) &&
        (c.semantic === 'category' || c.semantic === 'text' || c.semantic === 'identifier') &&
        (role(c) === 'category' || c.name === semantics.table.entity) &&
        c.distinct > 50 &&
        c.distinct * 3 <= profile.rows &&
        c.missing_share < 0.5 &&
        // Dates the reader left as text (31.12.2024) are time, not members to rank.
        !c.top.some((t) => DATE_LIKE.test(t.value)),
    )
    .sort((a, b) => a.missing_share - b.missing_share || a.distinct - b.distinct);
  return { dates, measures, categories, rankings, semantics };
}

function score(c: ColumnProfile): number {
  // Prefer 3-12 levels and few missing values: the categories an analyst groups by first.
  const levels = c.distinct < 3 ? 20 : c.distinct <= 12 ? 0 : c.distinct;
  return levels + c.missing_share * 50;
}

/**
 * How an analyst aggregates a measure per group or period, from its role (semantics.ts): sum for
 * amounts and counts, mean for levels and ratios, the last value (max) of a running total; a stock
 * is summed only within one period. `spansTime`: the groups or periods hold several of the data's
 * periods. A measure holding infinities (±inf) is given its median: its sum, mean or max is
 * infinite (or NaN) in every group an infinity falls in, which no chart can draw.
 */
export function aggFor(
  measure: ColumnProfile | undefined,
  r: Pick<Roles, 'semantics'>,
  spansTime = true,
): 'sum' | 'mean' | 'median' | 'max' | 'count' {
  return measure?.infinite ? 'median' : roleAggFor(measure, r, spansTime);
}

/**
 * The aggregation the measure's role calls for (aggFor without the infinities): what the
 * planner reasons with, whichever statistic is then drawn.
 */
export function roleAggFor(
  measure: ColumnProfile | undefined,
  r: Pick<Roles, 'semantics'>,
  spansTime = true,
): 'sum' | 'mean' | 'max' | 'count' {
  return measure ? aggregationFor(roleOf(r.semantics, measure.name), spansTime) : 'count';
}

/** The data's own spacing as a plan frequency (null when irregular or unknown). */
export function timeFrequencyOf(date: ColumnProfile, r: Pick<Roles, 'semantics'>): Period | null {
  const time = r.semantics.table.time;
  if (time?.kind === 'year' && time.column === date.name) return 'Y';
  const seen = date.datetime?.frequency ?? null;
  return PERIOD_ORDER.includes(seen as Period) ? (seen as Period) : null;
}

/** The frequency to chart a time column at: sensible for its span, never finer than its own spacing. */
export function timeFrequency(date: ColumnProfile, r: Pick<Roles, 'semantics'>): Period {
  const own = timeFrequencyOf(date, r);
  if (own === 'Y') return 'Y';
  return frequencyFor(date.datetime?.span_days ?? 0, own, date.distinct);
}

/** The most points a line at the data's own spacing may have before it is charted coarser. */
const OWN_PERIODS_MAX = 3000;

/**
 * The frequency to chart a measure over a time column at. A stock (people unemployed this month)
 * summed over a coarser period counts the same people again and averaged it mixes entities, so
 * it is charted at the data's own spacing, summed across entities within each period, unless
 * that makes more than 3,000 points.
 */
export function measureFrequency(
  date: ColumnProfile,
  measure: ColumnProfile | undefined,
  r: Pick<Roles, 'semantics'>,
): Period {
  if (!measure || roleOf(r.semantics, measure.name)?.role !== 'stock')
    return timeFrequency(date, r);
  return ownFrequency(date, r);
}

/** The data's own period when its span holds few enough of them to draw each, else the chart's. */
export function ownFrequency(date: ColumnProfile, r: Pick<Roles, 'semantics'>): Period {
  const own = timeFrequencyOf(date, r);
  const chart = timeFrequency(date, r);
  if (own === null) return chart;
  const points = (date.datetime?.span_days ?? 0) / PERIOD_DAYS[own];
  return points <= OWN_PERIODS_MAX ? own : chart;
}

/** Whether a period at `freq` holds several of the data's own periods (or the data has no spacing). */
export function spansTime(date: ColumnProfile, freq: Period, r: Pick<Roles, 'semantics'>): boolean {
  const own = timeFrequencyOf(date, r);
  const grain = r.semantics.table.grain;
  if (grain === 'event' || grain === 'cross_section' || own === null) return true;
  return PERIOD_ORDER.indexOf(freq) > PERIOD_ORDER.indexOf(own);
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The start of the period (at `freq`) a UTC time falls in; weeks run Monday to Sunday, as pandas' "W". */
function periodStart(t: number, freq: Period): number {
  const d = new Date(t);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  switch (freq) {
    case 'H':
      return Math.floor(t / HOUR) * HOUR;
    case 'D':
      return Math.floor(t / DAY) * DAY;
    case 'W':
      return Math.floor(t / DAY) * DAY - ((d.getUTCDay() + 6) % 7) * DAY;
    case 'M':
      return Date.UTC(y, m, 1);
    case 'Q':
      return Date.UTC(y, m - (m % 3), 1);
    case 'Y':
      return Date.UTC(y, 0, 1);
  }
}

function nextPeriod(start: number, freq: Period): number {
  const d = new Date(start);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  switch (freq) {
    case 'H':
      return start + HOUR;
    case 'D':
      return start + DAY;
    case 'W':
      return start + 7 * DAY;
    case 'M':
      return Date.UTC(y, m + 1, 1);
    case 'Q':
      return Date.UTC(y, m + 3, 1);
    case 'Y':
      return Date.UTC(y + 1, 0, 1);
  }
}

/**
 * How many periods at `freq` the column's span touches, first to last (periods without rows
 * count), stopping once past `most`; null when the column has no span.
 */
export function periodsSpanned(date: ColumnProfile, freq: Period, most: number): number | null {
  const [min, max] = [date.datetime?.min, date.datetime?.max].map((v) =>
    v ? Date.parse(`${v.replace(' ', 'T').slice(0, 19)}Z`) : NaN,
  );
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max))
    return null;
  let periods = 0;
  for (let t = periodStart(min, freq); t <= max && periods <= most; t = nextPeriod(t, freq))
    periods += 1;
  return periods;
}

/** How far from a period's edge the data's first or last time may be, the period still full. */
function slack(own: Period | 'min' | null, freq: Period): number {
  if (own === 'min') return 60_000;
  if (own === 'H') return HOUR;
  // A week of daily data may end on a Friday or Saturday and still be whole (closed weekends).
  if (own === 'D') return freq === 'W' ? 2 * DAY : DAY;
  if (own === 'W') return 7 * DAY;
  if (own === 'M') return 31 * DAY;
  if (own === 'Q') return 92 * DAY;
  // Irregular times (events): a period is full if the data starts within its first day (hour).
  return freq === 'H' ? 0 : freq === 'D' ? HOUR : DAY;
}

const iso = (t: number): string => new Date(t).toISOString().slice(0, 19).replace('T', ' ');

/** The note for partial periods kept because they hold more rows than an average period. */
function kept(freq: Period, first: boolean, last: boolean): { filters: []; note: string } | null {
  if (!first && !last) return null;
  const unit = PERIOD_WORD[freq];
  const which =
    first && last
      ? `the first and the last ${unit} are`
      : `the ${first ? 'first' : 'last'} ${unit} is`;
  return {
    filters: [],
    note: `Per ${unit}, ${which} only partly covered but ${first && last ? 'hold' : 'holds'} more rows than an average ${unit}: kept in the charts`,
  };
}

/**
 * The rows the column's most frequent values put in the period starting at `start`: a lower
 * bound of the rows in it.
 */
function rowsIn(date: ColumnProfile, start: number, freq: Period): number {
  const end = nextPeriod(start, freq);
  return date.top.reduce((sum, t) => {
    const at = Date.parse(`${t.value.replace(' ', 'T').slice(0, 19)}Z`);
    return at >= start && at < end ? sum + t.count : sum;
  }, 0);
}

/**
 * The first and last periods at `freq` that the data covers only in part (a year of daily data
 * starting on a Wednesday has a short first week): the filters that leave them out, and a note.
 * Nothing when the periods are the data's own, or fewer than three full periods would remain. A
 * partial period that holds more rows than a period does on average (its most frequent values
 * alone show it: la-riots.csv's deaths, 36 in the last 2 days of April 1992) is where the events
 * are, not a short period: it is kept, and the note says so. Dates no more than the periods are
 * snapshots, one day a month: no period is partial.
 */
export function partialPeriods(
  date: ColumnProfile,
  freq: Period,
  r: Pick<Roles, 'semantics'>,
  rows = 0,
): { filters: { column: string; op: '>=' | '<'; value: string }[]; note: string } | null {
  const own = timeFrequencyOf(date, r);
  const seen = date.datetime?.frequency === 'min' ? 'min' : own;
  if (own !== null && PERIOD_ORDER.indexOf(freq) <= PERIOD_ORDER.indexOf(own)) return null;
  if (r.semantics.table.time?.kind === 'year' && r.semantics.table.time.column === date.name)
    return null;
  const [min, max] = [date.datetime?.min, date.datetime?.max].map((v) =>
    v ? Date.parse(`${v.replace(' ', 'T').slice(0, 19)}Z`) : NaN,
  );
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max))
    return null;
  const tolerance = slack(seen, freq);
  const firstStart = periodStart(min, freq);
  const lastStart = periodStart(max, freq);
  const shortFirst = min - firstStart >= tolerance && tolerance > 0;
  const shortLast = nextPeriod(lastStart, freq) - max > tolerance && tolerance > 0;
  if (!shortFirst && !shortLast) return null;
  let periods = 0;
  for (let t = firstStart; t <= lastStart && periods <= rows; t = nextPeriod(t, freq)) periods += 1;
  // No more dates than periods: snapshots (one day's orders a month), each period as covered as
  // the next, not a span whose first and last periods are cut short.
  if (date.distinct <= periods) return null;
  const average = (rows - date.missing) / Math.max(periods, 1);
  const busy = (start: number): boolean => rows > 0 && rowsIn(date, start, freq) > average;
  const [busyFirst, busyLast] = [shortFirst && busy(firstStart), shortLast && busy(lastStart)];
  const [partialFirst, partialLast] = [shortFirst && !busyFirst, shortLast && !busyLast];
  if (!partialFirst && !partialLast) return kept(freq, busyFirst, busyLast);
  const from = partialFirst ? nextPeriod(firstStart, freq) : firstStart;
  const to = partialLast ? lastStart : nextPeriod(lastStart, freq);
  let full = 0;
  for (let t = from; t < to && full < 3; t = nextPeriod(t, freq)) full += 1;
  if (full < 3) return null;
  const filters = [
    ...(partialFirst ? [{ column: date.name, op: '>=' as const, value: iso(from) }] : []),
    ...(partialLast ? [{ column: date.name, op: '<' as const, value: iso(to) }] : []),
  ];
  const which = [
    ...(partialFirst ? [`the first (the data starts ${iso(min).slice(0, 16)})`] : []),
    ...(partialLast ? [`the last (it ends ${iso(max).slice(0, 16)})`] : []),
  ].join(' and ');
  const unit = PERIOD_WORD[freq];
  return {
    filters,
    note: `Per ${unit}, ${which} ${unit} ${partialFirst && partialLast ? 'are' : 'is'} only partly covered: left out of the charts per ${unit}, so no trend compares a short ${unit} with a full one`,
  };
}
