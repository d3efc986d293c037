/**
 * Amounts of money, as both engines' findings write them: a measure whose values are written with
 * one currency ("$1,234.50", "EUR 12", read as numbers: the profile's numeric_text symbol), or a
 * number column whose name gives its currency ("Revenue ($)", "price_usd", "Sales (EUR)",
 * "Cost Total $"). Its sums, means, medians and extremes are said with the currency ("$399,671");
 * a count of its values is not money, nor is a share or an index.
 */
import type { DataProfile } from './profile.js';
import { semanticsOf } from './semantics.js';

/** The codes a column's name may end with (opsmind_semantic.CODES), upper-case. */
const CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'INR',
  'CNY',
  'SEK',
  'NOK',
  'DKK',
]);
/** The currency signs a name may hold: "Revenue ($)", "€ per unit". */
const SIGNS = /[$€£¥₹]/gu;
/**
 * Roles whose values, named with a currency, are money: amounts, prices, balances, running totals,
 * and whole amounts read as counts (birdstrikes.csv's "Cost Total $"); not a ratio (an exchange
 * rate), a code or a date.
 */
const MONEY_ROLES = new Set(['amount', 'count', 'level', 'stock', 'cumulative']);

/** The currency a column's name gives: its sign, or a code as its last word or in brackets ("price_usd", "Sales (EUR)"). */
export function currencyNamed(name: string): string | null {
  const signs = new Set(name.match(SIGNS) ?? []);
  if (signs.size > 1) return null;
  if (signs.size === 1) return [...signs][0] ?? null;
  const bracketed = /[([]\s*([a-z]{3})\s*[)\]]/iu.exec(name)?.[1]?.toUpperCase();
  if (bracketed && CODES.has(bracketed)) return bracketed;
  const last = name
    .split(/[^a-z]+/iu)
    .filter(Boolean)
    .at(-1)
    ?.toUpperCase();
  return last && CODES.has(last) ? last : null;
}

/**
 * The measures whose values are money, each with its currency: numbers written with one currency
 * (the profile's numeric_text symbol), or number columns named with one (or said as a quantity
 * named with one: a World Bank file of "GDP (current US$)") whose role is an amount,
 * a whole amount read as a count, a level (a price), a stock or a running total.
 */
export function currencyMeasures(profile: DataProfile): Record<string, string> {
  const semantics = semanticsOf(profile);
  const roles = new Map(semantics.columns.map((c) => [c.name, c.role]));
  // A measure said as the quantity a column names ("GDP (current US$)") is named by it.
  const nameOf = (column: string): string =>
    semantics.quantity?.measure === column ? semantics.quantity.value : column;
  const out: Record<string, string> = {};
  for (const c of profile.column_profiles) {
    // Written with a currency: that one, or none when the values mix several (whatever the name says).
    if (c.numeric_text?.style === 'currency') {
      if (c.numeric_text.symbol) out[c.name] = c.numeric_text.symbol;
      continue;
    }
    const role = roles.get(c.name);
    const named =
      c.semantic === 'numeric' || c.semantic === 'numeric_text'
        ? currencyNamed(nameOf(c.name))
        : null;
    if (named && role && MONEY_ROLES.has(role)) out[c.name] = named;
  }
  return out;
}

/**
 * The currency an aggregate of `measures` is in, when all are in the same one and the aggregate
 * keeps it (a sum, mean, median, minimum, maximum or last value; not a count, a share of rows with
 * a value, or an index); else undefined.
 */
export function moneyOf(
  measures: readonly (string | null | undefined)[],
  agg: string | null | undefined,
  currencies: Readonly<Record<string, string>> | undefined,
): string | undefined {
  if (!currencies || agg === 'count' || measures.length === 0) return undefined;
  const found = new Set(measures.map((m) => (m ? currencies[m] : undefined)));
  const [only] = [...found];
  return found.size === 1 && only ? only : undefined;
}
