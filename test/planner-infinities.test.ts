/**
 * A measure that holds infinities (±inf): the heuristic planner draws its median and says why, and
 * a plan that sums or averages it is sent back (agent/infinities.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import type { Plan } from '../src/agent/plan.js';
import { col, profile } from './helpers/profiles.js';

const date = col('order_date', 'datetime', {
  distinct: 730,
  datetime: {
    min: '2023-01-01',
    max: '2024-12-31',
    span_days: 730,
    frequency: 'D',
    parse_share: 1,
  },
});
const columns = [
  col('order_id', 'identifier', { distinct: 1000 }),
  date,
  col('region', 'category', { distinct: 5 }),
  col('product', 'category', { distinct: 40 }),
  col('revenue', 'numeric'),
  col('units', 'numeric'),
];
const correlations = [{ a: 'units', b: 'revenue', r: 0.82 }];
const SALES = profile(columns, { correlations });

void test('a measure holding infinities: the heuristic plan draws its median, and a sum or mean of it is a problem', () => {
  const data = profile(
    columns.map((c) => (c.name === 'revenue' ? { ...c, infinite: 3 } : c)),
    { correlations },
  );
  const plan = heuristicPlan(data);
  assert.deepEqual(checkPlan(plan, data), []);
  const revenueAggs = plan.analyses.flatMap((a) => {
    const t = a.transform;
    return 'measure' in t && t.measure === 'revenue' && 'agg' in t ? [t.agg] : [];
  });
  assert.ok(revenueAggs.length >= 2, JSON.stringify(plan.analyses));
  assert.ok(
    revenueAggs.every((agg) => agg === 'median'),
    revenueAggs.join(', '),
  );
  const line = plan.analyses[0];
  assert.equal(line?.title, 'Median revenue per month');
  assert.match(line?.why ?? '', /Medians: revenue holds 3 infinite values/);
  assert.ok(!plan.analyses.some((a) => a.chart === 'pie' && a.title.includes('revenue')));
  const group = (agg: 'sum' | 'mean' | 'median' | 'count') =>
    ({
      analyses: [
        {
          title: 'Revenue by region',
          chart: 'bar',
          transform: { type: 'group', by: 'region', measure: 'revenue', agg, top_n: 10 },
        },
      ],
    }) as Plan;
  assert.deepEqual(checkPlan(group('sum'), data), [
    'analysis 1 ("Revenue by region"): "revenue" holds 3 infinite values: its sum is infinite wherever one falls and cannot be drawn; use agg "median" (or "count")',
  ]);
  assert.equal(checkPlan(group('mean'), data).length, 1);
  assert.deepEqual(checkPlan(group('median'), data), []);
  assert.deepEqual(checkPlan(group('count'), data), []);
  assert.deepEqual(checkPlan(group('sum'), SALES), [], 'finite revenue sums');
});
