/**
 * The heuristic planner never charts a period finer than the data's own (issue 14, item 3): yearly
 * data stays yearly. Real files from vega-datasets, profiled by the DuckDB engine.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlanner } from '../src/agent/llm-planner.js';
import { frequencyFor } from '../src/agent/roles.js';
import type { DataProfile } from '../src/agent/profile.js';
import { DuckDbEngine } from '../src/engine/duckdb-engine.js';
import { ROOT, tempDir } from './helpers/fixtures.js';

const ORDER = ['H', 'D', 'W', 'M', 'Q', 'Y'];
const corpus = (name: string): string => join(ROOT, 'node_modules', 'vega-datasets', 'data', name);

/** The DuckDB engine's profile of `file`. */
async function profileOf(file: string): Promise<DataProfile> {
  const engine = await DuckDbEngine.open({
    dataPath: file,
    memoryMb: 256,
    maxTempMb: 512,
    scratchDir: tempDir(),
  });
  try {
    return (await engine.profile(file.split('/').at(-1) ?? 'data')).profile;
  } finally {
    engine.close();
  }
}

void test('frequencyFor: the span picks the period, but never one finer than the observed spacing', () => {
  assert.equal(frequencyFor(365 * 40, 'Y'), 'Y');
  assert.equal(frequencyFor(365 * 3, 'Q'), 'Q');
  assert.equal(frequencyFor(365 * 3, 'D'), 'M');
  assert.equal(frequencyFor(200, 'M'), 'M');
  assert.equal(frequencyFor(200, null), 'W');
  assert.equal(frequencyFor(2, 'H'), 'H');
});

void test('frequencyFor: coarser while the dates could fill fewer than half the periods', () => {
  // Orders on 5 days over 137 days: per week, 16 of 21 weeks would be gaps; per month, none.
  assert.equal(frequencyFor(137, null, 5), 'M');
  assert.equal(frequencyFor(137, null, 11), 'W');
  assert.equal(frequencyFor(137, null, 10), 'M');
  assert.equal(frequencyFor(365 * 2, 'D', 2), 'Y');
  assert.equal(frequencyFor(60, null, 60), 'D');
  assert.equal(frequencyFor(60, null, 20), 'W');
  assert.equal(frequencyFor(365 * 3, 'D'), 'M', 'no count, no change');
});

void test('dates on a handful of days: a line per month, and no weekday or month-of-year pattern', async () => {
  const days = ['2024-03-15', '2024-04-02', '2024-05-20', '2024-06-11', '2024-07-30'];
  const lines = Array.from(
    { length: 200 },
    (_, i) => `${days[i % 5]},${['A', 'B', 'C'][i % 3]},${(i * 37) % 500}.5`,
  );
  const path = join(tempDir(), 'orders.csv');
  writeFileSync(path, ['order_date,segment,amount', ...lines].join('\n'));
  const { plan } = await heuristicPlanner(await profileOf(path), undefined);
  const transforms = plan.analyses.map((a) => a.transform);
  const freqs = transforms.flatMap((t) => (t.type === 'resample' ? [t.freq] : []));
  assert.ok(freqs.length > 0 && freqs.every((f) => f === 'M'), freqs.join());
  assert.ok(!transforms.some((t) => t.type === 'season'), 'no season of five days');
  // la-riots.csv: deaths on 10 days, most in the first week: no weekday pattern to chart.
  const riots = await heuristicPlanner(await profileOf(corpus('la-riots.csv')), undefined);
  assert.ok(!riots.plan.analyses.some((a) => a.transform.type === 'season'));
});

for (const [file, expected] of [
  ['iowa-electricity.csv', 'Y'],
  ['cars.json', 'Y'],
  ['seattle-weather.csv', null],
  ['stocks.csv', null],
] as const) {
  void test(`${file}: every resample is at the data's frequency or coarser`, async () => {
    const engine = await DuckDbEngine.open({
      dataPath: corpus(file),
      memoryMb: 256,
      maxTempMb: 512,
      scratchDir: tempDir(),
    });
    try {
      const { profile } = await engine.profile(file);
      const { plan } = await heuristicPlanner(profile, undefined);
      const resamples = plan.analyses.flatMap((a) =>
        a.transform.type === 'resample' ? [a.transform] : [],
      );
      assert.ok(resamples.length > 0, `${file} has a trend`);
      for (const t of resamples) {
        const observed = profile.column_profiles.find((c) => c.name === t.date)?.datetime
          ?.frequency;
        if (observed && ORDER.includes(observed))
          assert.ok(
            ORDER.indexOf(t.freq) >= ORDER.indexOf(observed),
            `${t.date}: ${t.freq} is finer than the data's ${observed}`,
          );
        if (expected) assert.equal(t.freq, expected);
      }
    } finally {
      engine.close();
    }
  });
}

void test('a question no column can answer is said so in the plan, not used as a chart title', async () => {
  const engine = await DuckDbEngine.open({
    dataPath: join(ROOT, 'examples', 'sales.csv'),
    memoryMb: 256,
    maxTempMb: 512,
    scratchDir: tempDir(),
  });
  try {
    const { profile } = await engine.profile('sales.csv');
    const odd = await heuristicPlanner(profile, 'What is the weather like?');
    assert.ok(odd.plan.analyses.every((a) => !a.title.includes('weather')));
    assert.match(
      odd.plan.notes[0] ?? '',
      /No column of sales\.csv answers "What is the weather like\?"/,
    );
    const fine = await heuristicPlanner(profile, 'Which region has the highest revenue?');
    assert.equal(fine.plan.analyses[0]?.title, 'Which region has the highest revenue?');
    assert.ok(fine.plan.notes.every((n) => !n.startsWith('No column')));
  } finally {
    engine.close();
  }
});

void test('a measure that is mostly missing never leads the plan, whatever its name', async () => {
  const dir = tempDir();
  const lines = ['day,store,revenue,visits'];
  for (let i = 0; i < 300; i += 1)
    lines.push(
      [
        `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
        ['A', 'B', 'C'][i % 3],
        i % 10 < 8 ? '' : String(100 + i),
        String(20 + (i % 17)),
      ].join(','),
    );
  const file = join(dir, 'sparse.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const { plan } = await heuristicPlanner(await profileOf(file), undefined);
  const first = plan.analyses.find(
    (a) => a.transform.type === 'resample' || a.transform.type === 'group',
  );
  assert.ok(first);
  const measure = 'measure' in first.transform ? first.transform.measure : null;
  assert.equal(measure, 'visits', 'revenue is 80% missing, so visits leads');
});
