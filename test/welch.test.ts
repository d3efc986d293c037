/**
 * Welch's t-test behind a ranking of means: Student's two-sided p in TypeScript and in Python,
 * each against scipy; the test against scipy's ttest_ind; and the ranking's sentence, which says
 * a gap between the highest and the lowest group is one chance alone could give (p ≥ 0.05), in
 * both engines alike.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rankingInsights, studentTwoSided, welch } from '../src/engine/insights.js';
import { fisherTwoSided } from '../src/engine/insights-welch.js';
import type { Insight, Spread } from '../src/engine/insights.js';
import { assertSameFindings, preamblePython, seeded } from './helpers/fixtures.js';

const python = (code: string, input: unknown): unknown => preamblePython(code, input);

const close = (a: number, b: number, rel: number): boolean =>
  Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300);

const GRID: [number, number][] = [];
for (const df of [1, 1.5, 2, 3, 5, 9.7, 19.9, 20, 20.1, 57.3, 1000, 12_345.6, 999_999, 5e6])
  for (const t of [0.001, 0.1, 0.5, 1, 1.3, 1.96, 2.5, 3, 5, -1.2]) GRID.push([t, df]);

void test("Student's two-sided p: TypeScript and the preamble's Python both agree with scipy", () => {
  const [scipy, ours] = python(
    `import json, sys
from scipy import stats
import opsmind_insights as ins
grid = json.load(sys.stdin)
print(json.dumps([[float(2 * stats.t.sf(abs(t), df)) for t, df in grid],
                  [ins.student_two_sided(t, df) for t, df in grid]]))`,
    GRID,
  ) as [number[], number[]];
  GRID.forEach(([t, df], i) => {
    const expected = scipy[i] ?? NaN;
    // Below 1e-6 a p is never said (only p ≥ 0.05 is): a looser bound there.
    const rel = expected > 1e-6 ? 1e-9 : 1e-4;
    assert.ok(close(studentTwoSided(t, df), expected, rel), `ts t=${t} df=${df}`);
    assert.ok(close(ours[i] ?? NaN, expected, rel), `python t=${t} df=${df}`);
  });
  assert.equal(studentTwoSided(0, 10), 1);
  assert.ok(Number.isNaN(studentTwoSided(Number.NaN, 10)));
});

/** A group of `n` normal-ish values around `mean` (a seeded sum of uniforms). */
function sample(random: () => number, n: number, mean: number, scale: number): number[] {
  return Array.from({ length: n }, () => mean + scale * (random() + random() + random() - 1.5));
}

/** A group's count, mean and sample variance (NaN for one value), as var_samp gives them. */
function spreadOf(values: readonly number[]): Spread {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1) : NaN;
  return { n, mean, variance };
}

void test("Welch's test of two groups is scipy's ttest_ind(equal_var=False)", () => {
  const random = seeded(3);
  const pairs = [
    [sample(random, 40, 10, 2), sample(random, 25, 10.5, 6)],
    [sample(random, 300, 0, 1), sample(random, 3, 1, 1)],
    [sample(random, 5000, 1, 1), sample(random, 4000, 1.04, 1)],
  ];
  const expected = python(
    `import json, sys
from scipy import stats
print(json.dumps([float(stats.ttest_ind(a, b, equal_var=False).pvalue) for a, b in json.load(sys.stdin)]))`,
    pairs,
  ) as number[];
  pairs.forEach(([a = [], b = []], i) => {
    const found = welch(spreadOf(a), spreadOf(b));
    assert.ok(found && close(found.p, expected[i] ?? NaN, 1e-9), `pair ${i}: ${found?.p}`);
  });
  // Undefined: a group of one value, or two groups without spread.
  assert.equal(welch({ n: 1, mean: 2, variance: NaN }, { n: 9, mean: 1, variance: 1 }), null);
  assert.equal(welch({ n: 5, mean: 2, variance: 0 }, { n: 9, mean: 1, variance: 0 }), null);
});

void test("Fisher's exact test of two rates: TypeScript and the preamble's Python both agree with scipy", () => {
  const tables: [number, number, number, number][] = [
    [4, 5, 315, 1184],
    [2, 3, 400, 1000],
    [0, 5, 3, 7],
    [9, 12, 3, 40],
    [1, 20, 1, 20],
    [7, 9, 50, 60],
  ];
  const [scipy, theirs] = python(
    `import json, sys
from scipy import stats
import opsmind_insights as ins
tables = json.load(sys.stdin)
print(json.dumps([[float(stats.fisher_exact([[a, b - a], [c, d - c]])[1]) for a, b, c, d in tables],
                  [ins.fisher_two_sided((a, b), (c, d)) for a, b, c, d in tables]]))`,
    tables,
  ) as [number[], number[]];
  tables.forEach(([a, b, c, d], i) => {
    const ours = fisherTwoSided({ hits: a, n: b }, { hits: c, n: d }) ?? NaN;
    assert.ok(close(ours, scipy[i] ?? NaN, 1e-9), `ts ${a}/${b} vs ${c}/${d}: ${ours}`);
    assert.ok(close(theirs[i] ?? NaN, scipy[i] ?? NaN, 1e-9), `python ${a}/${b} vs ${c}/${d}`);
  });
});

