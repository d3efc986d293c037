/**
 * How insight sentences write numbers and dates: a port of fmt_number,
 * fmt_pct, fmt_ratio and fmt_date in preamble/opsmind_insights.py. Fixed-point
 * text is computed from the exact binary value of the double and rounded half
 * to even, as Python's format() does; JS toFixed rounds ties away from zero
 * (0.125 → "0.13" where Python writes "0.12") and turns to exponents past 1e21.
 * A sentence's number is then rounded from its first GUARD digits past the
 * ones it shows (displayFixed), so that a value within float noise of a
 * decimal tie rounds as the tie: the two engines' -0.34349999999999997 and
 * -0.34350000000000003 (one quartile, interpolated in two orders) both read -0.344.
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

/** Digits past the shown ones that displayFixed reads before rounding. */
const GUARD = 9;

/**
 * `x` with `decimals` digits after the point, as pyFixed, but rounded half to even from its
 * first `decimals + GUARD` digits, not from its exact binary value: a double within 5e-(decimals +
 * GUARD) of a decimal tie is the tie (2.675, stored as 2.67499999999999982…, is "2.68", as
 * written), so a statistic two engines compute a last bit apart reads the same (fixed() in
 * opsmind_insights.py).
 */
export function displayFixed(x: number, decimals: number, grouping = false): string {
  if (!Number.isFinite(x)) return pyFixed(x, decimals, grouping);
  const wide = pyFixed(x, decimals + GUARD);
  const negative = wide.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? wide.slice(1) : wide).split('.');
  let scaled = BigInt(whole + fraction.slice(0, decimals));
  const rest = fraction.slice(decimals);
  const half = `5${'0'.repeat(GUARD - 1)}`;
  if (rest > half || (rest === half && scaled % 2n === 1n)) scaled += 1n;
  const text = scaled.toString().padStart(decimals + 1, '0');
  const head = text.slice(0, text.length - decimals);
  const tail = decimals > 0 ? `.${text.slice(text.length - decimals)}` : '';
  return `${negative ? '-' : ''}${grouping ? groupThousands(head) : head}${tail}`;
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
  if (Math.abs(x) >= 999.5) return displayFixed(x, 0, true);
  const decimals = Math.min(10, Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x)))));
  const text = displayFixed(x, decimals);
  const shown = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
  // A value that rounds to nothing is 0, whatever its sign (a mean of -2e-17 is no "-0").
  return shown === '-0' ? '0' : shown;
}

/**
 * An amount of money as fmtNumber writes it, with its currency (fmt_money): a sign before the
 * number ("$1,234", "-€5.2"), a code after it ("1,234 EUR"); without one, the number alone.
 */
export function fmtMoney(x: number, currency?: string | null): string {
  const text = fmtNumber(x);
  if (!currency) return text;
  if (currency.length > 1) return `${text} ${currency}`;
  return text.startsWith('-') ? `-${currency}${text.slice(1)}` : `${currency}${text}`;
}

/** A calendar year, or a statistic of years: 1687, 1642.75 → "1643" (fmt_year). */
export function fmtYear(x: number): string {
  if (!Number.isFinite(x)) throw new RangeError(`cannot format ${x} as a year`);
  return displayFixed(x, 0);
}

/** A fraction as a percentage: 0.126 → "12.6%", 12.5 → "1,250%" (fmt_pct). */
export function fmtPct(fraction: number): string {
  const value = fraction * 100;
  return Math.abs(value) >= 100 ? `${displayFixed(value, 0, true)}%` : `${displayFixed(value, 1)}%`;
}

/** A ratio: 1.4× below ten, 12× or 1,234× from ten up (fmt_ratio). */
export function fmtRatio(ratio: number): string {
  // Below 1.1 with two decimals: 69.1 against 67.2 is "1.03×", not a "1.0×" that reads as equal.
  if (ratio >= 1 && ratio < 1.1) return `${displayFixed(ratio, 2)}×`;
  return ratio < 10 ? `${displayFixed(ratio, 1)}×` : `${displayFixed(ratio, 0, true)}×`;
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
    // A time of day alone is read on 1900-01-01 (no day of its own): said without it.
    if (year === 1900 && date.getUTCMonth() === 0 && date.getUTCDate() === 1)
      return `${pad2(hour)}:${pad2(minute)}`;
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
