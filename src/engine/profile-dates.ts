/**
 * Dates for the profile: how text dates parse (as pandas 1.x's `to_datetime` with format
 * inference does), their span, and the typical spacing of the unique timestamps
 * (opsmind_semantic.infer_frequency), both in SQL over the whole column and in plain TypeScript.
 */
import type { ColumnProfile } from '../agent/profile.js';
import { literal } from './duckdb.js';
import { sqlDouble } from './profile-columns.js';

/** A pandas offset alias of a typical spacing. */
export type Frequency = 'min' | 'H' | 'D' | 'W' | 'M' | 'Q' | 'Y';
/** The date statistics of a column, as the profile contract holds them. */
export type DateStats = NonNullable<ColumnProfile['datetime']>;

const DAY = 86400;
/** Each alias with the band of gaps (seconds) that counts as it. */
export const FREQUENCIES: readonly { alias: Frequency; low: number; high: number }[] = [
  { alias: 'min', low: 54, high: 66 },
  { alias: 'H', low: 3240, high: 3960 },
  { alias: 'D', low: 0.9 * DAY, high: 1.1 * DAY },
  { alias: 'W', low: 6.5 * DAY, high: 7.5 * DAY },
  { alias: 'M', low: 27.5 * DAY, high: 31.5 * DAY },
  { alias: 'Q', low: 88 * DAY, high: 93 * DAY },
  { alias: 'Y', low: 360 * DAY, high: 370 * DAY },
];

/** The alias whose band holds the median gap, provided at least half the gaps fall in it. */
export function pickFrequency(median: number, shareIn: (band: number) => number): Frequency | null {
  const band = FREQUENCIES.findIndex(({ low, high }) => low <= median && median <= high);
  const found = FREQUENCIES[band];
  return found && shareIn(band) >= 0.5 ? found.alias : null;
}

/**
 * The typical spacing of timestamps (epoch milliseconds): the band of their median gap, when at
 * least half the gaps fall in it; null for fewer than three distinct stamps or irregular ones.
 */
export function inferFrequency(stamps: readonly number[]): Frequency | null {
  const unique = [...new Set(stamps.filter(Number.isFinite))].sort((a, b) => a - b);
  if (unique.length < 3) return null;
  const gaps = unique.slice(1).map((stamp, i) => (stamp - (unique[i] ?? stamp)) / 1000);
  const sorted = [...gaps].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return pickFrequency(median, (band) => {
    const { low, high } = FREQUENCIES[band] ?? { low: 0, high: -1 };
    return gaps.filter((gap) => gap >= low && gap <= high).length / gaps.length;
  });
}

const MONTHS = [
  ['Jan', 'January'],
  ['Feb', 'February'],
  ['Mar', 'March'],
  ['Apr', 'April'],
  ['May', 'May'],
  ['Jun', 'June'],
  ['Jul', 'July'],
  ['Aug', 'August'],
  ['Sep', 'September'],
  ['Oct', 'October'],
  ['Nov', 'November'],
  ['Dec', 'December'],
];

/** %B or %b for a month name written exactly as strftime writes it (pandas tries %B first). */
function monthFormat(word: string): string | null {
  if (MONTHS.some(([, full]) => full === word)) return '%B';
  return MONTHS.some(([short]) => short === word) ? '%b' : null;
}

const NUMERIC_DATE = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const NAMED_DATES: readonly [RegExp, (month: string) => string][] = [
  [/^([A-Z][a-z]+) (\d{1,2}), \d{4}$/, (m) => `${m} %d, %Y`],
  [/^([A-Z][a-z]+) (\d{1,2}) \d{4}$/, (m) => `${m} %d %Y`],
  [/^(\d{1,2}) ([A-Z][a-z]+) \d{4}$/, (m) => `%d ${m} %Y`],
  [/^(\d{1,2})-([A-Z][a-z]+)-\d{4}$/, (m) => `%d-${m}-%Y`],
  [/^([A-Z][a-z]+)-(\d{1,2})-\d{4}$/, (m) => `${m}-%d-%Y`],
  [/^\d{4} ([A-Z][a-z]+) (\d{1,2})$/, (m) => `%Y ${m} %d`],
];

