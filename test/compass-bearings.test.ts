/**
 * A compass bearing (a wind's direction in degrees) is a place on a circle: 359° lies next to 0°,
 * so it is never summed, plainly averaged, boxed or correlated; its findings give the mean on the
 * circle and the busiest sector, the same in both engines.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import { profileText } from '../src/agent/profile-text.js';
import type { Analysis } from '../src/agent/plan.js';
import { compassInsights, sectorOf } from '../src/engine/insights-compass.js';
import type { CompassStats } from '../src/engine/insights-compass.js';
import { assertSameFindings, preamblePython, ROOT, seeded, tempDir } from './helpers/fixtures.js';
import { bothEngines, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-compass-');
const WIND = join(ROOT, 'node_modules', 'vega-datasets', 'data', 'windvectors.csv');

/** Stations' wind readings: a bearing, its 15° class, speed, a sign, a heading level, a station. */
function windCsv(): string {
  const random = seeded(7);
  const rows = ['station,wind_dir,dirCat,speed,trade_dir,heading_level'];
  for (let i = 0; i < 600; i += 1) {
    // Mostly from the west-southwest, some from anywhere.
    const bearing = random() < 0.7 ? (250 + (random() - 0.5) * 80 + 360) % 360 : random() * 360;
    const degrees = Math.round(bearing) % 360;
    rows.push(
      `S${i % 6},${degrees},${Math.round(degrees / 15) * 15},${(2 + random() * 9).toFixed(1)},${random() < 0.5 ? -1 : 1},${1 + (i % 6)}`,
    );
  }
  const path = join(dir, 'wind.csv');
  writeFileSync(path, rows.join('\n') + '\n');
  return path;
}

void test('a bearing named so over half the compass is a direction; a sign or a level named so is not', async () => {
  const profile = await duckProfile(windCsv());
  const role = (name: string) => profile.semantics.columns.find((c) => c.name === name)?.role;
  assert.equal(role('wind_dir'), 'direction');
  assert.equal(role('dirCat'), 'direction');
  assert.match(
    profile.semantics.columns.find((c) => c.name === 'wind_dir')?.evidence ?? '',
    /named as a direction: a compass bearing in degrees/,
  );
  assert.notEqual(role('trade_dir'), 'direction', 'a sign of -1 and 1');
  assert.notEqual(role('heading_level'), 'direction', 'levels 1–6');
  assert.notEqual(role('speed'), 'direction');

  const plan = heuristicPlan(profile);
  assert.deepEqual(checkPlan(plan, profile), []);
  const bearings = plan.analyses.filter((a) =>
    JSON.stringify(a.transform).match(/"(wind_dir|dirCat)"/),
  );
  assert.deepEqual(
    bearings.map((a) => [a.chart, a.transform]),
    [['histogram', { type: 'distribution', column: 'wind_dir' }]],
    'one histogram of the bearing of most values, and nothing else measures a bearing',
  );
  assert.equal(bearings[0]?.options?.bins, 24, '15° bins over a full turn');
  // What a model reads of it: its role and its range, no median or mean of a cut circle.
  const line = profileText(profile)
    .split('\n')
    .find((l) => l.startsWith('- wind_dir '));
  assert.match(line ?? '', /role compass bearing: 360° meets 0°.*; min \d+, max \d+(;|$)/);
  assert.doesNotMatch(line ?? '', /median|mean \d/);
  assert.doesNotMatch(
    profileText(profile),
    /~(wind_dir|dirCat)|(wind_dir|dirCat)~/,
    'no r of a bearing',
  );
});

/** Analyses of a bearing a plan may not hold, and the reason each is refused with. */
const REFUSED: [Omit<Analysis, 'why'>, RegExp][] = [
  [
    {
      title: 'mean',
      chart: 'bar',
      transform: { type: 'group', by: 'station', measure: 'wind_dir', agg: 'mean' },
    },
    /compass bearing .*the mean of 350° and 10° is 180°/,
  ],
  [
    {
      title: 'box',
      chart: 'box',
      transform: { type: 'distribution', column: 'wind_dir', by: 'station' },
    },
    /compass bearing/,
  ],
  [
    {
      title: 'corr',
      chart: 'heatmap',
      transform: { type: 'correlation', columns: ['speed', 'dirCat'] },
    },
    /"dirCat" is a compass bearing: leave it out of the correlations/,
  ],
  [
    {
      title: 'scatter',
      chart: 'scatter',
      transform: { type: 'relationship', x: 'wind_dir', y: 'speed' },
    },
    /set options.correlation to false/,
  ],
  [
    { title: 'summary', chart: 'table', transform: { type: 'summary', columns: ['wind_dir'] } },
    /leave it out of the summary/,
  ],
  [
    { title: 'summary of all', chart: 'table', transform: { type: 'summary' } },
    /leave it out of the summary .*: list the summary's columns/,
  ],
];

