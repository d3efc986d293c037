/**
 * Total rows outside time — a "Total" line under a list, a subtotal per group — are found from
 * the sums by both engines, left out of every chart of the heuristic plan and of a model's plan,
 * and said in a note; a value that adds up by chance on one measure is not one.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { tableTotals } from '../src/agent/semantics-totals.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile, modelPlan } from './helpers/semantics.js';

const dir = tempDir('opsmind-totals-');

/** Twenty states and a "Total" line adding up population and area (not the median income). */
function statesCsv(): string {
  const rows = Array.from({ length: 20 }, (_, i) => ({
    state: `State ${String.fromCharCode(65 + i)}`,
    population: 500_000 + ((i * 7919) % 20) * 1_000_003,
    area: 4_000 + ((i * 104_729) % 17) * 90_001,
    income: 45_000 + ((i * 31) % 20) * 1_500,
  }));
  const sum = (k: 'population' | 'area') => rows.reduce((s, r) => s + r[k], 0);
  const lines = rows.map((r) => `${r.state},${r.population},${r.area},${r.income}`);
  const path = join(dir, 'states.csv');
  writeFileSync(
    path,
    [
      'state,population,area_km2,median_income',
      ...lines,
      `Total,${sum('population')},${sum('area')},61000`,
    ].join('\n') + '\n',
  );
  return path;
}

/** Four regions × six products, and per region a "Total" product (its sales rounded to tens). */
function subtotalsCsv(): string {
  const lines: string[] = [];
  ['North', 'South', 'East', 'West'].forEach((region, r) => {
    let total = 0;
    ['Apples', 'Pears', 'Plums', 'Figs', 'Kiwis', 'Limes'].forEach((product, p) => {
      const sales = 1_000 + (((r * 6 + p) * 3_911) % 8_000);
      total += sales;
      lines.push(`${region},${product},${sales}`);
    });
    lines.push(`${region},Total,${Math.round(total / 10) * 10}`);
  });
  const path = join(dir, 'subtotals.csv');
  writeFileSync(path, ['region,product,sales', ...lines].join('\n') + '\n');
  return path;
}

const excludes = (
  filters: { column: string; op: string; value?: unknown }[] | undefined,
  column: string,
) => (filters ?? []).some((f) => f.column === column && f.op === '!=' && f.value === 'Total');

void test('a "Total" line under a list and subtotals per group are found from the sums and left out of every chart', async () => {
  const states = await duckProfile(statesCsv());
  assert.deepEqual(states.semantics.totals, [
    { column: 'state', value: 'Total', measure: 'population', within: 'table' },
  ]);
  const subtotals = await duckProfile(subtotalsCsv());
  // Rounded to tens, the subtotals add up only loosely: the label says what they are.
  assert.deepEqual(subtotals.semantics.totals, [
    { column: 'product', value: 'Total', measure: 'sales', within: 'table' },
  ]);
  for (const [profile, column] of [
    [states, 'state'],
    [subtotals, 'product'],
  ] as const) {
    const plan = heuristicPlan(profile);
    for (const a of plan.analyses.filter((x) => x.transform.type !== 'missing'))
      assert.ok(excludes(a.filters, column), `${column}: ${a.title}`);
    assert.ok(
      plan.notes.some((n) => n.startsWith(`"Total" in ${column} is the total of the other`)),
    );
  }
});

void test('both engines leave the total rows out: the findings count each sale once', () => {
  for (const file of [statesCsv(), subtotalsCsv()]) {
    const findings = (engine: string) => {
      const json = analyzeJson<{ insights: { text: string }[] }>(
        file,
        engine,
        join(dir, `${engine}.html`),
      );
      return json.insights.map((i) => i.text);
    };
    const [duck, pandas] = [findings('duckdb'), findings('pandas')];
    assert.deepEqual(pandas, duck, file);
    assert.ok(duck.length > 3);
    assert.ok(!duck.some((t) => /\bTotal\b/.test(t)), duck.join('\n'));
    if (file.endsWith('subtotals.csv')) {
      // Without the subtotals the grand total is the products' sum, not twice it.
      const share = duck.find((t) => /^\w+ accounts for [\d.]+% of sales \(/.test(t)) ?? '';
      const total = Number(/ of ([\d,]+)\)/.exec(share)?.[1]?.replaceAll(',', ''));
      assert.ok(total > 24_000 && total < 24 * 9_000, share);
    }
  }
});

void test('a value that adds up the others by chance on one measure, unlabelled, is not a total', () => {
  const split = (value: string, part: number, whole: number, measure = 'm') => ({
    column: 'c',
    value,
    measure,
    part,
    whole,
  });
  assert.deepEqual(tableTotals([split('a', 3, 6)]), []);
  assert.deepEqual(tableTotals([split('a', 3, 6), split('a', 5, 10, 'n')]), [
    { column: 'c', value: 'a', measure: 'm', within: 'table' },
  ]);
  // Labelled, 0.3% off the rest (rounded parts); unlabelled that is too far on any count.
  assert.deepEqual(tableTotals([split('Grand Total', 1003, 2003)]), [
    { column: 'c', value: 'Grand Total', measure: 'm', within: 'table' },
  ]);
  assert.deepEqual(tableTotals([split('a', 1003, 2003), split('a', 503, 1003, 'n')]), []);
  // A label beats a value that adds up by chance in the same column.
  assert.equal(
    tableTotals([split('a', 3, 6), split('a', 5, 10, 'n'), split('Total', 9, 18)])[0]?.value,
    'Total',
  );
});

void test("a model's plan that sums the total rows gets them left out, with the note", async () => {
  const profile = await duckProfile(subtotalsCsv());
  const plan = {
    notes: [],
    analyses: [
      {
        title: 'Sales by product',
        why: 'Which product sells most.',
        chart: 'bar',
        transform: { type: 'group', by: 'product', measure: 'sales', agg: 'sum' },
      },
    ],
  };
  const result = await modelPlan(profile, plan);
  assert.equal(result.planner, 'llm');
  assert.ok(excludes(result.plan.analyses[0]?.filters, 'product'));
  assert.ok(result.plan.notes.some((n) => n.includes('"Total" in product is the total')));
});