function numericDateFormat(text: string): string | null {
  const match = NUMERIC_DATE.exec(text);
  if (!match) return null;
  const [, a = '0', sep = '/', b = '0', , hour, minute, second] = match;
  const [first, next] = [Number(a), Number(b)];
  if (first === 0 || next === 0) return null;
  const date =
    first <= 12 && next <= 31
      ? `%m${sep}%d${sep}%Y`
      : first <= 31 && next <= 12
        ? `%d${sep}%m${sep}%Y`
        : null;
  if (!date || hour === undefined) return date;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return null;
  return `${date} %H:%M${second === undefined ? '' : ':%S'}`;
}

/**
 * The strict format pandas infers from a column's first value when that format is not ISO-like
 * (05/31/2024, Jan 5, 2024…): values that do not match it do not parse. Null when pandas parses
 * each value on its own (ISO-like dates, or a first value it cannot guess a format from).
 */
export function guessDateFormat(text: string): string | null {
  const numeric = numericDateFormat(text);
  if (numeric) return numeric;
  for (const [pattern, build] of NAMED_DATES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const word = match.slice(1).find((part) => /^[A-Z]/.test(part)) ?? '';
    const day = Number(match.slice(1).find((part) => /^\d/.test(part)) ?? 0);
    const month = monthFormat(word);
    return month && day >= 1 && day <= 31 ? build(month) : null;
  }
  return null;
}

// Two-digit years first: %Y would read "23" as the year 23, while %y refuses four digits.
const LENIENT_DATES = [
  ...['/', '-', '.'].flatMap((sep) => [`%m${sep}%d${sep}%y`, `%d${sep}%m${sep}%y`]),
  // Jira's 03/Jan/24 as dateutil reads it: the day first, around a month's name.
  ...['%b', '%B'].flatMap((m) => [`%d-${m}-%y`, `%d ${m} %y`, `${m} %d, %y`, `%d/${m}/%y`]),
  ...['-', '/', '.'].map((sep) => `%Y${sep}%m${sep}%d`),
  ...['/', '-', '.'].flatMap((sep) => [`%m${sep}%d${sep}%Y`, `%d${sep}%m${sep}%Y`]),
  ...['%b', '%B'].flatMap((m) => [
    `${m} %d, %Y`,
    `${m} %d %Y`,
    `%d ${m} %Y`,
    `%d-${m}-%Y`,
    `%d/${m}/%Y`,
  ]),
  ...['%b', '%B'].map((m) => `${m}-%d-%Y`),
  ...['%b', '%B'].flatMap((m) => [`%Y ${m} %d`, `%a, %d ${m} %Y`, `%A, ${m} %d, %Y`]),
];
const LENIENT_TIMES = ['', ' %H:%M', ' %H:%M:%S', ' %H:%M:%S.%f', ' %I:%M %p', ' %I:%M:%S %p'];
// Not '%b-%y': pandas reads "Jan-23" as no date (a column of them only is read as months, source-labels.ts).
const LENIENT_PARTS = [
  ...['%Y-%m', '%Y/%m', '%b %Y', '%B %Y', '%b-%Y', '%B-%Y'],
  // A time of day alone, on 1900-01-01 (opsmind_semantic.on_one_day): 06:00, 6:05 PM.
  ...['%H:%M', '%H:%M:%S', '%H:%M:%S.%f', '%I:%M %p', '%I:%M:%S %p'],
];
// A month's name, the day, the year and a comma before the time, as Strava writes its activities.
const COMMA_STAMPS = ['%b', '%B'].flatMap((m) =>
  [', %I:%M:%S %p', ', %I:%M %p', ', %H:%M:%S', ', %H:%M'].map((t) => `${m} %d, %Y${t}`),
);
const LENIENT_FORMATS = [
  ...LENIENT_DATES.flatMap((date) => LENIENT_TIMES.map((time) => date + time)),
  ...COMMA_STAMPS,
  ...LENIENT_PARTS,
];
// pandas' nanosecond timestamps: anything outside does not parse.
const BOUNDS = "TIMESTAMP '1677-09-22' AND TIMESTAMP '2262-04-11'";

/**
 * A text expression parsed to TIMESTAMP (NULL where it does not parse): strictly with the inferred
 * format, else each value on its own — ISO text by cast, the rest by the common formats dateutil reads.
 */
