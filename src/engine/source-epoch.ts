/**
 * Times written as numbers: a column named as a time ("time", "updated", "created_at",
 * "timestamp"…) whose every value is a count of seconds, or of milliseconds, since 1970 that lands
 * between 1990 and 2100 is read as those dates (UTC), in place. The name and the values must both
 * say so: 13-digit numbers alone may be barcodes, and a "time" of 120 is a duration. The sandbox's
 * reader converts the same columns (opsmind_data._read_epochs).
 */
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** A name that says the column holds a moment. */
export const TIME_NAME =
  /(^|[^a-z])(time|timestamp|ts|date|datetime|epoch|created|updated|modified)([^a-z]|$)|[a-z](At|Time)$|_at$/i;
/** Seconds since 1970 of 1990-01-01 and of 2100-01-01. */
const FROM_S = 631_152_000;
const TO_S = 4_102_444_800;

const NUMBER_TYPE = /^(INTEGER|BIGINT|HUGEINT|UINTEGER|UBIGINT|DOUBLE|DECIMAL)/;

/** The unit of `column`'s numbers when every one is a moment in range: seconds, milliseconds, or none. */
async function unitOf(
  db: DuckDb,
  column: string,
  signal?: AbortSignal,
): Promise<'s' | 'ms' | null> {
  const c = `CAST(${ident(column)} AS DOUBLE)`;
  const [row = {}] = await db.objects(
    `SELECT count(${c}) AS n,
       count(*) FILTER (WHERE ${c} >= ${FROM_S} AND ${c} < ${TO_S}) AS s,
       count(*) FILTER (WHERE ${c} >= ${FROM_S * 1000} AND ${c} < ${TO_S * 1000}) AS ms
     FROM ${ident(DATA_RELATION)}`,
    signal,
  );
  const [n, s, ms] = [Number(row.n), Number(row.s), Number(row.ms)];
  if (!(n > 0)) return null;
  return s === n ? 's' : ms === n ? 'ms' : null;
}

/** Reads each epoch column as TIMESTAMP (microseconds, rounded); one warning per column converted. */
export async function readEpochs(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const warnings: string[] = [];
  for (const column of await describeData(db, signal)) {
    if (!TIME_NAME.test(column.name) || !NUMBER_TYPE.test(column.type)) continue;
    const unit = await unitOf(db, column.name, signal);
    if (!unit) continue;
    const c = ident(column.name);
    const micros = `CAST(round(CAST(${c} AS DOUBLE) * ${unit === 's' ? 1_000_000 : 1_000}) AS BIGINT)`;
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${c} SET DATA TYPE TIMESTAMP USING make_timestamp(${micros})`,
      signal,
    );
    const said = unit === 's' ? 'seconds' : 'milliseconds';
    warnings.push(`read "${column.name}" as dates: its numbers are ${said} since 1970-01-01 (UTC)`);
  }
  return warnings;
}
