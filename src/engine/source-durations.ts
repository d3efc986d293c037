/**
 * Durations written h:mm:ss, as time trackers (Toggl, Clockify) and call logs export them: a
 * column named as a duration ("Duration", "Time spent", "Talk time") whose every value is
 * `01:23:45`. DuckDB's sniffer types them as times of day and pandas leaves them text; the
 * profile then took them for dates ("dates from 1900-01-01T00:11:20"), and no chart said how many
 * hours went to each project. Read as a number of hours (minutes, when every one is under an
 * hour), in a column named so ("Duration (hours)"), with a warning. The sandbox's reader converts
 * the same columns (opsmind_data._read_durations).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** A name that says the column holds a duration (not a time of day: "Start time" is none). */
export const DURATION_NAME =
  /(duration|elapsed|runtime|spent|worked|tracked)|(moving|talk|handle|hold|wait|ride|trip|run|work|response|resolution|total)[ _-]?time/i;
/** A duration written h:mm:ss (hours past 24 too), as SQL's regexp_full_match reads it. */
const HMS = '^[0-9]{1,4}:[0-5][0-9]:[0-5][0-9]([.][0-9]+)?$';

/** The seconds of a VARCHAR value written h:mm:ss. */
const seconds = (c: string): string =>
  `(CAST(split_part(trim(${c}), ':', 1) AS DOUBLE) * 3600 + CAST(split_part(trim(${c}), ':', 2) AS DOUBLE) * 60 + CAST(split_part(trim(${c}), ':', 3) AS DOUBLE))`;

/** Reads each duration column written h:mm:ss as hours (or minutes); a warning for each. */
export async function readDurations(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const columns = await describeData(db, signal);
  const names = new Set(columns.map((c) => c.name));
  const warnings: string[] = [];
  for (const column of columns) {
    if (!DURATION_NAME.test(column.name)) continue;
    if (column.type !== 'TIME' && column.type !== 'VARCHAR') continue;
    const c = ident(column.name);
    const secs = column.type === 'TIME' ? `epoch(${c})` : seconds(c);
    const every =
      column.type === 'TIME'
        ? 'true'
        : `bool_and(${c} IS NULL OR regexp_full_match(trim(${c}), ${literal(HMS)}))`;
    const [row = {}] = await db.objects(
      `SELECT count(${c}) AS n, ${every} AS every FROM ${ident(DATA_RELATION)}`,
      signal,
    );
    if (!(Number(row.n) > 0) || row.every !== true) continue;
    const [top = {}] = await db.objects(
      `SELECT max(${secs}) AS most FROM ${ident(DATA_RELATION)}`,
      signal,
    );
    const [unit, per] = Number(top.most) < 3600 ? ['minutes', 60] : ['hours', 3600];
    const renamed = `${column.name} (${unit})`;
    if (names.has(renamed)) continue;
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${c} SET DATA TYPE DOUBLE USING ${secs} / ${per}`,
      signal,
    );
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} RENAME COLUMN ${c} TO ${ident(renamed)}`,
      signal,
    );
    names.add(renamed);
    warnings.push(
      `read ${JSON.stringify(column.name)}, written h:mm:ss, as a number of ${unit}, in ${JSON.stringify(renamed)}`,
    );
  }
  return warnings;
}
