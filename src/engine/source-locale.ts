/**
 * How a text file writes numbers — decimal comma or point, and which thousands separator — decided
 * from the data, and the text columns that turn out to be numbers in that locale converted to
 * BIGINT or DOUBLE. DuckDB's own `thousands` option is not used: it drops the character anywhere,
 * so "10.0.0.1" would read as 10001; here a column converts only when every value is a
 * well-formed number.
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { TableColumn } from './source-common.js';
import { CURRENCY_CODES } from './profile-semantic.js';

/** The separators a file's numbers are written with. */
export interface NumberLocale {
  decimal: '.' | ',';
  /** ".", ",", " " or a no-break space; null when numbers are not grouped. */
  thousands: string | null;
}

const SPACES = ' \u00a0\u202f';
/** A number written with a decimal comma ("12,5", "1.234,56", "1 234 567"; "1.234,56-" as SAP writes a negative). */
const COMMA_NUMBER = new RegExp(`^[+-]?(?:\\d{1,3}(?:[.${SPACES}]\\d{3})+|\\d+)(?:,\\d+)?-?$`);
/** A number written with a decimal point ("1.5", "1,234,567.5", "1,234.50-"). */
const DOT_NUMBER = new RegExp(`^[+-]?(?:\\d{1,3}(?:[,${SPACES}]\\d{3})+|\\d+)(?:\\.\\d+)?-?$`);
/** A number that reads either way ("1,234" is 1.234 or 1234). */
const COMMA_GROUP = /^[+-]?[1-9]\d{0,2},\d{3}$/;
/** Any character that separates digits in some locale. */
const SEPARATOR = new RegExp(`[.,${SPACES}]`);
/** A whole number written without separators. */
const WHOLE = /^[+-]?\d+-?$/;
/** A value holding a possible grouping character, with a decimal comma or point. */
const POINT_OR_SPACE = new RegExp(`[.${SPACES}]`);
const COMMA_OR_SPACE = new RegExp(`[,${SPACES}]`);
/** A whole number grouped with points ("1.234.567"), which a decimal-comma file means. */
const POINT_GROUPED = /^[+-]?(?:\d{1,3}(?:\.\d{3})+|\d+)$/;

/** A currency written before or after a number (opsmind_semantic.NUMBER_TEXT's). */
const CURRENCY = `(?:[$€£¥₹]|${CURRENCY_CODES})`;
/** A number with a currency before or after it, or "%" after it: its sign and digits (group 1, 2). */
const DECORATED = new RegExp(
  `^\\s*([-+]?)\\s*(?:${CURRENCY}\\s*)?([-+]?\\d(?:[\\d.,${SPACES}]*\\d)?)\\s*(?:%|${CURRENCY})?\\s*$`,
  'i',
);

/** A value without the currency or percent sign around its number ("2.217,89 €" → "2.217,89"). */
function bare(value: string): string {
  const found = DECORATED.exec(value);
  return found ? `${found[1] ?? ''}${found[2] ?? ''}` : value;
}

/** Which decimal a column's values speak for, or null when they are not numbers or fit both. */
function columnVote(values: readonly string[]): '.' | ',' | null {
  let comma = 0;
  let dot = 0;
  let commaOnly = 0;
  let dotOnly = 0;
  // A vote needs numbers on more than half the values: past that many others, there is none.
  let others = 0;
  for (const written of values) {
    let [isComma, isDot] = readsAs(written);
    // Only a value that is no number is looked at for a currency or percent sign around one.
    if (!isComma && !isDot) {
      const value = bare(written);
      if (value !== written) [isComma, isDot] = readsAs(value);
    }
    if (!isComma && !isDot && ++others >= values.length / 2) return null;
    comma += Number(isComma);
    dot += Number(isDot);
    commaOnly += Number(isComma && !isDot);
    dotOnly += Number(isDot && !isComma);
  }
  if (comma > values.length / 2 && commaOnly > dotOnly) return ',';
  if (dot > values.length / 2 && dotOnly > commaOnly) return '.';
  return null;
}

/** Whether a value is a number with a decimal comma, and with a decimal point. */
function readsAs(value: string): [boolean, boolean] {
  // Without a separator a value reads the same either way: one test instead of two.
  const plain = !SEPARATOR.test(value);
  const isComma = plain ? WHOLE.test(value) : COMMA_NUMBER.test(value);
  return [isComma, plain ? isComma : DOT_NUMBER.test(value)];
}

