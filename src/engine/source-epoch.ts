/**
 * Times written as numbers: a column named as a time ("time", "updated", "created_at",
 * "timestamp"…) whose every value is a count of seconds, or of milliseconds, since 1970 that lands
 * between 1990 and 2100 is read as those dates (UTC), in place. The name and the values must both
 * say so: 13-digit numbers alone may be barcodes, and a "time" of 120 is a duration. So are
 * whole numbers that each write a date as YYYYMMDD (co2.csv's date, 19580329), in such a column.
 * The sandbox's reader converts the same columns (opsmind_data._read_epochs).
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

/** YYYYMMDD of pandas' first and last whole days (its nanosecond timestamps' range). */
const FROM_YMD = 16_780_101;
const TO_YMD = 22_620_411;

/** A whole number written YYYYMMDD as its date (NULL when it is no date). */
const ymdDate = (c: string): string =>
  `try_strptime(CAST(CAST(${c} AS BIGINT) AS VARCHAR), '%Y%m%d')`;

/**
 * The unit of `column`'s numbers when every one is a moment in range: seconds, milliseconds, a
 * date written YYYYMMDD (8-digit numbers, far below any second of the range), or none.
 */
async function unitOf(
  db: DuckDb,
  column: string,
  signal?: AbortSignal,
): Promise<'s' | 'ms' | 'ymd' | null> {
  const c = `CAST(${ident(column)} AS DOUBLE)`;
  const [row = {}] = await db.objects(
    `SELECT count(${c}) AS n,
       count(*) FILTER (WHERE ${c} >= ${FROM_S} AND ${c} < ${TO_S}) AS s,
       count(*) FILTER (WHERE ${c} >= ${FROM_S * 1000} AND ${c} < ${TO_S * 1000}) AS ms,
       count(*) FILTER (WHERE ${c} >= ${FROM_YMD} AND ${c} <= ${TO_YMD} AND ${c} = floor(${c})
         AND ${ymdDate(c)} IS NOT NULL) AS ymd
     FROM ${ident(DATA_RELATION)}`,
    signal,
  );
  const [n, s, ms, ymd] = [Number(row.n), Number(row.s), Number(row.ms), Number(row.ymd)];
  if (!(n > 0)) return null;
  return s === n ? 's' : ms === n ? 'ms' : ymd === n ? 'ymd' : null;
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
    const using = unit === 'ymd' ? ymdDate(c) : `make_timestamp(${micros})`;
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${c} SET DATA TYPE TIMESTAMP USING ${using}`,
      signal,
    );
    const said = unit === 's' ? 'seconds' : 'milliseconds';
    warnings.push(
      unit === 'ymd'
        ? `read "${column.name}" as dates: its numbers write each date as YYYYMMDD`
        : `read "${column.name}" as dates: its numbers are ${said} since 1970-01-01 (UTC)`,
    );
  }
  return warnings;
}
