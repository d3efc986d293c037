/**
 * Times written with a UTC offset ("2023-01-01T00:00:00+02:00", as a shop's export writes its
 * orders): read as the times they write, the offsets set aside, so that a day, a month or an hour
 * of the day is the file's own. DuckDB's sniffer types them as instants (TIMESTAMP WITH TIME ZONE)
 * shown in UTC, which put each month-start row in the month before ("Dec 2022" for a file that
 * starts in January) and an evening's orders in the next day; the pandas engine reads them the
 * same way (opsmind_data.wall_times). Times in UTC ("…Z") are UTC's own wall times and stay as
 * they are. DuckDB's JSON reader reads them as instants too: a JSON table's time columns are
 * checked the same way, and read again as text when they write offsets (jsonWallTimes).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/** A time's UTC offset at its end: "+02:00", "-0500", "+05". */
export const OFFSET = /\s*[+-]\d{2}(?::?\d{2})?$/;
/** The offset's text in SQL (regexp_replace): the same pattern. */
const OFFSET_SQL = literal('\\s*[+-][0-9]{2}(:?[0-9]{2})?$');

/**
 * Indexes of the columns the sniffer typed as instants whose sampled values all write an offset,
 * not all of them zero: to read as text, then as the times they write (wallTimes).
 */
export function offsetColumns(columns: readonly { type: string; sample: string[] }[]): number[] {
  return columns.flatMap((column, index) => {
    if (column.type !== 'TIMESTAMP WITH TIME ZONE' || column.sample.length === 0) return [];
    const offsets = column.sample.map((value) => OFFSET.exec(value)?.[0].trim() ?? null);
    if (offsets.some((o) => o === null)) return [];
    return offsets.some((o) => !/^[+-]00(:?00)?$/.test(o ?? '')) ? [index] : [];
  });
}

/** A whole time with an offset, as the pandas engine's reader matches it (opsmind_data._OFFSET_TIME). */
const OFFSET_TIME =
  /^\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*[+-]\d{2}(?::?\d{2})?$/;
const OFFSET_TIME_SQL = literal(
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{1,2}:[0-9]{2}(:[0-9]{2}([.][0-9]+)?)?\\s*[+-][0-9]{2}(:?[0-9]{2})?$',
);

/**
 * Indexes of the columns the sniffer left as text whose sampled values are all times with an
 * offset: Shopify writes "2024-03-01 15:00:00 -0500", a space before the offset, which DuckDB's
 * sniffer does not read as a time (the pandas engine's reader does). Checked over every row by
 * spacedTimes before they are read.
 */
export function spacedOffsetColumns(
  columns: readonly { type: string; sample: string[] }[],
): number[] {
  return columns.flatMap((column, index) =>
    column.type === 'VARCHAR' &&
    column.sample.length > 0 &&
    column.sample.every((v) => OFFSET_TIME.test(v) && /\s[+-]\d{2}(?::?\d{2})?$/.test(v))
      ? [index]
      : [],
  );
}

/**
 * Reads each text column at `indexes` (spacedOffsetColumns) whose every value is a time with an
 * offset: as the times they write when any offset is not zero (wallTimes, with its warning), as
 * the instants in UTC when all are ("+0000", as the sniffer reads "…+00:00"); a column with any
 * other value stays text, as the pandas engine's reader leaves it.
 */
async function spacedTimes(
  db: DuckDb,
  indexes: readonly number[],
  columns: readonly { name: string; sample: string[] }[],
  signal?: AbortSignal,
): Promise<string[]> {
  if (indexes.length === 0) return [];
  const names = indexes.map((i) => ident(columns[i]?.name ?? ''));
  const counts = names.map(
    (c) =>
      `count(*) FILTER (WHERE NOT regexp_full_match(trim(${c}), ${OFFSET_TIME_SQL})), ` +
      `count(*) FILTER (WHERE NOT regexp_matches(trim(${c}), '[+-]00(:?00)?$'))`,
  );
  const [row] = (await db.all(`SELECT ${counts.join(', ')} FROM ${ident(DATA_RELATION)}`, signal))
    .rows;
  const walls: number[] = [];
  for (const [k, i] of indexes.entries()) {
    const [other, nonZero] = [Number(row?.[2 * k]), Number(row?.[2 * k + 1])];
    if (other > 0) continue;
    if (nonZero > 0) walls.push(i);
    else
      await db.run(
        `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${names[k]} SET DATA TYPE TIMESTAMP WITH TIME ZONE USING try_cast(regexp_replace(trim(${names[k]}), '\\s+([+-][0-9]{2}(:?[0-9]{2})?)$', '\\1') AS TIMESTAMP WITH TIME ZONE)`,
        signal,
      );
  }
  return wallTimes(db, walls, columns, signal);
}

