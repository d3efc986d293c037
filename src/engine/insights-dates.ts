/**
 * Reading a trend's x values as timestamps (as_datetime in
 * preamble/opsmind_insights.py) and the spacing of a series
 * (infer_frequency in preamble/opsmind_semantic.py). Timestamps are epoch
 * milliseconds of their wall-clock time, read with UTC getters.
 *
 * Text is read in the ISO-8601 forms pandas' own parser takes ("2024",
 * "2024-01", "2024-01-05", "2024/1/5", "20240105", with an optional time and
 * offset); other spellings that pandas hands to dateutil ("Jan 5, 2024",
 * "05/01/2024") are not read.
 */
import { isMissing } from './insights-values.js';

const DAY = 86400;
/** The end of pandas' timestamp range, 2262-04-11 23:47:16.854: later dates are placeholders (9999-12-31), not data. */
const LIMIT_MS = 9223372036854.775;
/**
 * The first year read: earlier than pandas' first (1677-09-21), which the host's engine holds and
 * charts (wheat.json's prices from 1565), so its findings read them too; the Python versions,
 * given pandas' frames, never see such a date.
 */
const FIRST_YEAR = 1000;
const FIRST_MS = Date.UTC(FIRST_YEAR, 0, 1);
const FREQUENCIES: [string, number, number][] = [
  ['min', 54, 66],
  ['H', 3240, 3960],
  ['D', 0.9 * DAY, 1.1 * DAY],
  ['W', 6.5 * DAY, 7.5 * DAY],
  ['M', 27.5 * DAY, 31.5 * DAY],
  ['Q', 88 * DAY, 93 * DAY],
  ['Y', 360 * DAY, 370 * DAY],
];
const ISO = new RegExp(
  '^\\s*(\\d{4})(?:([-/.])(\\d{1,2})(?:\\2(\\d{1,2}))?|(\\d{2})(\\d{2}))?' +
    '(?:(?:[Tt]|\\s+)(\\d{1,2})(?::(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?)?' +
    '(?:\\s*(z|Z|[+-]\\d{1,2}(?::?\\d{2})?))?)?\\s*$',
);

/** A parsed timestamp and its UTC offset in minutes (null when it names none). */
interface Stamp {
  wallMs: number;
  offset: number | null;
}

function offsetMinutes(text: string | undefined): number | null {
  if (text === undefined || text === 'z') return null;
  if (text === 'Z') return 0;
  const [, sign = '+', hours = '0', minutes = '0'] = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(text) ?? [];
  const total = Number(hours) * 60 + Number(minutes);
  return sign === '-' ? -total : total;
}

/** One ISO-style date string, or null when it does not parse (or lies before FIRST_YEAR or past pandas' range). */
function parseIso(text: string): Stamp | null {
  const m = ISO.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[3] ?? m[5] ?? 1), Number(m[4] ?? m[6] ?? 1)];
  const [hour, minute, second] = [Number(m[7] ?? 0), Number(m[8] ?? 0), Number(m[9] ?? 0)];
  const fraction = Number(`0.${(m[10] ?? '0').slice(0, 9)}`);
  if (year < FIRST_YEAR || year > 2300 || month < 1 || hour > 23 || minute > 59 || second > 59)
    return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second) + fraction * 1000;
  const offset = offsetMinutes(m[11]);
  const instant = wallMs - (offset ?? 0) * 60000;
  return instant >= FIRST_MS && instant <= LIMIT_MS ? { wallMs, offset } : null;
}

/** Wall-clock times when every stamp has the same offset (or none), UTC instants otherwise (pandas' utc=True retry). */
function toWallTimes(stamps: (Stamp | null)[]): (number | null)[] {
  const offsets = new Set(stamps.filter((s) => s !== null).map((s) => s.offset));
  const mixed = offsets.size > 1;
  return stamps.map((s) => (s === null ? null : s.wallMs - (mixed ? (s.offset ?? 0) * 60000 : 0)));
}

function dateValue(value: unknown): Stamp | null {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isNaN(ms) || ms < FIRST_MS || ms > LIMIT_MS ? null : { wallMs: ms, offset: null };
  }
  return typeof value === 'string' ? parseIso(value) : null;
}

/** The text of a value as astype(str) writes it, without a trailing ".0". */
function yearText(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : 'x';
  if (typeof value === 'bigint') return value.toString();
  return typeof value === 'string' ? value.replace(/\.0$/, '') : 'x';
}

function isYear(value: unknown): boolean {
  const text = yearText(value);
  return /^\d{4}$/.test(text) && Number(text) >= 1000 && Number(text) <= 2999;
}

/** January 1 of a year from FIRST_YEAR to pandas' last whole year, or null (to_datetime(format="%Y", errors="coerce")). */
function yearStamp(value: unknown): number | null {
  const year = Number(yearText(value));
  if (isMissing(value) || year < FIRST_YEAR || year > 2262) return null;
  return Date.UTC(year, 0, 1);
}

/**
 * The values as timestamps (null where one does not parse): dates, ISO date
 * strings, or years (2023 or "2023"); null when most do not parse (under 90%
 * of the present values), or the values are other numbers or booleans.
 */
export function asDatetime(values: readonly unknown[]): (number | null)[] | null {
  const present = values.filter((v) => !isMissing(v));
  if (present.length === 0 || present.every((v) => typeof v === 'boolean')) return null;
  if (present.every((v) => v instanceof Date)) return toWallTimes(values.map(dateValue));
  if (present.every(isYear)) return values.map(yearStamp);
  if (present.every((v) => typeof v === 'number' || typeof v === 'bigint')) return null;
  const parsed = toWallTimes(values.map((v) => (isMissing(v) ? null : dateValue(v))));
  const read = parsed.filter((stamp, i) => stamp !== null && !isMissing(values[i])).length;
  return read / present.length >= 0.9 ? parsed : null;
}

/** The median of sorted values, as np.median. */
function median(sorted: readonly number[]): number {
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? NaN;
  return sorted.length % 2 ? upper : ((sorted[middle - 1] ?? NaN) + upper) / 2;
}

/**
 * pandas alias of the typical (median) spacing of the sorted unique
 * timestamps (epoch ms): 'min', 'H', 'D', 'W', 'M', 'Q' or 'Y'; null below
 * three stamps or when under half the gaps fit that spacing.
 */
export function inferFrequency(stampsMs: readonly number[]): string | null {
  const unique = [...new Set(stampsMs.filter((s) => Number.isFinite(s)))].sort((a, b) => a - b);
  if (unique.length < 3) return null;
  const gaps = unique.slice(1).map((s, i) => (s - (unique[i] ?? 0)) / 1000);
  const typical = median([...gaps].sort((a, b) => a - b));
  for (const [alias, low, high] of FREQUENCIES) {
    if (low <= typical && typical <= high) {
      const fitting = gaps.filter((g) => g >= low && g <= high).length;
      return fitting / gaps.length >= 0.5 ? alias : null;
    }
  }
  return null;
}
