/**
 * What the semantics decide from: the words of a column's name (only ever a tie-breaker) and
 * the figures of its profile.
 */
import type { ColumnProfile } from './profile.js';

// Names only break ties: a column is never summed because of its name alone. Matched against the
// name's words ("net_generation" is not a ratio; "Body Mass (g)" is a mass).
export const LEVEL_WORDS = words(
  'price prices preis prix precio wage wages unit rate rates ratio temp temperature humidity pressure speed latency duration age score rating sig significance magnitude intensity level concentration avg average mean median min max minimum maximum dmin dmax rms density margin index weight height length width depth mass size displacement horsepower acceleration mpg miles gallon expect expectancy fertility pm25 pm10 aqi wind lat lon runtime running per capita percapita durchschnitt moyenne promedio',
);
export const ADDITIVE_WORDS = words(
  'revenue revenues sales turnover income profit amount spend gmv units qty quantity volume orders visits deaths cases count number generation production consumption births total sum people population pop employment employed jobs headcount flights passengers votes sessions clicks impressions impr imps pageviews views downloads installs signups conversions transactions bookings purchases shipments trips rides calls tickets cost costs expense expenses expenditure expenditures spending budget budgets payroll payments donations kwh mwh gwh twh rainfall snowfall umsatz erlös erloes menge anzahl kunden betrag kosten ausgaben gewinn montant recettes depenses dépenses ventes chiffre ventas ingresos importe cantidad importo fatturato ricavi bedrag omzet debit debits credit credits withdrawal withdrawals deposit deposits inflow inflows outflow outflows',
);
/**
 * Words that name money, and nothing but money (not sales or amount, which also count things):
 * money is never written as the whole numbers 1 to k, each used many times (bracketRole).
 */
export const MONEY_WORDS = words(
  'income incomes revenue revenues profit profits cost costs expense expenses expenditure expenditures spend spending budget budgets payroll salary salaries earnings gmv donations payments umsatz erlös erloes betrag kosten ausgaben gewinn montant recettes depenses dépenses ingresos importe importo fatturato ricavi bedrag omzet',
);
/** Words of a temperature: a level whose zero is not "none" (°C, °F), said as differences. */
export const TEMPERATURE_WORDS = words(
  'temp temperature temperatures celsius fahrenheit tmax tmin tavg',
);
/**
 * Words that say a column counts things without saying whether they flow (cases this month) or
 * stand (people unemployed this month): over time, such a column is summed only within a period.
 */
export const COUNT_WORDS = words('count counts number total sum anzahl');
export const STOCK_WORDS = words(
  'population pop people headcount employment employed inventory stock balance',
);
export const RATIO_WORDS = words('percent pct share ratio rate proportion perc %');
export const YEAR_WORDS = words('year years yr jahr annee année anno año');
export const LAT_WORDS = words('lat latitude');
export const LON_WORDS = words('lon lng long longitude');
export const KEY_WORDS = words(
  'age sex gender group class cluster id code zip fips region district county state station site store unit grade rank',
);
export const CODE_WORDS = words(
  'zip zipcode postal postcode fips code cluster group class id flag type',
);

export function words(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/**
 * A slash between words reads "per" (`Cost / conv.`, `Revenue/User`, `km/h`: a quotient, never
 * summed), unless the word after it is the other side of an account (`Profit/Loss`, `In/Out`);
 * between digits it is no word (`Sales 2023/24`).
 */
const QUOTIENT =
  /(?<=\p{L}\.?)\s*\/\s*(?=\p{L})(?!(?:loss|losses|deficit|out|outflows?|debits?|credits?|expenses?|withdrawals?|decrease|down)\b)/giu;

/** A name's words, lower case: split at non-letters and at camelCase ("MilesPerGallon" → miles, per, gallon). */
export function nameWords(name: string): string[] {
  return (
    name
      // A control character joins, it does not split ("rev\u0007enue" is revenue).
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(QUOTIENT, ' per ')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^\p{L}\p{N}%]+/u)
      .filter(Boolean)
  );
}

export const named = (name: string, set: ReadonlySet<string>): boolean =>
  nameWords(name).some((w) => set.has(w));

/** Whether a name says what flows (sales, deaths, volume), beyond a bare count or a stock. */
export const flowName = (name: string): boolean =>
  nameWords(name).some((w) => ADDITIVE_WORDS.has(w) && !COUNT_WORDS.has(w) && !STOCK_WORDS.has(w));

export function statsOf(c: ColumnProfile): NonNullable<ColumnProfile['numeric']> | null {
  return c.numeric ?? c.numeric_text?.stats ?? null;
}

export const isNumberColumn = (c: ColumnProfile): boolean =>
  (c.semantic === 'numeric' || c.semantic === 'numeric_text') && statsOf(c) !== null;

/**
 * Whole numbers between 1500 and 2100: years (a reign's start beside its end), whose zero is no
 * "none" — compared by differences, and no bar's length (1820 would stand barely above 1565).
 */
export function yearValued(c: ColumnProfile): boolean {
  const s = statsOf(c);
  return s !== null && integral(c) && s.min >= 1500 && s.max <= 2100;
}

/** Whether every figure the profile holds is a whole number (integer dtype, or whole quartiles and range). */
export function integral(c: ColumnProfile): boolean {
  if (/^u?int/i.test(c.dtype)) return true;
  const s = statsOf(c);
  if (!s) return false;
  // Numbers kept as text ("1565"): their quartiles are interpolated (1628.75), so their most
  // frequent values, as written, say whether they are whole (wheat.json's year).
  if (c.semantic === 'numeric_text' && c.top.length > 0)
    return (
      Number.isInteger(s.min) &&
      Number.isInteger(s.max) &&
      c.top.every((t) => /^[+-]?\d+$/.test(t.value.trim()))
    );
  return [s.min, s.max, s.q1, s.median, s.q3].every((v) => Number.isInteger(v));
}

/** An integer column that reads as calendar years: whole numbers between 1500 and 2100. */
export function yearEvidence(c: ColumnProfile): string | null {
  const s = statsOf(c);
  if (!s || !isNumberColumn(c) || !integral(c)) return null;
  if (s.min < 1500 || s.max > 2100 || c.distinct < 2) return null;
  const span = s.max - s.min + 1;
  const yearNamed = named(c.name, YEAR_WORDS);
  // Without the name, ask more of the values: a tight range, most years present.
  if (!yearNamed && !(span <= 400 && c.distinct >= Math.min(5, span) && c.distinct >= span * 0.3))
    return null;
  return `whole numbers from ${s.min} to ${s.max} (${c.distinct} distinct)${yearNamed ? ', named as a year' : ', spaced like years'}`;
}

export function number(v: number): string {
  return Math.abs(v) >= 1000
    ? Math.round(v).toLocaleString('en-US')
    : String(Number(v.toPrecision(4)));
}
