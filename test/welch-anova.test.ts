/**
 * Welch's one-way ANOVA behind a season chart's ranking (a month of year, a weekday, an hour):
 * F's survival function and the test in TypeScript and in the preamble's Python, against scipy
 * and statsmodels; the ranking's sentence, which says when chance alone could give differences
 * this size between the cycle's groups, alike in both; and through both engines end to end.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { rankingInsights } from '../src/engine/insights.js';
import type { Insight, Spread } from '../src/engine/insights.js';
import { fSurvival, welchAnova } from '../src/engine/insights-welch.js';
import { assertSameFindings, preamblePython, seeded, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const close = (a: number, b: number, rel: number): boolean =>
  Math.abs(a - b) <= rel * Math.max(Math.abs(b), 1e-300);

const GRID: [number, number, number][] = [];
for (const f of [0.01, 0.3, 1, 2.4, 5.3, 20, 146])
  for (const d1 of [1, 2, 6, 11, 23])
    for (const d2 of [1.5, 4.3, 13.9, 100, 2209.4, 1e5]) GRID.push([f, d1, d2]);

void test("F's survival function: TypeScript and the preamble's Python both agree with scipy", () => {
  const [scipy, ours] = preamblePython<[number[], number[]]>(
    `import json, sys
from scipy import stats
import opsmind_insights as ins
grid = json.load(sys.stdin)
print(json.dumps([[float(stats.f.sf(f, a, b)) for f, a, b in grid], [ins.f_survival(f, a, b) for f, a, b in grid]]))`,
    GRID,
  );
  GRID.forEach(([f, d1, d2], i) => {
    const expected = scipy[i] ?? NaN;
    // Below 1e-6 a p is never said (only p ≥ 0.05 is): a looser bound there.
    const rel = expected > 1e-6 ? 1e-8 : 1e-4;
    assert.ok(close(fSurvival(f, d1, d2), expected, rel), `ts F=${f} (${d1}, ${d2})`);
    assert.ok(close(ours[i] ?? NaN, expected, rel), `python F=${f} (${d1}, ${d2})`);
  });
  assert.equal(fSurvival(0, 3, 10), 1);
  assert.equal(fSurvival(Infinity, 3, 10), 0);
  assert.ok(Number.isNaN(fSurvival(-1, 3, 10)));
});

/** Groups of normal values, of random sizes, means and spreads. */
function groups(seed: number, k: number): number[][] {
  const random = seeded(seed);
  const normal = (): number =>
    Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: k }, () => {
    const [n, mean, sd] = [2 + Math.floor(random() * 40), random() * 2, 0.5 + random() * 2];
    return Array.from({ length: n }, () => mean + sd * normal());
  });
}

const spreadOf = (values: readonly number[]): Spread => {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return { n: values.length, mean, variance };
};

void test("Welch's ANOVA is statsmodels' anova_oneway(use_var='unequal'), in both languages", () => {
  const cases = [3, 5, 7, 12, 24].map((k, i) => groups(100 + i, k));
  const [models, python] = preamblePython<[number[][], (number[] | null)[]]>(
    `import json, sys
import numpy as np
from statsmodels.stats.oneway import anova_oneway
import opsmind_insights as ins
out, ours = [], []
for gs in json.load(sys.stdin):
    r = anova_oneway([np.array(g) for g in gs], use_var="unequal", welch_correction=True)
    out.append([float(r.statistic), float(r.df[0]), float(r.df[1]), float(r.pvalue)])
    ours.append(ins._welch_anova([(len(g), float(np.mean(g)), float(np.var(g, ddof=1))) for g in gs]))
print(json.dumps([out, ours]))`,
    cases,
  );
  cases.forEach((gs, i) => {
    const test = welchAnova(gs.map(spreadOf));
    const [f, df1, df2, p] = models[i] ?? [];
    assert.ok(test, `case ${i}`);
    assert.ok(close(test.f, f ?? NaN, 1e-9), `F of case ${i}`);
    assert.equal(test.df1, df1);
    assert.ok(close(test.df2, df2 ?? NaN, 1e-9), `df2 of case ${i}`);
    assert.ok(close(test.p, p ?? NaN, 1e-8), `p of case ${i}: ${test.p} vs ${p}`);
    assert.ok(close(python[i]?.[3] ?? NaN, test.p, 1e-12), `python p of case ${i}`);
  });
  // Undefined: two groups (a t-test's), a group of one value, a group of no spread.
  const [a, b, c] = groups(7, 3).map(spreadOf) as [Spread, Spread, Spread];
  assert.equal(welchAnova([a, b]), null);
  assert.equal(welchAnova([a, b, { n: 1, mean: 3, variance: NaN }]), null);
  assert.equal(welchAnova([a, b, { ...c, variance: 0 }]), null);
});

