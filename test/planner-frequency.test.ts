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
import { DuckDbEngine } from '../src/engine/duckdb-engine.js';
import { ROOT, tempDir } from './helpers/fixtures.js';

const ORDER = ['H', 'D', 'W', 'M', 'Q', 'Y'];
const corpus = (name: string): string => join(ROOT, 'node_modules', 'vega-datasets', 'data', name);

void test('frequencyFor: the span picks the period, but never one finer than the observed spacing', () => {
  assert.equal(frequencyFor(365 * 40, 'Y'), 'Y');
  assert.equal(frequencyFor(365 * 3, 'Q'), 'Q');
  assert.equal(frequencyFor(365 * 3, 'D'), 'M');
  assert.equal(frequencyFor(200, 'M'), 'M');
  assert.equal(frequencyFor(200, null), 'W');
  assert.equal(frequencyFor(2, 'H'), 'H');
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
  const engine = await DuckDbEngine.open({
    dataPath: file,
    memoryMb: 256,
    maxTempMb: 512,
    scratchDir: tempDir(),
  });
  try {
    const { profile } = await engine.profile('sparse.csv');
    const { plan } = await heuristicPlanner(profile, undefined);
    const first = plan.analyses.find(
      (a) => a.transform.type === 'resample' || a.transform.type === 'group',
    );
    assert.ok(first);
    const measure = 'measure' in first.transform ? first.transform.measure : null;
    assert.equal(measure, 'visits', 'revenue is 80% missing, so visits leads');
  } finally {
    engine.close();
  }
});
