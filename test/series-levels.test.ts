/**
 * One row per period: a measure whose heavy tail comes of a trend (a share price that grew a
 * hundredfold in small monthly steps) is a level, averaged over quarters and months; one whose
 * tail comes of jumps (rain) still adds up. Neither is named, so only the steps can tell them
 * apart, and both engines measure them alike (TableFacts.typicalStep).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-series-levels-');

/** 120 months of a file: `column` from `value(i)`. */
function monthlyCsv(name: string, column: string, value: (i: number) => string): string {
  const rows = Array.from({ length: 120 }, (_, i) => {
    const month = `${2010 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
    return `${month},${value(i)}`;
  });
  const path = join(dir, name);
  writeFileSync(path, [`Date,${column}`, ...rows].join('\n') + '\n');
  return path;
}

/** A ticker's price growing ~6% a month with small wiggles: 2 to ~100× that. */
const price = (i: number): string =>
  (2 * Math.exp(0.06 * i) * (1 + 0.05 * Math.sin(i * 1.7))).toFixed(4);
/** A rain gauge: mostly dry, now and then a storm (0, 0, 3, …, 41). */
const rain = (i: number): string =>
  String(i % 10 === 9 ? 30 + ((i * 37) % 90) : i % 3 === 0 ? (i * 7) % 5 : 0);

void test('a series whose heavy tail is a trend in small steps is a level, averaged, in both engines', async () => {
  const file = monthlyCsv('ticker.csv', 'XYZ', price);
  const profile = await duckProfile(file);
  assert.equal(profile.semantics.table.grain, 'series');
  const xyz = profile.semantics.columns.find((c) => c.name === 'XYZ');
  assert.equal(xyz?.role, 'level', xyz?.evidence);
  assert.equal(xyz?.settled, false, 'the safe choice, said as such');
  assert.match(
    xyz?.evidence ?? '',
    /heavy right tail, but moving by a median \d+(\.\d)?% from one period to the next/,
  );
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas.findings, duck.findings, 'both engines say the same');
  const said = duck.findings.join('\n');
  assert.doesNotMatch(said, /summing the \d+ (quarters|months) of each year/, said);
  assert.match(said, /mean XYZ .*averaging the \d+ (quarters|months) of each year/i, said);
  assert.ok(
    duck.charts.every((title) => !/^Total/.test(title)),
    `no chart sums the price: ${duck.charts.join('; ')}`,
  );
});

void test('a series whose heavy tail comes of jumps still adds up', async () => {
  const file = monthlyCsv('rain.csv', 'gauge', rain);
  const profile = await duckProfile(file);
  const gauge = profile.semantics.columns.find((c) => c.name === 'gauge');
  assert.ok(['amount', 'count'].includes(gauge?.role ?? ''), gauge?.evidence);
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas.findings, duck.findings, 'both engines say the same');
  assert.match(duck.findings.join('\n'), /summing the \d+ (quarters|months) of each year/);
});
