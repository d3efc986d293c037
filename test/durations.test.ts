/**
 * Durations written h:mm:ss, as time trackers export them ("Duration" = 01:23:45): DuckDB typed
 * them as times of day and pandas left them text, and the profile took them for dates ("dates
 * from 1900-01-01T00:11:20"). Both readers now read them as hours (minutes, when all are under an
 * hour) in a column named so, and the report measures them.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DURATION_NAME } from '../src/engine/source-durations.js';
import { attachText, tableSchema, tableValues, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-durations-');
const database = testDatabase(dir);

const hms = (s: number) =>
  [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60]
    .map((v) => String(v).padStart(2, '0'))
    .join(':');

void test('names that say a duration, and times of day that are none', () => {
  for (const name of [
    'Duration',
    'Time spent',
    'Talk Time',
    'moving_time',
    'Elapsed',
    'Hours worked',
  ])
    assert.ok(DURATION_NAME.test(name), name);
  for (const name of ['Start time', 'End Time', 'time', 'Date', 'Created at'])
    assert.ok(!DURATION_NAME.test(name), name);
});

void test('a time tracker export: its durations are hours in both readers, its start times stay', async () => {
  const seconds = Array.from({ length: 40 }, (_, i) => 600 + ((i * 7919) % 14000));
  const rows = seconds.map(
    (s, i) =>
      `${['Website', 'App', 'Audit'][i % 3]},2024-05-${String(1 + (i % 28)).padStart(2, '0')},09:${String(i % 60).padStart(2, '0')}:00,${hms(s)}`,
  );
  // A day's work past 24 hours is no time of day: text to DuckDB's sniffer, hours all the same.
  rows.push(`Audit,2024-05-30,08:00:00,${hms(26 * 3600 + 30 * 60)}`);
  const db = database();
  const { path, info } = await attachText(
    db,
    dir,
    'toggl.csv',
    `Project,Start date,Start time,Duration\n${rows.join('\n')}\n`,
  );
  const warning = 'read "Duration", written h:mm:ss, as a number of hours, in "Duration (hours)"';
  assert.deepEqual(info.warnings, [warning]);
  const schema = await tableSchema(db);
  assert.equal(schema['Duration (hours)'], 'DOUBLE');
  assert.equal(schema['Start time'], 'TIME');
  const duck = (await tableValues(db)).map((r) => (JSON.parse(r) as unknown[]).at(-1));
  const [pw, hours] = pandasRead<[string[], number[]]>(
    path,
    'print(json.dumps([w, df["Duration (hours)"].tolist()]))',
  );
  assert.deepEqual(pw, [warning]);
  const expected = [...seconds.map((s) => s / 3600), 26.5];
  for (const [i, h] of expected.entries()) {
    assert.ok(Math.abs(Number(duck[i]) - h) < 1e-12, `${i}: ${String(duck[i])} vs ${h}`);
    assert.ok(Math.abs(Number(hours[i]) - h) < 1e-12, `${i}: ${hours[i]} vs ${h}`);
  }
});

void test('calls under an hour are minutes; a column with one value that is no duration stays', async () => {
  const calls = Array.from(
    { length: 30 },
    (_, i) => `Agent ${i % 4},${hms(45 + ((i * 613) % 3000))}`,
  );
  const short = join(dir, 'calls.csv');
  writeFileSync(short, `agent,talk time\n${calls.join('\n')}\n`);
  const json = analyzeJson<{ warnings: string[]; columns: { name: string; role: string }[] }>(
    short,
    'pandas',
    join(dir, 'calls.html'),
  );
  assert.deepEqual(json.warnings, [
    'read "talk time", written h:mm:ss, as a number of minutes, in "talk time (minutes)"',
  ]);
  assert.ok(json.columns.some((c) => c.name === 'talk time (minutes)' && c.role !== 'date'));
  const db = database();
  const mixed = `agent,talk time\n${calls.join('\n')}\nAgent 9,later\n`;
  const { info } = await attachText(db, dir, 'mixed.csv', mixed);
  assert.deepEqual(info.warnings, []);
  assert.equal((await tableSchema(db))['talk time'], 'VARCHAR');
});

void test('a time of day as the only time: the DuckDB engine charts it, no binder error', () => {
  // "Dura\"tion" is named as no duration: a time of day (TIME), the table's only time. Its text
  // parse called regexp_matches on a TIME ("Binder Error", exit 1).
  const rows = Array.from({ length: 60 }, (_, i) => `P${i % 4},${hms(i * 150)},${1 + (i % 3)}`);
  const path = join(dir, 'times-of-day.csv');
  writeFileSync(path, `product,"at ""clock""",qty\n${rows.join('\n')}\n`);
  const json = analyzeJson<{ charts: { title: string }[] }>(path, 'duckdb', join(dir, 'tod.html'));
  assert.ok(json.charts.length > 0);
});
