/**
 * A line of means says when a period's value is of few values: la-riots.csv's "Mean age grew 90.6%
 * from Apr 1992 to Nov 1993 (28.3 → 54)" compared April's 36 people with November 1993's one. Each
 * period's count now travels with its mean (sql-time.ts periodCounts; compile-plan's counts=), and
 * an end or an extreme of fewer than 10 values, on a line where some period holds 10 or more, is
 * said as a ranking's small group is: "from 1 value". Both engines alike.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { seriesTrendInsights } from '../src/engine/insights-series.js';
import { trendInsights } from '../src/engine/insights-trend.js';
import { ROOT, preamblePython, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const iso = (month: number): string =>
  new Date(Date.UTC(2023, month, 1)).toISOString().slice(0, 19);

/** Six monthly means: 20, 22, 21, 23, 24, 40; the counts given per month. */
function line(counts: (number | undefined)[]): { x: unknown; y: unknown; n?: number }[] {
  return [20, 22, 21, 23, 24, 40].map((y, i) => {
    const n = counts[i];
    return n === undefined ? { x: iso(i), y } : { x: iso(i), y, n };
  });
}

const texts = (points: { x: unknown; y: unknown; n?: number }[]): string[] =>
  trendInsights(points, 'mean age', 'mean', 'M').map((i) => i.text);

void test('an end and an extreme of few values say how few, beside busy periods', () => {
  const said = texts(line([36, 40, 30, 25, 20, 1]));
  assert.deepEqual(said, [
    'Mean age grew 100% from Jan 2023 to Jun 2023 (20 → 40; Jun 2023 from 1 value).',
    'Mean age peaked at 40 in Jun 2023, the latest period, from 1 value.',
    'Mean age was lowest at 20 in Jan 2023.',
  ]);
  const both = texts(line([3, 40, 30, 25, 20, 1]));
  assert.equal(
    both[0],
    'Mean age grew 100% from Jan 2023 to Jun 2023 (20 → 40; Jan 2023 from 3 values, Jun 2023 from 1 value).',
  );
  assert.equal(both[2], 'Mean age was lowest at 20 in Jan 2023, from 3 values.');
});

void test('nothing is said when every period is small, or when the counts are not known', () => {
  const plain = [
    'Mean age grew 100% from Jan 2023 to Jun 2023 (20 → 40).',
    'Mean age peaked at 40 in Jun 2023, the latest period.',
    'Mean age was lowest at 20 in Jan 2023.',
  ];
  assert.deepEqual(texts(line([3, 4, 2, 5, 9, 1])), plain, 'no period of 10 or more');
  assert.deepEqual(texts(line([])), plain, 'no counts');
  assert.deepEqual(texts(line([12, 40, 30, 25, 20, 10])), plain, '10 values are not few');
  assert.deepEqual(texts(line([13, 13, 14, 13, 13, 8])), plain, 'half the busiest is not few');
});

void test('the Python trend_insights says the same, given counts by period', () => {
  const cases = [
    [36, 40, 30, 25, 20, 1],
    [3, 40, 30, 25, 20, 1],
    [3, 4, 2, 5, 9, 1],
    [12, 40, 30, 25, 20, 10],
    [13, 13, 14, 13, 13, 8],
  ];
  const python = preamblePython<string[][]>(
    [
      'import json, sys, pandas as pd, opsmind_insights as o',
      'out = []',
      'for counts in json.load(sys.stdin):',
      '    months = pd.date_range("2023-01-01", periods=6, freq="MS")',
      '    frame = pd.DataFrame({"month": months, "age": [20, 22, 21, 23, 24, 40]})',
      '    by = pd.Series(counts, index=months)',
      '    out.append([i["text"] for i in o.trend_insights(frame, "month", "age", "mean age", how="mean", period="M", counts=by)])',
      'print(json.dumps(out))',
    ].join('\n'),
    cases,
  );
  assert.deepEqual(
    python,
    cases.map((counts) => texts(line(counts))),
  );
});

void test('lines split by a series say which end and which highest point are of few values', () => {
  const points = [
    ...[20, 22, 21, 23, 24, 40].map((y, i) => ({
      x: iso(i),
      series: 'A',
      y,
      n: [30, 20, 5, 12, 11, 1][i],
    })),
    ...[30, 31, 29, 33, 32, 34].map((y, i) => ({ x: iso(i), series: 'B', y, n: 15 })),
  ];
  const said = seriesTrendInsights(points, 'mean age', 'mean', 'M', 'group').map((i) => i.text);
  assert.deepEqual(said, [
    'Mean age grew in both group lines: the most in A, 100% from Jan 2023 to Jun 2023 (20 → 40; Jun 2023 from 1 value); the least in B, 13.3% from Jan 2023 to Jun 2023 (30 → 34).',
    'The highest point of both group lines: A at 40 in Jun 2023, from 1 value (B peaked at 34 in Jun 2023).',
  ]);
  const python = preamblePython<string[]>(
    [
      'import json, sys, pandas as pd, opsmind_insights as o',
      'rows = json.load(sys.stdin)',
      'frame = pd.DataFrame({"month": pd.to_datetime([r["x"] for r in rows]), "group": [r["series"] for r in rows], "age": [r["y"] for r in rows]})',
      'counts = pd.Series([r["n"] for r in rows], index=pd.MultiIndex.from_arrays([frame["month"], frame["group"]]))',
      'print(json.dumps([i["text"] for i in o.series_trend_insights(frame, "month", "group", "age", "mean age", how="mean", period="M", counts=counts)]))',
    ].join('\n'),
    points,
  );
  assert.deepEqual(python, said);
  const unknown = seriesTrendInsights(
    points.map(({ x, series, y }) => ({ x, series, y })),
    'mean age',
    'mean',
    'M',
    'group',
  ).map((i) => i.text);
  assert.ok(unknown.every((t) => !t.includes('from 1 value')));
});

void test('la-riots.csv: both engines say the one person behind November 1993', () => {
  const dir = tempDir();
  const file = join(ROOT, 'node_modules/vega-datasets/data/la-riots.csv');
  const { duck, pandas } = bothEngines(file, dir);
  for (const [engine, run] of Object.entries({ duck, pandas })) {
    assert.ok(
      run.findings.includes(
        'Mean age grew 90.6% from Apr 1992 to Nov 1993 (28.3 → 54; Nov 1993 from 1 value).',
      ),
      `${engine}: ${run.findings.join('\n')}`,
    );
    assert.ok(
      run.findings.includes('Mean age peaked at 54 in Nov 1993, the latest period, from 1 value.'),
      engine,
    );
    assert.ok(
      run.findings.includes(
        'The highest point of both race lines: White at 54 in Nov 1993, from 1 value (Latino peaked at 34.4 in May 1992).',
      ),
      engine,
    );
  }
  // A line of totals is never said to be "from" few values: a sum of one row is that row.
  assert.ok(
    !duck.findings.some((f) => f.startsWith('The number of rows') && f.includes('from 1 value')),
  );
});
