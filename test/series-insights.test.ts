/**
 * Findings of a line chart split by a category or an entity (seriesTrendInsights, and its Python
 * original series_trend_insights): which line rose and which fell most, each over its own span,
 * said as the single-line trend says a change; the highest point of all lines, and where each
 * other line peaked; and both engines give the same sentences.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { seriesTrendInsights } from '../src/engine/insights.js';
import type { Insight, TrendHow } from '../src/engine/insights.js';
import { assertSameFindings, PYTHON, preamblePython } from './helpers/fixtures.js';

const quarter = (year: number, q: number): string =>
  new Date(Date.UTC(year, 3 * q, 1)).toISOString().replace('Z', '');

interface Case {
  name: string;
  series: unknown[];
  x: string[];
  y: (number | null)[];
  how: TrendHow;
  label: string;
  by: string;
  /** What the lines are called, when not "`by` lines" (several measures: "lines"). */
  word?: string;
}

/** Lines of `values` per series name, one point a quarter from Q1 2020 (`start` quarters later). */
function lines(
  name: string,
  values: Record<string, (number | null)[]>,
  how: TrendHow = 'mean',
  start: Record<string, number> = {},
): Case {
  const label = how === 'sum' ? 'total' : 'mean price';
  const c: Case = { name, series: [], x: [], y: [], how, label, by: 'symbol' };
  for (const [series, ys] of Object.entries(values))
    ys.forEach((y, i) => {
      const at = (start[series] ?? 0) + i;
      c.series.push(series);
      c.x.push(quarter(2020 + Math.floor(at / 4), at % 4));
      c.y.push(y);
    });
  return c;
}

const run = (c: Case): Insight[] =>
  seriesTrendInsights(
    c.x.map((x, i) => ({ x, series: c.series[i], y: c.y[i] })),
    c.label,
    c.how,
    'Q',
    c.by,
    c.word,
  );

const CASES: Case[] = [
  lines('one up, one down', { AAPL: [25, 40, 175], MSFT: [40, 35, 30], IBM: [100, 101, 110] }),
  lines('all up, spans of their own', { A: [10, 12, 15], B: [50, 51, 52] }, 'mean', { B: 5 }),
  lines('all down', { A: [10, 9, 5], B: [50, 40, 45], C: [8, 7, 7.9] }),
  lines('a gap and a catch-all', { A: [10, null, 20, 30], Other: [1, 100, 1000], B: [5, 6, 4] }),
  lines('below zero: differences', { A: [-2, 1, 3], B: [4, 2, 1] }),
  lines('interval: differences', { Oslo: [5.5, 6, 7.25], Rome: [15, 14, 14.5] }, 'interval'),
  lines('share: percentage points', { web: [2.5, 3, 4.25], store: [6, 5, 5.5] }, 'share'),
  lines('a line of two points is left out', { A: [10, 20, 30], B: [50, 5], C: [10, 9, 8] }),
  lines('flat', { A: [10, 12, 10], B: [5, 9, 5] }),
  lines('one up, one flat', { A: [10, 12, 11], B: [5, 9, 5.001] }),
  lines('a total, part of a year', { A: [10, 12, 15], B: [50, 51, 20] }, 'sum'),
  lines(
    'totals of full years',
    {
      A: [1, 2, 3, 4, 2, 3, 4, 5, 9],
      B: [5, 5, 5, 5, 4, 4, 4, 4.5, 1],
      C: [1, 1, 1, 1, 1, 1, 1, 1, 1],
    },
    'sum',
  ),
  lines('full years of one line only', { A: [1, 2, 3, 4, 2, 3, 4, 5], B: [5, 5, 5, 5] }, 'sum'),
  lines('one line: none', { A: [10, 12, 15] }),
  lines('tied peaks', { B: [12, 3, 4], A: [10, 12, 12] }),
  lines('lines that never move', {
    rain: [1, 5, 2],
    drizzle: [0, 0, 0],
    fog: [0, 0, 0],
    snow: [3, 1, 0],
    sun: [2, 2, 2],
  }),
  lines('all flat', { A: [5, 5, 5], B: [3, 3, 3] }),
  {
    ...lines('several measures: lines', {
      disease: [10, 30, 20],
      wounds: [4, 5, 6],
      other: [9, 8, 7],
    }),
    label: 'the value',
    by: 'measure',
    word: 'lines',
  },
  ...(
    [
      ['several measures: all up', [10, 30, 20, 4, 5, 6, 9, 8, 10]],
      ['several measures: all down', [30, 20, 10, 6, 5, 4, 9, 8, 7]],
      ['several measures: one unchanged', [10, 30, 20, 4, 5, 4, 7, 8, 7]],
    ] as const
  ).map(([name, y]) => ({
    ...lines(name, { disease: y.slice(0, 3), wounds: y.slice(3, 6), other: y.slice(6) }),
    label: 'the value',
    by: 'measure',
    word: 'lines',
  })),
  {
    ...lines('numbers name their column', { a: [10, 20, 30], b: [30, 20, 10] }),
    series: [1, 1, 1, 2, 2, 2],
    by: 'Pclass',
  },
];

