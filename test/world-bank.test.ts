/**
 * A World Bank download of one indicator: title lines, a column per year (melted into year and
 * value), "Indicator Name" the same text on every row. The measure is said as that indicator in
 * titles and findings, by both engines; with two measures, which one it names is not known.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, bothEngines } from './helpers/semantics.js';

const dir = tempDir('opsmind-world-bank-');
after(() => rmSync(dir, { recursive: true, force: true }));

const YEARS = Array.from({ length: 20 }, (_, i) => 2000 + i);
const COUNTRIES = [
  'Aruba',
  'Belgium',
  'Chile',
  'Denmark',
  'Estonia',
  'Fiji',
  'Ghana',
  'Haiti',
  'India',
  'Japan',
];

/** A World Bank CSV of `indicator` (its title block, a trailing comma on every line). */
function worldBank(name: string, indicator: string): string {
  const quoted = (fields: readonly (string | number)[]) =>
    `${fields.map((f) => `"${f}"`).join(',')},`;
  const rows = COUNTRIES.map((country, k) => [
    country,
    country.slice(0, 3).toUpperCase(),
    indicator,
    'SP.POP.TOTL',
    // Up and down, overlapping between countries.
    ...YEARS.map((_, i) => 1000 + 150 * k + 40 * i - ((i * (k + 2)) % 5) * 70),
  ]);
  const text = [
    '"Data Source","World Development Indicators",',
    '',
    '"Last Updated Date","2024-06-28",',
    '',
    quoted(['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code', ...YEARS]),
    ...rows.map(quoted),
  ].join('\n');
  const path = join(dir, name);
  writeFileSync(path, `${text}\n`);
  return path;
}

void test('the one indicator of a World Bank file names its values, in both engines', () => {
  const path = worldBank('API_SP.POP.TOTL.csv', 'Population, total');
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const { charts, findings } = both.duck;
  assert.ok(charts.includes('Population, total per year by Country Name'), charts.join('\n'));
  assert.ok(!charts.some((c) => /\bvalue\b/i.test(c)), charts.join('\n'));
  assert.match(findings.join('\n'), /^Population, total (grew|rose|fell) /m);
  const json = analyzeJson<{ table: { evidence: string[] } }>(path, 'duckdb', join(dir, 'e.html'));
  assert.ok(
    json.table.evidence.includes(
      'Indicator Name is "Population, total" on every row: value holds Population, total',
    ),
    json.table.evidence.join('\n'),
  );
});

void test('a constant column not named as a quantity, or two measures, name nothing', () => {
  const rows = COUNTRIES.flatMap((c, k) =>
    YEARS.map((y, i) => `${c},${y},Europe,${100 + ((i * (k + 3)) % 7) * 9},${i + k}`),
  );
  const path = join(dir, 'two.csv');
  writeFileSync(path, `${['country,year,indicator,a,b', ...rows].join('\n')}\n`);
  const two = bothEngines(path, dir).duck;
  assert.ok(!two.charts.some((c) => c.includes('Europe')), two.charts.join('\n'));
  const one = join(dir, 'region.csv');
  const rowsOne = COUNTRIES.flatMap((c, k) =>
    YEARS.map((y, i) => `${c},${y},Europe,${100 + ((i * (k + 3)) % 7) * 9}`),
  );
  writeFileSync(one, `${['country,year,region,value', ...rowsOne].join('\n')}\n`);
  const region = bothEngines(one, dir).duck;
  assert.ok(!region.charts.some((c) => c.includes('Europe')), region.charts.join('\n'));
  assert.ok(
    region.charts.some((c) => /\bvalue\b/i.test(c)),
    region.charts.join('\n'),
  );
});

void test('an indicator named in a currency makes its values money, in both engines', () => {
  const path = worldBank('API_NY.GDP.MKTP.CD.csv', 'GDP (current US$)');
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const said = both.duck.findings.join('\n');
  assert.match(said, /^GDP \(current US\$\) (grew|rose|fell) .*\(\$[\d,]+ → \$[\d,]+\)/m);
  assert.match(said, /^The median GDP \(current US\$\) is \$[\d,]+;/m);
  // Bars lying on their side carry the measure across: its title on the x axis, not the names'.
  analyzeJson(path, 'duckdb', join(dir, 'gdp.html'));
  const spec = JSON.parse(readFileSync(join(dir, 'gdp.json'), 'utf8')) as {
    spec: { charts: { kind: string; params: Record<string, unknown> }[] };
  };
  const bars = spec.spec.charts.filter((c) => c.kind === 'bar' && c.params.orientation === 'h');
  assert.ok(bars.length > 0, 'a ranking drawn as horizontal bars');
  for (const bar of bars) {
    assert.equal(bar.params.x_label, 'GDP (current US$)');
    assert.equal(bar.params.y_label, undefined);
  }
});
