/** Sorting a profile's columns into the roles an analyst's rules use, and picking a time frequency. */
import type { ColumnProfile, DataProfile } from './profile.js';

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
const DATE_HINTS = /date|time|day|month|week|period|timestamp/i;
const NOT_A_MEASURE = /(^|_)(id|year|yr|zip|postal|code|lat|lon|latitude|longitude|phone)$/i;

/** The columns of a profile sorted into the roles the rules use. */
export interface Roles {
  dates: ColumnProfile[];
  measures: ColumnProfile[];
  categories: ColumnProfile[];
}

function spread(c: ColumnProfile): number {
  const s = c.numeric ?? c.numeric_text?.stats;
  if (!s || s.std === null || s.mean === 0) return 0;
  return Math.abs(s.std / s.mean);
}

/** Sorts columns into dates, measures (most important first) and chartable categories. */
export function roles(profile: DataProfile): Roles {
  const usable = profile.column_profiles.filter((c) => c.missing_share < 0.95);
  const dates = usable
    .filter((c) => c.semantic === 'datetime' && (c.datetime?.span_days ?? 0) > 0)
    .sort((a, b) => Number(DATE_HINTS.test(b.name)) - Number(DATE_HINTS.test(a.name)));
  const measures = usable
    .filter(
      (c) =>
        (c.semantic === 'numeric' || c.semantic === 'numeric_text') &&
        !NOT_A_MEASURE.test(c.name) &&
        c.distinct > 2,
    )
    // A mostly-missing measure never leads, whatever its name: half the rows would be silent.
    .sort(
      (a, b) =>
        Number(a.missing_share > 0.5) - Number(b.missing_share > 0.5) ||
        tier(a.name) - tier(b.name) ||
        spread(b) - spread(a),
    );
  const categories = usable
    .filter(
      (c) =>
        (c.semantic === 'category' || c.semantic === 'boolean') &&
        c.distinct >= 2 &&
        c.distinct <= 50,
    )
    .sort((a, b) => score(a) - score(b));
  return { dates, measures, categories };
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

type Period = 'H' | 'D' | 'W' | 'M' | 'Q' | 'Y';
/** Periods from the finest to the coarsest. */
const PERIOD_ORDER: readonly Period[] = ['H', 'D', 'W', 'M', 'Q', 'Y'];

/** Measures that are levels, rates or prices rather than amounts: summing them means nothing, so they are averaged. */
const INTENSIVE =
  /(^|_)(pm\d+|no2|o3|so2|co|aqi|temp|temperature|humid|humidity|rate|ratio|pct|percent|share|score|rating|price|speed|latency|duration|age|level|concentration|avg|mean|density|pressure|margin)(_|$)|_c$|_ms$|_pct$/i;

/** How an analyst aggregates a measure per group or period: sum for amounts, mean for levels and rates. */
export function aggFor(measure: ColumnProfile | undefined): 'sum' | 'mean' | 'count' {
  if (!measure) return 'count';
  if (measure.numeric_text?.style === 'percent' || INTENSIVE.test(measure.name)) return 'mean';
  return 'sum';
}
