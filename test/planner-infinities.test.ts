/**
 * A measure that holds infinities (±inf): the heuristic planner draws its median and says why, and
 * a plan that sums or averages it is sent back (agent/infinities.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import type { Plan } from '../src/agent/plan.js';
import { profile, SALES } from './helpers/profiles.js';

void test('a measure holding infinities: the heuristic plan draws its median, and a sum or mean of it is a problem', () => {
  const data = profile(
    SALES.column_profiles.map((c) => (c.name === 'revenue' ? { ...c, infinite: 3 } : c)),
    { correlations: SALES.correlations },
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

void test('a measure holding infinities: its histogram, box and the summary table say what they leave out or cannot show', () => {
  const data = profile(
    SALES.column_profiles.map((c) => (c.name === 'revenue' ? { ...c, infinite: 1 } : c)),
    { correlations: SALES.correlations },
  );
  const plan = heuristicPlan(data);
  const histogram = plan.analyses.find((a) => a.title === 'Distribution of revenue');
  assert.match(
    histogram?.why ?? '',
    / revenue holds an infinite value, which no bin or box can hold: it is left out\.$/,
  );
  const summary = plan.analyses.find((a) => a.title === 'Summary statistics');
  assert.match(
    summary?.why ?? '',
    /Infinities in revenue \(an infinite value\): its mean, std, min and max are not finite numbers and show as —, and its quartiles count them/,
  );
  // Without infinities, no such sentence.
  const finite = heuristicPlan(SALES);
  assert.ok(!finite.analyses.some((a) => /infinit/i.test(a.why ?? '')));
});