/** The case's sentence of `kind`: the change (series_change, at most one) or the peak (series_peak). */
const textOf = (name: string, kind = 'series_change'): string => {
  const c = CASES.find((k) => k.name === name);
  assert.ok(c, name);
  const found = run(c).filter((f) => f.kind === kind);
  assert.ok(found.length <= 1, `${name}: one sentence at most`);
  return found[0]?.text ?? '';
};

void test('series: the line that grew most and the one that fell most, each over its own span', () => {
  assert.equal(
    textOf('one up, one down'),
    'Mean price grew the most in AAPL, 600% from Q1 2020 to Q3 2020 (25 → 175), and fell the most in MSFT, 25.0% from Q1 2020 to Q3 2020 (40 → 30).',
  );
  assert.equal(
    textOf('all up, spans of their own'),
    'Mean price grew in both symbol lines: the most in A, 50.0% from Q1 2020 to Q3 2020 (10 → 15); the least in B, 4.0% from Q2 2021 to Q4 2021 (50 → 52).',
  );
  assert.match(
    textOf('all down'),
    /^Mean price fell in all 3 symbol lines: the most in A, 50\.0%.*; the least in C, 1\.2%/,
  );
  const [found, peak] = run(CASES[0] as Case);
  assert.deepEqual(found?.numbers, { lines: 3, highest_change_pct: 600, lowest_change_pct: -25 });
  assert.deepEqual(peak?.numbers, { lines: 3, peak: 175 });
});

void test('series: gaps and catch-alls are left out, signed and interval levels move by differences', () => {
  assert.match(
    textOf('a gap and a catch-all'),
    /^Mean price grew the most in A, 200% .*\(10 → 30\), and fell the most in B/,
  );
  assert.doesNotMatch(textOf('a gap and a catch-all'), /Other/);
  assert.match(textOf('a line of two points is left out'), /fell the most in C, 20\.0%/);
  assert.equal(
    textOf('below zero: differences'),
    'Mean price rose the most in A, by 5 from Q1 2020 to Q3 2020 (-2 → 3), and fell the most in B, by 3 from Q1 2020 to Q3 2020 (4 → 1).',
  );
  assert.match(
    textOf('interval: differences'),
    /rose the most in Oslo, by 1\.75 .* fell the most in Rome, by 0\.5 /,
  );
  assert.match(
    textOf('one up, one flat'),
    /grew the most in A, 10\.0% .*, and was nearly unchanged in B from/,
  );
  assert.match(
    textOf('numbers name their column'),
    /the most in Pclass 1, .* the most in Pclass 2,/,
  );
});

void test('series: totals compare the last full year they all share, else first to last', () => {
  assert.equal(
    textOf('totals of full years'),
    'In 2021, total grew the most in A, 40.0% over 2020 (summing 4 quarters: 10 → 14), and fell the most in B, 17.5% over 2020 (summing 4 quarters: 20 → 16.5).',
  );
  const [found] = run(CASES.find((c) => c.name === 'totals of full years') as Case);
  assert.equal(found?.numbers.year, 2021);
  assert.match(
    textOf('full years of one line only'),
    /^Total grew the most in A, 400% from Q1 2020 to Q4 2021/,
  );
  assert.match(
    textOf('a total, part of a year'),
    /^Total grew the most in A, 50\.0% from Q1 2020 to Q3 2020/,
  );
});

