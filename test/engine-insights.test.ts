/**
 * engine/insights: the TypeScript port of preamble/opsmind_insights.py. The
 * first tests port preamble/tests/test_insights.py; the last runs the Python
 * originals on generated inputs and asserts the same sentences and numbers.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import {
  asDatetime,
  correlationInsights,
  groupCorrelationInsights,
  distributionInsights,
  fmtDate,
  displayFixed,
  fmtNumber,
  fmtPct,
  fmtRatio,
  fmtYear,
  groupName,
  inferFrequency,
  numberStats,
  pearson,
  rankingInsights,
  shareInsights,
  spearman,
  trendInsights,
  unsignedZero,
} from '../src/engine/insights.js';
import { ROWS_LABEL } from '../src/agent/compile-plan.js';
import { sortedQuantiles } from '../src/engine/insights-stats.js';
import type { Insight, TrendHow } from '../src/engine/insights.js';
import { PYTHON, preamblePython } from './helpers/fixtures.js';

const byKind = (insights: Insight[]): Record<string, Insight> =>
  Object.fromEntries(insights.map((i) => [i.kind, i]));
const near = (actual: number | undefined, expected: number, places = 7): void =>
  assert.ok(Math.abs((actual ?? NaN) - expected) < 0.5 * 10 ** -places, `${actual} ≉ ${expected}`);
const iso = (ms: number): string => new Date(ms).toISOString().replace('Z', '');
const kind = (insights: Insight[], name: string): Insight => {
  const found = byKind(insights)[name];
  assert.ok(found, `no ${name} insight in ${JSON.stringify(insights)}`);
  return found;
};

/** A seeded uniform [0, 1) generator (mulberry32) and standard normals from it (Box-Muller). */
function random(seed: number): { uniform: () => number; normal: () => number } {
  let state = seed >>> 0;
  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = (): number =>
    Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** Correlation statistics from raw columns, as the pandas-free path computes them. */
/** What sql-pairs gives groupCorrelationInsights: the pooled r, and r per group over complete pairs. */
function groupFindings(
  x: Values,
  y: Values,
  g: (string | null)[],
  a: string,
  b: string,
  by: string,
): Insight[] {
  const overall = correlationStats(x, y);
  const groups = new Map<string, [number[], number[]]>();
  x.forEach((v, i) => {
    const [xv, yv, key] = [v, y[i], g[i]];
    if (typeof xv !== 'number' || typeof yv !== 'number' || key === null || key === undefined)
      return;
    const entry = groups.get(key) ?? [[], []];
    entry[0].push(xv);
    entry[1].push(yv);
    groups.set(key, entry);
  });
  const stats = [...groups.values()].map(([xs, ys]) => ({
    n: xs.length,
    r: pearson(xs, ys),
    xConstant: Math.min(...xs) === Math.max(...xs),
    yConstant: Math.min(...ys) === Math.max(...ys),
  }));
  return groupCorrelationInsights(overall.r, stats, a, b, by);
}

function correlationStats(x: unknown[], y: unknown[]) {
  const num = (v: unknown): number => (typeof v === 'number' ? v : NaN);
  const pairs = x
    .map((v, i) => [num(v), num(y[i])] as const)
    .filter(([a, b]) => Number.isFinite(a) && Number.isFinite(b));
  const [xs, ys] = [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
  const constant = (v: number[]): boolean => Math.min(...v) === Math.max(...v);
  return {
    r: pearson(xs, ys),
    rho: spearman(xs, ys),
    n: pairs.length,
    xConstant: constant(xs),
    yConstant: constant(ys),
  };
}

function assertJsonSafe(insights: Insight[]): void {
  for (const found of insights) {
    assert.deepEqual(Object.keys(found).sort(), ['kind', 'numbers', 'text']);
    assert.equal(typeof found.text, 'string');
    for (const value of Object.values(found.numbers)) assert.ok(Number.isFinite(value));
  }
  JSON.stringify(insights);
}

void test('numbers, percentages and dates read well', () => {
  assert.equal(fmtNumber(1234567), '1,234,567');
  assert.equal(fmtNumber(12.345), '12.3');
  assert.equal(fmtNumber(0.012345), '0.0123');
  // A mean of centred data, -2e-17 after summing: nothing, with no sign.
  assert.equal(fmtNumber(-2.2e-17), '0');
  assert.equal(fmtNumber(-0.004), '-0.004');
  assert.equal(fmtPct(0.1256), '12.6%');
  assert.equal(fmtDate(Date.UTC(2024, 11, 1), 'M'), 'Dec 2024');
  assert.equal(fmtDate(Date.UTC(2024, 9, 1), 'Q'), 'Q4 2024');
  assert.equal(fmtDate(Date.UTC(2024, 11, 5), 'D'), 'Dec 5, 2024');
});

void test('formatting rounds half to even, as Python does, from the digits past those shown (a tie within float noise is a tie)', () => {
  assert.equal(fmtRatio(0.125), '0.1×');
  // Between 1 and 1.1, two decimals: a gap of 3% is "1.03×", not a "1.0×" that reads as none.
  assert.equal(fmtRatio(69.1 / 67.2), '1.03×');
  assert.equal(fmtRatio(1.005), '1.00×');
  assert.equal(fmtRatio(1.125), '1.1×');
  assert.equal(fmtNumber(2.675), '2.68'); // stored 2.67499999999999982…: Python's f-format says 2.67
  assert.equal(fmtPct(0.00125), '0.1%');
  assert.equal(fmtNumber(999.5), '1,000');
  assert.equal(fmtNumber(1000.5), '1,000');
  assert.equal(fmtNumber(12345.5), '12,346');
  assert.equal(fmtNumber(1e15), '1,000,000,000,000,000');
  assert.equal(fmtNumber(1.5e15 + 0.5), '1,500,000,000,000,000');
  assert.equal(fmtNumber(1e21), '1,000,000,000,000,000,000,000');
  assert.equal(fmtNumber(-0), '0');
  assert.equal(fmtPct(-0), '-0.0%');
  assert.equal(fmtNumber(1e-12), '0');
  assert.throws(() => fmtNumber(Infinity), RangeError);
});

/** 100 + 5 per month, +50 every July: the frame of TrendTests.monthly. */
function monthly(periods = 24, startYear = 2023): { x: unknown; y: unknown }[] {
  return Array.from({ length: periods }, (_, i) => ({
    x: iso(Date.UTC(startYear, i, 1)),
    y: 100 + i * 5 + (i % 12 === 6 ? 50 : 0),
  }));
}

void test('trend: change, peak and trough match the data', () => {
  const frame = monthly(23);
  const ys = frame.map((p) => p.y as number);
  const kinds = byKind(trendInsights(frame, 'Revenue', 'sum'));
  const [first, last] = [ys[0] ?? NaN, ys[ys.length - 1] ?? NaN];
  near(kind(Object.values(kinds), 'change').numbers.change_pct, ((last - first) / first) * 100);
  assert.equal(kinds.change?.text, 'Revenue grew 110% from Jan 2023 to Nov 2024 (100 → 210).');
  assert.equal(kinds.peak?.numbers.peak, Math.max(...ys));
  const peakMonth = new Date(`${String(frame[ys.indexOf(Math.max(...ys))]?.x)}Z`);
  assert.ok(kinds.peak?.text.includes(fmtDate(peakMonth.getTime(), 'M')));
  assert.equal(kinds.trough?.numbers.trough, Math.min(...ys));
  assert.ok(kinds.trough?.text.includes('Jan 2023'));
});

void test('trend: a change that rounds to 0.0% is nearly unchanged, not "grew 0.0%"', () => {
  const frame = monthly(6).map((p, i) => ({ x: p.x, y: i === 5 ? 100.02 : 100 + (i % 2) * 7 }));
  const change = byKind(trendInsights(frame, 'Mean weight', 'mean')).change;
  assert.equal(
    change?.text,
    'Mean weight was nearly unchanged from Jan 2023 to Jun 2023 (100 → 100).',
  );
});

void test('trend: year over year of the last full year', () => {
  const frame = monthly(30, 2022);
  const kinds = byKind(trendInsights(frame, 'revenue', 'sum'));
  const sumOf = (year: string): number =>
    frame.filter((p) => String(p.x).startsWith(year)).reduce((s, p) => s + (p.y as number), 0);
  const yoy = kind(Object.values(kinds), 'year_over_year');
  assert.equal(yoy.numbers.year, 2023);
  near(yoy.numbers.yoy_pct, (sumOf('2023') / sumOf('2022') - 1) * 100);
  assert.ok(yoy.text.includes('In 2023'));
});

void test('trend: a stock compares years by their average period, never their sum', () => {
  // People unemployed each month: twelve months summed count the same people twelve times.
  const frame = monthly(30, 2022);
  const meanOf = (year: string): number => {
    const ys = frame.filter((p) => String(p.x).startsWith(year)).map((p) => p.y as number);
    return ys.reduce((s, y) => s + y, 0) / ys.length;
  };
  const yoy = kind(trendInsights(frame, 'total count', 'stock'), 'year_over_year');
  near(yoy.numbers.total, meanOf('2023'));
  near(yoy.numbers.previous_total, meanOf('2022'));
  assert.match(yoy.text, /averaging the 12 months of each year/);
});

void test('trend: a day is said "on", a week "in the week ending" (its Sunday), and a line of rows as the number of rows', () => {
  const days = [3, 9, 4, 5].map((y, i) => ({ x: iso(Date.UTC(2024, 0, 1 + i)), y }));
  const d = byKind(trendInsights(days, ROWS_LABEL, 'sum', 'D'));
  assert.equal(d.peak?.text, 'The number of rows peaked at 9 on Jan 2, 2024.');
  assert.equal(d.trough?.text, 'The number of rows was lowest at 3 on Jan 1, 2024.');
  const weeks = [3, 9, null, 5].map((y, i) => ({ x: iso(Date.UTC(2024, 0, 7 + 7 * i)), y }));
  const w = byKind(trendInsights(weeks, ROWS_LABEL, 'sum', 'W'));
  assert.equal(w.peak?.text, 'The number of rows peaked at 9 in the week ending Jan 14, 2024.');
  assert.equal(w.gaps?.text, 'No rows in Jan 21, 2024: the line has a gap there, not a zero.');
  const months = [3, 9, 4].map((y, i) => ({ x: iso(Date.UTC(2024, i, 1)), y }));
  assert.equal(
    byKind(trendInsights(months, 'revenue', 'sum', 'M')).peak?.text,
    'Revenue peaked at 9 in Feb 2024.',
  );
});

void test('trend: whole years replace first-to-last with year over year', () => {
  const kinds = byKind(trendInsights(monthly(24), 'revenue', 'sum'));
  assert.ok('year_over_year' in kinds);
  assert.ok(!('change' in kinds), 'January against December compares seasons, not growth');
});

void test('trend: no year over year below 24 months', () => {
  assert.ok(!('year_over_year' in byKind(trendInsights(monthly(23), 'revenue', 'sum'))));
});

void test('trend: date strings out of order are parsed and sorted', () => {
  const frame = [
    { x: '2024-01-03', y: 30 },
    { x: '2024-01-01', y: 10 },
    { x: '2024-01-02', y: 15 },
  ];
  const change = kind(trendInsights(frame, 'sales', 'sum'), 'change');
  near(change.numbers.change_pct, 200);
  assert.ok(change.text.includes('Jan 1, 2024 to Jan 3, 2024'));
});

void test('trend: gaps are said as gaps, census years as years (as in Python)', () => {
  const census = [1970, 1980, 1990, 2000, 2010].map((year, i) => ({
    x: iso(Date.UTC(year, 0, 1)),
    y: [10, 12, null, 15, 20][i],
  }));
  const kinds = byKind(trendInsights(census, 'count', 'sum'));
  assert.equal(kinds.gaps?.text, 'No rows in 1990: the line has a gap there, not a zero.');
  assert.equal(kinds.change?.text, 'Count grew 100% from 1970 to 2010 (10 → 20).');
  const months = [1, null, 3, null, null, 6, null, 8].map((y, i) => ({
    x: iso(Date.UTC(2024, i, 1)),
    y,
  }));
  assert.equal(
    byKind(trendInsights(months, 'mean v', 'mean', 'M')).gaps?.text,
    'Mean v has no value in 4 periods (the first Feb 2024, the last Jul 2024): the line has gaps there, not zeros.',
  );
  assert.ok(!('gaps' in byKind(trendInsights(monthly(), 'revenue', 'sum'))));
});

void test('trend: a fall is worded as fell', () => {
  const frame = [2020, 2021, 2022].map((x, i) => ({ x, y: [200, 150, 100][i] }));
  const change = kind(trendInsights(frame, 'units', 'sum'), 'change');
  assert.equal(change.text, 'Units fell 50.0% from 2020 to 2022 (200 → 100).');
});

void test('trend: signed values get a difference, not a percentage', () => {
  const temps = [2021, 2022, 2023].map((x, i) => ({ x, y: [-0.17, 0.02, 1.17][i] }));
  const rose = kind(trendInsights(temps, 'temp', 'mean'), 'change');
  assert.equal(rose.text, 'Temp rose by 1.34 from 2021 to 2023 (-0.17 → 1.17).');
  assert.ok(!('change_pct' in rose.numbers));
  near(rose.numbers.change, 1.34);
  const net = [2020, 2021, 2022].map((x, i) => ({ x, y: [5, 1, -4][i] }));
  assert.equal(
    kind(trendInsights(net, 'net', 'sum'), 'change').text,
    'Net fell by 9 from 2020 to 2022 (5 → -4).',
  );
});

void test('trend: unusable inputs give nothing', () => {
  assert.deepEqual(trendInsights(monthly(2), 'revenue', 'sum'), []);
  assert.deepEqual(trendInsights([], 'v', 'sum'), []);
  const flat = Array.from({ length: 5 }, (_, i) => ({ x: iso(Date.UTC(2024, 0, 1 + i)), y: 3 }));
  assert.deepEqual(trendInsights(flat, 'v', 'sum'), []);
  assert.deepEqual(
    trendInsights(
      monthly().map((p) => ({ x: p.x, y: undefined })),
      'nope',
      'sum',
    ),
    [],
  );
  const words = ['a', 'b', 'c'].map((x, i) => ({ x, y: i + 1 }));
  assert.deepEqual(trendInsights(words, 'v', 'sum'), []);
});

void test('trend: missing values are skipped and numbers are JSON-safe', () => {
  const frame = monthly();
  frame[3] = { x: frame[3]?.x, y: NaN };
  const insights = trendInsights(frame, 'revenue', 'sum');
  assert.ok(insights.length > 0);
  assertJsonSafe(insights);
});

void test('inferFrequency names the typical spacing, or null when irregular', () => {
  const days = [0, 1, 2, 3].map((d) => Date.UTC(2024, 0, 1 + d));
  assert.equal(inferFrequency(days), 'D');
  assert.equal(inferFrequency([0, 1, 2, 3].map((q) => Date.UTC(2024, q * 3, 1))), 'Q');
  assert.equal(inferFrequency(days.slice(0, 2)), null);
  assert.equal(inferFrequency([0, 1, 2, 22, 52].map((d) => Date.UTC(2024, 0, 1 + d))), null);
});

const REGIONS = ['North', 'West', 'East', 'South', 'Other'].map((category, i) => ({
  category,
  value: [220, 312, 200, 100, 500][i],
}));

void test('share: top share, ratio and top 3 match the data', () => {
  const kinds = byKind(shareInsights(REGIONS, 'revenue'));
  const total = 1332;
  near(kinds.top_share?.numbers.share_pct, (312 / total) * 100);
  assert.equal(kinds.top_share?.text, 'West accounts for 23.4% of revenue (312 of 1,332).');
  near(kinds.top_vs_second?.numbers.ratio, 312 / 220);
  assert.ok(kinds.top_vs_second?.text.includes('1.4× the revenue of North'));
  near(kinds.top3_share?.numbers.share_pct, ((312 + 220 + 200) / total) * 100);
  assert.ok(kinds.top3_share?.text.includes('(West, North, East)'));
});

void test('share: the member asked about is said first, unless it leads (as the preamble)', () => {
  const named = shareInsights(REGIONS, 'revenue', undefined, undefined, null, 'East');
  assert.deepEqual(
    named.slice(0, 2).map((i) => [i.kind, i.text]),
    [
      ['named_share', 'East accounts for 15.0% of revenue (200 of 1,332).'],
      ['top_share', 'West accounts for 23.4% of revenue (312 of 1,332).'],
    ],
  );
  for (const other of ['West', 'Nowhere'])
    assert.ok(
      !shareInsights(REGIONS, 'revenue', undefined, undefined, null, other).some(
        (i) => i.kind === 'named_share',
      ),
    );
});

void test('share: a leader beside groups under 1% of the total is stated by its share alone', () => {
  const countries = [
    { category: 'USA', value: 3372 },
    { category: 'Federated States of Micronesia', value: 1 },
    { category: 'N Mariana Islands', value: 2 },
    { category: 'Guam', value: 1 },
  ];
  const said = shareInsights(countries, 'count');
  assert.deepEqual(
    said.map((f) => f.text),
    ['USA accounts for 99.9% of rows (3,372 of 3,376).'],
  );
  // A second group of 1% or more is compared with, and the top 3 said, as before.
  const kinds = byKind(shareInsights([...countries, { category: 'Palau', value: 40 }], 'count'));
  assert.ok(kinds.top_vs_second?.text.includes('the rows of Palau'));
  assert.ok(kinds.top3_share?.text.includes('(USA, Palau, N Mariana Islands)'));
});

void test('rows without a category count in the total but lead no share or ranking', () => {
  const directors = [null, 'Spielberg', 'Cameron', 'Zemeckis', null].map((category, i) => ({
    category,
    value: [400, 300, 200, 100, 100][i],
  }));
  const kinds = byKind(shareInsights(directors, 'gross'));
  assert.equal(kinds.top_share?.text, 'Spielberg accounts for 27.3% of gross (300 of 1,100).');
  assert.ok(kinds.top3_share?.text.includes('(Spielberg, Cameron, Zemeckis)'));
  const means = directors.map((d, i) => ({ ...d, value: [900, 300, 200, 100, 1][i] }));
  assert.ok(
    rankingInsights(means, 'gross')[0]?.text.startsWith(
      'Spielberg has the highest gross (300); Zemeckis the lowest (100)',
    ),
  );
});

void test('share: a numeric group is named with its column, a text one as it is', () => {
  const fares = [18177.4, 3801.8, 6714.7, 1000];
  const classes = [1, 2, 3, 4].map((category, i) => ({ category, value: fares[i] }));
  const kinds = byKind(shareInsights(classes, 'Fare', 'Pclass'));
  assert.equal(kinds.top_share?.text, 'Pclass 1 accounts for 61.2% of Fare (18,177 of 29,694).');
  assert.ok(kinds.top_vs_second?.text.includes('the Fare of Pclass 3'));
  assert.ok(kinds.top3_share?.text.includes('(Pclass 1, Pclass 3, Pclass 2)'));
  const named = byKind(shareInsights(REGIONS, 'revenue', 'region'));
  assert.equal(named.top_share?.text, 'West accounts for 23.4% of revenue (312 of 1,332).');
});

void test('share: Other is never the top category', () => {
  for (const found of shareInsights(REGIONS, 'revenue')) assert.ok(!found.text.includes('Other'));
});

void test('share: repeated categories are summed', () => {
  const rows = ['a', 'b', 'a'].map((category, i) => ({ category, value: [1, 2, 3][i] }));
  near(kind(shareInsights(rows, 'v'), 'top_share').numbers.share_pct, (4 / 6) * 100);
});

void test('share: totals on both sides of zero get no shares but their ends and net (as the preamble)', () => {
  const rows = [
    ['Salary', 3200],
    ['Rent', -1500],
    ['Food', -80],
    ['Other', -9000],
    ['Food', -40],
  ].map(([category, value]) => ({ category, value }));
  const found = shareInsights(rows, 'Amount', undefined, undefined, '$');
  assert.deepEqual(
    found.map((i) => [i.kind, i.text]),
    [
      [
        'signed_totals',
        'Salary has the largest Amount ($3,200); Rent the most negative (-$1,500); all 4 together come to -$7,420.',
      ],
    ],
  );
});

void test('share: unusable inputs give nothing', () => {
  const pair = (a: unknown, b: unknown) => [
    { category: 'a', value: a },
    { category: 'b', value: b },
  ];
  assert.deepEqual(shareInsights(REGIONS.slice(0, 1), 'revenue'), []);
  assert.deepEqual(shareInsights(pair(5, 5), 'v'), []);
  assert.deepEqual(shareInsights(pair(-5, -1), 'v'), []);
  assert.deepEqual(shareInsights([], 'v'), []);
  assert.deepEqual(shareInsights(pair(NaN, null), 'v'), []);
});

const VALUES = [1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 40, NaN];

void test('distribution: median, IQR and outliers match the data', () => {
  const kinds = byKind(distributionInsights(numberStats(VALUES), 'order value'));
  assert.equal(kinds.spread?.numbers.median, 3.5);
  near(kinds.spread?.numbers.iqr, 5.25 - 2.75);
  assert.equal(kinds.outliers?.numbers.outliers, 1);
  near(kinds.outliers?.numbers.share_pct, (1 / 12) * 100);
});

void test('distribution: a middle half of one value is said so, and its outliers are the values off it', () => {
  const costs = [...Array.from({ length: 96 }, () => 0), 5, 120, 3000, 8];
  const texts = distributionInsights(numberStats(costs), 'cost').map((f) => f.text);
  assert.equal(
    texts[0],
    'Cost is 0 across its middle half: the median and both quartiles are 0 (IQR 0).',
  );
  assert.equal(
    texts[2],
    '4 values (4.0%) of cost differ from 0 (all above it): with an IQR of 0, each lies beyond 1.5 IQR of the quartiles.',
  );
  const both = distributionInsights(numberStats([...costs, -2]), 'cost').map((f) => f.text);
  assert.ok(both[2]?.startsWith('5 values (5.0%) of cost differ from 0: with an IQR of 0'));
  const one = distributionInsights(numberStats([...costs.slice(0, 96), 7]), 'cost').map(
    (f) => f.text,
  );
  assert.ok(one[2]?.startsWith('1 value (1.0%) of cost differs from 0 (above it):'));
});

void test('distribution: skew direction in words', () => {
  const kinds = byKind(distributionInsights(numberStats(VALUES), 'order value'));
  near(kinds.skew?.numbers.skew, 3.2703983751140817); // pandas' Series.skew() of VALUES
  assert.ok(kinds.skew?.text.includes('right-skewed: a long tail of large values'));
  const left = byKind(distributionInsights(numberStats(VALUES.map((v) => -v)), 'x'));
  assert.ok(left.skew?.text.includes('left-skewed'));
  const range = Array.from({ length: 100 }, (_, i) => i + 1);
  const symmetric = byKind(distributionInsights(numberStats(range), 'x'));
  assert.ok(symmetric.skew?.text.includes('roughly symmetric'));
  assert.ok(!('outliers' in symmetric));
});

void test('distribution: with infinities left out, each figure says it is of the finite values', () => {
  const stats = numberStats(VALUES);
  assert.ok(stats);
  const plain = distributionInsights(stats, 'order value');
  const kinds = byKind(distributionInsights({ ...stats, infinite: 2 }, 'order value'));
  assert.equal(
    kinds.spread?.text,
    `${plain[0]?.text.slice(0, -1)}, over its 12 finite values (2 infinite values left out).`,
  );
  assert.match(kinds.skew?.text ?? '', /^Order value's finite values are right-skewed/);
  assert.match(kinds.outliers?.text ?? '', /^1 finite value \(8\.3%\) of order value lies beyond/);
  const one = byKind(distributionInsights({ ...stats, infinite: 1 }, 'x'));
  assert.match(one.spread?.text ?? '', /\(1 infinite value left out\)\.$/);
  // Without infinities the sentences are as before.
  assert.ok(!/finite/.test(plain.map((i) => i.text).join(' ')));
});

void test('distribution: a skew that rounds to zero is printed without a sign', () => {
  const slightlyLeft = [...Array.from({ length: 100 }, (_, i) => i + 1), 52];
  const kinds = byKind(distributionInsights(numberStats(slightlyLeft), 'x'));
  near(kinds.skew?.numbers.skew, -0.0015732180086799516); // pandas' Series.skew()
  assert.ok(kinds.skew?.text.includes('(skew 0.00;'), kinds.skew?.text);
  assert.equal(unsignedZero('-0.00'), '0.00');
  assert.equal(unsignedZero('-0'), '0');
  assert.equal(unsignedZero('-0.01'), '-0.01');
  assert.equal(unsignedZero('-10.00'), '-10.00');
});

void test('distribution of calendar years: 1687, not 1,687, and the IQR as a number of years', () => {
  const reigns = [1565, 1603, 1625, 1649, 1660, 1685, 1689, 1702, 1714, 1727, 1760, 1820];
  const texts = distributionInsights(numberStats(reigns), 'start', true).map((i) => i.text);
  assert.match(
    texts[0] ?? '',
    /^The median start is 1687; the middle half lies between \d{4} and \d{4} \(IQR [\d.]+ years\)\.$/,
  );
  assert.match(texts[1] ?? '', /\(skew -?[\d.]+; mean 1683 vs median 1687\)/);
  assert.ok(!texts.some((t) => /\d,\d/.test(t)), texts.join('\n'));
  // Any other quantity keeps its thousands separator.
  const plain = distributionInsights(numberStats(reigns), 'price').map((i) => i.text);
  assert.match(plain[0] ?? '', /^The median price is 1,687;/);
  // Python's format(x, '.0f'): halves to even.
  assert.deepEqual([1642.75, 1687.5, 1686.5, 2001].map(fmtYear), ['1643', '1688', '1686', '2001']);
});

void test('percentages: written with "%", their IQR and gaps in percentage points, tested as means', () => {
  // As preamble/tests/test_insights.py says them.
  const margins = [8.4, 11.4, 12.0, 15.2, 17.4, 18.1, 21.4, 22.0, 29.5, 60.0];
  const texts = distributionInsights(numberStats(margins), 'margin', false, true).map(
    (i) => i.text,
  );
  assert.deepEqual(texts, [
    'The median margin is 17.8%; the middle half lies between 12.8% and 21.8% (IQR 9.05 percentage points).',
    'Margin is right-skewed: a long tail of large values (skew 2.25; mean 21.5% vs median 17.8%).',
    '1 value (10.0%) of margin lies beyond 1.5 IQR of the quartiles (above 35.4%).',
  ]);
  const plain = distributionInsights(numberStats(margins), 'margin').map((i) => i.text);
  assert.ok(!plain[0]?.includes('%'), plain[0]);
  // A mean of three values is "from 3 values", never "1 of 3 rows" as a rate's share would be.
  const spread = (c: unknown) =>
    c === 'b' ? { n: 3, mean: 30, variance: 1 } : { n: 12, mean: 11, variance: 0.7 };
  const rows = [
    { category: 'a', value: 11 },
    { category: 'b', value: 30 },
  ];
  const [ranked] = rankingInsights(
    rows,
    'mean margin',
    false,
    false,
    'g',
    spread,
    2,
    undefined,
    true,
  );
  assert.equal(
    ranked?.text,
    'b has the highest mean margin (30%, from 3 values); a the lowest (11%), 19 percentage points apart.',
  );
  assert.equal(ranked?.numbers.difference, 19);
  const [asRate] = rankingInsights(rows, 'share', false, true, 'g', spread, 2);
  assert.match(asRate?.text ?? '', /\(30%, 1 of 3 rows\)/);
});

void test('quantiles: numpy linear, the value itself at an exact position, an infinity beside a number', () => {
  // As preamble/tests/test_profile.py QuantileTests.
  assert.deepEqual(sortedQuantiles([1, 1, 2, 3, 4, 5, 6, 9], [0.25, 0.5, 0.75]), [1.75, 3.5, 5.25]);
  assert.deepEqual(
    sortedQuantiles([-Infinity, 0.5, 1.5, 2.5, Infinity], [0.25, 0.5, 0.75]),
    [0.5, 1.5, 2.5],
  );
  assert.deepEqual(sortedQuantiles([-Infinity, 1, 2, 3], [0.25]), [-Infinity]);
  assert.deepEqual(sortedQuantiles([1, 2, Infinity, Infinity], [0.5, 0.75]), [Infinity, Infinity]);
  assert.ok(Number.isNaN(sortedQuantiles([-Infinity, Infinity], [0.5])[0]));
});

void test('distribution: unusable inputs give nothing', () => {
  for (const values of [[], [5], [2, 2, 2], [NaN, Infinity]]) {
    assert.deepEqual(distributionInsights(numberStats(values), 'x'), []);
  }
});

void test('correlation: Pearson and Spearman over complete pairs', () => {
  const { normal } = random(4);
  const x = Array.from({ length: 100 }, normal);
  const y: number[] = x.map((v) => -2 * v + normal());
  y[5] = NaN;
  const stats = correlationStats(x, y);
  const found = kind(correlationInsights(stats, 'price', 'units'), 'correlation');
  const keep = x.map((_, i) => i).filter((i) => i !== 5);
  const [xs, ys] = [keep.map((i) => x[i] ?? 0), keep.map((i) => y[i] ?? 0)];
  const textbook = (a: number[], b: number[]): number => {
    const [ma, mb] = [
      a.reduce((s, v) => s + v, 0) / a.length,
      b.reduce((s, v) => s + v, 0) / b.length,
    ];
    const sum = (f: (i: number) => number): number => a.reduce((s, _, i) => s + f(i), 0);
    const cov = sum((i) => ((a[i] ?? 0) - ma) * ((b[i] ?? 0) - mb));
    return (
      cov / Math.sqrt(sum((i) => ((a[i] ?? 0) - ma) ** 2) * sum((i) => ((b[i] ?? 0) - mb) ** 2))
    );
  };
  const rank = (v: number[]): number[] => v.map((a) => v.filter((b) => b < a).length + 1);
  near(found.numbers.r, textbook(xs, ys));
  near(found.numbers.rho, textbook(rank(xs), rank(ys)));
  assert.equal(found.numbers.n, 99);
  assert.ok(found.text.includes('strong negative correlation between price and units'));
  assert.ok(found.text.includes('not evidence that one causes the other'));
});

void test('correlation: on fewer than 10 pairs the finding says chance could give it', () => {
  const [few] = correlationInsights(correlationStats([1, 2, 3, 4, 5], [2, 4, 5, 4, 6]), 'a', 'b');
  assert.match(
    few?.text ?? '',
    /n = 5 pairs\); .* With only 5 pairs, chance alone could give it\.$/,
  );
  const ten = Array.from({ length: 10 }, (_, i) => i);
  const [enough] = correlationInsights(
    correlationStats(
      ten,
      ten.map((v) => v * v),
    ),
    'a',
    'b',
  );
  assert.doesNotMatch(enough?.text ?? '', /chance/);
});

void test('correlation: strength words', () => {
  const { normal } = random(5);
  const x = Array.from({ length: 2000 }, normal);
  for (const [noise, word] of [
    [0.3, 'strong'],
    [1.5, 'moderate'],
    [5.0, 'weak'],
  ] as const) {
    const y = x.map((v) => v + normal() * noise);
    const [first] = correlationInsights(correlationStats(x, y), 'a', 'b');
    assert.ok(first?.text.includes(` ${word} positive`), `${word}: ${first?.text}`);
  }
});

void test('correlation: a monotonic but curved relation is noted', () => {
  const x = Array.from({ length: 50 }, (_, i) => (i * 10) / 49);
  const kinds = byKind(correlationInsights(correlationStats(x, x.map(Math.exp)), 'x', 'y'));
  assert.ok('correlation_shape' in kinds);
  near(kinds.correlation?.numbers.rho, 1);
});

void test('correlation: unusable inputs give nothing', () => {
  assert.deepEqual(correlationInsights(correlationStats([1, 2], [2, 3]), 'a', 'b'), []);
  assert.deepEqual(correlationInsights(correlationStats([1, 2, 3], [4, 4, 4]), 'a', 'b'), []);
  assert.deepEqual(correlationInsights(correlationStats(['x', 'y', 'z'], [1, 2, 3]), 'a', 'b'), []);
});

void test('ranking: highest, lowest and how far apart', () => {
  const rows = ['a', 'b', 'Other', 'c'].map((category, i) => ({
    category,
    value: [4, 10, 99, 2.5][i],
  }));
  const [found] = rankingInsights(rows, 'mean price');
  assert.equal(found?.text, 'b has the highest mean price (10); c the lowest (2.5), 4.0× apart.');
  assert.deepEqual(found?.numbers, { highest: 10, lowest: 2.5, ratio: 4 });
  assert.deepEqual(rankingInsights(rows.slice(0, 1), 'x'), []);
  const alike = [33.33333, 33.333334].map((value, i) => ({ category: `g${i}`, value }));
  assert.deepEqual(rankingInsights(alike, 'share', false, true), [], 'a tie as printed');
});

void test('a rate: shares in % are compared in percentage points', () => {
  const rows = [1, 2, 3].map((category, i) => ({ category, value: [55.9, 35.8, 30.9][i] }));
  const [found] = rankingInsights(rows, 'share with Survived = 1', false, true);
  assert.equal(
    found?.text,
    '1 has the highest share with Survived = 1 (55.9%); 3 the lowest (30.9%), 25 percentage points apart.',
  );
  assert.deepEqual(Object.keys(found?.numbers ?? {}).sort(), ['difference', 'highest', 'lowest']);
  const [named] = rankingInsights(rows, 'share with Survived = 1', false, true, 'Pclass');
  assert.match(named?.text ?? '', /^Pclass 1 has the highest .*; Pclass 3 the lowest/);
});

void test('interval scale: a temperature is compared by differences, never by percentages or ratios', () => {
  const rows = ['sun', 'snow', 'rain'].map((category, i) => ({
    category,
    value: [9.34, 0.15, 5][i],
  }));
  const [ranked] = rankingInsights(rows, 'mean temp_min', true);
  assert.equal(
    ranked?.text,
    'sun has the highest mean temp_min (9.34); snow the lowest (0.15), 9.19 apart.',
  );
  assert.deepEqual(Object.keys(ranked?.numbers ?? {}).sort(), ['difference', 'highest', 'lowest']);
  const weeks = [5.22, 18.9, 11, 4.14].map((y, i) => ({
    x: iso(Date.UTC(2010, 0, 10 + 7 * i)),
    y,
  }));
  const change = kind(trendInsights(weeks, 'mean temperature', 'interval', 'W'), 'change');
  assert.equal(
    change.text,
    'Mean temperature fell by 1.08 from Jan 10, 2010 to Jan 31, 2010 (5.22 → 4.14).',
  );
  const frame = monthly(30, 2022);
  const yoy = kind(trendInsights(frame, 'mean temp', 'interval'), 'year_over_year');
  near(yoy.numbers.change, (yoy.numbers.total ?? NaN) - (yoy.numbers.previous_total ?? NaN));
  assert.match(yoy.text, /^In 2023, mean temp was [\d.,]+ (higher|lower) than in 2022 \(averaging/);
  assert.doesNotMatch(yoy.text, /%/);
});

void test('a line from zero says between which periods; codes of digits are named with their column', () => {
  const days = [0, 3, 4, 2].map((y, i) => ({ x: iso(Date.UTC(2015, 0, 4 + 7 * i)), y }));
  assert.equal(
    kind(trendInsights(days, 'Total_Receipts', 'sum', 'W'), 'change').text,
    'Total_Receipts went from 0 to 2 between Jan 4, 2015 and Jan 25, 2015.',
  );
  assert.equal(groupName('12077', 'county_id'), 'county_id 12077');
  assert.equal(groupName('A12', 'county_id'), 'A12');
});

void test('a group of a whole float is named as the frames carry it, "education 9", by both engines', () => {
  // fair_pt.csv writes education 9.0: the DuckDB engine said "education 9", pandas' "education 9.0".
  const values = [9, 16, 0.5, -2, 1e15];
  const python = preamblePython<string[]>(
    'import json, sys, opsmind_insights as o\nprint(json.dumps([o._group_name(float(v), "education") for v in json.load(sys.stdin)]))',
    values,
  );
  assert.deepEqual(
    python,
    values.map((v) => groupName(v, 'education')),
  );
  assert.deepEqual(python.slice(0, 4), [
    'education 9',
    'education 16',
    'education 0.5',
    'education -2',
  ]);
});

void test('a share in percent changes by percentage points, its values said with %', () => {
  const weeks = [0, 0.2, 0.469, 0.3].map((y, i) => ({ x: iso(Date.UTC(2018, 1, 1 + i)), y }));
  const found = trendInsights(weeks, '% with tsunami = 1', 'share', 'D');
  assert.equal(
    kind(found, 'change').text,
    '% with tsunami = 1 rose by 0.3 percentage points from Feb 1, 2018 to Feb 4, 2018 (0% → 0.3%).',
  );
  assert.equal(kind(found, 'peak').text, '% with tsunami = 1 peaked at 0.469% on Feb 3, 2018.');
  const yoy = kind(trendInsights(monthly(30, 2022), '% with churn = 1', 'share'), 'year_over_year');
  assert.match(
    yoy.text,
    /^In 2023, % with churn = 1 was [\d.,]+ percentage points (higher|lower) than in 2022 \(averaging the 12 months of each year: [\d.,]+% vs [\d.,]+%\)\.$/,
  );
});

/** Runs opsmind_insights on each case (kind + args) in one Python process; prints their results as JSON. */
const PARITY_SCRIPT = `
import json, sys
import numpy as np, pandas as pd
import opsmind_insights as ins

def floats(values):
    return pd.Series([np.nan if v is None else v for v in values], dtype=float)

def safe(fmt, x):
    try:
        return fmt(x)
    except (ValueError, OverflowError):
        return None

def run(kind, a):
    if kind == "share":
        return ins.share_insights(pd.DataFrame({"c": a["category"], "v": a["value"]}), "c", "v", a["label"])
    if kind == "ranking":
        return ins.ranking_insights(pd.DataFrame({"c": a["category"], "v": a["value"]}), "c", "v", a["label"],
                                    interval=a.get("interval", False), percent=a.get("percent", False))
    if kind == "trend":
        return ins.trend_insights(pd.DataFrame({"x": a["x"], "y": a["y"]}), "x", "y", a["label"], how=a["how"])
    if kind == "distribution":
        return ins.distribution_insights(floats(a["values"]), a["label"])
    if kind == "correlation":
        frame = pd.DataFrame({a["a"]: floats(a["x"]), a["b"]: floats(a["y"])})
        return ins.correlation_insights(frame, a["a"], a["b"])
    if kind == "group_correlation":
        frame = pd.DataFrame({a["a"]: floats(a["x"]), a["b"]: floats(a["y"]), a["by"]: a["g"]})
        return ins.group_correlation_insights(frame, a["a"], a["b"], a["by"])
    return [[safe(ins.fmt_number, x), ins.fmt_pct(x), ins.fmt_ratio(x)] for x in a["values"]]

print(json.dumps([run(c["kind"], c["args"]) for c in json.load(sys.stdin)], allow_nan=False))
`;

type Values = (number | null)[];
type Case = { name: string } & (
  | {
      kind: 'share' | 'ranking';
      args: {
        category: unknown[];
        value: unknown[];
        label: string;
        interval?: boolean;
        percent?: boolean;
      };
    }
  | { kind: 'trend'; args: { x: unknown[]; y: unknown[]; label: string; how: TrendHow } }
  | { kind: 'distribution'; args: { values: Values; label: string } }
  | { kind: 'correlation'; args: { x: Values; y: Values; a: string; b: string } }
  | {
      kind: 'group_correlation';
      args: { x: Values; y: Values; g: (string | null)[]; a: string; b: string; by: string };
    }
  | { kind: 'format'; args: { values: number[] } }
);

const DAY_MS = 86400000;
const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;
const labels = (n: number): string[] => Array.from({ length: n }, (_, i) => `c${i}`);
const months = (n: number, year = 2022, step = 1): string[] =>
  Array.from({ length: n }, (_, i) => iso(Date.UTC(year, i * step, 1)));
const share = (name: string, category: unknown[], value: unknown[], label = 'revenue'): Case => ({
  name,
  kind: 'share',
  args: { category, value, label },
});
const ranking = (name: string, category: unknown[], value: unknown[], interval = false): Case => ({
  name,
  kind: 'ranking',
  args: { category, value, label: interval ? 'mean temp' : 'mean price', interval },
});
const TREND_LABEL: Record<TrendHow, string> = {
  sum: 'revenue',
  mean: 'mean price',
  stock: 'total count',
  interval: 'mean temp',
  share: '% with churn = 1',
};
const trend = (name: string, x: unknown[], y: unknown[], how: TrendHow = 'sum'): Case => ({
  name,
  kind: 'trend',
  args: { x, y, label: TREND_LABEL[how], how },
});
const distribution = (name: string, values: Values): Case => ({
  name,
  kind: 'distribution',
  args: { values, label: 'order value' },
});
const correlation = (name: string, x: Values, y: Values): Case => ({
  name,
  kind: 'correlation',
  args: { x, y, a: 'price', b: 'units' },
});

function categoryCases(uniform: () => number): Case[] {
  const many = Array.from(
    { length: 60 },
    () => ['alpha', 'beta', 'gamma', 'delta'][Math.floor(uniform() * 4)],
  );
  const spread = many.map(() => uniform() * 10 ** Math.floor(uniform() * 9 - 2));
  const catchAll = 'Others|(other)|All others|Rest of world|remaining|Otherland|Restaurant|Rest';
  const ties = (n: number, levels: number): number[] =>
    Array.from({ length: n }, () => 1 + Math.floor(uniform() * levels));
  const averages = labels(6).map(() => round(uniform() * 100));
  return [
    share('codes of digits kept as text', ['12077', '06001', '30091'], [50, 30, 20]),
    share(
      'regions with Other',
      ['North', 'West', 'East', 'South', 'Other'],
      [220, 312, 200, 100, 500],
    ),
    share('tie at the top', ['A', 'B', 'C', 'D'], [50, 50, 20, 10]),
    share('three-way tie', ['A', 'B', 'C', 'D'], [30, 30, 30, 10]),
    share('a negative value', ['A', 'B', 'C'], [30, -5, 10]),
    share('repeated categories', many, spread),
    share(
      'missing categories and values',
      ['a', null, 'b', null, 'c', 'a'],
      [5, 7, null, 9, 2.5, 1],
    ),
    share('counts', ['n', 'e', 's', 'w', 'x'], [1234567, 234567, 34567, 4567, 567], 'count'),
    share('other-like names', catchAll.split('|'), [90, 80, 70, 60, 50, 40, 30, 20]),
    share('one real category', ['A', 'Other'], [10, 90]),
    share('only catch-alls', ['Other', 'Others', 'Rest'], [10, 90, 5]),
    share('integer categories', [2021, 2022, 2023, 2024], [5.5, 7.25, 3.125, 1]),
    share('huge values', ['a', 'b', 'c', 'd'], [3.3e15, 5e14, 123456789012.345, 98765432109.87]),
    share('tiny values', ['a', 'b', 'c', 'd'], [0.000123, 0.0000456, 0.00000789, 0.00001]),
    ranking('averages', labels(6), averages),
    ranking('a negative lowest', ['a', 'b', 'c'], [12.5, -3, 4]),
    ...[12, 17, 25, 40, 130, 300].map((n) =>
      ranking(`ties among ${n}`, labels(n), ties(n, 2 + (n % 5))),
    ),
    ranking('null category and Other', [null, 'Other', 'x', 'y'], [1.5, 100, 3, 2]),
    ranking('all equal', ['a', 'b', 'c'], [2, 2, 2]),
    ranking('equal as printed', ['a', 'b', 'c'], [33.33333, 33.333334, 33.33332]),
    ranking('temperatures: differences, not ratios', labels(6), averages, true),
    ranking('temperatures below zero', ['a', 'b', 'c'], [9.34, -2.63, 0.146], true),
    // Whole-number categories beside float values: a row of the frame upcasts them (1 -> 1.0).
    ranking('classes 1 to 3', [1, 2, 3], [34.8, 20.1, 13.7]),
    {
      name: 'a rate in %: points apart, not a ratio',
      kind: 'ranking',
      args: {
        category: ['female', 'male', null],
        value: [74.28571428571429, 18.402777777777779, 50],
        label: 'share with Survived = 1',
        percent: true,
      },
    },
  ];
}

function calendarCases(uniform: () => number): Case[] {
  const noisy = (n: number, base = 100): number[] =>
    Array.from({ length: n }, (_, i) => round(base + i * 3 + uniform() * 40));
  const days = Array.from({ length: 40 }, (_, i) => iso(Date.UTC(2024, 0, 1 + i)));
  days.sort(() => uniform() - 0.5);
  const gappy = days.map((_, i) => (i % 7 === 3 ? null : round(uniform() * 50)));
  const hours = Array.from({ length: 30 }, (_, i) => iso(Date.UTC(2024, 4, 1, i)));
  const weeks = Array.from({ length: 20 }, (_, i) => iso(Date.UTC(2024, 0, 7 + 7 * i)));
  const years = Array.from({ length: 10 }, (_, i) => 2015 + i);
  const twelve = noisy(12);
  return [
    trend('monthly, 30 ISO timestamps', months(30), noisy(30)),
    trend(
      'monthly, 23 dates',
      months(23).map((m) => m.slice(0, 10)),
      noisy(23),
    ),
    trend('quarterly, 3 years', months(12, 2021, 3), noisy(12)),
    trend('quarterly, 7', months(7, 2021, 3), noisy(7)),
    trend('quarterly means', months(8, 2022, 3), noisy(8), 'mean'),
    trend('yearly numbers', years, noisy(10, 5000)),
    trend('yearly strings', years.slice(0, 6).map(String), [9, 7.5, 8, 6, 5, 3.25]),
    trend('daily, unsorted, gaps', days, gappy),
    trend('hourly', hours, noisy(30, 10)),
    trend('weekly', weeks, noisy(20)),
    trend('monthly means', months(36), noisy(36, 20), 'mean'),
    trend('monthly stock', months(30), noisy(30, 500), 'stock'),
    trend('monthly temperatures', months(30), noisy(30, -20), 'interval'),
    trend('quarterly temperatures, short', months(7, 2021, 3), noisy(7, 2), 'interval'),
    trend('monthly shares in percent', months(30), noisy(30, 5), 'share'),
    trend('from zero', months(6), [0, 3, 4, 2, 5, 6]),
    trend('quarterly shares, short', months(7, 2021, 3), noisy(7, 3), 'share'),
    trend('declining', months(24), noisy(24).reverse()),
    trend('the same two years', months(24), [...twelve, ...twelve]),
    trend(
      'one offset',
      hours.slice(0, 8).map((h) => `${h}+02:00`),
      noisy(8),
    ),
    trend('one unreadable date', [...months(29), 'n/a'], noisy(30)),
  ];
}

function edgeTrendCases(): Case[] {
  const irregular = [0, 1.4, 5.1, 5.6, 12.2, 30.9, 31.2];
  const stamps = irregular.map((d) => iso(Date.UTC(2024, 1, 1, 10, 30) + d * DAY_MS));
  const mixed = ['2024-01-01T23:00:00Z', '2024-01-03T01:00:00+02:00', '2024-01-03T22:00:00'];
  return [
    trend('starting at zero', months(5), [0, 4, 8, 3, 9]),
    trend('irregular with times', stamps, [5, 9, 4, 12, 7, 3, 8]),
    trend('latest peak', months(6), [1, 2, 3, 4, 5, 60]),
    trend('mixed offsets', mixed, [1, 5, 3]),
    trend('repeated dates', ['2024-01-01', '2024-01-02', '2024-01-02'], [1, 2, 3]),
    trend('words', ['a', 'b', 'c'], [1, 2, 3]),
    trend('plain numbers', [1, 2, 3, 4], [1, 2, 3, 5]),
    // Past pandas' last year: a placeholder in both languages (before its first, see the test below).
    trend('years out of range', [2500, 2000, 2001, 2002, null], [1, 2, 3, 5, 8]),
  ];
}

/** 30 zeros, 60 tens and 4 forties (negated with `sign` -1): skew 2.28, the mean 8.09 below the median 10. */
function twoWays(sign: number): number[] {
  const run = (n: number, v: number): number[] => Array.from({ length: n }, () => v * sign);
  return [...run(30, 0), ...run(60, 10), ...run(4, 40)];
}

function valueCases(uniform: () => number, normal: () => number): Case[] {
  const many = (n: number, f: () => number): number[] => Array.from({ length: n }, f);
  const lognormal = many(200, () => round(Math.exp(normal() + 3)));
  const x = many(100, normal);
  const steps = many(60, () => 1 + Math.floor(uniform() * 5));
  const curve = Array.from({ length: 50 }, (_, i) => (i * 10) / 49);
  const scattered = many(30, normal);
  return [
    distribution('skewed with an outlier', [1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 8, 40, null]),
    // A tail of large values, and a bulk whose mean lies below its median: skewed two ways.
    distribution('skewed two ways', twoWays(1)),
    distribution('skewed two ways, mirrored', twoWays(-1)),
    distribution('lognormal', lognormal),
    distribution(
      'negated lognormal',
      lognormal.map((v) => -v),
    ),
    distribution(
      '1 to 100',
      Array.from({ length: 100 }, (_, i) => i + 1),
    ),
    distribution(
      'exponential amounts',
      many(300, () => round(-Math.log(1 - uniform()) * 20)),
    ),
    distribution('two values', [3, 7]),
    distribution('normal and one outlier', [...many(500, normal), 9]),
    distribution('steps', steps),
    distribution(
      '1,000 normals',
      many(1000, () => 50 + 10 * normal()),
    ),
    correlation(
      'strong negative',
      x,
      x.map((v, i) => (i === 5 ? null : -2 * v + normal())),
    ),
    correlation('exponential curve', curve, curve.map(Math.exp)),
    correlation('one extreme pair', [...scattered, 50], [...scattered.map(() => normal()), 50]),
    correlation(
      'weak positive',
      x,
      x.map((v) => v + 4 * normal()),
    ),
    correlation(
      'ties',
      steps,
      steps.map((v) => v + Math.floor(uniform() * 3)),
    ),
    correlation('two pairs', [1, 2], [2, 3]),
    correlation('a constant side', [1, 2, 3], [4, 4, 4]),
    correlation(
      'a straight line',
      curve,
      curve.map((v) => 3 * v - 2),
    ),
  ];
}

const FORMAT_VALUES = (
  '0 1 -7 0.125 2.675 2.5 0.995 99.95 999.49 999.5 1000.5 12345.5 -1234.5678 0.0001234 1e-12 ' +
  '1e15 1500000000000000.5 1e21 1e300 123.456 0.00125 0.5 9.95 9.96 10 0.0105 -0.004 1e-320 1.005 1.0349 1.045 1.095 1.0999 ' +
  '-0.34349999999999997 -0.34350000000000003 -0.019749999999999997 -0.01975000000000001 ' +
  '0.34349999 1234.4999999999998 0.0034350000000000002 1.0449999999999999 8.749999999999998'
)
  .split(' ')
  .map(Number);

/** Groups that each slope one way, placed so that pooled they slope the other (or not at all). */
function groupedPairs(
  normal: () => number,
  slopes: number[],
  shift: number,
  size = 40,
): { x: number[]; y: number[]; g: string[] } {
  const out = { x: [] as number[], y: [] as number[], g: [] as string[] };
  slopes.forEach((slope, k) => {
    for (let i = 0; i < size; i++) {
      const x = normal() + k * 3;
      out.x.push(x);
      out.y.push(slope * (x - k * 3) + normal() * 0.6 - k * shift);
      out.g.push(`g${k}`);
    }
  });
  return out;
}

function groupCases(normal: () => number): Case[] {
  const group = (name: string, d: { x: Values; y: Values; g: (string | null)[] }): Case => ({
    name,
    kind: 'group_correlation',
    args: { ...d, a: 'beak length', b: 'beak depth', by: 'species' },
  });
  const reversed = groupedPairs(normal, [1, 1, 1], 4);
  const withGaps = groupedPairs(normal, [1, 1.2, 0.8], 4);
  withGaps.g[3] = null as unknown as string;
  (withGaps.x as (number | null)[])[7] = null;
  return [
    group('reversed within groups', reversed),
    group('stronger within groups', groupedPairs(normal, [1, 1, 1], 0)),
    group('same within as pooled', groupedPairs(normal, [1, 1], -3)),
    group('groups disagree', groupedPairs(normal, [1, -1, 1], 4)),
    group('one group only', groupedPairs(normal, [1], 4)),
    group('groups too small', groupedPairs(normal, [1, 1, 1], 4, 9)),
    group('missing groups and values', withGaps),
  ];
}

function parityCases(): Case[] {
  const { uniform, normal } = random(42);
  return [
    ...groupCases(normal),
    ...categoryCases(uniform),
    ...calendarCases(uniform),
    ...edgeTrendCases(),
    ...valueCases(uniform, normal),
    { name: 'formatting', kind: 'format', args: { values: FORMAT_VALUES } },
  ];
}

function runTs(c: Case): unknown {
  const pairs = (a: { category: unknown[]; value: unknown[] }) =>
    a.category.map((category, i) => ({ category, value: a.value[i] }));
  switch (c.kind) {
    case 'share':
      return shareInsights(pairs(c.args), c.args.label, 'c');
    case 'ranking':
      return rankingInsights(pairs(c.args), c.args.label, c.args.interval, c.args.percent, 'c');
    case 'trend': {
      const points = c.args.x.map((x, i) => ({ x, y: c.args.y[i] }));
      return trendInsights(points, c.args.label, c.args.how);
    }
    case 'distribution':
      return distributionInsights(numberStats(c.args.values.map((v) => v ?? NaN)), c.args.label);
    case 'correlation':
      return correlationInsights(correlationStats(c.args.x, c.args.y), c.args.a, c.args.b);
    case 'group_correlation':
      return groupFindings(c.args.x, c.args.y, c.args.g, c.args.a, c.args.b, c.args.by);
    case 'format':
      return c.args.values.map((x) => [fmtNumber(x), fmtPct(x), fmtRatio(x)]);
    default: {
      const never: never = c;
      return never;
    }
  }
}

function assertSameInsights(actual: Insight[], expected: Insight[], name: string): void {
  const words = (list: Insight[]) => list.map((i) => [i.kind, i.text]);
  assert.deepEqual(words(actual), words(expected), name);
  actual.forEach((found, k) => {
    const want = expected[k]?.numbers ?? {};
    assert.deepEqual(Object.keys(found.numbers).sort(), Object.keys(want).sort(), `${name}: keys`);
    for (const [key, value] of Object.entries(found.numbers)) {
      const other = want[key] ?? NaN;
      const scale = Math.max(Math.abs(value), Math.abs(other), 1e-3);
      assert.ok(
        Math.abs(value - other) <= 1e-9 * scale,
        `${name}: ${key} = ${value}, Python ${other}`,
      );
    }
  });
}

void test(
  'parity: the Python originals give the same sentences and numbers',
  { skip: !existsSync(PYTHON) },
  () => {
    const cases = parityCases();
    const expected = preamblePython<unknown[]>(PARITY_SCRIPT, cases);
    assert.equal(expected.length, cases.length);
    cases.forEach((c, i) => {
      const [actual, want] = [runTs(c), expected[i]];
      if (c.kind === 'format') assert.deepEqual(actual, want, c.name);
      else assertSameInsights(actual as Insight[], want as Insight[], c.name);
    });
    const produced = expected.filter((e) => Array.isArray(e) && e.length > 0).length;
    assert.ok(produced >= 45, `only ${produced} of ${cases.length} cases gave insights`);
  },
);

void test('years before pandas’ first (1677) are read, as DuckDB charts them; placeholders past its last are not', () => {
  // wheat.json: prices and wages every five years from 1565; the Python original, given pandas'
  // frames, never sees a year before 1678 (its to_datetime makes them NaT upstream).
  const years = [1565, 1570, 1575, 1580, 2262, 2263];
  const wages = [5, 5.05, 5.08, 5.12].map((y, i) => ({ x: years[i], y }));
  const texts = trendInsights(wages, 'wages', 'mean').map((i) => i.text);
  assert.equal(texts[0], 'Wages grew 2.4% from 1565 to 1580 (5 → 5.12).');
  assert.deepEqual(asDatetime(years.map(String)), [
    ...years.slice(0, 5).map((y) => Date.UTC(y, 0, 1)),
    null,
  ]);
  assert.deepEqual(asDatetime(['1565-01-01T00:00:00.000', '1570-07-01']), [
    Date.UTC(1565, 0, 1),
    Date.UTC(1570, 6, 1),
  ]);
  assert.equal(asDatetime(['9999-12-31', '9999-12-31']), null);
  assert.equal(asDatetime(['0999-12-31', '0999-12-31']), null);
});

void test('a skew one way with the mean on the other side of the median is said as both, not as one long tail', () => {
  const values = twoWays(1);
  const texts = distributionInsights(numberStats(values), 'volume').map((i) => i.text);
  assert.ok(
    texts.includes(
      'Volume is skewed two ways: its skew is 2.28 (a tail of large values), but its mean lies below its median (8.09 vs 10).',
    ),
    texts.join('\n'),
  );
});

void test('a number within float noise of a decimal tie is written as the tie would be, half to even', () => {
  // One quartile as DuckDB and pandas interpolate it: a last bit apart, either side of -0.3435.
  for (const x of [-0.34349999999999997, -0.34350000000000003])
    assert.equal(fmtNumber(x), '-0.344');
  for (const x of [-0.019749999999999997, -0.01975000000000001])
    assert.equal(fmtNumber(x), '-0.0198');
  assert.equal(fmtNumber(2.675), '2.68'); // stored as 2.67499999999999982…, written 2.675
  assert.equal(fmtNumber(0.125), '0.125');
  assert.equal(fmtNumber(0.34349999), '0.343'); // not a tie: a digit off in the eighth place
  assert.equal(fmtNumber(1234.4999999999998), '1,234'); // the tie 1234.5, to the even 1,234
  assert.equal(fmtNumber(12345.5), '12,346');
  assert.equal(fmtPct(0.087499999), '8.7%'); // 8.7499999: a digit off in the seventh place, no tie
  assert.equal(fmtPct(0.08749999999999999), '8.8%'); // 8.749999999999998 is 8.75 within noise
  assert.equal(fmtRatio(1.0449999999999999), '1.04×');
  assert.equal(displayFixed(-0.0001, 2), '-0.00');
  assert.equal(displayFixed(Number.POSITIVE_INFINITY, 1), 'inf');
});

void test('group correlation: a relation that pooling hides is said, with its range per group', () => {
  const { normal } = random(11);
  const d = groupedPairs(normal, [1, 1, 1], 4);
  const [found] = groupFindings(d.x, d.y, d.g, 'length', 'depth', 'species');
  assert.equal(found?.kind, 'group_correlation');
  assert.match(
    found?.text ?? '',
    /^Within each species the correlation between length and depth is positive \(r from 0\.\d\d to 0\.\d\d in 3 groups\), while over all rows it is (negative|close to none)/,
  );
  assert.ok((found?.numbers.r_min ?? 0) >= 0.3);
  assert.ok((found?.numbers.overall ?? 1) < 0.1);
  // Groups that disagree in sign, or pooled data that shows the same relation, say nothing.
  const mixed = groupedPairs(normal, [1, -1, 1], 4);
  assert.deepEqual(groupFindings(mixed.x, mixed.y, mixed.g, 'a', 'b', 'c'), []);
  const weaker = groupedPairs(normal, [1, 1, 1], 0);
  const [stronger] = groupFindings(weaker.x, weaker.y, weaker.g, 'a', 'b', 'c');
  assert.match(stronger?.text ?? '', /is stronger \(r from .* than over all rows \(r = 0\.\d\d\)/);
  const same = groupedPairs(normal, [1, 1], -3);
  assert.deepEqual(groupFindings(same.x, same.y, same.g, 'a', 'b', 'c'), []);
});
