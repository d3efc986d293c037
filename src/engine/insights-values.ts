/**
 * What the insight functions share: the finding they return, the guard that
 * turns any failure into no finding (never_raises), and how plain JS values
 * read as pandas would read them (numbers(), pd.to_numeric, str()).
 */
import { blankLabel } from '../util/blank-label.js';

/** A number-backed sentence: a Finding (shared/events.ts) without its analysis number. */
export interface Insight {
  text: string;
  kind: string;
  /** The finite values the sentence states, so a reader can check them. */
  numbers: Record<string, number>;
}

/** An insight keeping only the finite numbers (as _insight drops None, NaN and infinity). */
export function insight(
  text: string,
  kind: string,
  numbers: Record<string, number | null | undefined>,
): Insight {
  const safe: Record<string, number> = {};
  for (const [key, value] of Object.entries(numbers)) {
    if (typeof value === 'number' && Number.isFinite(value)) safe[key] = value;
  }
  return { text, kind, numbers: safe };
}

/** `fn`, returning [] instead of throwing: insights are extras, unusable input gives none. */
export function neverThrows<A extends unknown[]>(
  fn: (...args: A) => Insight[],
): (...args: A) => Insight[] {
  return (...args: A) => {
    try {
      return fn(...args);
    } catch {
      return [];
    }
  };
}

/** Missing as pandas sees it: null, undefined or NaN. */
export function isMissing(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === 'number' && Number.isNaN(value))
  );
}

const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
const SPECIAL_TEXT = /^([+-]?)(inf|infinity|nan)$/i;

/** A number from text as pd.to_numeric reads it ("12.5", "1e3", "-inf"); NaN when it is not one. */
function parseNumber(text: string): number {
  const trimmed = text.trim();
  if (NUMERIC_TEXT.test(trimmed)) return Number(trimmed);
  const special = SPECIAL_TEXT.exec(trimmed);
  if (!special) return NaN;
  if ((special[2] ?? '').toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

/** pd.to_numeric(errors="coerce") of one value: booleans count as 1 and 0, unreadable values as NaN. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return parseNumber(value);
  return NaN;
}

/** A measure as numbers() reads it: booleans and dates are not measures, so NaN. */
export function measure(value: unknown): number {
  return typeof value === 'boolean' ? NaN : toNumber(value);
}

/** Python's repr of a non-integral float: shortest digits, exponent form below 1e-4 and from 1e16. */
function floatRepr(x: number): string {
  const [mantissa = '', power = '0'] = x.toExponential().split('e');
  const exponent = Number(power);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(x);
}

/**
 * A value as str() writes it in pandas: None for null, nan/inf, True/False,
 * integral numbers as integers (an int column; a float column would say "3.0"),
 * other numbers as Python's float repr, dates as "2024-01-05 00:00:00", anything else as JSON.
 */
export function pyStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
    return Number.isInteger(value) ? BigInt(value).toString() : floatRepr(value);
  }
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    const text = value.toISOString().replace('T', ' ').replace('Z', '');
    return text.endsWith('.000') ? text.slice(0, -4) : `${text}000`;
  }
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

const OTHER = /^\(?\s*(other|others|all other|all others|rest|remaining)(?![\p{L}\p{N}_])/iu;
/** OTHER for DuckDB's regexp_matches (RE2, case-insensitive flag apart; its \b is ASCII's). */
export const OTHER_SQL = '^\\(?\\s*(other|others|all other|all others|rest|remaining)\\b';

/** "Other", "(others)", "All other", "Rest"…: a catch-all that never counts as a top category. */
export function isOther(name: unknown): boolean {
  return OTHER.test(pyStr(name).trim());
}

/** A group's name in a sentence: a number (or digits kept as text) with its column ("Pclass 3"), text that shows nothing named (blankLabel), else its value (pyStr). */
export function groupName(category: unknown, by?: string): string {
  // A code of digits kept as text (a FIPS or county code, "12077") names nothing alone either.
  const numeric =
    (typeof category === 'number' && Number.isFinite(category)) ||
    (typeof category === 'string' && /^[0-9]+$/.test(category));
  if (by && numeric) return `${by} ${pyStr(category)}`;
  return typeof category === 'string' ? blankLabel(category) : pyStr(category);
}
