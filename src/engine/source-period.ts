/**
 * A year and a month kept in two columns (year 2019, month 7) are one time: the column "period"
 * is added, the first of each month, so the rows are charted month by month and by season rather
 * than summed into years; a year and a quarter (1–4) likewise, the first of each quarter
 * (macrodata.csv: summed into years, its population was four quarters' added up). The sandbox's
 * reader adds the same column (opsmind_data._add_period).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** Names of a year and of a month column (the whole name, any case). */
export const YEAR_NAME = /^\s*(year|yr|jahr|annee|année|ano|año|anno)\s*$/i;
export const MONTH_NAME = /^\s*(month|mon|monat|mois|mes|mese)\s*$/i;
export const QUARTER_NAME = /^\s*(quarter|qtr|quartal|trimestre)\s*$/i;
/** A column named as a date already holds the time (unemployment-across-industries.json). */
export const DATE_NAME = /(^|[^a-z])(date|datetime|timestamp|datum|fecha)([^a-z]|$)/i;
/** A quarter written as text beside its year: "Q1", "q3", "Qtr 2", "3" (RE2 and Python alike). */
export const QUARTER_TEXT = '^(?:[Qq]|[Qq][Tt][Rr])? ?([1-4])$';
/** The added column's name. */
export const PERIOD = 'period';

const NUMBER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/;

/**
 * Adds "period" when a year and a month (or else a quarter) column hold whole years (pandas'
 * range) and months 1–12 (quarters 1–4); its warning.
 */
export async function addPeriod(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const numbered = (name: RegExp) =>
    columns.find((c) => name.test(c.name) && NUMBER_TYPE.test(c.type));
  const year = numbered(YEAR_NAME);
  const month = numbered(MONTH_NAME);
  const quarter = month ? undefined : columns.find((c) => QUARTER_NAME.test(c.name));
  const written = quarter?.type === 'VARCHAR';
  const part = month ?? (written || NUMBER_TYPE.test(quarter?.type ?? '') ? quarter : undefined);
  const taken = columns.some((c) => c.name.toLowerCase() === PERIOD || DATE_NAME.test(c.name));
  if (!year || !part || taken) return null;
  const last = month ? 12 : 4;
  const y = `CAST(${ident(year.name)} AS DOUBLE)`;
  const m = written
    ? `TRY_CAST(regexp_extract(trim(${ident(part.name)}, ' '), ${literal(QUARTER_TEXT)}, 1) AS DOUBLE)`
    : `CAST(${ident(part.name)} AS DOUBLE)`;
  const data = ident(DATA_RELATION);
  const [facts = {}] = await db.objects(
    `SELECT count(*) FILTER (WHERE ${y} IS NOT NULL AND ${m} IS NOT NULL) AS n, min(${y}) AS y0, max(${y}) AS y1, min(${m}) AS m0, max(${m}) AS m1, count(DISTINCT ${m}) AS months, count(*) FILTER (WHERE ${y} <> floor(${y}) OR ${m} <> floor(${m})) AS fractions, count(*) FILTER (WHERE ${ident(part.name)} IS NOT NULL AND ${m} IS NULL) AS unread FROM ${data}`,
    signal,
  );
  const [n, y0, y1, m0, m1] = ['n', 'y0', 'y1', 'm0', 'm1'].map((k) => Number(facts[k]));
  const whole =
    Number(facts.fractions) === 0 &&
    Number(facts.unread) === 0 &&
    Number(facts.months) >= 2 &&
    (n ?? 0) >= 2;
  if (
    !whole ||
    !(Number(y0) >= 1678 && Number(y1) <= 2261 && Number(m0) >= 1 && Number(m1) <= last)
  )
    return null;
  const firstMonth = month ? m : `(${m} - 1) * 3 + 1`;
  await db.run(`ALTER TABLE ${data} ADD COLUMN ${ident(PERIOD)} TIMESTAMP`, signal);
  await db.run(
    `UPDATE ${data} SET ${ident(PERIOD)} = make_timestamp(CAST(${y} AS BIGINT), CAST(${firstMonth} AS BIGINT), 1, 0, 0, 0)`,
    signal,
  );
  const each = month ? 'month' : 'quarter';
  return `added the column "${PERIOD}": ${year.name} and ${part.name} as one date (the first of each ${each}), so the rows are charted over time`;
}