void test('a plan that sums, averages, boxes, correlates or summarises a bearing is refused with the reason', async () => {
  const profile = await duckProfile(windCsv());

  const refused = (analysis: Omit<Analysis, 'why'>): string[] =>
    checkPlan({ analyses: [{ why: '', ...analysis }], notes: [] }, profile);
  for (const [analysis, problem] of REFUSED) {
    const problems = refused(analysis);
    assert.equal(problems.length, 1, `${analysis.title}: ${problems.join('; ')}`);
    assert.match(problems[0] ?? '', problem);
  }
  const allowed: Omit<Analysis, 'why'>[] = [
    {
      title: 'scatter alone',
      chart: 'scatter',
      transform: { type: 'relationship', x: 'wind_dir', y: 'speed' },
      options: { correlation: false },
    },
    {
      title: 'rows per class',
      chart: 'bar',
      transform: { type: 'group', by: 'dirCat', measure: null, agg: 'count' },
    },
    {
      title: 'mean speed per class',
      chart: 'bar',
      transform: { type: 'group', by: 'dirCat', measure: 'speed', agg: 'mean' },
    },
  ];
  for (const analysis of allowed) assert.deepEqual(refused(analysis), [], analysis.title);
});

/** Bearings' sums as both engines take them, and the Python findings for the same values. */
function stats(values: number[]): CompassStats {
  const radians = values.map((v) => (v * Math.PI) / 180);
  const sectors = Array.from({ length: 8 }, () => 0);
  for (const v of values) sectors[sectorOf(v)] = (sectors[sectorOf(v)] ?? 0) + 1;
  return {
    n: values.length,
    sin: radians.reduce((s, r) => s + Math.sin(r), 0),
    cos: radians.reduce((s, r) => s + Math.cos(r), 0),
    sectors,
  };
}

void test('the mean of bearings is taken on the circle, in both engines alike', () => {
  const cases: [string, number[], RegExp[]][] = [
    [
      'around north',
      [350, 355, 5, 10, 0, 358, 2, 359, 1, 3],
      [
        /^Bearing is a compass bearing \(360° is 0°: north\), so it is averaged on the circle: its mean direction is 0° \(N\), and the values are tightly gathered around it \(mean resultant length 1\.00 of 1\)\.$/,
        /^The most common direction of bearing is N \(337\.5°–22\.5°\): 10 of 10 values \(100%\)\.$/,
      ],
    ],
    [
      'balanced',
      [0, 90, 180, 270, 0, 90, 180, 270],
      [
        /its values balance out around the compass \(mean resultant length 0\.00 of 1\), so they have no mean direction\.$/,
      ],
    ],
    [
      'south-west, loosely',
      [200, 230, 250, 260, 90, 10, 225, 240, 300, 180, 215],
      [
        /mean direction is 2\d\d° \(SW\), and the values are (loosely )?gathered around it/,
        /^The most common direction of bearing is SW \(202\.5°–247\.5°\): 4 of 11 values \(36\.4%\)/,
      ],
    ],
    ['one value', [45], []],
  ];
  const theirs = preamblePython<{ text: string; numbers: Record<string, number> }[][]>(
    'import json, sys, opsmind_insights as i\nprint(json.dumps([i.distribution_insights(v, "bearing", direction=True) for v in json.load(sys.stdin)]))',
    cases.map((c) => c[1]),
  );
  cases.forEach(([name, values, expected], k) => {
    const ours = compassInsights(stats(values), 'bearing');
    assert.equal(ours.length, expected.length, `${name}: ${ours.map((f) => f.text).join(' | ')}`);
    expected.forEach((re, i) => assert.match(ours[i]?.text ?? '', re, name));
    assertSameFindings(
      ours,
      theirs[k] ?? [],
      name,
      (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)),
    );
  });
  assert.deepEqual(
    [0, 22.4, 22.5, 359.9, 360, -10, 180, 337.4, 337.5].map(sectorOf),
    [0, 0, 1, 0, 0, 0, 4, 7, 0],
  );
});

void test('windvectors.csv: its wind direction is averaged on the circle, never plainly (both engines)', () => {
  const { duck, pandas } = bothEngines(WIND, tempDir('opsmind-compass-wind-'));
  assert.deepEqual(pandas, duck);
  assert.ok(duck.charts.includes('Directions of dir'), duck.charts.join(' | '));
  assert.ok(
    duck.findings.includes(
      'Dir is a compass bearing (360° is 0°: north), so it is averaged on the circle: its mean direction is 130° (SE), but the values are spread around the compass (mean resultant length 0.13 of 1): that mean says little.',
    ),
    duck.findings.join('\n'),
  );
  assert.ok(
    duck.findings.includes(
      'The most common direction of dir is SE (112.5°–157.5°): 1,062 of 4,800 values (22.1%), then NE (19.7%).',
    ),
  );
  for (const text of [...duck.findings, ...duck.charts])
    assert.doesNotMatch(
      text,
      /(median|mean|average) dir\b|(median|mean) dirCat|(Dir|DirCat) is .*(skewed|symmetric)|correlation between (dir|dirCat)|dirCat and dir/i,
      text,
    );
});