/** The grouping character used most among `values` written with `decimal`, or null. */
function thousandsOf(values: readonly string[], decimal: '.' | ','): string | null {
  const candidates = decimal === ',' ? `.${SPACES}` : `,${SPACES}`;
  const pattern = decimal === ',' ? COMMA_NUMBER : DOT_NUMBER;
  const grouped = decimal === ',' ? POINT_OR_SPACE : COMMA_OR_SPACE;
  const counts = new Map<string, number>();
  for (const written of values) {
    if (!grouped.test(written)) continue;
    const value = pattern.test(written) ? written : bare(written);
    const group = pattern.test(value) ? /\d(\D)\d{3}(?!\d)/.exec(value)?.[1] : undefined;
    if (group && candidates.includes(group)) counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? null;
}

/**
 * The file's number locale from its columns' sampled text: the decimal most columns of numbers
 * speak for; when none settles it, "1,234"-style values mean a decimal comma in a ';' file.
 * `strong` says a column settled it (only then are point-grouped DOUBLEs reread as thousands).
 */
export function decideNumberLocale(
  columns: readonly TableColumn[],
  delimiter: string,
): NumberLocale & { strong: boolean } {
  const votes = columns.map((column) => columnVote(column.sample));
  const comma = votes.filter((vote) => vote === ',').length;
  const dot = votes.filter((vote) => vote === '.').length;
  const ambiguous = columns.some(
    (column) => column.sample.length > 0 && column.sample.every((v) => COMMA_GROUP.test(v)),
  );
  const decimal =
    comma > dot || (comma === dot && (comma > 0 || ambiguous) && delimiter === ';') ? ',' : '.';
  const values = columns.flatMap((column) => column.sample);
  return { decimal, thousands: thousandsOf(values, decimal), strong: Math.max(comma, dot) > 0 };
}

/** Indexes of DOUBLE columns that, in a decimal-comma file, hold point-grouped whole numbers. */
export function pointGroupedDoubles(
  columns: readonly TableColumn[],
  locale: NumberLocale & { strong: boolean },
): number[] {
  if (locale.decimal !== ',' || !locale.strong || locale.thousands !== '.') return [];
  return columns.flatMap((column, index) =>
    column.type === 'DOUBLE' &&
    column.sample.some((value) => value.includes('.')) &&
    column.sample.every((value) => POINT_GROUPED.test(value))
      ? [index]
      : [],
  );
}

/**
 * A number in `locale`, unanchored (JS and DuckDB's RE2 alike): signed before it, or with a minus
 * after it, as SAP and other ledgers write a negative ("1.234,56-").
 */
function numberCore(locale: NumberLocale): string {
  const decimal = locale.decimal === ',' ? ',' : '\\.';
  const group = groupClass(locale.thousands);
  const whole = group ? `(?:\\d{1,3}(?:${group}\\d{3})+|\\d+)` : '\\d+';
  const number = `${whole}(?:${decimal}\\d+)?`;
  return `(?:[+-]?${number}|${number}-)`;
}

/** The pattern (JS and DuckDB's RE2 alike) a number in `locale` matches. */
function numberPattern(locale: NumberLocale): string {
  return `^${numberCore(locale)}$`;
}

/**
 * A number in `locale` with a currency before or after it, or "%" after it ("2.217,89 €",
 * "EUR 12,50", "12,5 %"), case-insensitive (JS flag "i"; RE2 "(?i)" before it).
 */
function moneyPattern(locale: NumberLocale): string {
  const core = numberCore(locale);
  const before = `${CURRENCY}\\s*`;
  const after = `\\s*(?:%|${CURRENCY})`;
  return `^\\s*[-+]?\\s*(?:${before}${core}(?:${after})?|${core}${after})\\s*$`;
}

/** The character class of a thousands separator (any space stands for all spaces). */
function groupClass(thousands: string | null): string | null {
  if (thousands === null) return null;
  if (thousands === '.') return '\\.';
  return thousands === ',' ? ',' : `[${SPACES}]`;
}

/** SQL turning a matching value of `column` into text DuckDB casts to a number (a minus after it put before). */
function plainNumber(column: string, locale: NumberLocale): string {
  const group = groupClass(locale.thousands);
  const trimmed = `trim(${column})`;
  let text = `CASE WHEN ends_with(${trimmed}, '-') THEN '-' || rtrim(${trimmed}, '-') ELSE ${trimmed} END`;
  if (group) text = `regexp_replace(${text}, ${literal(group)}, '', 'g')`;
  return locale.decimal === ',' ? `replace(${text}, ',', '.')` : text;
}

/**
 * Converts the VARCHAR columns of `data` whose sample is all numbers in `locale` and whose every
 * value (checked over the whole table) is one: to BIGINT when none has a fraction, else DOUBLE.
 * Returns the names converted.
 */
export async function convertLocaleNumbers(
  db: DuckDb,
  columns: readonly TableColumn[],
  locale: NumberLocale,
  signal?: AbortSignal,
): Promise<string[]> {
  if (locale.decimal === '.' && locale.thousands === null) return [];
  const pattern = numberPattern(locale);
  const test = new RegExp(pattern);
  const candidates = columns.filter(
    (column) =>
      column.type === 'VARCHAR' &&
      column.sample.length > 0 &&
      column.sample.every((value) => test.test(value)),
  );
  const converted = await convertPlain(db, candidates, locale, signal);
  return [...converted, ...(await rewriteLocaleMoney(db, columns, locale, converted, signal))];
}

/** The candidate columns whose every value is a number in `locale`, converted; their names. */
async function convertPlain(
  db: DuckDb,
  candidates: readonly TableColumn[],
  locale: NumberLocale,
  signal?: AbortSignal,
): Promise<string[]> {
  if (candidates.length === 0) return [];
  const pattern = numberPattern(locale);
  const checks = candidates.flatMap((column) => {
    const name = ident(column.name);
    const text = plainNumber(name, locale);
    const bad = `${name} IS NOT NULL AND (NOT regexp_full_match(trim(${name}), ${literal(pattern)}) OR TRY_CAST(${text} AS DOUBLE) IS NULL)`;
    const fraction = `contains(trim(${name}), ${literal(locale.decimal)}) OR length(${text}) > 18`;
    return [`count(*) FILTER (WHERE ${bad})`, `count(*) FILTER (WHERE ${fraction})`];
  });
  const result = await db.all(`SELECT ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const counts = (result.rows[0] ?? []).map(Number);
  const converted: string[] = [];
  for (const [i, column] of candidates.entries()) {
    if (counts[2 * i] !== 0) continue;
    const type = counts[2 * i + 1] === 0 ? 'BIGINT' : 'DOUBLE';
    const name = ident(column.name);
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${name} SET DATA TYPE ${type} USING CAST(${plainNumber(name, locale)} AS ${type})`,
      signal,
    );
    converted.push(column.name);
  }
  return converted;
}