interface Case {
  name: string;
  keys: (string | null)[];
  values: (number | null)[];
  /** A rate: values 0 or 100, compared in percentage points. */
  percent?: boolean;
}

/** `hits` of `n` rows at 100, the rest at 0: a group of a rate. */
const rate = (n: number, hits: number): number[] =>
  Array.from({ length: n }, (_, i) => (i < hits ? 100 : 0));

/** Groups of values: their rows (key, value) and the frame of their means. */
function groups(name: string, byGroup: Record<string, (number | null)[]>): Case {
  const keys: (string | null)[] = [];
  const values: (number | null)[] = [];
  for (const [key, vs] of Object.entries(byGroup))
    for (const v of vs) {
      keys.push(key === 'missing' ? null : key);
      values.push(v);
    }
  return { name, keys, values };
}

const random = seeded(9);
// The same 200 values, shifted a little: means 0.08 apart with a standard deviation near 1.
const noise = sample(random, 200, 5, 2);
const CASES: Case[] = [
  groups('noise', {
    A: noise,
    B: noise.map((v) => v + 0.05),
    C: noise.map((v) => v - 0.03),
  }),
  groups('a real gap', { A: sample(random, 200, 5, 2), B: sample(random, 200, 7, 2) }),
  groups('few values', { A: [1, 2, 9], B: [3, 1, 4, null] }),
  groups('a group of one value', { A: [1, 2, 9], B: [30] }),
  groups('one value against many', { A: sample(random, 40, 5, 2), B: [30] }),
  groups('the lowest is the missing group', { A: [5, 6, 7, 9], missing: [1, 2, 9, 1] }),
  { ...groups('a rate of counted groups', { A: rate(60, 24), B: rate(50, 15) }), percent: true },
  { ...groups('a rate of 4 in 5', { A: rate(5, 4), B: rate(300, 80) }), percent: true },
  { ...groups('a rate of 2 in 3', { A: rate(3, 2), B: rate(300, 120) }), percent: true },
  // Six groups of the same 200 values, shifted: the extremes 0.26 apart (t ≈ 2.6, p ≈ 0.01 alone).
  groups(
    'the extremes of six groups',
    Object.fromEntries(
      [0, 0.05, 0.1, 0.15, 0.2, 0.26].map((d, i) => [`G${i}`, noise.map((v) => v + d)]),
    ),
  ),
  groups(
    'a real gap among six groups',
    Object.fromEntries(
      [0, 0.05, 0.1, 0.15, 0.2, 0.6].map((d, i) => [`G${i}`, noise.map((v) => v + d)]),
    ),
  ),
  {
    ...groups(
      'the extremes of four rates',
      Object.fromEntries([2, 3, 3, 5].map((hits, i) => [`R${i}`, rate(6, hits)])),
    ),
    percent: true,
  },
];

/** The frame a group chart's findings read: each group's mean, the missing group as NaN. */
function meansOf(c: Case): { category: unknown; value: number }[] {
  const sums = new Map<string | null, [number, number]>();
  c.keys.forEach((k, i) => {
    const v = c.values[i];
    if (v === null || v === undefined) return;
    const [s, n] = sums.get(k) ?? [0, 0];
    sums.set(k, [s + v, n + 1]);
  });
  return [...sums].map(([k, [s, n]]) => ({ category: k ?? NaN, value: s / n }));
}

function ours(c: Case): Insight[] {
  const spread = (category: unknown): Spread | null => {
    if (typeof category !== 'string') return null;
    const values = c.values.filter(
      (v, i): v is number => c.keys[i] === category && v !== null && v !== undefined,
    );
    return values.length > 0 ? spreadOf(values) : null;
  };
  return c.percent
    ? rankingInsights(meansOf(c), 'share x', false, true, 'g', spread)
    : rankingInsights(meansOf(c), 'mean x', true, false, 'g', spread);
}

