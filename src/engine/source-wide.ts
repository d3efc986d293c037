/**
 * A wide table (country, 2015, 2016, 2017…): one column per year holds the same measure, so it is
 * read as rows — one per row and year, in "year" and "value" — and charted over time, not as six
 * unrelated measures. The sandbox's reader melts it the same way (opsmind_data._melt_years).
 */
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';
import { YEAR_COLUMN } from './source-dialect.js';
import { YEAR_NAME } from './source-period.js';

/** At least this many year columns make a wide table. */
export const WIDE_YEARS = 3;

const NUMBER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/;

/** A number written plainly, or with commas between groups of three digits ("-2,104,000"). */
const TEXT_NUMBER = '^[+-]?(\\d+|\\d{1,3}(,\\d{3})+)(\\.\\d+)?$';

/** SQL: whether every value of column `v` that is there is a number written as TEXT_NUMBER. */
const everyTextNumber = (v: string): string =>
  `bool_and(${v} IS NULL OR regexp_full_match(trim(${v}), '${TEXT_NUMBER}'))`;

/**
 * The year columns of text as numbers, when every value of each is one (budget.json writes
 * "11,266,775" in quotes): commas between groups of three digits dropped, whole numbers as
 * BIGINT, else DOUBLE. Null when a value is anything else, or when no value has two groups or
 * a point after its comma ("1,234" alone may be a decimal comma): the columns stay text.
 */
