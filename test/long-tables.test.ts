/**
 * A long table (country, year, indicator, value): the indicator names what the value holds, so
 * no chart pools population with life expectancy. Found from the rows by both engines; charted
 * one indicator at a time, averaged (the safe statistic), the findings naming the indicator; a
 * model's plan that pools them is sent back; a key of commensurable values (sex) is no such column.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import type { Plan } from '../src/agent/plan.js';
import type { Semantics } from '../src/agent/semantics.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-long-');
const COUNTRIES = ['France', 'Germany', 'Italy', 'Spain', 'Poland'];

function write(name: string, header: string, rows: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, [header, ...rows].join('\n') + '\n');
  return path;
}

/** Five countries × 21 years × three indicators on scales of their own, each wavering. */
function indicatorsCsv(): string {
  const rows = COUNTRIES.flatMap((country, c) =>
    Array.from({ length: 21 }, (_, i) => {
      const year = 2000 + i;
      const wave = ((i * 7 + c * 3) % 5) - 2;
      return [
        `${country},${year},Population,${40_000_000 + c * 6_000_000 + i * 90_000 + wave * 50_000}`,
        `${country},${year},GDP per capita,${25_000 + c * 4_000 + i * 400 + wave * 300}`,
        `${country},${year},Life expectancy,${(78 + c * 0.6 + i * 0.12 + wave * 0.1).toFixed(2)}`,
      ];
    }).flat(),
  );
  return write('indicators.csv', 'country,year,indicator,value', rows);
}

/** The same panel with a second key of one scale: people by sex. */
function bySexCsv(): string {
  const rows = COUNTRIES.flatMap((country, c) =>
    Array.from({ length: 21 }, (_, i) =>
      ['female', 'male'].map(
        (sex, s) =>
          `${country},${2000 + i},${sex},${20_000_000 + c * 3_000_000 + i * (40_000 + s * 7_000) + ((i * 5 + c) % 3) * 20_000}`,
      ),
    ).flat(),
  );
  return write('by-sex.csv', 'country,year,sex,people', rows);
}

void test('a column naming what the value holds is found from the rows, and each chart takes one of its values', async () => {
  const profile = await duckProfile(indicatorsCsv());
  const sem = profile.semantics;
  assert.deepEqual(sem.facets, [
    {
      column: 'indicator',
      measure: 'value',
      values: ['Population', 'GDP per capita', 'Life expectancy'],
    },
  ]);
  assert.deepEqual([sem.table.grain, sem.table.keys], ['panel', ['country']]);
  assert.equal(sem.columns.find((c) => c.name === 'value')?.role, 'level');
  // Not "indicator is made of ranges of value": it is what the value is.
  assert.deepEqual(sem.derived, []);
  const plan = heuristicPlan(profile);
  assert.ok(plan.analyses.length >= 6);
  for (const a of plan.analyses) {
    const kept = a.filters?.filter((f) => f.column === 'indicator' && f.op === '==') ?? [];
    assert.equal(kept.length, 1, `${a.title}: one indicator`);
    assert.ok(a.title.includes(String(kept[0]?.value)), a.title);
    assert.ok(
      !JSON.stringify(a.transform).includes('"indicator"'),
      `${a.title}: never grouped by it`,
    );
    if (a.transform.type === 'group' || a.transform.type === 'resample')
      assert.equal(a.transform.agg, 'mean', `${a.title}: averaged, the safe statistic`);
  }
  for (const v of ['Population', 'GDP per capita', 'Life expectancy'])
    assert.ok(
      plan.analyses.some((a) => a.chart === 'line' && a.filters?.[0]?.value === v),
      v,
    );
  assert.ok(plan.notes.some((n) => n.startsWith('indicator names what value holds')));
  assert.deepEqual(checkPlan(plan, profile), []);
});

void test("a model's plan pooling the indicators is sent back, with the filter to add", async () => {
  const profile = await duckProfile(indicatorsCsv());
  const analysis = (filters?: object[], by = 'country') => ({
    title: 'Value by country',
    why: 'Why.',
    chart: 'bar' as const,
    transform: { type: 'group' as const, by, measure: 'value', agg: 'mean' as const },
    ...(filters ? { filters } : {}),
  });
  const plan = (a: object): Plan => ({ notes: [], analyses: [a] }) as Plan;
  assert.deepEqual(checkPlan(plan(analysis()), profile), [
    'analysis 1 ("Value by country"): "value" holds a different quantity per indicator ("Population", "GDP per capita", "Life expectancy"…): add the filter {"column": "indicator", "op": "==", "value": "Population"} (one analysis per indicator)',
  ]);
  assert.match(
    checkPlan(plan(analysis(undefined, 'indicator')), profile)[0] ?? '',
    /grouping it by indicator compares different quantities/,
  );
  const one = [{ column: 'indicator', op: '==', value: 'Life expectancy' }];
  assert.deepEqual(checkPlan(plan(analysis(one)), profile), []);
});

void test('a key of commensurable values (sex) names no quantity: its people are one measure', async () => {
  const sem = (await duckProfile(bySexCsv())).semantics;
  assert.equal(sem.facets, undefined);
  assert.deepEqual([...sem.table.keys].sort(), ['country', 'sex']);
});

void test('both engines chart one indicator at a time, and the findings name it', () => {
  const file = indicatorsCsv();
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas, duck);
  assert.ok(
    duck.findings.some((t) => /^Poland has the highest mean Population \(/.test(t)),
    duck.findings.join('\n'),
  );
  assert.ok(duck.findings.some((t) => /highest mean Life expectancy \(8\d\.\d\)/.test(t)));
  assert.ok(!duck.findings.some((t) => /\bvalue\b/.test(t)), duck.findings.join('\n'));
  // The axes name the indicator too, not the column holding them all.
  for (const engine of ['duckdb', 'pandas']) {
    const html = readFileSync(join(dir, `${engine}.html`), 'utf8');
    assert.match(html, /"yaxis":\{"title":\{"text":"Life expectancy"/, engine);
    assert.doesNotMatch(html, /"yaxis":\{"title":\{"text":"value"/, engine);
  }
});

void test('a wide table (one column per year) is read as rows and charted over the years, alike in both engines', () => {
  const header = ['country', ...Array.from({ length: 8 }, (_, i) => String(2013 + i))].join(',');
  const rows = COUNTRIES.map((country, c) =>
    [
      country,
      ...Array.from({ length: 8 }, (_, i) => 100 + c * 20 + i * (3 + c) + ((i * c) % 4)),
    ].join(','),
  );
  const file = write('wide.csv', header, rows);
  const run = (engine: string) => {
    const json = analyzeJson<{
      table: Semantics['table'];
      charts: { kind: string; title: string }[];
      insights: { text: string }[];
      warnings: string[];
    }>(file, engine, join(dir, `wide-${engine}.html`));
    return {
      table: [json.table.grain, json.table.keys, json.table.time?.column],
      charts: json.charts.map((c) => `${c.kind} ${c.title}`),
      findings: json.insights.map((i) => i.text),
      warnings: json.warnings,
    };
  };
  const [duck, pandas] = [run('duckdb'), run('pandas')];
  assert.deepEqual(pandas, duck);
  assert.deepEqual(duck.table, ['panel', ['country'], 'year']);
  assert.ok(
    duck.charts.some((c) => c.startsWith('line ')),
    duck.charts.join('\n'),
  );
  assert.ok(
    duck.warnings.some((w) => w.startsWith('read the 8 year columns (2013 … 2020) as rows')),
  );
  assert.ok(!duck.charts.some((c) => /\b20(1\d|20)\b/.test(c)), 'no year charted as a measure');
});
