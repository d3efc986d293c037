/**
 * Times written as numbers since 1970 (src/engine/source-epoch.ts, opsmind_data._read_epochs):
 * read as dates when the name and every value say so, by the DuckDB reader and the sandbox's
 * reader alike; barcodes, durations and out-of-range numbers stay numbers.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { tableRows, tableSchema, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-epoch-');
const database = testDatabase(dir);

// time: ms (USGS); createdAt: seconds with a fraction; ean: 13 digits named as a code; duration
// "time_ms" of 120 ms; updated: a null and seconds; old_ts: seconds before 1990.
const CSV = [
  'time,createdAt,ean,response_time,updated,old_ts,value',
  '1517966773840,1700000000.25,4006381333931,120,1700000000,315532800,1',
  '1517363399650,1700003600.5,5012345678900,95,,315619200,2',
  '1517966996303,1700007200,4001234567890,130,1700086400,315705600,3',
].join('\n');

void test('numbers since 1970 in columns named as times are dates; the rest stay numbers', async () => {
  const path = join(dir, 'epochs.csv');
  writeFileSync(path, `${CSV}\n`);
  const info = await attachSource(database(), path, { scratchDir: join(dir, 'scratch') });
  const schema = await tableSchema(database());
  assert.deepEqual(
    Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, v === 'TIMESTAMP'])),
    {
      time: true,
      createdAt: true,
      ean: false,
      response_time: false,
      updated: true,
      old_ts: false,
      value: false,
    },
  );
  assert.deepEqual(info.warnings, [
    'read "time" as dates: its numbers are milliseconds since 1970-01-01 (UTC)',
    'read "createdAt" as dates: its numbers are seconds since 1970-01-01 (UTC)',
    'read "updated" as dates: its numbers are seconds since 1970-01-01 (UTC)',
  ]);
  const rows = await tableRows(database());
  assert.deepEqual(
    rows.map((r) => [r.time, r.createdAt, r.updated]),
    [
      ['2018-02-07 01:26:13.84', '2023-11-14 22:13:20.25', '2023-11-14 22:13:20'],
      ['2018-01-31 01:49:59.65', '2023-11-14 23:13:20.5', null],
      ['2018-02-07 01:29:56.303', '2023-11-15 00:13:20', '2023-11-15 22:13:20'],
    ],
  );
  const pandas = pandasRead<{ dates: string[]; rows: (string | null)[][]; warnings: string[] }>(
    path,
    [
      'dates = [str(c) for c in df.columns if str(df[c].dtype).startswith("datetime")]',
      'rows = [[None if v is None or v != v else str(v) for v in r] for r in df[["time", "createdAt", "updated"]].astype(object).itertuples(index=False)]',
      'print(json.dumps({"dates": dates, "rows": rows, "warnings": w}))',
    ].join('\n'),
  );
  assert.deepEqual(pandas.dates, ['time', 'createdAt', 'updated']);
  assert.deepEqual(pandas.warnings, info.warnings);
  const micros = (text: string | null) => (text === null ? null : Date.parse(`${text}Z`));
  assert.deepEqual(
    pandas.rows.map((r) => r.map((v) => micros(v))),
    rows.map((r) => [r.time, r.createdAt, r.updated].map((v) => micros(v as string | null))),
  );
});

void test('8-digit numbers that each write a date as YYYYMMDD, in a column named as a date, are dates', async () => {
  // co2.csv (statsmodels) writes its weeks 19580329, …; "code_date" holds a month 13, "date_id"
  // a number of 7 digits: numbers; "order_date" one that is no day (20240230): numbers too.
  const path = join(dir, 'ymd.csv');
  writeFileSync(
    path,
    [
      'date,co2,order_date,code_date,date_id',
      '19580329,316.1,20240228,20241301,1958032',
      '19580405,317.3,20240229,20240101,1958040',
      ',,20240230,20240102,1958041',
      '19591231,315.2,20240301,20240103,1958042',
    ].join('\n') + '\n',
  );
  const info = await attachSource(database(), path, { scratchDir: join(dir, 'scratch') });
  const schema = await tableSchema(database());
  assert.deepEqual(
    Object.entries(schema)
      .filter(([, t]) => t === 'TIMESTAMP')
      .map(([k]) => k),
    ['date'],
  );
  assert.deepEqual(info.warnings, [
    'read "date" as dates: its numbers write each date as YYYYMMDD',
  ]);
  const rows = await tableRows(database());
  assert.deepEqual(
    rows.map((r) => r.date),
    ['1958-03-29 00:00:00', '1958-04-05 00:00:00', null, '1959-12-31 00:00:00'],
  );
  const pandas = pandasRead<{ dates: string[]; values: (string | null)[]; warnings: string[] }>(
    path,
    [
      'dates = [str(c) for c in df.columns if str(df[c].dtype).startswith("datetime")]',
      'values = [None if v is None or v != v else str(v) for v in df["date"].astype(object)]',
      'print(json.dumps({"dates": dates, "values": values, "warnings": w}))',
    ].join('\n'),
  );
  assert.deepEqual(pandas.dates, ['date']);
  assert.deepEqual(pandas.warnings, info.warnings);
  assert.deepEqual(pandas.values, [
    '1958-03-29 00:00:00',
    '1958-04-05 00:00:00',
    null,
    '1959-12-31 00:00:00',
  ]);
});
