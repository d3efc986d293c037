/** How the heuristic planner answers a question's kind: its period, a count of rows, a pairing, a comparison, a share. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { col, date, profile, SALES } from './helpers/profiles.js';

const top = (...values: string[]) => values.map((value) => ({ value, count: 10 }));
const SHOP = profile([
  date,
  col('region', 'category', { distinct: 4, top: top('North', 'South', 'East', 'West') }),
  col('channel', 'category', { distinct: 3, top: top('Online', 'Retail', 'Wholesale') }),
  col('revenue', 'numeric'),
  col('units', 'numeric'),
  col('price', 'numeric'),
]);
const first = (question: string, data = SHOP) => heuristicPlan(data, question).analyses[0];

void test('a line is drawn in the period the question asks, if the data has it', () => {
  const weekly = first('how much revenue per week');
  assert.equal(weekly?.transform.type === 'resample' && weekly.transform.freq, 'W');
  const quarterly = first('quarterly revenue');
  assert.equal(quarterly?.transform.type === 'resample' && quarterly.transform.freq, 'Q');
  // Finer than the data's own spacing (monthly rows asked per day): the planner's own period.
  const months = profile([
    col('month', 'datetime', {
      distinct: 24,
      datetime: {
        min: '2023-01-01',
        max: '2024-12-01',
        span_days: 700,
        frequency: 'M',
        parse_share: 1,
      },
    }),
    col('revenue', 'numeric'),
  ]);
  const daily = first('revenue per day', months);
  assert.equal(daily?.transform.type === 'resample' && daily.transform.freq, 'M');
});

void test('"how many" counts rows unless it names a measure, whose total it is then', () => {
  const orders = first('how many orders per month');
  assert.deepEqual(
    orders?.transform.type === 'resample' && [orders.transform.measure, orders.transform.agg],
    [null, 'count'],
  );
  assert.doesNotMatch(orders?.why ?? '', /names no number column/);
  const units = first('how many units per month');
  assert.deepEqual(
    units?.transform.type === 'resample' && [units.transform.measure, units.transform.agg],
    ['units', 'sum'],
  );
  const byRegion = first('number of orders by region');
  assert.deepEqual(
    byRegion?.transform.type === 'group' && [byRegion.transform.measure, byRegion.transform.agg],
    [null, 'count'],
  );
});

void test('two measures are paired when both are named, or one with a word of pairing; "A vs B" of values compares rows', () => {
  assert.equal(first('price vs revenue')?.chart, 'scatter');
  assert.equal(first('correlation between price and revenue')?.chart, 'scatter');
  assert.equal(first('what affects revenue?')?.chart, 'scatter');
  assert.equal(first('Does units affect revenue?', SALES)?.chart, 'scatter');
  const compared = first('compare revenue of Online vs Retail over time');
  assert.equal(compared?.chart, 'line');
  assert.equal(compared?.transform.type === 'resample' && compared.transform.series, 'channel');
  assert.deepEqual(compared?.filters?.[0], {
    column: 'channel',
    op: 'in',
    value: ['Online', 'Retail'],
  });
  assert.notEqual(first('North vs South revenue')?.chart, 'scatter');
});

void test("the question's answer is never the chart the plan drops for room, a pie of shares included", () => {
  const plan = heuristicPlan(SALES, 'what share of revenue comes from each region');
  assert.equal(plan.analyses[0]?.chart, 'pie');
  assert.equal(plan.analyses[0]?.title, 'what share of revenue comes from each region');
});
