/**
 * Quarters written as labels ("Q1 2022", "2022 Q3", "Q4-23", "Qtr 2 2024"), the way spreadsheet
 * and BI exports write them and pandas does not read: a text column whose every value is one is
 * read as dates, the first day of each quarter, in place — else a quarterly export is a column
 * of twelve categories, charted by value rather than over time. The forms pandas reads itself
 * ("2022Q1", "2022-q3") stay text, parsed as the profile parses dates. A two-digit year is
 * read as strptime's %y reads it (69–99 the 1900s). The sandbox's reader converts the same
 * columns (opsmind_data._read_quarters).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** "Q1 2022", "Q1-22", "Q1 '22", "Qtr 1 2022": the quarter, then its year (RE2 and Python alike). */
export const QUARTER_FIRST = "^(?:[Qq]|[Qq][Tt][Rr]) ?([1-4]) *[-/.' ] *'?([0-9]{4}|[0-9]{2})$";
/** "2022 Q1", "2022/Q1", "2022 Qtr 1": the year, then its quarter. */
export const YEAR_FIRST = '^([0-9]{4}) *[-/. ]? *(?:[Qq]|[Qq][Tt][Rr]) ?([1-4])$';
/** The forms pandas' to_datetime reads itself (1974Q1, 1974-q3). */
const PANDAS_READS = '^[0-9]{4}-?[Qq][1-4]$';

/** The year of a label's year digits: four as written, two as %y reads them. */
function yearSql(digits: string): string {
  return `CASE WHEN length(${digits}) = 2 THEN CAST(${digits} AS INTEGER) + CASE WHEN CAST(${digits} AS INTEGER) < 69 THEN 2000 ELSE 1900 END ELSE CAST(${digits} AS INTEGER) END`;
}

/** The first day of the quarter a trimmed label writes (NULL for any other text). */
function quarterStartSql(text: string): string {
  const [first, year] = [literal(QUARTER_FIRST), literal(YEAR_FIRST)];
  const start = (y: string, q: string): string =>
    `make_timestamp(${yearSql(y)}, (CAST(${q} AS INTEGER) - 1) * 3 + 1, 1, 0, 0, 0)`;
  return (
    `CASE WHEN regexp_full_match(${text}, ${first}) THEN ` +
    start(`regexp_extract(${text}, ${first}, 2)`, `regexp_extract(${text}, ${first}, 1)`) +
    ` WHEN regexp_full_match(${text}, ${year}) THEN ` +
    start(`regexp_extract(${text}, ${year}, 1)`, `regexp_extract(${text}, ${year}, 2)`) +
    ' END'
  );
}

/** Reads each text column of quarter labels as TIMESTAMP; one warning per column converted. */
export async function readQuarters(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const texts = (await describeData(db, signal)).filter((column) => column.type === 'VARCHAR');
  if (texts.length === 0) return [];
  const checks = texts.map((column) => {
    const v = `trim(${ident(column.name)}, ' ')`;
    const label = `(regexp_full_match(${v}, ${literal(QUARTER_FIRST)}) OR regexp_full_match(${v}, ${literal(YEAR_FIRST)}))`;
    return [
      `count(${v})`,
      `count(*) FILTER (WHERE ${label})`,
      `count(*) FILTER (WHERE regexp_full_match(${v}, ${literal(PANDAS_READS)}))`,
      `min(${v}) FILTER (WHERE ${label})`,
    ].join(', ');
  });
  const result = await db.all(`SELECT ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const row = result.rows[0] ?? [];
  const warnings: string[] = [];
  for (const [i, column] of texts.entries()) {
    const [n = 0, labels, readable] = [0, 1, 2].map((k) => Number(row[i * 4 + k] ?? 0));
    if (!(n > 0) || labels !== n || readable === n) continue;
    const name = ident(column.name);
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${name} SET DATA TYPE TIMESTAMP USING ${quarterStartSql(`trim(${name}, ' ')`)}`,
      signal,
    );
    const first = row[i * 4 + 3];
    const example = JSON.stringify(typeof first === 'string' ? first : '');
    warnings.push(
      `read ${JSON.stringify(column.name)} as dates: each quarter (such as ${example}) as its first day`,
    );
  }
  return warnings;
}