void test('a ranking of means says when chance alone could give its gap, and only then', () => {
  const said = (name: string): string =>
    ours(CASES.find((c) => c.name === name) as Case)[0]?.text ?? '';
  assert.match(
    said('noise'),
    /apart; chance alone could give a gap this size \(Welch's t-test, p = 1 after Bonferroni's correction for the 3 pairs of 3 groups\)\.$/,
  );
  assert.ok((ours(CASES[0] as Case)[0]?.numbers.p_value ?? 0) >= 0.05);
  assert.doesNotMatch(said('a real gap'), /chance/);
  assert.match(said('a real gap'), /apart\.$/);
  assert.match(said('few values'), /chance alone could give/);
  assert.doesNotMatch(said('a group of one value'), /chance/);
  // A group of fewer than 10 values ranked against one of 10 or more says how few (a rate its
  // hits of its rows); two small groups (a chart of one row per customer) say nothing of it.
  assert.equal(
    said('a group of one value'),
    'B has the highest mean x (30); A the lowest (4), 26 apart.',
  );
  assert.match(
    said('one value against many'),
    /^B has the highest mean x \(30, from 1 value\); A the lowest \([\d.]+\), [\d.]+ apart\.$/,
  );
  assert.match(said('a rate of 4 in 5'), /\(80%, 4 of 5 rows\); B the lowest \(26\.7%\), /);
  assert.deepEqual(ours(CASES.find((c) => c.name === 'a rate of 4 in 5') as Case)[0]?.numbers, {
    highest: 80,
    lowest: (80 / 300) * 100,
    difference: 80 - (80 / 300) * 100,
    highest_n: 5,
  });
  assert.doesNotMatch(said('the lowest is the missing group'), /chance/);
  // A rate is tested by Welch's t-test with 10 rows of each outcome in both groups (a
  // proportion's normal approximation), else by Fisher's exact test: 4 of 5 against 80 of 300 is
  // a real gap (p = 0.02), 2 of 3 against 120 of 300 is not.
  assert.match(said('a rate of counted groups'), /percentage points apart; chance alone .*Welch/);
  assert.doesNotMatch(said('a rate of 4 in 5'), /chance/);
  assert.match(
    said('a rate of 2 in 3'),
    /\(66\.7%, 2 of 3 rows\); B the lowest \(40%\), 26\.7 percentage points apart; chance alone could give a gap this size \(Fisher's exact test, p = 0\.\d+\)\.$/,
  );
  // Without spreads (a median, a sum), the sentence is as before.
  const plain = rankingInsights(meansOf(CASES[0] as Case), 'mean x', true, false, 'g');
  assert.doesNotMatch(plain[0]?.text ?? '', /chance/);
});

void test('the extremes of many groups are tested as picked from them: p times the pairs (Bonferroni)', () => {
  const c = CASES.find((k) => k.name === 'the extremes of six groups') as Case;
  const [found] = ours(c);
  // Alone, the two extremes look like a real gap…
  const of = (key: string): Spread =>
    spreadOf(c.values.filter((_, i) => c.keys[i] === key) as number[]);
  const alone = welch(of('G5'), of('G0'))?.p ?? NaN;
  assert.ok(alone > 0.001 && alone < 0.05, `raw p ${alone}`);
  // …but the highest and lowest of six groups are 1 of 15 pairs: 15 × p, said as corrected.
  assert.ok(close(found?.numbers.p_value ?? NaN, 15 * alone, 1e-12));
  assert.equal(found?.numbers.pairs, 15);
  assert.match(
    found?.text ?? '',
    /^G5 has the highest mean x \([\d.]+\); G0 the lowest \([\d.]+\), 0\.26 apart; chance alone could give a gap this size \(Welch's t-test, p = 0\.\d+ after Bonferroni's correction for the 15 pairs of 6 groups\)\.$/,
  );
  // A gap that stays real after the correction is said plainly; so is one of two groups.
  const real = ours(CASES.find((k) => k.name === 'a real gap among six groups') as Case)[0];
  assert.doesNotMatch(real?.text ?? '', /chance|Bonferroni/);
  assert.equal(real?.numbers.pairs, undefined);
  // Fisher's exact test of rates is corrected alike: 5 of 6 against 2 of 6 (p = 0.24 alone), 6 pairs.
  const rates = ours(CASES.find((k) => k.name === 'the extremes of four rates') as Case)[0];
  const fisher = fisherTwoSided({ hits: 5, n: 6 }, { hits: 2, n: 6 }) ?? NaN;
  assert.ok(close(rates?.numbers.p_value ?? NaN, Math.min(1, 6 * fisher), 1e-12));
  assert.match(
    rates?.text ?? '',
    /\(Fisher's exact test, p = 1 after Bonferroni's correction for the 6 pairs of 4 groups\)\.$/,
  );
  // The count of groups is the caller's when the rows are not all of them (past 10,000 groups).
  const noisy = CASES.find((k) => k.name === 'noise') as Case;
  const many = rankingInsights(
    meansOf(noisy),
    'mean x',
    true,
    false,
    'g',
    (cat) =>
      typeof cat === 'string'
        ? spreadOf(noisy.values.filter((_, i) => noisy.keys[i] === cat) as number[])
        : null,
    20_000,
  )[0];
  assert.match(many?.text ?? '', /for the 199,990,000 pairs of 20,000 groups\)\.$/);
});

void test('the Python ranking says the same, with the same p', () => {
  const expected = python(
    `import json, sys
import numpy as np, pandas as pd
import opsmind_insights as ins
out = []
for c in json.load(sys.stdin):
    data = pd.DataFrame({"g": c["keys"], "x": pd.Series([np.nan if v is None else v for v in c["values"]], dtype=float)})
    frame = data.groupby("g", dropna=False)["x"].agg("mean").reset_index()
    label, how = ("share x", {"percent": True}) if c.get("percent") else ("mean x", {"interval": True})
    out.append(ins.ranking_insights(frame, "g", "x", label, keys=data["g"], values=data["x"], **how))
print(json.dumps(out, allow_nan=False))`,
    CASES,
  ) as Insight[][];
  CASES.forEach((c, i) =>
    assertSameFindings(ours(c), expected[i] ?? [], c.name, (a, b) => close(a, b, 1e-9)),
  );
});
