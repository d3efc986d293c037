/**
 * Groups of countries listed beside the countries (World Bank, Our World in Data): left out of
 * every chart by both engines, so a sum over the column counts each country once and no ranking
 * puts "World" first; a table of groups alone keeps them; the text a model reads says so.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { groupName, tableAggregates } from '../src/agent/semantics-aggregates.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, bothEngines } from './helpers/semantics.js';

const dir = tempDir('opsmind-aggregates-');
after(() => rmSync(dir, { recursive: true, force: true }));

const YEARS = Array.from({ length: 12 }, (_, i) => 2010 + i);
/** Countries, each with its income group and region; populations in millions, overlapping. */
const COUNTRIES: [string, string, string, number][] = [
  ['Austria', 'High income', 'Europe & Central Asia', 9],
  ['Belgium', 'High income', 'Europe & Central Asia', 11],
  ['Chile', 'High income', 'Latin America & Caribbean', 19],
  ['Egypt, Arab Rep.', 'Lower middle income', 'Middle East & North Africa', 100],
  ['Ghana', 'Lower middle income', 'Sub-Saharan Africa', 31],
  ['India', 'Lower middle income', 'South Asia', 1380],
  ['Kenya', 'Lower middle income', 'Sub-Saharan Africa', 53],
  ['Mexico', 'Upper middle income', 'Latin America & Caribbean', 128],
  ['Peru', 'Upper middle income', 'Latin America & Caribbean', 33],
  ['South Africa', 'Upper middle income', 'Sub-Saharan Africa', 59],
  ['United States', 'High income', 'North America', 331],
  ['Ethiopia', 'Low income', 'Sub-Saharan Africa', 110],
];

function population(base: number, k: number, i: number): number {
  // Growing, with a dip now and then (a level, not a running total).
  return Math.round(
    base * 1e6 * (1 + 0.004 * ((k % 5) + 1)) ** i - ((i * (k + 2)) % 5) * base * 4e3,
  );
}

/** A long World Bank-like table: the countries, then World and the groups summing them. */
function panel(): { path: string; first: number; last: number } {
  const lines = ['country,year,population'];
  const sums = new Map<string, number[]>();
  COUNTRIES.forEach(([name, income, region, base], k) => {
    const values = YEARS.map((_, i) => population(base, k, i));
    for (const group of ['World', income, region])
      sums.set(
        group,
        values.map((v, i) => (sums.get(group)?.[i] ?? 0) + v),
      );
    values.forEach((v, i) => lines.push(`"${name}",${YEARS[i]},${v}`));
  });
  for (const [group, values] of sums)
    values.forEach((v, i) => lines.push(`"${group}",${YEARS[i]},${v}`));
  const path = join(dir, 'population.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const world = sums.get('World') ?? [];
  return { path, first: world[0] ?? 0, last: world.at(-1) ?? 0 };
}

void test('the names statistics offices give groups of countries, and not countries', () => {
  for (const name of [
    'World',
    'High income',
    'Upper-middle-income countries',
    'Euro area',
    'Sub-Saharan Africa (excluding high income)',
    'IDA & IBRD total',
    'Small states',
    'Late-demographic dividend',
    'Europe (excl. EU-27)',
    'Africa (UN)',
    'Eastern Africa',
  ])
    assert.ok(groupName(name) !== null, name);
  for (const name of [
    'South Africa',
    'United States',
    'Central African Republic',
    'Micronesia (country)',
    'Korea, Rep.',
    'North Macedonia',
  ])
    assert.equal(groupName(name), null, name);
  const countries = ['Chile', 'Ghana', 'India', 'Peru', 'Kenya'];
  assert.deepEqual(tableAggregates({ c: [...countries, 'High income', 'World'] }), [
    { column: 'c', values: ['World', 'High income'] },
  ]);
  // A continent beside countries is a group only where an office's groups are listed too: in a
  // customer's country column, "Europe" may be sales to a country left unnamed.
  assert.deepEqual(tableAggregates({ c: [...countries, 'Europe'] }), []);
  assert.deepEqual(tableAggregates({ c: [...countries, 'Europe', 'World'] }), [
    { column: 'c', values: ['World', 'Europe'] },
  ]);
  // Continents alone, or more groups than members: the groups are what is compared.
  const continents = ['Africa', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'];
  assert.deepEqual(tableAggregates({ c: [...continents, 'World'] }), []);
  assert.deepEqual(tableAggregates({ c: [...continents, 'Chile', 'Peru', 'India'] }), []);
});

void test('a panel of countries and their groups counts each country once, in both engines', () => {
  const { path, first, last } = panel();
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const { charts, findings } = both.duck;
  const said = [...charts, ...findings].join('\n');
  for (const group of ['World', 'High income', 'Sub-Saharan Africa', 'Lower middle income'])
    assert.ok(!said.includes(group), `${group} in:\n${said}`);
  // The total per year is the countries' (World's own values), not World plus every group.
  const total = `(${first.toLocaleString('en-US')} → ${last.toLocaleString('en-US')})`;
  assert.ok(
    findings.some((f) => f.includes(total)),
    `${total} not in:\n${findings.join('\n')}`,
  );
  assert.match(findings.join('\n'), /^India has the highest /m);
  const json = analyzeJson<{
    table: { evidence: string[] };
    charts: { derivation: { filter: { column: string; op: string; value: string[] }[] | null } }[];
  }>(path, 'duckdb', join(dir, 'evidence.html'));
  assert.ok(
    json.table.evidence.some((e) =>
      e.startsWith('country lists 11 groups of its other values ("World", "Europe & Central Asia"'),
    ),
    json.table.evidence.join('\n'),
  );
  for (const chart of json.charts)
    assert.ok(
      chart.derivation.filter?.some((f) => f.op === 'not in' && f.value.includes('World')),
      JSON.stringify(chart.derivation),
    );
});

void test('a table of continents keeps every continent', () => {
  const continents = ['Africa', 'Asia', 'Europe', 'North America', 'Oceania', 'South America'];
  const lines = ['continent,year,population'];
  continents.forEach((c, k) =>
    YEARS.forEach((y, i) => lines.push(`${c},${y},${population(100 + 150 * k, k, i)}`)),
  );
  const path = join(dir, 'continents.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  const { duck } = bothEngines(path, dir);
  assert.match(duck.findings.join('\n'), /^South America has the highest /m);
});
