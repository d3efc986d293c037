/** The values a question names become the rows its answer keeps, and its findings say so. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { findingScope, valueFilters, yearFilters } from '../src/agent/question-values.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';
import { col, date, profile } from './helpers/profiles.js';

const top = (...values: string[]) => values.map((value) => ({ value, count: 10 }));
const region = col('region', 'category', {
  distinct: 4,
  top: top('North', 'South', 'East', 'West'),
});
const channel = col('channel', 'category', { distinct: 3, top: top('Online', 'Retail', 'Other') });
const status = col('status', 'category', { distinct: 2, top: top('Yes', 'No') });
const SHOP = profile([
  date,
  region,
  channel,
  status,
  col('product', 'category', { distinct: 40, top: top('New York Deli', 'P02') }),
  col('revenue', 'numeric'),
  col('price', 'numeric'),
]);

void test('a value named by its words is a filter of its column; several of one column, an in', () => {
  assert.deepEqual(valueFilters('top products in the West', SHOP), [
    { column: 'region', op: '==', value: 'West' },
  ]);
  assert.deepEqual(valueFilters('average price of online orders by region', SHOP), [
    { column: 'channel', op: '==', value: 'Online' },
  ]);
  assert.deepEqual(valueFilters('revenue of North and South by channel', SHOP), [
    { column: 'region', op: 'in', value: ['North', 'South'] },
  ]);
  // A value of several words, as a phrase; "York" alone names nothing.
  assert.deepEqual(valueFilters('revenue of new york deli per month', SHOP), [
    { column: 'product', op: '==', value: 'New York Deli' },
  ]);
  assert.deepEqual(valueFilters('revenue in york', SHOP), []);
});

void test('words questions use for other things are no values, nor a value two columns hold', () => {
  // "other", "yes", "no", "top" as values; letters inside a word ("Northern") name nothing.
  for (const question of [
    'revenue of the other channels',
    'is there any revenue? yes or no',
    'top 5 regions',
    'Northern sales',
  ])
    assert.deepEqual(valueFilters(question, SHOP), [], question);
  const both = profile([
    col('origin', 'category', { distinct: 3, top: top('Paris', 'Rome') }),
    col('destination', 'category', { distinct: 3, top: top('Paris', 'Oslo') }),
    col('fare', 'numeric'),
  ]);
  assert.deepEqual(valueFilters('average fare of Paris flights', both), []);
  assert.deepEqual(valueFilters('average fare of Oslo flights', both), [
    { column: 'destination', op: '==', value: 'Oslo' },
  ]);
});

void test('the answer keeps the rows named, is not grouped by their one value, and says so', () => {
  const trend = heuristicPlan(SHOP, 'revenue trend for the South region').analyses[0];
  assert.equal(trend?.transform.type, 'resample');
  assert.ok(trend?.transform.type === 'resample' && !trend.transform.series, 'no line per region');
  assert.deepEqual(trend?.filters?.[0], { column: 'region', op: '==', value: 'South' });
  assert.match(trend?.why ?? '', /Only rows where region is South\.$/);
  const bars = heuristicPlan(SHOP, 'top products in the West').analyses[0];
  assert.equal(bars?.transform.type === 'group' && bars.transform.by, 'product');
  // Rows named and nothing else: their trend.
  const only = heuristicPlan(SHOP, 'How is the West doing?');
  assert.equal(only.analyses[0]?.transform.type, 'resample');
  assert.ok(only.notes.every((n) => !n.startsWith('No column')));
});

void test("an analysis' findings say the rows it keeps by value, not its filters of time, totals or facets", () => {
  assert.equal(
    findingScope({ filters: [{ column: 'region', op: '==', value: 'West' }] }, SHOP),
    'Where region is West: ',
  );
  assert.equal(
    findingScope(
      {
        filters: [
          { column: 'region', op: 'in', value: ['North', 'South'] },
          { column: 'channel', op: '==', value: 'Online' },
        ],
      },
      SHOP,
    ),
    'Where region is North or South and channel is Online: ',
  );
  const kept = [
    { column: 'order_date', op: '<' as const, value: '2024-12-01' },
    { column: 'region', op: '!=' as const, value: 'Total' },
    { column: 'region', op: 'not in' as const, value: ['World', 'Europe'] },
    { column: 'year', op: '==' as const, value: 2020 },
  ];
  assert.equal(findingScope({ filters: kept }, SHOP), '');
  assert.equal(findingScope(undefined, SHOP), '');
  const faceted = profile(SHOP.column_profiles, {
    semantics: {
      facets: [{ column: 'channel', measure: 'revenue', values: ['Online'] }],
    } as never,
  });
  assert.equal(
    findingScope({ filters: [{ column: 'channel', op: '==', value: 'Online' }] }, faceted),
    '',
  );
});

void test('analyze -q with a value: the chart keeps its rows, and both engines say so in the same findings', () => {
  const dir = tempDir();
  const file = join(dir, 'orders.csv');
  const lines = ['region,channel,product,revenue'];
  for (let i = 0; i < 400; i += 1)
    lines.push(
      `${['North', 'South', 'East', 'West'][i % 4]},${['Online', 'Retail'][i % 2 === 0 ? (i >> 2) % 2 : 1]},P${(i * 7) % 12},${100 + ((i * 37) % 250)}`,
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const run = (engine: string) =>
    analyzeJson<{
      charts: { derivation: { filter: unknown; rows_used: number } }[];
      insights: { text: string; analysis: number }[];
    }>(file, engine, join(dir, `${engine}.html`), ['-q', 'top products in the West']);
  const duck = run('duckdb');
  assert.deepEqual(duck.charts[0]?.derivation.filter, [
    { column: 'region', op: '==', value: 'West' },
  ]);
  assert.equal(duck.charts[0]?.derivation.rows_used, 100);
  const first = duck.insights.filter((i) => i.analysis === 1).map((i) => i.text);
  assert.ok(
    first.length > 0 && first.every((t) => t.startsWith('Where region is West: ')),
    first.join('\n'),
  );
  assert.ok(
    duck.insights.filter((i) => i.analysis !== 1).every((i) => !i.text.startsWith('Where ')),
  );
  const pandas = run('pandas');
  assert.deepEqual(
    pandas.insights.map((i) => i.text),
    duck.insights.map((i) => i.text),
  );
});

void test('a year a question names keeps that year: whole on a date column, by value on a column of years', () => {
  // SHOP's dates run 2023-01-01 to 2024-12-31.
  assert.deepEqual(yearFilters('revenue by region in 2024', date), [
    { column: 'order_date', op: '>=', value: '2024-01-01 00:00:00' },
    { column: 'order_date', op: '<', value: '2025-01-01 00:00:00' },
  ]);
  assert.deepEqual(yearFilters('revenue since 2024', date), [
    { column: 'order_date', op: '>=', value: '2024-01-01 00:00:00' },
  ]);
  assert.deepEqual(yearFilters('orders before 2024', date), [
    { column: 'order_date', op: '<', value: '2024-01-01 00:00:00' },
  ]);
  // Outside the data, two years, a number that is no year of the rows ("top 2000"): nothing.
  for (const question of ['revenue in 2019', 'revenue in 2023 and in 2024', 'top 2023 products'])
    assert.deepEqual(yearFilters(question, date), [], question);
  const year = col('year', 'numeric', {
    numeric: { ...col('y', 'numeric').numeric!, min: 1955, max: 2005 },
  });
  assert.deepEqual(yearFilters('population by country in 1980', year), [
    { column: 'year', op: '==', value: 1980 },
  ]);
  assert.deepEqual(yearFilters('population by country in 2020', year), []);
  // The answer keeps the year, says it, and its findings start with it.
  const plan = heuristicPlan(SHOP, 'revenue by region in 2024').analyses[0];
  assert.deepEqual(plan?.filters?.slice(0, 2), yearFilters('in 2024', date));
  assert.match(plan?.why ?? '', /Only rows in 2024\.$/);
  assert.equal(findingScope(plan, SHOP), 'In 2024: ');
  const both = heuristicPlan(SHOP, 'revenue by channel in the West in 2024').analyses[0];
  assert.equal(findingScope(both, SHOP), 'In 2024, where region is West: ');
  // A member ranked among the rows of one year has few of them: none is left out for it.
  const panel = profile(
    [year, col('country', 'category', { distinct: 62 }), col('pop', 'numeric')],
    {
      rows: 682,
    },
  );
  const ranked = heuristicPlan(panel, 'average pop by country in 1980').analyses[0];
  assert.ok(ranked?.transform.type === 'group' && ranked.transform.min_rows === undefined);
});

void test('a value past the most frequent five is named from every value the engine listed, in both engines', () => {
  const listed = profile(SHOP.column_profiles, {
    semantics: { values: { product: ['P02', 'P27', 'New York Deli'] } } as never,
  });
  assert.deepEqual(valueFilters('revenue of P27 by channel', listed), [
    { column: 'product', op: '==', value: 'P27' },
  ]);
  assert.deepEqual(valueFilters('revenue of P27 by channel', SHOP), []);
  // The engines list a column's values (6 to 300 of them) in the profile's semantics, sorted.
  const dir = tempDir();
  const file = join(dir, 'shop.csv');
  const lines = ['product,channel,revenue'];
  for (let i = 0; i < 300; i += 1)
    lines.push(
      `P${String((i * 7) % 20).padStart(2, '0')},${['Online', 'Retail'][i % 2]},${100 + i}`,
    );
  writeFileSync(file, `${lines.join('\n')}\n`);
  for (const engine of ['duckdb', 'pandas']) {
    const json = analyzeJson<{ charts: { derivation: { filter: unknown } }[] }>(
      file,
      engine,
      join(dir, `${engine}.html`),
      ['-q', 'revenue of P17 by channel'],
    );
    assert.deepEqual(
      json.charts[0]?.derivation.filter,
      [{ column: 'product', op: '==', value: 'P17' }],
      engine,
    );
  }
});
