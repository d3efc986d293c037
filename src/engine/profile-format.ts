/**
 * Text the profile shows, written exactly as the Python profile (preamble/opsmind_profile.py)
 * writes it: Python's float repr, its round-half-even fixed-point formatting, `{n:,}` thousands,
 * short percentages and capped value text. Both engines' profiles must read the same.
 */

/** How many characters of a value the profile shows (the rest becomes "…"). */
export const TOP_CHARS = 80;
/** How many names a warning lists before "and N more". */
export const NAMES_LISTED = 8;

/** A float as Python's `str(float)` writes it: `2.0`, `1e+20`, `1.5e-07`, `inf`. */
export function pyFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponent = '0'] = x.toExponential().split('e');
  const exp = Number(exponent);
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = x < 0 ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${head}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign}${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** `x` with `digits` decimals as Python's `f"{x:.{digits}f}"`: exact ties round half to even. */
export function pyFixed(x: number, digits: number): string {
  const rounded = x.toFixed(digits);
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return rounded;
  const exact = Math.abs(x).toFixed(100);
  const [whole = '', fraction = ''] = exact.split('.');
  const rest = fraction.slice(digits);
  if (rest[0] !== '5' || !/^0*$/.test(rest.slice(1))) return rounded;
  const kept = `${whole}${fraction.slice(0, digits)}`;
  if (Number(kept.at(-1)) % 2 === 1) return rounded;
  const down = digits > 0 ? `${whole}.${fraction.slice(0, digits)}` : whole;
  return x < 0 ? `-${down}` : down;
}

/** Python's `round(x, digits)` for the few digits a profile rounds to. */
export function pyRound(x: number, digits: number): number {
  return Number(pyFixed(x, digits));
}

/** An integer with thousands separators, as Python's `f"{n:,}"`. */
export function thousands(n: number): string {
  const text = String(Math.trunc(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `-${text}` : text;
}

/** A share as a short percentage: 62%, 4.5%, <0.1%. */
export function pct(share: number): string {
  const value = share * 100;
  if (value > 0 && value < 0.1) return '<0.1%';
  return `${pyFixed(value, value >= 10 || value === 0 ? 0 : 1)}%`;
}

/** Names joined by commas, the first few only ("a, b and 3 more"). */
export function names(list: readonly string[]): string {
  const head = list.slice(0, NAMES_LISTED).join(', ');
  return list.length > NAMES_LISTED ? `${head} and ${list.length - NAMES_LISTED} more` : head;
}

/** A value's text capped at TOP_CHARS characters (code points, as Python counts them). */
export function capText(text: string): string {
  const chars = Array.from(text);
  return chars.length <= TOP_CHARS ? text : `${chars.slice(0, TOP_CHARS - 1).join('')}…`;
}
