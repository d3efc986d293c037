/** Sorting a profile's columns into the roles an analyst's rules use, and picking a time frequency. */
import type { ColumnProfile, DataProfile } from './profile.js';
import { aggregationFor, roleOf, semanticsOf } from './semantics.js';
import type { Role, Semantics } from './semantics.js';

/** Measure names in the order an analyst reaches for them: money first, then prices, then quantities. */
const MEASURE_TIERS = [
  /revenue|sales|turnover|income|profit|amount|total|spend|gmv|margin/i,
  /price|cost|value|fee|salary|wage/i,
  /units|qty|quantity|count|volume|orders|visits|users|sessions/i,
  /score|rating|duration|latency|time_ms|pm25|pm10|temperature|concentration|level/i,
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
  semantics: Semantics;
}

function spread(c: ColumnProfile): number {
  const s = c.numeric ?? c.numeric_text?.stats;
  if (!s || s.std === null || s.mean === 0) return 0;
  return Math.abs(s.std / s.mean);
}

const MEASURE_ROLES: ReadonlySet<Role> = new Set([
  'amount',
  'count',
  'stock',
  'level',
  'ratio',
  'cumulative',
]);
const ADDITIVE_ROLES: ReadonlySet<Role> = new Set(['amount', 'count', 'stock']);

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
  const measures = usable
    .filter(
      (c) =>
        (c.semantic === 'numeric' || c.semantic === 'numeric_text') &&
        MEASURE_ROLES.has(role(c) ?? 'code') &&
        c.distinct > 2,
    )
    // A mostly-missing measure never leads, whatever its name: half the rows would be silent.
    // Amounts an analyst adds up lead; then the name's tier, then the spread.
    .sort(
      (a, b) =>
        Number(a.missing_share > 0.5) - Number(b.missing_share > 0.5) ||
        Number(!ADDITIVE_ROLES.has(role(a) ?? 'level')) -
          Number(!ADDITIVE_ROLES.has(role(b) ?? 'level')) ||
        tier(a.name) - tier(b.name) ||
        spread(b) - spread(a),
    );
  const categories = usable
    .filter(
      (c) =>
        (c.semantic === 'category' || c.semantic === 'boolean') &&
        (role(c) === 'category' || role(c) === 'code') &&
        c.distinct >= 2 &&
        c.distinct <= 50,
    )
    .sort((a, b) => score(a) - score(b));
  return { dates, measures, categories, semantics };
}

function score(c: ColumnProfile): number {
  // Prefer 3-12 levels and few missing values: the categories an analyst groups by first.
  const levels = c.distinct < 3 ? 20 : c.distinct <= 12 ? 0 : c.distinct;
  return levels + c.missing_share * 50;
}

/** A sensible resampling frequency for a date span. */
export function frequencyFor(
  spanDays: number,
  observed: string | null,
): 'H' | 'D' | 'W' | 'M' | 'Q' | 'Y' {
  const bySpan =
    spanDays > 365 * 6
      ? 'Q'
      : spanDays > 365 * 1.5
        ? 'M'
        : spanDays > 90
          ? 'W'
          : spanDays > 3
            ? 'D'
            : 'H';
  // Never finer than the data's own spacing: yearly data charted per quarter shows three empty
  // quarters a year, and a finding then compares a year with a period that is not in the data.
  const seen = PERIOD_ORDER.indexOf(observed as Period);
  return seen > PERIOD_ORDER.indexOf(bySpan) ? (PERIOD_ORDER[seen] ?? bySpan) : bySpan;
}

export type Period = 'H' | 'D' | 'W' | 'M' | 'Q' | 'Y';
/** Periods from the finest to the coarsest. */
const PERIOD_ORDER: readonly Period[] = ['H', 'D', 'W', 'M', 'Q', 'Y'];

/**
 * How an analyst aggregates a measure per group or period, from its role (semantics.ts): sum for
 * amounts and counts, mean for levels and ratios, the last value (max) of a running total; a stock
 * is summed only within one period. `spansTime`: the groups or periods hold several of the data's
 * periods.
 */
export function aggFor(
  measure: ColumnProfile | undefined,
  r: Pick<Roles, 'semantics'>,
  spansTime = true,
): 'sum' | 'mean' | 'max' | 'count' {
  if (!measure) return 'count';
  return aggregationFor(roleOf(r.semantics, measure.name), spansTime);
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
  return frequencyFor(date.datetime?.span_days ?? 0, own);
}

/** Whether a period at `freq` holds several of the data's own periods (or the data has no spacing). */
export function spansTime(date: ColumnProfile, freq: Period, r: Pick<Roles, 'semantics'>): boolean {
  const own = timeFrequencyOf(date, r);
  const grain = r.semantics.table.grain;
  if (grain === 'event' || grain === 'cross_section' || own === null) return true;
  return PERIOD_ORDER.indexOf(freq) > PERIOD_ORDER.indexOf(own);
}