export function dateParseSql(text: string, format: string | null): string {
  const parsed = format
    ? `try_strptime(${text}, ${literal(format)})`
    : `coalesce(CASE WHEN regexp_matches(${text}, '^\\s*\\d{4}-') THEN TRY_CAST(${text} AS TIMESTAMP) END, ` +
      `try_strptime(${text}, [${LENIENT_FORMATS.map(literal).join(', ')}]), ${quarterSql(text)})`;
  return parsed;
}

/** A year's quarter as pandas reads it (1974Q1, 1974-q3): its first day; NULL for other text. */
export function quarterSql(text: string): string {
  const t = `trim(CAST(${text} AS VARCHAR))`;
  return (
    `CASE WHEN regexp_matches(${t}, '^\\d{4}-?[Qq][1-4]$') THEN make_timestamp(` +
    `CAST(left(${t}, 4) AS BIGINT), (CAST(right(${t}, 1) AS BIGINT) - 1) * 3 + 1, 1, 0, 0, 0) END`
  );
}

/** A parsed TIMESTAMP expression kept only inside pandas' range. */
export function boundedSql(timestamp: string): string {
  return `CASE WHEN ${timestamp} BETWEEN ${BOUNDS} THEN ${timestamp} END`;
}

/** Aggregates of a TIMESTAMP expression for `readDateScan`, aliased `<prefix>_…`. */
export function dateAggregates(timestamp: string, prefix: string): string[] {
  const iso = "'%Y-%m-%dT%H:%M:%S.%f'";
  return [
    `count(${timestamp}) AS ${prefix}_dn`,
    `strftime(min(${timestamp}), ${iso}) AS ${prefix}_dmin`,
    `strftime(max(${timestamp}), ${iso}) AS ${prefix}_dmax`,
    `epoch_us(max(${timestamp})) - epoch_us(min(${timestamp})) AS ${prefix}_dspan`,
  ];
}

/** What `dateAggregates` found: how many parsed, and the extremes in pandas' isoformat. */
export interface DateScan {
  parsed: number;
  min: string;
  max: string;
  spanDays: number;
}

/** A date scan read back; null when nothing parsed. `utc` adds pandas' "+00:00" to the extremes. */
export function readDateScan(
  row: Record<string, unknown>,
  prefix: string,
  utc: boolean,
): DateScan | null {
  const parsed = Number(row[`${prefix}_dn`] ?? 0);
  if (!(parsed > 0)) return null;
  const iso = (value: unknown): string =>
    String(value).replace(/\.000000$/, '') + (utc ? '+00:00' : '');
  return {
    parsed,
    min: iso(row[`${prefix}_dmin`]),
    max: iso(row[`${prefix}_dmax`]),
    spanDays: Number(row[`${prefix}_dspan`]) / 1e6 / DAY,
  };
}

/** One branch of the frequency query: gaps between a column's sorted distinct timestamps. */
export function frequencySql(key: number, timestamps: string): string {
  const bands = FREQUENCIES.map(
    ({ low, high }) => `count_if(g >= ${sqlDouble(low)} AND g <= ${sqlDouble(high)})`,
  );
  return (
    `SELECT ${key} AS k, count(g) AS n, quantile_cont(g, 0.5) AS median, [${bands.join(', ')}] AS bands ` +
    `FROM (SELECT (t - lag(t) OVER (ORDER BY t)) / 1e6 AS g FROM (SELECT DISTINCT epoch_us(ts) AS t ` +
    `FROM (${timestamps}) WHERE ts IS NOT NULL))`
  );
}

/** The frequency of one branch's result row (null for fewer than three distinct stamps). */
export function readFrequency(row: Record<string, unknown>): Frequency | null {
  const gaps = Number(row.n ?? 0);
  if (gaps < 2) return null;
  const bands = Array.isArray(row.bands) ? row.bands.map(Number) : [];
  return pickFrequency(Number(row.median), (band) => (bands[band] ?? 0) / gaps);
}

/** The DateStats of a scan and its frequency. */
export function dateStats(scan: DateScan, frequency: Frequency | null, share: number): DateStats {
  return {
    min: scan.min,
    max: scan.max,
    span_days: scan.spanDays,
    frequency,
    parse_share: share,
  };
}
