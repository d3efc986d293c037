/**
 * A line whose every period holds one value (a yearly series, a panel of one row per country per
 * year) is said as the values themselves: "Life_expectancy grew", not "Mean life_expectancy
 * grew", a mean of one value being no mean. Where periods hold several values, the mean is said.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { rmSync } from 'node:fs';
import { tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const dir = tempDir('opsmind-one-value-');
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `lines` written into the test's directory. */
function file(name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

void test('a yearly series of one row per year: its chart and findings name no mean, in both engines', () => {
  const years = Array.from({ length: 40 }, (_, i) => 1980 + i);
  const path = file('yearly.csv', [
    'year,life_expectancy',
    ...years.map((y, i) => `${y},${(60 + i * 0.5 + (i % 3) * 0.1).toFixed(2)}`),
  ]);
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck.findings, both.pandas.findings);
  assert.ok(both.duck.charts.includes('Life_expectancy per year'), both.duck.charts.join('\n'));
  const said = both.duck.findings.join('\n');
  assert.match(said, /^Life_expectancy grew 32\.5% from 1980 to 2019 \(60 → 79\.5\)\.$/m);
  assert.match(said, /^Life_expectancy peaked at 79\.5 in 2019, the latest period\.$/m);
  assert.doesNotMatch(said, /mean life_expectancy (grew|peaked|was lowest)/i);
});

void test('a panel of one row per entity per year: "Value grew in all … lines", in both engines', () => {
  const countries = ['Aruba', 'Belgium', 'Chile', 'Denmark'];
  // Overlapping ranges, up and down: no country is a band of values (semantics-derived).
  const rows = countries.flatMap((c, k) =>
    Array.from(
      { length: 12 },
      (_, i) => `${c},${2000 + i},${100 + 7 * i + ((i * (k + 3)) % 5) * 9 - k * 4}`,
    ),
  );
  const path = file('panel.csv', ['country,year,value', ...rows]);
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck.findings, both.pandas.findings);
  assert.ok(both.duck.charts.includes('Value per year by country'), both.duck.charts.join('\n'));
  const said = both.duck.findings.join('\n');
  assert.match(said, /^Value grew in all 4 country lines: /m);
  assert.doesNotMatch(said, /^Mean value grew/m);
});

void test('periods of several values each keep their mean, in both engines', () => {
  // Two readings a month: each month's point is the mean of two.
  const rows = Array.from({ length: 24 }, (_, m) => {
    const month = `${2020 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
    return [`${month}-01,${10 + m}.5`, `${month}-15,${11 + m}.5`];
  }).flat();
  const path = file('readings.csv', ['date,reading', ...rows]);
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck.findings, both.pandas.findings);
  const said = both.duck.findings.join('\n');
  assert.match(said, /mean reading/i, said);
});

void test('a running total per entity: its lines and its latest values, no distribution or box of it, in both engines', () => {
  // Cases to date per country and year: never falling, overlapping between countries.
  const rows = ['Aruba', 'Belgium', 'Chile', 'Denmark'].flatMap((c, k) => {
    let total = 50 * k;
    return Array.from({ length: 15 }, (_, i) => {
      total += 20 + ((i * (k + 3)) % 7) * 9;
      return `${c},${2000 + i},${total},${total * 2 + (i % 3)}`;
    });
  });
  const path = file('cases.csv', ['country,year,cases,tests', ...rows]);
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const { charts, findings } = both.duck;
  assert.ok(charts.includes('Latest cases by country'), charts.join('\n'));
  assert.deepEqual(
    charts.filter((title) => /^(Distribution of|Spread of)| vs /.test(title)),
    [],
    'a running total has no distribution, box or scatter',
  );
  assert.ok(
    findings.includes(
      'Denmark has the highest latest cases (828); Aruba the lowest (678), 1.2× apart.',
    ),
    findings.join('\n'),
  );
  assert.ok(!findings.some((f) => /skew|IQR|correlation/.test(f)), findings.join('\n'));
});