/**
 * Text columns of numbers in `locale` written with a currency or a percent sign ("2.217,89 €",
 * "12,5 %"), every value such a number or a plain one, rewritten with the separators the
 * profile's numbers stored as text read: "2217.89 €", "12.5 %" (their signs kept, so the column
 * is still money or percentages). Only where `locale` is not the default (a decimal point,
 * commas or nothing between thousands), which they are already written in. Returns the names.
 */
async function rewriteLocaleMoney(
  db: DuckDb,
  columns: readonly TableColumn[],
  locale: NumberLocale,
  converted: readonly string[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (locale.decimal === '.' && (locale.thousands === null || locale.thousands === ',')) return [];
  const [money, plain] = [new RegExp(moneyPattern(locale), 'i'), new RegExp(numberPattern(locale))];
  const candidates = columns.filter(
    (column) =>
      column.type === 'VARCHAR' &&
      !converted.includes(column.name) &&
      column.sample.length > 0 &&
      column.sample.every((value) => money.test(value) || plain.test(value)),
  );
  if (candidates.length === 0) return [];
  const pattern = literal(`(?i)${moneyPattern(locale)}`);
  // Every value a number, plain or with its sign, and one at least with a sign.
  const checks = candidates.flatMap((column) => {
    const name = ident(column.name);
    const signed = `regexp_full_match(${name}, ${pattern})`;
    const bare = `regexp_full_match(trim(${name}), ${literal(numberPattern(locale))})`;
    return [
      `count(*) FILTER (WHERE ${name} IS NOT NULL AND NOT (${signed} OR ${bare}))`,
      `count(*) FILTER (WHERE ${signed})`,
    ];
  });
  const result = await db.all(`SELECT ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const counts = (result.rows[0] ?? []).map(Number);
  const rewritten = candidates
    .filter((_, i) => counts[2 * i] === 0 && (counts[2 * i + 1] ?? 0) > 0)
    .map((column) => column.name);
  for (const name of rewritten)
    await db.run(
      `UPDATE ${ident(DATA_RELATION)} SET ${ident(name)} = ${plainNumber(ident(name), locale)} WHERE ${ident(name)} IS NOT NULL`,
      signal,
    );
  return rewritten;
}
