/**
 * What a correlation heatmap says: its strongest pairs, or that none is strong, in TypeScript
 * (matrixInsights, from the heatmap's cells) and in the preamble's Python (matrix_insights, from
 * pandas' DataFrame.corr()), for the same columns: the same sentences and numbers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matrixInsights } from '../src/engine/insights-matrix.js';
import type { Insight } from '../src/engine/insights.js';
import { pearson } from '../src/engine/insights.js';
import { assertSameFindings, preamblePython } from './helpers/fixtures.js';

interface Case {
  name: string;
  columns: Record<string, number[]>;
}

const N = 40;
const t = Array.from({ length: N }, (_, i) => i);
const wave = t.map((i) => Math.sin(i * 1.7) * 10);
const CASES: Case[] = [
  {
    name: 'four strong pairs of six',
    columns: {
      a: t,
      b: t.map((i) => 2 * i + wave[i]!),
      c: t.map((i) => -i + wave[i]! * 3),
      d: wave,
      e: wave.map((w, i) => w + ((i * 7) % 5)),
      f: t.map((i) => (i * 13) % 7),
    },
  },
  { name: 'one strong pair', columns: { x: t, y: t.map((i) => i + wave[i]! * 0.3), z: wave } },
  {
    name: 'none strong',
    columns: { p: t.map((i) => (i * 13) % 7), q: t.map((i) => (i * 5) % 11) },
  },
  // A constant column has no r: its pairs are left out, not counted as weak.
  { name: 'a constant column', columns: { k: t.map(() => 1), u: t, v: t.map((i) => -i) } },
  // Mirror images: |r| ties exactly, ordered by position in both engines.
  { name: 'ties', columns: { m: t, n: t.map((i) => -i), o: t.map((i) => i * 2) } },
  { name: 'one column', columns: { only: t } },
];

/** The matrix as the heatmap's cells give it: pairwise r over the columns in order. */
function ours(c: Case): Insight[] {
  const names = Object.keys(c.columns);
  const values = Object.values(c.columns);
  return matrixInsights(names, (i, j) => pearson(values[i] ?? [], values[j] ?? []));
}

const theirs = preamblePython<Insight[][]>(
  `import json, sys
import pandas as pd
import opsmind_insights as ins
print(json.dumps([ins.matrix_insights(pd.DataFrame(c["columns"]).corr()) for c in json.load(sys.stdin)]))`,
  CASES,
);

void test('a correlation heatmap names its strongest pairs, strongest first, with r', () => {
  const said = (name: string): string =>
    ours(CASES.find((c) => c.name === name) as Case)[0]?.text ?? '';
  assert.match(
    said('four strong pairs of six'),
    /^The strongest correlations: \w and \w \(r = -?0\.\d\d\), \w and \w \(-?0\.\d\d\), \w and \w \(-?0\.\d\d\); \d+ of the 15 pairs have \|r\| of 0\.3 or more\.$/,
  );
  assert.match(said('one strong pair'), /^The strongest correlation: x and y \(r = 0\.\d\d\)\.$/);
  assert.match(
    said('none strong'),
    /^No pair of the 2 numeric columns has \|r\| of 0\.3 or more \(the strongest: p and q, r = -?0\.\d\d\)\.$/,
  );
  assert.equal(
    said('a constant column'),
    'The strongest correlation: u and v (r = -1.00).',
    'the constant column has no pair',
  );
  assert.equal(
    said('ties'),
    'The strongest correlations: m and n (r = -1.00), m and o (1.00), n and o (-1.00).',
  );
  assert.deepEqual(ours(CASES.find((c) => c.name === 'one column') as Case), []);
  const [first] = ours(CASES[0] as Case);
  assert.equal(first?.kind, 'correlation');
  assert.equal(first?.numbers.pairs, 15);
});

void test('the Python says the same of the same matrix, with the same numbers', () => {
  CASES.forEach((c, i) => assertSameFindings(ours(c), theirs[i] ?? [], c.name));
});