async function textNumbers(
  db: DuckDb,
  years: readonly { name: string }[],
  signal?: AbortSignal,
): Promise<string[] | null> {
  const each = (test: (v: string) => string, join: string): string =>
    `(${years.map((c) => test(ident(c.name))).join(join)})`;
  const tests = [
    each(everyTextNumber, ' AND '),
    each((v) => `bool_and(${v} IS NULL OR NOT contains(${v}, '.'))`, ' AND '),
    each((v) => `coalesce(bool_or(contains(${v}, ',')), false)`, ' OR '),
    each((v) => `coalesce(bool_or(regexp_matches(${v}, ',\\d{3}[,.]')), false)`, ' OR '),
  ];
  const result = await db.all(`SELECT ${tests.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const [numbers, whole, commas, grouped] = result.rows[0] ?? [];
  if (numbers !== true || (commas === true && grouped !== true)) return null;
  const type = whole === true ? 'BIGINT' : 'DOUBLE';
  return years.map((c) => `CAST(replace(trim(${ident(c.name)}), ',', '') AS ${type})`);
}

/** The text columns among `columns` whose every value (one at least) is a number written as text. */
async function textNumberColumns(
  db: DuckDb,
  columns: readonly { name: string; type: string }[],
  signal?: AbortSignal,
): Promise<string[]> {
  const texts = columns.filter((c) => c.type === 'VARCHAR');
  if (texts.length === 0) return [];
  const tests = texts.map(
    (c) => `count(${ident(c.name)}) > 0 AND ${everyTextNumber(ident(c.name))}`,
  );
  const result = await db.all(`SELECT ${tests.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const row = result.rows[0] ?? [];
  return texts.filter((_, i) => row[i] === true).map((c) => c.name);
}

/** The text columns among `columns` without a value in any row. */
async function emptyColumns(
  db: DuckDb,
  columns: readonly { name: string; type: string }[],
  signal?: AbortSignal,
): Promise<Set<string>> {
  const texts = columns.filter((c) => c.type === 'VARCHAR');
  if (texts.length === 0) return new Set();
  const counts = texts.map((c) => `count(${ident(c.name)}) = 0`).join(', ');
  const row = (await db.all(`SELECT ${counts} FROM ${ident(DATA_RELATION)}`, signal)).rows[0] ?? [];
  return new Set(texts.filter((_, i) => row[i] === true).map((c) => c.name));
}

/** Melts the year columns of `data` into "year" and "value" rows (row by row, years in column order); its warning. */
export async function meltYears(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const years = columns.filter((c) => YEAR_COLUMN.test(c.name));
  const ids = columns.filter((c) => !YEAR_COLUMN.test(c.name));
  if (years.length < WIDE_YEARS || ids.length === 0) return null;
  if (ids.some((c) => ['year', 'value'].includes(c.name.toLowerCase()))) return null;
  // A year without a value in any row (fertility.csv's 2012 and 2013) is typed text by the reader,
  // and read as numbers (NaN) by pandas': a missing number beside the others.
  const empty = await emptyColumns(db, years, signal);
  const typed = years.map((c) => (empty.has(c.name) ? { ...c, type: 'DOUBLE' } : c));
  const text = !typed.every((c) => NUMBER_TYPE.test(c.type));
  const numbers = !text
    ? typed.map((c) => (empty.has(c.name) ? 'CAST(NULL AS DOUBLE)' : ident(c.name)))
    : years.every((c) => c.type === 'VARCHAR')
      ? await textNumbers(db, years, signal)
      : null;
  if (!numbers) return null;
  // Beside year columns of text numbers, a column of text numbers too is another period's value
  // (budget.json's TQ, 1976's transition quarter): kept, it would repeat in every year's rows.
  const periods = text ? await textNumberColumns(db, ids, signal) : [];
  const kept = ids.filter((c) => !periods.includes(c.name));
  if (kept.length === 0) return null;
  const data = ident(DATA_RELATION);
  const idList = kept.map((c) => ident(c.name)).join(', ');
  // One list per row, unnested in column order: the rows of each original row stay together, in
  // file order, as pandas' melt reordered row by row.
  const names = `[${years.map((c) => `'${c.name.trim()}'`).join(', ')}]`;
  const values = `[${numbers.join(', ')}]`;
  await db.run(
    `CREATE OR REPLACE TABLE ${data} AS SELECT ${idList}, "year", "value" FROM (SELECT rowid AS _r, ${idList}, CAST(unnest(${names}) AS BIGINT) AS "year", unnest(${values}) AS "value", unnest(range(${years.length})) AS _p FROM ${data}) ORDER BY _r, _p`,
    signal,
  );
  const first = years[0]?.name.trim() ?? '';
  const last = years.at(-1)?.name.trim() ?? '';
  const left = periods.length
    ? `; left out ${periods.join(', ')}: numbers written as the years' are, a period that is no year, which would repeat in every year's rows`
    : '';
  return `read the ${years.length} year columns (${first} … ${last}) as rows: one per ${kept[0]?.name ?? 'row'} and year, in "year" and "value"${left}`;
}

/** The months as a column names them: "jan" or "january" (any case; "sept" too), and their numbers. */
const MONTH_COLUMNS: ReadonlyMap<string, number> = new Map(
  [
    ['jan', 'january'],
    ['feb', 'february'],
    ['mar', 'march'],
    ['apr', 'april'],
    ['may', 'may'],
    ['jun', 'june'],
    ['jul', 'july'],
    ['aug', 'august'],
    ['sep', 'september', 'sept'],
    ['oct', 'october'],
    ['nov', 'november'],
    ['dec', 'december'],
  ].flatMap((names, i) => names.map((name) => [name, i + 1] as const)),
);

/** The month a column is named as, 1–12, or undefined. */
export const monthOfColumn = (name: string): number | undefined =>
  MONTH_COLUMNS.get(name.trim().toLowerCase());

/**
 * A year per row and a column per month (elnino.csv: YEAR, JAN … DEC) is a monthly series written
 * wide: read as rows, one per row and month, the date in "period" (the first of the month) and
 * the number in "value", row by row and months in column order. Only when the twelve months are
 * there, each a column of numbers, beside a year column of whole years and nothing else numeric
 * (an annual total beside them would repeat in every month's row). The sandbox's reader melts
 * it the same way (opsmind_data._melt_months).
 */
export async function meltMonths(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const months = columns.filter((c) => monthOfColumn(c.name) !== undefined);
  const numbers = new Set(months.map((c) => monthOfColumn(c.name)));
  if (months.length !== 12 || numbers.size !== 12) return null;
  if (!months.every((c) => NUMBER_TYPE.test(c.type))) return null;
  const ids = columns.filter((c) => monthOfColumn(c.name) === undefined);
  const year = ids.find((c) => YEAR_NAME.test(c.name) && NUMBER_TYPE.test(c.type));
  if (!year || ids.some((c) => c !== year && NUMBER_TYPE.test(c.type))) return null;
  if (ids.some((c) => ['period', 'value'].includes(c.name.toLowerCase()))) return null;
  const data = ident(DATA_RELATION);
  const y = `CAST(${ident(year.name)} AS DOUBLE)`;
  const [facts = {}] = await db.objects(
    `SELECT count(*) FILTER (WHERE ${y} IS NOT NULL AND (${y} <> floor(${y}) OR ${y} < 1678 OR ${y} > 2261)) AS bad FROM ${data}`,
    signal,
  );
  if (Number(facts.bad) !== 0) return null;
  const idList = ids.map((c) => ident(c.name)).join(', ');
  const monthList = `[${months.map((c) => monthOfColumn(c.name)).join(', ')}]`;
  const values = `[${months.map((c) => ident(c.name)).join(', ')}]`;
  await db.run(
    `CREATE OR REPLACE TABLE ${data} AS SELECT ${idList}, make_timestamp(CAST(${ident(year.name)} AS BIGINT), _m, 1, 0, 0, 0) AS "period", "value" FROM (SELECT rowid AS _r, ${idList}, unnest(${monthList}) AS _m, unnest(${values}) AS "value", unnest(range(12)) AS _p FROM ${data}) ORDER BY _r, _p`,
    signal,
  );
  const [first = '', last = ''] = [months[0]?.name.trim(), months.at(-1)?.name.trim()];
  return `read the 12 month columns (${first} … ${last}) as rows: one per ${year.name} and month, in "period" (the first of each month) and "value"`;
}