interface Cycle {
  name: string;
  keys: string[];
  values: number[];
}

/** Months of a cycle: `effect` apart at most, over `years` values each. */
function cycle(name: string, seed: number, effect: number, years: number): Cycle {
  const random = seeded(seed);
  const months = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const keys: string[] = [];
  const values: number[] = [];
  months.forEach((m, i) => {
    for (let y = 0; y < years; y++) {
      keys.push(m);
      values.push(100 + effect * Math.sin((i / 12) * 2 * Math.PI) + 20 * (random() - 0.5));
    }
  });
  return { name, keys, values };
}

const CYCLES = [
  cycle('noise', 1, 0, 4),
  cycle('a season', 2, 60, 4),
  cycle('two years of a season', 3, 60, 2),
];

/** The ranking of a cycle's means, as the host says it. */
function ours(c: Cycle): Insight[] {
  const order = [...new Set(c.keys)];
  const rows = order.map((k) => ({
    category: k,
    value: spreadOf(c.values.filter((_, i) => c.keys[i] === k)).mean,
  }));
  const spread = (k: unknown): Spread | null => {
    const values = c.values.filter((_, i) => c.keys[i] === k);
    return values.length ? spreadOf(values) : null;
  };
  return rankingInsights(
    rows,
    'average monthly x',
    false,
    false,
    'month',
    spread,
    undefined,
    'months',
  );
}

void test('a cycle says chance alone could give its differences only when Welch’s ANOVA finds so, as Python does', () => {
  const [noise, season, short] = CYCLES.map(ours);
  assert.match(
    noise?.[0]?.text ?? '',
    /; chance alone could give differences this size between the 12 months \(Welch's ANOVA, p = 0\.\d+\)\.$/,
  );
  assert.ok((noise?.[0]?.numbers.p_value ?? 0) >= 0.05);
  // A real season is stated plainly, even over two values a month, where the extremes' t-test
  // corrected for 66 pairs would call it chance.
  for (const real of [season, short]) {
    assert.doesNotMatch(real?.[0]?.text ?? '', /chance/);
    assert.equal(real?.[0]?.numbers.p_value, undefined);
  }
  const expected = preamblePython<Insight[][]>(
    `import json, sys
import pandas as pd
import opsmind_insights as ins
out = []
for c in json.load(sys.stdin):
    data = pd.DataFrame({"month": c["keys"], "x": c["values"]})
    frame = data.groupby("month", sort=False)["x"].agg("mean").reset_index()
    out.append(ins.ranking_insights(frame, "month", "x", "average monthly x", keys=data["month"], values=data["x"], overall="months"))
print(json.dumps(out, allow_nan=False))`,
    CYCLES,
  );
  CYCLES.forEach((c, i) =>
    assertSameFindings(ours(c), expected[i] ?? [], c.name, (a, b) => close(a, b, 1e-9)),
  );
});

void test('a season chart through both engines: the same test, the same sentence', () => {
  const dir = tempDir('opsmind-welch-anova-');
  const random = seeded(11);
  const lines = ['day,store,sales'];
  for (let i = 0; i < 400; i++) {
    const day = new Date(Date.UTC(2024, 0, 1 + Math.floor(random() * 181)));
    lines.push(
      `${day.toISOString().slice(0, 10)},${random() < 0.5 ? 'A' : 'B'},${10 + Math.floor(random() * 90)}`,
    );
  }
  const file = join(dir, 'noise.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const { duck, pandas } = bothEngines(file, dir);
  const weekday = duck.findings.find((t) => /by weekday|highest average daily sales/.test(t));
  assert.match(
    weekday ?? duck.findings.join('\n'),
    // Tested week by week (season-blocks.test.ts): the weeks are the blocks of the weekdays.
    /the lowest \([\d.,]+\), [\d.]+× apart; chance alone could give differences this size between the 7 weekdays, week by week \(two-way ANOVA over \d+ complete weeks, p = 0\.\d+\)\.$/,
  );
  // DuckDB types the date column as it reads it: pandas' "dates stored as text" flag is its alone.
  const parsed = (t: string): boolean => !/^dates stored as text in/.test(t);
  assert.deepEqual(pandas.findings.filter(parsed), duck.findings);
});
