/**
 * A question asking for a share over time is answered with each member's share (%) of every
 * period's total, a line each, in both engines: "share of renewables by year" of
 * iowa-electricity.csv drew Renewables' own total per year, titled as a share, and "what share of
 * net generation is renewables" a histogram of Renewables' values. The member it names is a line
 * (a slice) among the others, not the only rows kept: kept alone, its share would be 100%.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parsePlan } from '../src/agent/plan.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { analyzeJson, asked, askedAlike, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-question-shares-');
after(() => rmSync(dir, { recursive: true, force: true }));

const IOWA = join(ROOT, 'node_modules/vega-datasets/data/iowa-electricity.csv');
const SALES = join(ROOT, 'examples/sales.csv');

/** Renewables' share (%) of each year's net generation, from the file itself. */
function renewablesShare(): Map<number, number> {
  const rows = readFileSync(IOWA, 'utf8').trim().split('\n').slice(1);
  const [total, part] = [new Map<number, number>(), new Map<number, number>()];
  for (const row of rows) {
    const [date = '', source, value = ''] = row.split(',');
    const year = Number(date.slice(0, 4));
    total.set(year, (total.get(year) ?? 0) + Number(value));
    if (source === 'Renewables') part.set(year, (part.get(year) ?? 0) + Number(value));
  }
  return new Map([...total].map(([y, t]) => [y, (100 * (part.get(y) ?? 0)) / t]));
}

type Derived = { kind: string; derivation: { filter: unknown; group_by: string[]; shares?: true } };

void test('"share of renewables by year" is each source\'s share of each year, in both engines', () => {
  const q = 'share of renewables by year';
  const duck = askedAlike(IOWA, dir, q);
  const chart = duck.charts[0] as unknown as Derived;
  assert.equal(chart.kind, 'line');
  assert.deepEqual(chart.derivation.group_by, ['source']);
  assert.equal(chart.derivation.filter, null);
  assert.equal(chart.derivation.shares, true);
  const share = renewablesShare();
  const found =
    /^The share of net_generation rose the most in Renewables, by ([\d.]+) percentage points from 2001 to 2017 \(([\d.]+)% → ([\d.]+)%\)/.exec(
      duck.answer[0] ?? '',
    );
  assert.ok(found, duck.answer.join('\n'));
  const [first, last] = [share.get(2001) ?? NaN, share.get(2017) ?? NaN];
  assert.ok(Math.abs(Number(found[2]) - first) < 0.01, `${found[2]} vs ${first}`);
  assert.ok(Math.abs(Number(found[3]) - last) < 0.1, `${found[3]} vs ${last}`);
  assert.ok(Math.abs(Number(found[1]) - (last - first)) < 0.1, `${found[1]} vs ${last - first}`);
  // Its axis says what the numbers are.
  const summary = JSON.parse(readFileSync(join(dir, 'duckdb.json'), 'utf8')) as {
    spec: { charts: { params: { y_label?: string } }[] };
  };
  assert.equal(summary.spec.charts[0]?.params.y_label, 'share of net_generation (%)');
});

void test('"what share of net generation is renewables" is a pie of every source', () => {
  for (const engine of ['duckdb', 'pandas']) {
    const { charts, answer } = asked(
      IOWA,
      engine,
      dir,
      'what share of net generation is renewables',
    );
    // The member asked about first, then the largest.
    assert.deepEqual(answer.slice(0, 2), [
      'Renewables accounts for 19.0% of net_generation (164,220 of 864,452).',
      'Fossil Fuels accounts for 71.7% of net_generation (620,129 of 864,452).',
    ]);
    const chart = charts[0] as unknown as Derived;
    assert.equal(chart.kind, 'pie', engine);
    assert.equal(chart.derivation.filter, null, engine);
    assert.deepEqual(chart.derivation.group_by, ['source'], engine);
  }
});

