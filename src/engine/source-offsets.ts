/**
 * Times written with a UTC offset ("2023-01-01T00:00:00+02:00", as a shop's export writes its
 * orders): read as the times they write, the offsets set aside, so that a day, a month or an hour
 * of the day is the file's own. DuckDB's sniffer types them as instants (TIMESTAMP WITH TIME ZONE)
 * shown in UTC, which put each month-start row in the month before ("Dec 2022" for a file that
 * starts in January) and an evening's orders in the next day; the pandas engine reads them the
 * same way (opsmind_data.wall_times). Times in UTC ("…Z") are UTC's own wall times and stay as
 * they are.
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
