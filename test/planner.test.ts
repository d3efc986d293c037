/** The heuristic planner's rules, plan validation, and the profile text budget, on hand-made profiles. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { extractJson } from '../src/agent/llm-planner.js';
import { unsupportedNumbers } from '../src/agent/llm-summary.js';
import { checkPlan, parsePlan } from '../src/agent/plan.js';
import type { Plan } from '../src/agent/plan.js';
import { profileText } from '../src/agent/profile-text.js';
import { col, date, profile, SALES } from './helpers/profiles.js';

function kinds(plan: Plan): string[] {
  return plan.analyses.map((a) => `${a.chart}:${a.transform.type}`);
}

void test('a time column and a measure give a monthly line of the money measure, first', () => {
  const plan = heuristicPlan(SALES);
  const first = plan.analyses[0];
  assert.equal(first?.chart, 'line');
  assert.deepEqual(first?.transform, {
    type: 'resample',
    date: 'order_date',
    measure: 'revenue',
    agg: 'sum',
    freq: 'M',
  });
});

void test('category × measure: sorted bars with top 10 and the rest as Other; a pie only for ≤ 6 slices', () => {
  const plan = heuristicPlan(SALES);
  const bars = plan.analyses.filter((a) => a.chart === 'bar');
  assert.ok(
    bars.some(
      (a) =>
        a.transform.type === 'group' &&
        a.transform.by === 'region' &&
        a.transform.top_n === 10 &&
        a.options?.sort === 'descending',
    ),
  );
  // With room in the plan (no dates here), one pie: the region's, never the 40-level product's.
  const roomy = heuristicPlan(
    profile(SALES.column_profiles.filter((c) => c.semantic !== 'datetime')),
  );
  const pies = roomy.analyses.filter((a) => a.chart === 'pie');
  assert.equal(pies.length, 1);
  assert.equal(
    pies[0]?.transform.type === 'group' && pies[0].transform.by,
    'region',
    'the 40-level product is never a pie',
  );
  // Over the ten-analysis limit, the pie (the bar's sums again) is the first to make way.
  assert.ok(plan.analyses.length <= 10);
  assert.ok(!plan.analyses.some((a) => a.chart === 'pie'), 'the full plan has no room for it');
});

void test('distributions, a scatter for the correlated pair, a heatmap only with 3+ measures', () => {
  const k = kinds(heuristicPlan(SALES));
  assert.ok(k.includes('histogram:distribution'));
  assert.ok(k.includes('box:distribution'));
  assert.ok(k.includes('scatter:relationship'));
  assert.ok(!k.includes('heatmap:correlation'), 'two measures: no heatmap');
  const three = profile([...SALES.column_profiles, col('discount', 'numeric')]);
  assert.ok(kinds(heuristicPlan(three)).includes('heatmap:correlation'));
});

void test('identifiers and free text are never charted, and the notes say so', () => {
  const plan = heuristicPlan(SALES);
  const text = JSON.stringify(plan.analyses);
  assert.doesNotMatch(text, /order_id|comment/);
  assert.ok(plan.notes.some((n) => /order_id \(an identifier.*comment \(free text\)/.test(n)));
  assert.ok(plan.analyses.length <= 10);
});

void test('a question is answered first: ranking, trend, relationship', () => {
  assert.deepEqual(
    heuristicPlan(SALES, 'What are the top 5 products by revenue?').analyses[0]?.transform,
    { type: 'group', by: 'product', measure: 'revenue', agg: 'sum', top_n: 5 },
  );
  assert.equal(
    heuristicPlan(SALES, 'How did units evolve over time?').analyses[0]?.transform.type,
    'resample',
  );
  assert.equal(heuristicPlan(SALES, 'Does units affect revenue?').analyses[0]?.chart, 'scatter');
  assert.deepEqual(heuristicPlan(SALES, 'average revenue by region').analyses[0]?.transform, {
    type: 'group',
    by: 'region',
    measure: 'revenue',
    agg: 'mean',
    top_n: 10,
  });
});

void test('degenerate data still gets a plan: one numeric column, only text', () => {
  assert.equal(heuristicPlan(profile([col('value', 'numeric')])).analyses[0]?.chart, 'histogram');
  const onlyText = heuristicPlan(profile([col('note', 'text')]));
  assert.equal(onlyText.analyses.length, 1);
  assert.equal(onlyText.analyses[0]?.chart, 'table');
  assert.deepEqual(checkPlan(onlyText, profile([col('note', 'text')])), []);
});

void test('every heuristic plan passes its own validation', () => {
  for (const question of [undefined, 'top products', 'revenue trend', 'distribution of units']) {
    assert.deepEqual(checkPlan(heuristicPlan(SALES, question), SALES), []);
  }
});

void test('plan validation names wrong columns, wrong types and impossible charts precisely', () => {
  const bad = parsePlan(
    {
      analyses: [
        {
          title: 'A',
          why: '',
          chart: 'pie',
          transform: {
            type: 'resample',
            date: 'region',
            measure: 'Revenue',
            agg: 'sum',
            freq: 'M',
          },
        },
        {
          title: 'B',
          why: '',
          chart: 'histogram',
          transform: { type: 'distribution', column: 'region' },
        },
      ],
      notes: [],
    },
    SALES,
  );
  assert.equal(bad.ok, false);
  const problems = bad.ok ? [] : bad.problems;
  assert.ok(
    problems.includes(
      'analysis 1 ("A"): a resample transform cannot be drawn as pie; use line or area or bar or table',
    ),
    problems.join('\n'),
  );
  assert.ok(
    problems.includes('analysis 1 ("A"): column "region" is category, not a date/time column'),
  );
  assert.ok(
    problems.includes(
      'analysis 1 ("A"): column "Revenue" is not in the data; did you mean "revenue"?',
    ),
  );
  assert.ok(
    problems.includes('analysis 2 ("B"): column "region" is category, not a number to measure'),
  );
  const shape = parsePlan({ analyses: [] }, SALES);
  assert.equal(shape.ok, false);
});

void test('the model answer parser finds JSON in fences and prose; the summary check catches invented numbers', () => {
  assert.deepEqual(extractJson('Here:\n```json\n{"a": 1}\n```'), { a: 1 });
  assert.deepEqual(extractJson('sure {"a": {"b": 2}} done'), { a: { b: 2 } });
  assert.throws(() => extractJson('no json here'), /no JSON object/);
  const facts =
    'West accounts for 30.9% of revenue (441,568 of 1,429,705). Revenue grew 12.6% in 2024.';
  assert.deepEqual(
    unsupportedNumbers('West leads with 30.9% (441,568); growth was 12.6% in 2024.', facts),
    [],
  );
  assert.deepEqual(unsupportedNumbers('West leads with 45% of revenue.', facts), ['45']);
});

void test('the profile text of a 100-column file fits in 8 KB and still names the columns', () => {
  const wide = profile(
    Array.from({ length: 100 }, (_, i) =>
      col(`a_rather_long_column_name_number_${i}`, i % 3 ? 'numeric' : 'category', {
        top: [
          { value: 'some fairly long category value', count: 10 },
          { value: 'another value', count: 5 },
        ],
        notes: ['12% missing', 'many outliers'],
      }),
    ),
    {
      warnings: ['3 columns more than 50% missing: a, b, c'],
      correlations: [{ a: 'x', b: 'y', r: 0.9 }],
    },
  );
  const text = profileText(wide);
  assert.ok(Buffer.byteLength(text) <= 8 * 1024, `${Buffer.byteLength(text)} bytes`);
  assert.match(text, /^Dataset d\.csv: 1,000 rows × 100 columns/);
  assert.match(text, /a_rather_long_column_name_number_0 /);
  const small = profileText(SALES);
  assert.match(
    small,
    /- revenue \[numeric float64\] 100 distinct; min 0, median 50, mean 50, max 100/,
  );
  assert.match(small, /Strongest correlations: units~revenue r=0.82/);
});

void test('levels and rates are averaged, never summed, and never made into a pie', () => {
  const air = profile([
    date,
    col('city', 'category', { distinct: 6 }),
    col('pm25', 'numeric'),
    col('temperature_c', 'numeric'),
  ]);
  const plan = heuristicPlan(air);
  const transforms = plan.analyses.map((a) => a.transform);
  assert.ok(
    transforms.some((t) => t.type === 'resample' && t.measure === 'pm25' && t.agg === 'mean'),
  );
  assert.ok(transforms.some((t) => t.type === 'group' && t.by === 'city' && t.agg === 'mean'));
  assert.ok(!plan.analyses.some((a) => a.chart === 'pie'), 'no pie of averages');
  assert.equal(plan.analyses[0]?.title, 'Average pm25 per month');
  assert.deepEqual(heuristicPlan(air, 'share of pm25 by city').analyses[0]?.chart, 'bar');
});

void test('a bar of more periods than it holds is sent back: a line, or a coarser freq', () => {
  const bar = (freq: string, filters: object[] = []): Plan =>
    ({
      notes: [],
      analyses: [
        {
          title: 'Revenue per period',
          why: 'Why.',
          chart: 'bar',
          transform: {
            type: 'resample',
            date: 'order_date',
            measure: 'revenue',
            agg: 'mean',
            freq,
          },
          ...(filters.length ? { filters } : {}),
        },
      ],
    }) as Plan;
  // 2023-01-01 … 2024-12-31: 105 weeks, 24 months.
  assert.deepEqual(checkPlan(bar('W'), SALES), [
    'analysis 1 ("Revenue per period"): a bar holds at most 50 periods and "order_date" spans more than 50 weeks: draw a line, or use a coarser freq',
  ]);
  assert.deepEqual(checkPlan(bar('M'), SALES), []);
  const line = {
    ...bar('W'),
    analyses: bar('W').analyses.map((a) => ({ ...a, chart: 'line' as const })),
  };
  assert.deepEqual(checkPlan(line, SALES), []);
  // A filter on the date may narrow the span: the fold (the rest left out for a mean) decides.
  const since = [{ column: 'order_date', op: '>=', value: '2024-11-01' }];
  assert.deepEqual(checkPlan(bar('W', since), SALES), []);
});

void test('several measures as lines: checked as one set, and each line as its own measure', () => {
  const lines = (transform: object): Plan => ({
    notes: [],
    analyses: [
      {
        title: 'Revenue and units per month',
        why: 'Why.',
        chart: 'line',
        transform: {
          type: 'resample',
          date: 'order_date',
          freq: 'M',
          measure: null,
          measures: ['revenue', 'units'],
          agg: 'sum',
          ...transform,
        },
      },
    ],
  });
  assert.deepEqual(checkPlan(lines({}), SALES), []);
  assert.deepEqual(checkPlan(lines({ rebase: true }), SALES), []);
  const said = (transform: object): string => checkPlan(lines(transform), SALES).join(' | ');
  assert.match(said({ measure: 'revenue' }), /set measure to null, not "revenue"/);
  assert.match(said({ series: 'region' }), /takes no series/);
  assert.match(said({ top: 3 }), /not with measures/);
  assert.match(said({ equals: 1, agg: 'mean' }), /equals counts a value of one measure/);
  assert.match(said({ measures: ['units', 'units'] }), /names "units" twice/);
  assert.match(
    said({ measures: ['units', 'region'] }),
    /"region" is category, not a number to measure/,
  );
  assert.match(said({ measures: ['units', 'revnue'] }), /"revnue" is not in the data/);
  assert.match(
    said({ rebase: true, agg: 'count' }),
    /rebase compares levels or amounts: not a count/,
  );
  assert.equal(parsePlan({ ...lines({ measures: ['units'] }) }, SALES).ok, false);
});
