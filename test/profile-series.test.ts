/**
 * Evenly spaced date columns (src/engine/profile-series.ts) over real DuckDB tables: the columns
 * it proves even, the ones it must leave to the usual queries, and, for every proved one, the
 * same value counts and frequency as the grouping and the sort of distinct timestamps give.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DuckDb, ident } from '../src/engine/duckdb.js';
import type { ProfileColumn } from '../src/engine/profile-columns.js';
import { readColumns, timestampSql } from '../src/engine/profile-columns.js';
import { frequencies } from '../src/engine/profile-frequency.js';
import { evenSeries, seriesFrequency } from '../src/engine/profile-series.js';
import { topValues } from '../src/engine/profile-top.js';
import { tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-series-');
let db: DuckDb;

before(async () => {
  db = await DuckDb.open({ memoryMb: 512, threads: 2, tempDir: join(DIR, 'spill') });
});
after(() => db.close());

/** Replaces the data table and returns its columns with the ones proved even. */
async function seriesOf(select: string) {
  await db.run(`CREATE OR REPLACE TABLE data AS ${select}`);
  const columns = await readColumns(db);
  const rows = Number((await db.objects('SELECT count(*) AS n FROM data'))[0]?.n);
  return { columns, rows, series: await evenSeries(db, columns, rows, 'csv') };
}

/** The usual way: the column's grouped value counts and its sorted distinct timestamps' gaps. */
async function usual(column: ProfileColumn, rows: number) {
  const tops = await topValues(db, [column], rows, 'csv');
  const timestamps = `SELECT ${timestampSql(column)} AS ts FROM ${ident('data')}`;
  const found = await frequencies(db, [{ key: column.index, timestamps }]);
  return { top: tops.get(column.index), frequency: found.get(column.index) ?? null };
}

async function assertProved(select: string, stepSeconds: number, frequency: string | null) {
  const { columns, rows, series } = await seriesOf(select);
  const column = columns.find((c) => c.name === 't');
  assert.ok(column, 'the table has a column t');
  const found = series.get(column.index);
  assert.ok(found, `${select}: proved even`);
  assert.equal(found.stepSeconds, stepSeconds);
  assert.equal(seriesFrequency(found), frequency);
  const reference = await usual(column, rows);
  assert.deepEqual(found.top, reference.top, 'the same value counts as the grouping');
  assert.equal(seriesFrequency(found), reference.frequency, 'the same frequency as the sort');
}

async function assertNotProved(select: string) {
  const { series } = await seriesOf(select);
  assert.equal(series.size, 0, `${select}: left to the usual queries`);
}

void test('minutes in file order, 10,000 of them, are an even series', async () => {
  await assertProved(
    "SELECT TIMESTAMP '2020-01-01' + INTERVAL 1 MINUTE * i AS t, i AS v FROM range(10000) r(i)",
    60,
    'min',
  );
});

void test('newest first: hourly stamps falling row by row are even too', async () => {
  await assertProved(
    "SELECT TIMESTAMP '2024-06-30 23:00' - INTERVAL 1 HOUR * i AS t FROM range(5000) r(i)",
    3600,
    'H',
  );
});

void test('a DATE column of days, and a time-zone-aware weekly column, are proved', async () => {
  await assertProved(
    "SELECT DATE '1990-01-01' + CAST(i AS INTEGER) AS t FROM range(4000) r(i)",
    86400,
    'D',
  );
  await assertProved(
    "SELECT TIMESTAMPTZ '2021-01-03 00:00:00+00' + INTERVAL 7 DAY * i AS t FROM range(800) r(i)",
    7 * 86400,
    'W',
  );
});

void test('an even step no band holds gives no frequency, as the sort would', async () => {
  await assertProved(
    "SELECT TIMESTAMP '2020-01-01' + INTERVAL 90 SECOND * i AS t FROM range(3000) r(i)",
    90,
    null,
  );
});

void test('three rows are the fewest with a spacing', async () => {
  await assertProved(
    "SELECT DATE '2021-01-01' + CAST(i AS INTEGER) AS t FROM range(3) r(i)",
    86400,
    'D',
  );
  await assertNotProved("SELECT DATE '2021-01-01' + CAST(i AS INTEGER) AS t FROM range(2) r(i)");
});

void test('a missing stamp, two rows swapped, a repeated stamp or a constant column are not even', async () => {
  const minutes = (expr: string) =>
    `SELECT TIMESTAMP '2020-01-01' + INTERVAL 1 MINUTE * (${expr}) AS t FROM range(2000) r(i)`;
  // A hole whose ends still give a whole step: 1999 gaps spanning 3998 minutes, two apiece.
  await assertNotProved(minutes('CASE WHEN i >= 1000 THEN i + 1999 ELSE i END'));
  await assertNotProved(minutes('CASE WHEN i = 10 THEN 11 WHEN i = 11 THEN 10 ELSE i END'));
  await assertNotProved(minutes('CASE WHEN i = 10 THEN 9 ELSE i END'));
  await assertNotProved("SELECT TIMESTAMP '2020-01-01' AS t FROM range(100)");
  // The step from the ends is not a whole number of microseconds.
  await assertNotProved(
    "SELECT CASE WHEN i = 99 THEN TIMESTAMP '2020-01-01 00:00:00.000100' ELSE TIMESTAMP '2020-01-01' + INTERVAL 1 MICROSECOND * i END AS t FROM range(100) r(i)",
  );
});

void test('a missing value anywhere leaves the column to the usual queries', async () => {
  for (const at of [0, 500, 999])
    await assertNotProved(
      `SELECT CASE WHEN i = ${at} THEN NULL ELSE TIMESTAMP '2020-01-01' + INTERVAL 1 DAY * i END AS t FROM range(1000) r(i)`,
    );
});

void test('stamps ten thousand years apart are proved, infinite ones refused, never an overflow', async () => {
  await assertProved(
    "SELECT TIMESTAMP '0001-01-01' + INTERVAL 36500 DAY * i AS t FROM range(100) r(i)",
    36500 * 86400,
    null,
  );
  for (const at of [5, 9])
    await assertNotProved(
      `SELECT CASE WHEN i = ${at} THEN TIMESTAMP 'infinity' ELSE TIMESTAMP '2020-01-01' + INTERVAL 1 DAY * i END AS t FROM range(10) r(i)`,
    );
});

void test('nanosecond timestamps are left alone; of two date columns only the even one is proved', async () => {
  await assertNotProved(
    "SELECT CAST(TIMESTAMP '2020-01-01' + INTERVAL 1 SECOND * i AS TIMESTAMP_NS) AS t FROM range(100) r(i)",
  );
  const { columns, series } = await seriesOf(
    "SELECT TIMESTAMP '2020-01-01' + INTERVAL 1 HOUR * i AS a, TIMESTAMP '2020-01-01' + INTERVAL 1 HOUR * (i * i) AS b, i AS c FROM range(500) r(i)",
  );
  assert.deepEqual(
    [...series.keys()].map((index) => columns[index]?.name),
    ['a'],
  );
});