/**
 * The delimited reader's times with offsets: the sniffer's instants at `offsets` (offsetColumns)
 * and the text columns of times with an offset after a space (spacedOffsetColumns); their warnings.
 */
export async function offsetTimes(
  db: DuckDb,
  offsets: readonly number[],
  columns: readonly { name: string; type: string; sample: string[] }[],
  signal?: AbortSignal,
): Promise<string[]> {
  const walls = await wallTimes(db, offsets, columns, signal);
  return [...walls, ...(await spacedTimes(db, spacedOffsetColumns(columns), columns, signal))];
}

/**
 * Makes each of the text columns at `indexes` (offsetColumns) the times its values write, as TIMESTAMP;
 * a value that is no time becomes missing, as the sniffer's type would have refused it. A warning
 * for each names its offsets (the first three its sample holds), as the pandas engine's reader says.
 */
export async function wallTimes(
  db: DuckDb,
  indexes: readonly number[],
  columns: readonly { name: string; sample: string[] }[],
  signal?: AbortSignal,
): Promise<string[]> {
  const warnings: string[] = [];
  for (const i of indexes) {
    const name = columns[i]?.name ?? '';
    const c = ident(name);
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${c} SET DATA TYPE TIMESTAMP USING try_cast(regexp_replace(trim(${c}), ${OFFSET_SQL}, '') AS TIMESTAMP)`,
      signal,
    );
    const seen = [...new Set((columns[i]?.sample ?? []).map((v) => OFFSET.exec(v)?.[0].trim()))];
    const shown = seen.slice(0, 3).join(', ') + (seen.length > 3 ? ', …' : '');
    warnings.push(
      `read ${JSON.stringify(name)} as the times it writes, its UTC offsets (${shown}) set aside: days, months and hours are the file's own`,
    );
  }
  return warnings;
}

/** The rows of a JSON file whose time values are checked for offsets (the CSV sniffer's sample). */
const JSON_SAMPLE = 1000;

/**
 * A JSON table's time columns whose values write an offset, not all zero, read again as text and
 * made the times they write (wallTimes): DuckDB's JSON reader reads "2023-01-01T00:30:00+02:00"
 * as the instant, in UTC (Dec 31, 22:30), as its CSV sniffer does. `source` is the table's
 * read_json call with its columns given as `columns` (a DuckDB struct of names and types).
 * Warnings as wallTimes'; none, the table as it was, when the second read fails.
 */
export async function jsonWallTimes(
  db: DuckDb,
  source: (columns: string) => string,
  signal?: AbortSignal,
): Promise<string[]> {
  const described = (await db.all(`DESCRIBE ${ident(DATA_RELATION)}`, signal)).rows.map((r) => ({
    name: String(r[0]),
    type: String(r[1]),
  }));
  const timed = described.filter((c) => /^TIMESTAMP( WITH TIME ZONE)?$/.test(c.type));
  if (timed.length === 0) return [];
  const spec = (columns: readonly { name: string; type: string }[]): string =>
    `{${columns.map((c) => `${literal(c.name)}: ${literal(c.type)}`).join(', ')}}`;
  const asText = spec(timed.map((c) => ({ name: c.name, type: 'VARCHAR' })));
  const rows = await db.objects(
    `SELECT ${timed.map((c, i) => `${ident(c.name)} AS c${i}`).join(', ')} FROM ${source(asText)} LIMIT ${JSON_SAMPLE}`,
    signal,
  );
  // Typed as instants by the reader, as offsetColumns asks of the CSV sniffer's columns.
  const columns = timed.map((c, i) => ({
    name: c.name,
    type: 'TIMESTAMP WITH TIME ZONE',
    sample: rows.flatMap((r) => (typeof r[`c${i}`] === 'string' ? [String(r[`c${i}`])] : [])),
  }));
  const indexes = offsetColumns(columns);
  if (indexes.length === 0) return [];
  const text = new Set(indexes.map((i) => columns[i]?.name));
  const typed = described.map((c) => ({ ...c, type: text.has(c.name) ? 'VARCHAR' : c.type }));
  try {
    await db.run(
      `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT * FROM ${source(spec(typed))}`,
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    return [];
  }
  return wallTimes(db, indexes, columns, signal);
}