void test('series: several measures are "lines", and the subject of their sentence', () => {
  assert.equal(
    textOf('several measures: lines'),
    'Of all 3 lines, disease grew the most, 100% from Q1 2020 to Q3 2020 (10 → 20), and other fell the most, 22.2% from Q1 2020 to Q3 2020 (9 → 7).',
  );
  assert.match(
    textOf('several measures: all up'),
    /^All 3 lines grew: disease the most, 100% .*; other the least, 11\.1% /,
  );
  assert.match(
    textOf('several measures: all down'),
    /^All 3 lines fell: disease the most, 66\.7% .*; other the least, 22\.2% /,
  );
  assert.match(
    textOf('several measures: one unchanged'),
    /, and wounds was unchanged from Q1 2020 to Q3 2020 \(4 → 4\)\.$/,
  );
});

void test('series: no sentence for a single line, or for lines that end where they began', () => {
  for (const name of ['flat', 'one line: none']) assert.equal(textOf(name), '', name);
  assert.equal(textOf('one line: none', 'series_peak'), '');
});

void test('series: the highest point of all lines, then where each other line peaked', () => {
  // A line that rose and fell back is invisible to first→last; its peak is not.
  assert.equal(
    textOf('flat', 'series_peak'),
    'The highest point of both symbol lines: A at 12 in Q2 2020 (B peaked at 9 in Q2 2020).',
  );
  assert.equal(
    textOf('several measures: lines', 'series_peak'),
    'The highest point of all 3 lines: disease at 30 in Q2 2020 (other peaked at 9 in Q1 2020, wounds at 6 in Q3 2020).',
  );
  // A folded catch-all is no line.
  assert.equal(
    textOf('a gap and a catch-all', 'series_peak'),
    'The highest point of both symbol lines: A at 30 in Q4 2020 (B peaked at 6 in Q2 2020).',
  );
  assert.match(
    textOf('share: percentage points', 'series_peak'),
    /: store at 6% in Q1 2020 \(web peaked at 4\.25% in Q3 2020\)\.$/,
  );
  // A line's first time at its peak; lines that peak as high in the order of their names.
  assert.equal(
    textOf('tied peaks', 'series_peak'),
    'The highest point of both symbol lines: A at 12 in Q2 2020 (B peaked at 12 in Q1 2020).',
  );
  // A line that never moves has no peak: it stays at its level, said once per level.
  assert.equal(
    textOf('lines that never move', 'series_peak'),
    'The highest point of all 5 symbol lines: rain at 5 in Q2 2020 (snow peaked at 3 in Q1 2020; sun stayed at 2; drizzle and fog stayed at 0).',
  );
  assert.equal(textOf('all flat', 'series_peak'), '');
  const many = lines(
    'six lines',
    Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((k, i) => [k, [i, i + 1, i]])),
  );
  assert.equal(
    run(many).find((f) => f.kind === 'series_peak')?.text,
    'The highest point of all 6 symbol lines: f at 6 in Q2 2020.',
  );
});

const PARITY = `
import json, sys
import numpy as np, pandas as pd
import opsmind_insights as ins
out = []
for c in json.load(sys.stdin):
    frame = pd.DataFrame({"x": pd.to_datetime(c["x"]), c["by"]: c["series"],
                          "y": pd.Series([np.nan if v is None else v for v in c["y"]], dtype=float)})
    out.append(ins.series_trend_insights(frame, "x", c["by"], "y", c["label"], how=c["how"], period="Q", word=c.get("word")))
print(json.dumps(out, allow_nan=False))
`;

void test(
  'series: the Python original gives the same sentences and numbers',
  { skip: !existsSync(PYTHON) },
  () => {
    const expected = preamblePython<Insight[][]>(PARITY, CASES);
    CASES.forEach((c, i) => {
      assertSameFindings(run(c), expected[i] ?? [], c.name);
    });
    assert.ok(expected.filter((e) => e.length > 0).length >= 8, 'most cases say something');
  },
);
