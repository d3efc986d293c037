/**
 * A wide table (country, 2015, 2016, 2017…): one column per year holds the same measure, so it is
 * read as rows — one per row and year, in "year" and "value" — and charted over time, not as six
 * unrelated measures. The sandbox's reader melts it the same way (opsmind_data._melt_years).
 */
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** A column named as a year: four digits from 1800 to 2100. */
export const YEAR_COLUMN = /^\s*(1[89]\d\d|20\d\d|2100)\s*$/;
/** At least this many year columns make a wide table. */
export const WIDE_YEARS = 3;

const NUMBER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/;

/** Melts the year columns of `data` into "year" and "value" rows (row by row, years in column order); its warning. */
export async function meltYears(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const years = columns.filter((c) => YEAR_COLUMN.test(c.name));
  const ids = columns.filter((c) => !YEAR_COLUMN.test(c.name));
  if (years.length < WIDE_YEARS || ids.length === 0) return null;
  if (!years.every((c) => NUMBER_TYPE.test(c.type))) return null;
  if (ids.some((c) => ['year', 'value'].includes(c.name.toLowerCase()))) return null;
  const data = ident(DATA_RELATION);
  const idList = ids.map((c) => ident(c.name)).join(', ');
  // One list per row, unnested in column order: the rows of each original row stay together, in
  // file order, as pandas' melt reordered row by row.
  const names = `[${years.map((c) => `'${c.name.trim()}'`).join(', ')}]`;
  const values = `[${years.map((c) => ident(c.name)).join(', ')}]`;
  await db.run(
    `CREATE OR REPLACE TABLE ${data} AS SELECT ${idList}, "year", "value" FROM (SELECT rowid AS _r, ${idList}, CAST(unnest(${names}) AS BIGINT) AS "year", unnest(${values}) AS "value", unnest(range(${years.length})) AS _p FROM ${data}) ORDER BY _r, _p`,
    signal,
  );
  const first = years[0]?.name.trim() ?? '';
  const last = years.at(-1)?.name.trim() ?? '';
  return `read the ${years.length} year columns (${first} … ${last}) as rows: one per ${ids[0]?.name ?? 'row'} and year, in "year" and "value"`;
}
