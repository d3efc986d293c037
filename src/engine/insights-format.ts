/**
 * How insight sentences write numbers and dates: a port of fmt_number,
 * fmt_pct, fmt_ratio and fmt_date in preamble/opsmind_insights.py. Fixed-point
 * text is computed from the exact binary value of the double and rounded half
 * to even, as Python's format() does; JS toFixed rounds ties away from zero
 * (0.125 → "0.13" where Python writes "0.12") and turns to exponents past 1e21.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const FLOAT = new Float64Array(1);
const BITS = new BigUint64Array(FLOAT.buffer);

/** Sign, integer mantissa and binary exponent of a finite double: x = ±mantissa × 2^exponent exactly. */
function exactParts(x: number): { negative: boolean; mantissa: bigint; exponent: number } {
  FLOAT[0] = x;
  const bits = BITS[0] ?? 0n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const negative = bits >> 63n === 1n;
  return biased === 0
    ? { negative, mantissa: fraction, exponent: -1074 }
    : { negative, mantissa: fraction | (1n << 52n), exponent: biased - 1075 };
}

/** Digits of a non-negative integer text with a comma between each group of three. */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/**
 * `x` with `decimals` digits after the point, as Python's f"{x:.{decimals}f}"
 * (or f"{x:,.{decimals}f}" with `grouping`): exact, ties to even, "-" kept on
 * negative zero, "nan"/"inf"/"-inf" for non-finite values.
 */
export function pyFixed(x: number, decimals: number, grouping = false): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const { negative, mantissa, exponent } = exactParts(x);
  const scale = 10n ** BigInt(decimals);
  let scaled: bigint;
  if (exponent >= 0) {
    scaled = (mantissa << BigInt(exponent)) * scale;
  } else {
    const numerator = mantissa * scale;
    const denominator = 1n << BigInt(-exponent);
    scaled = numerator / denominator;
    const twice = (numerator - scaled * denominator) * 2n;
    if (twice > denominator || (twice === denominator && (scaled & 1n) === 1n)) scaled += 1n;
  }
  const text = scaled.toString().padStart(decimals + 1, '0');
  const whole = text.slice(0, text.length - decimals);
  const fraction = decimals > 0 ? `.${text.slice(text.length - decimals)}` : '';
  return `${negative ? '-' : ''}${grouping ? groupThousands(whole) : whole}${fraction}`;
}

/**
 * 1,234,567 / 12.3 / 0.0123: thousands separators, about three significant
 * digits below 1,000 (fmt_number). Throws a RangeError on NaN or infinity, as
 * the Python raises; the insight functions turn that into no insight.
 */
export function fmtNumber(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x} as a number`);
  if (Number.isInteger(x) && Math.abs(x) < 1e15) {
    return `${x < 0 ? '-' : ''}${groupThousands(String(Math.abs(x)))}`;
  }
  if (Math.abs(x) >= 999.5) return pyFixed(x, 0, true);
  const decimals = Math.min(10, Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x)))));
  const text = pyFixed(x, decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A calendar year, or a statistic of years: 1687, 1642.75 → "1643" (fmt_year). */
export function fmtYear(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x} as a year`);
  return pyFixed(x, 0);
}

/** A fraction as a percentage: 0.126 → "12.6%", 12.5 → "1,250%" (fmt_pct). */
export function fmtPct(fraction: number): string {
  const value = fraction * 100;
  return Math.abs(value) >= 100 ? `${pyFixed(value, 0, true)}%` : `${pyFixed(value, 1)}%`;
}

/** A ratio: 1.4× below ten, 12× or 1,234× from ten up (fmt_ratio). */
export function fmtRatio(ratio: number): string {
  // Below 1.1 with two decimals: 69.1 against 67.2 is "1.03×", not a "1.0×" that reads as equal.
  if (ratio >= 1 && ratio < 1.1) return `${pyFixed(ratio, 2)}×`;
  return ratio < 10 ? `${pyFixed(ratio, 1)}×` : `${pyFixed(ratio, 0, true)}×`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * A timestamp (epoch milliseconds of its wall-clock time, or a Date) at the
 * grain of its series: "2024", "Q4 2024", "Dec 2024", "Dec 5, 2024",
 * "Dec 5, 2024 14:00" (fmt_date). Throws a RangeError on an invalid time.
 */
export function fmtDate(stamp: number | Date, frequency: string | null = null): string {
  const date = new Date(stamp instanceof Date ? stamp.getTime() : stamp);
  if (Number.isNaN(date.getTime())) throw new RangeError('cannot format an invalid date');
  const year = date.getUTCFullYear();
  const month = MONTHS[date.getUTCMonth()] ?? '';
  if (frequency === 'Y') return String(year);
  if (frequency === 'Q') return `Q${Math.floor(date.getUTCMonth() / 3) + 1} ${year}`;
  if (frequency === 'M') return `${month} ${year}`;
  const day = `${month} ${date.getUTCDate()}, ${year}`;
  const [hour, minute] = [date.getUTCHours(), date.getUTCMinutes()];
  if (frequency === 'H' || frequency === 'min' || (frequency === null && (hour || minute))) {
    return `${day} ${pad2(hour)}:${pad2(minute)}`;
  }
  return day;
}

/** The text with its first character upper-cased (by code point, as Python's str.upper). */
export function capital(text: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toUpperCase() + text.slice(head.length);
}
