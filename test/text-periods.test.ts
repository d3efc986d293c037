/**
 * Dates pandas reads that the profile missed: a year's quarter written 1974Q1 (danish_data.csv)
 * and a month's day written Jan-1-1995 (elec_equip.csv) were each "unique on every row: names each
 * entity", ranked as if they were names. Both engines now read them as dates (profile-dates.ts'
 * quarterSql and formats, sql-rows.ts' cleaning; DATE_LIKE in both), and the file is a series.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-periods-');

interface Run {
  table: { grain: string; time: { column: string; freq: string } | null };
  charts: { title: string }[];
  insights: { text: string }[];
}

/** Both engines' `analyze --json` of `file`: the same grain, time, charts and findings. */
function sameInBoth(file: string): Run {
  const duck = analyzeJson<Run>(file, 'duckdb', join(dir, 'duck.html'));
  const pandas = analyzeJson<Run>(file, 'pandas', join(dir, 'pandas.html'));
  assert.deepEqual(pandas.table, duck.table);
  assert.deepEqual(
    pandas.charts.map((c) => c.title),
    duck.charts.map((c) => c.title),
  );
  assert.deepEqual(
    pandas.insights.map((i) => i.text),
    duck.insights.map((i) => i.text),
  );
  return duck;
}

void test('quarters written 1974Q1 (or 1974-q3) are dates: a quarterly series', async () => {
  const rows = Array.from({ length: 24 }, (_, i) => {
    const year = 1974 + Math.floor(i / 4);
    const q = (i % 4) + 1;
    return `${i % 5 === 0 ? `${year}-q${q}` : `${year}Q${q}`},${(11.6 + i * 0.01 + (q === 3 ? 0.05 : 0)).toFixed(3)}`;
  });
  const file = join(dir, 'quarters.csv');
  writeFileSync(file, ['period,lrm', ...rows].join('\n') + '\n');
  const profile = await duckProfile(file);
  const period = profile.column_profiles.find((c) => c.name === 'period');
  assert.equal(period?.semantic, 'datetime');
  assert.equal(period?.datetime?.min, '1974-01-01T00:00:00');
  assert.equal(period?.datetime?.max, '1979-10-01T00:00:00');
  const run = sameInBoth(file);
  assert.equal(run.table.grain, 'series');
  assert.deepEqual(run.table.time, { column: 'period', freq: 'QS', kind: 'date' });
  assert.ok(
    run.insights.some((i) => /in Q\d 19\d\d/.test(i.text)),
    run.insights.map((i) => i.text).join('\n'),
  );
});

void test('days written Jan-1-1995 are dates: a monthly series', () => {
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const rows = Array.from(
    { length: 36 },
    (_, i) =>
      `${months[i % 12] ?? ''}-1-${1995 + Math.floor(i / 12)},${(65 + i + (i % 12 === 8 ? 9 : 0)).toFixed(2)}`,
  );
  const file = join(dir, 'equip.csv');
  writeFileSync(file, ['DATE,orders', ...rows].join('\n') + '\n');
  const run = sameInBoth(file);
  assert.equal(run.table.grain, 'series');
  assert.equal(run.table.time?.column, 'DATE');
  assert.equal(run.table.time?.freq, 'MS');
  assert.ok(!run.charts.some((c) => /^Top \d+ DATE/.test(c.title)), 'no ranking of dates as names');
});
