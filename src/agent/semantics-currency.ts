/**
 * Amounts in several currencies: a payments export (Stripe's `Amount` beside `Currency` = usd,
 * eur, jpy) holds dollars in some rows and yen in others. Added up, or compared across the
 * currencies, they say nothing: "jpy accounts for 99.1% of Amount Refunded" only because a yen is
 * a hundredth of a dollar. Found from the rows both engines measure (a column whose every value is
 * a currency code); every chart of a money measure then keeps one currency — the one of most rows —
 * and says so in its title and the notes, and a model's plan that mixes them is told why.
 */
import type { DataProfile } from './profile.js';
import { MONEY_WORDS, isNumberColumn, named, words } from './semantics-evidence.js';
import type { ColumnRole, Semantics, TableFacts } from './semantics-types.js';

/** ISO 4217 codes of the currencies exports write most (any case: Stripe writes `usd`). */
const CODES = words(
  'usd eur gbp jpy chf cad aud nzd inr cny rmb hkd sgd sek nok dkk pln czk huf ron bgn isk rub uah try ils aed sar qar kwd brl mxn ars clp cop pen zar ngn egp kes krw twd thb myr idr php vnd pkr bdt',
);
/** Names of a column of money beside the words of MONEY_WORDS. */
const MONEY_NAMES = words(
  'amount amounts price prices fee fees tax taxes net gross refund refunded refunds balance total subtotal discount discounts charge charges paid payout payouts value sales',
);
/** Roles of money when the name says so: a price, a balance, whole amounts (yen) read as counts. */
const NAMED_ROLES = new Set(['count', 'level', 'stock', 'cumulative']);
/** A currency column has at most this many values. */
const CURRENCIES_MAX = 30;

export type Currency = NonNullable<Semantics['currency']>;

/** The column's values, all of them: the facts' list of a small column's values, else a top that holds them all. */
function valuesOf(c: DataProfile['column_profiles'][number], facts: TableFacts): string[] | null {
  const listed = facts.names?.[c.name];
  if (listed) return listed;
  return c.top.length === c.distinct ? c.top.map((t) => t.value) : null;
}

/**
 * The column of currency codes beside money measures (amounts, prices, fees, balances and whole
 * amounts, named as money: not a quantity of units), with its currencies by rows, most first; null when the table has none or one currency.
 */
export function currencyOf(
  profile: DataProfile,
  columns: readonly ColumnRole[],
  facts: TableFacts,
): Currency | null {
  const column = profile.column_profiles.find((c) => {
    if (isNumberColumn(c) || c.distinct < 2 || c.distinct > CURRENCIES_MAX) return false;
    const values = valuesOf(c, facts);
    return values !== null && values.every((v) => CODES.has(v.trim().toLowerCase()));
  });
  if (!column) return null;
  const measures = columns.flatMap((role) => {
    const c = profile.column_profiles.find((x) => x.name === role.name);
    if (!c || !isNumberColumn(c)) return [];
    // Named as money: an amount of units or visits ("Qty") is the same in every currency.
    const money =
      (role.role === 'amount' || NAMED_ROLES.has(role.role)) &&
      (named(c.name, MONEY_WORDS) || named(c.name, MONEY_NAMES));
    return money ? [c.name] : [];
  });
  const main = column.top[0];
  if (measures.length === 0 || !main) return null;
  return {
    column: column.name,
    measures,
    main: main.value,
    share: main.count / Math.max(1, profile.rows - column.missing),
    values: column.top.map((t) => t.value),
  };
}

/** The plan's note: which measures hold several currencies, and the one each chart keeps. */
export function currencyNote(c: Currency): string {
  const shown = c.values.slice(0, 4).join(', ') + (c.values.length > 4 ? ', …' : '');
  return `${c.measures.join(', ')} ${c.measures.length === 1 ? 'is' : 'are'} in several currencies (${c.column}: ${shown}): every chart of ${c.measures.length === 1 ? 'it' : 'them'} keeps ${c.main}, the currency of ${Math.round(100 * c.share)}% of the rows, so amounts in different currencies are never added up or compared`;
}

/**
 * Why an analysis of `used` columns with `filters` mixes currencies, or null; `perCurrency`: it is
 * a table of totals by the currency column (each in its own currency, nothing compared).
 */
export function currencyProblem(
  used: readonly string[],
  filters: readonly { column: string; op: string; value?: unknown }[],
  c: Currency | undefined,
  perCurrency = false,
): string | null {
  if (!c) return null;
  const money = c.measures.filter((m) => used.includes(m));
  if (money.length === 0 || perCurrency) return null;
  const what = `"${money[0] ?? ''}" holds amounts in several currencies (${c.column}: ${c.values.map((v) => JSON.stringify(v)).join(', ')})`;
  if (used.includes(c.column))
    return `${what}: grouping it by ${c.column} compares amounts in different currencies; chart one currency at a time with a filter, or show its totals by ${c.column} as a table`;
  const one = filters.some(
    (f) =>
      f.column === c.column &&
      (f.op === '==' || (f.op === 'in' && Array.isArray(f.value) && f.value.length === 1)),
  );
  return one
    ? null
    : `${what}: add the filter {"column": ${JSON.stringify(c.column)}, "op": "==", "value": ${JSON.stringify(c.main)}} (one currency per analysis)`;
}