void test("a share of a value it names is of that value's column, and a rate is no total", () => {
  for (const engine of ['duckdb', 'pandas']) {
    const share = asked(SALES, engine, dir, 'what percentage of revenue comes from Online');
    assert.equal(share.answer[0], 'Online accounts for 33.3% of revenue (476,040 of 1,429,705).');
    const pie = share.charts[0] as unknown as Derived;
    assert.equal(pie.kind, 'pie', engine);
    assert.deepEqual(pie.derivation.group_by, ['channel'], engine);
    assert.equal(pie.derivation.filter, null, engine);
    // "Share of customers": of the rows (a customer each), not of the first measure's total.
    const rows = asked(
      join(ROOT, 'examples/customers-churn.csv'),
      engine,
      dir,
      'share of customers by contract',
    );
    assert.ok(
      rows.answer[0]?.startsWith('Month-to-month accounts for 54.5% of rows (1,090 of 2,000)'),
      rows.answer.join('\n'),
    );
    // "Return rate": returns per row of each product, not their total titled as a rate.
    const rate = asked(SALES, engine, dir, 'return rate by product');
    const bar = rate.charts[0] as unknown as Derived & { derivation: { agg: string } };
    assert.deepEqual([bar.derivation.agg, bar.derivation.group_by], ['mean', ['product']], engine);
  }
});

void test('a share by a handful of whole numbers ("by cluster") is of them too', () => {
  const file = join(ROOT, 'node_modules/vega-datasets/data/gapminder.json');
  const q = 'share of pop by cluster per year';
  const duck = askedAlike(file, dir, q);
  const chart = duck.charts[0] as unknown as Derived;
  assert.deepEqual([chart.derivation.group_by, chart.derivation.shares], [['cluster'], true]);
  assert.match(
    duck.answer[0] ?? '',
    /^The share of pop rose the most in cluster \d, by [\d.]+ percentage points/,
  );
});

void test('a share of a value it names without a time is no trend: "what share of movies are comedies"', () => {
  const file = join(ROOT, 'node_modules/vega-datasets/data/movies.json');
  const q = 'what share of movies are comedies';
  const duck = askedAlike(file, dir, q);
  const chart = duck.charts[0] as unknown as Derived;
  assert.deepEqual(
    [chart.kind, chart.derivation.group_by, chart.derivation.filter],
    ['bar', ['Major Genre'], null],
  );
  assert.equal(duck.answer[0], 'Comedy accounts for 21.1% of rows (675 of 3,201).');
});

void test('more members than lines: the largest eight and "Other", shares of the whole', () => {
  // Ten channels over 24 months, their sales overlapping (no channel is a range of sales).
  const rows = Array.from({ length: 24 }, (_, i) =>
    Array.from({ length: 10 }, (_, k) => {
      const month = `${2023 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
      return `${month},ch${k},${500 + k * 20 + ((i * (k + 3) + k * 7) % 11) * 40}`;
    }),
  ).flat();
  const path = join(dir, 'channels.csv');
  writeFileSync(path, `month,channel,sales\n${rows.join('\n')}\n`);
  const q = 'share of sales by channel per month';
  const duck = askedAlike(path, dir, q);
  assert.match(duck.answer.join('\n'), /percentage points/);
  const json = analyzeJson<{ charts: { derivation: { top?: number; shares?: true } }[] }>(
    path,
    'duckdb',
    join(dir, 'channels.html'),
    ['-q', q],
  );
  assert.equal(json.charts[0]?.derivation.top, 8);
  assert.equal(json.charts[0]?.derivation.shares, true);
});

void test('a plan asking a share of a mean, or without series, is refused with the reason', async () => {
  const profile = await duckProfile(IOWA);
  const line = (transform: object) => ({
    analyses: [{ title: 'Shares', why: 'Shares.', chart: 'line', transform }],
    notes: [],
  });
  const base = { type: 'resample', date: 'year', measure: 'net_generation', freq: 'Y' };
  const mean = parsePlan(line({ ...base, agg: 'mean', series: 'source', share: true }), profile);
  assert.ok(
    !mean.ok &&
      mean.problems.some((e) => /share is of a total: agg sum or count, not mean/.test(e)),
  );
  const alone = parsePlan(line({ ...base, agg: 'sum', share: true }), profile);
  assert.ok(
    !alone.ok &&
      alone.problems.some((e) => /share is of a series' total per period: it needs series/.test(e)),
  );
});
