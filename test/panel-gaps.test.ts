/**
 * A panel (one row per store and month) whose measure is blank in some of its rows inside the
 * months it is reported in: three stores of five in Aug 2023, one in Feb and one in Oct 2024. A
 * total per month over the stores that have a value dips wherever one is missing ("revenue was
 * lowest in Aug 2023"), and a ranking of the stores' totals favours the stores with fewer blanks:
 * lines and rankings average per store and month instead, and say why; a pie's shares stay of
 * the revenue reported, said; a question asking for a total keeps it, said. Both engines alike.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { profileText } from '../src/agent/profile-text.js';
import { analyzeJson, asked, bothEngines, duckProfile, modelPlan } from './helpers/semantics.js';

const dir = tempDir('opsmind-panel-gaps-');
after(() => rmSync(dir, { recursive: true, force: true }));

const STORES = ['North', 'South', 'East', 'West', 'Central'];
/** Jan 2023 to Dec 2024. */
const MONTHS = Array.from({ length: 24 }, (_, i) => {
  const [year, month] = [2023 + Math.floor(i / 12), (i % 12) + 1];
  return `${year}-${String(month).padStart(2, '0')}-01`;
});
/** Store k's revenue in month i: larger stores, a rise, ups and downs month to month. */
const revenue = (k: number, i: number): number =>
  1000 + 100 * k + 10 * i + ((i * 7 + k * 3) % 5) * 40;
/** The blank cells: three stores in Aug 2023 (i = 7), West in Feb 2024 (13), South in Oct 2024 (21). */
const blank = (k: number, i: number): boolean =>
  (i === 7 && k < 3) || (i === 13 && k === 3) || (i === 21 && k === 1);

/**
 * The panel as a CSV (`yearly`: its years instead of months, 2000 to 2023; `exported`: revenue
 * written as an export writes it, "1,160" in quotes and "-" for a blank).
 */
function panel(name: string, yearly = false, exported = false): string {
  const head = yearly ? 'year,country,revenue' : 'month,store,revenue';
  const written = (k: number, i: number): string => {
    if (!exported) return blank(k, i) ? '' : String(revenue(k, i));
    return blank(k, i) ? '-' : `"${revenue(k, i).toLocaleString('en-US')}"`;
  };
  const rows = STORES.flatMap((store, k) =>
    MONTHS.map((month, i) => `${yearly ? String(2000 + i) : month},${store},${written(k, i)}`),
  );
  const path = join(dir, name);
  writeFileSync(path, `${[head, ...rows].join('\n')}\n`);
  return path;
}

/** Each month's average over the stores with a value. */
const monthMeans = MONTHS.map((_, i) => {
  const values = STORES.flatMap((_s, k) => (blank(k, i) ? [] : [revenue(k, i)]));
  return values.reduce((a, b) => a + b, 0) / values.length;
});

type Summary = { spec: { charts: { params: { title?: string; note?: string } }[] } };
type Charts = { charts: { title: string; derivation: { agg: string } }[] };

void test("both engines measure the gaps inside a measure's months", async () => {
  const profile = await duckProfile(panel('facts.csv'));
  assert.deepEqual(profile.semantics.latest?.years.revenue, {
    from: '2023-01-01 00:00:00',
    to: '2024-12-01 00:00:00',
    latest: '2024-12-01 00:00:00',
    gaps: { cells: 5, periods: 3, at: '2023-08-01 00:00:00', missing: 3, rows: 5 },
  });
  assert.match(
    profileText(profile),
    /Gaps: revenue is missing on 5 rows inside those periods \(3 of 5 store values at 2023-08-01 00:00:00\): average it per store \(agg mean\)/,
  );
});

void test('lines and rankings average per store where a total would sum the blanks', () => {
  const path = panel('gaps.csv');
  const both = bothEngines(path, dir);
  assert.deepEqual(both.duck, both.pandas);
  const { charts, findings } = both.duck;
  for (const title of [
    'Average revenue per store per month',
    'Average revenue per month by store',
    'Share of revenue by store',
    'Revenue per month by store',
  ])
    assert.ok(charts.includes(title), `${title}\n${charts.join('\n')}`);
  assert.ok(!charts.includes('Revenue per month'), charts.join('\n'));
  // Aug 2023's total was of two stores: its average is of the same two, and no low point.
  assert.ok(!findings.some((f) => /lowest .*Aug 2023/.test(f)), findings.join('\n'));
  const yearly = (y: number): number =>
    monthMeans.slice(12 * y, 12 * y + 12).reduce((a, b) => a + b, 0) / 12;
  const rise = (((yearly(1) - yearly(0)) / yearly(0)) * 100).toFixed(1);
  assert.ok(
    findings.some((f) => f.startsWith(`In 2024, mean revenue was ${rise}% higher than in 2023`)),
    `${rise}\n${findings.join('\n')}`,
  );
  const summary = JSON.parse(readFileSync(join(dir, 'duckdb.json'), 'utf8')) as Summary;
  const notes: Record<string, string | undefined> = Object.fromEntries(
    summary.spec.charts.map((c) => [c.params.title ?? '', c.params.note]),
  );
  const said = '5 store × month rows have no revenue (3 of 5 store values in Aug 2023)';
  assert.match(
    notes['Average revenue per store per month'] ?? '',
    new RegExp(
      `^How revenue moves over time: per store on average.*${said.replace(/[()]/g, '\\$&')}, and a total would dip wherever one is missing\\.$`,
    ),
  );
  assert.ok(notes['Average revenue per month by store']?.includes(said));
  assert.ok(
    notes['Share of revenue by store']?.includes(`Shares of the revenue reported: ${said}`),
    notes['Share of revenue by store'],
  );
});

void test('numbers written as an export writes them ("1,160", "-") have the same gaps', () => {
  const both = bothEngines(panel('exported.csv', false, true), dir);
  assert.deepEqual(both.duck, both.pandas);
  const plain = bothEngines(panel('plain.csv'), dir).duck;
  assert.deepEqual(both.duck.charts, plain.charts);
  // The same findings, and the warnings' two (numbers as text, "-" left out) besides.
  assert.deepEqual(
    both.duck.findings.filter((f) => !plain.findings.includes(f)),
    [
      'numbers stored as text in: revenue',
      'values that are not numbers, left out of the numbers of: revenue (5)',
    ],
  );
});

void test('a question asking for the total keeps it, and says which months miss stores', () => {
  const path = panel('asked.csv');
  for (const engine of ['duckdb', 'pandas']) {
    const answer = asked(path, engine, dir, 'total revenue by store') as unknown as Charts;
    assert.equal(answer.charts[0]?.derivation.agg, 'sum', engine);
    const summary = JSON.parse(readFileSync(join(dir, `${engine}.json`), 'utf8')) as Summary;
    assert.match(
      summary.spec.charts[0]?.params.note ?? '',
      /5 store × month rows have no revenue \(3 of 5 store values in Aug 2023\): the totals of those months are of the others\.$/,
      engine,
    );
  }
});

void test('a yearly panel with gaps averages per country and year too', () => {
  const both = bothEngines(panel('yearly.csv', true), dir);
  assert.deepEqual(both.duck, both.pandas);
  assert.ok(
    both.duck.charts.includes('Average revenue per country per year'),
    both.duck.charts.join('\n'),
  );
});

void test("a model's summed line over the gaps is averaged as the heuristic plan's is", async () => {
  const profile = await duckProfile(panel('model.csv'));
  const line = {
    title: 'Revenue per month',
    why: 'Revenue over time.',
    chart: 'line',
    transform: { type: 'resample', date: 'month', measure: 'revenue', agg: 'sum', freq: 'M' },
  };
  const { plan } = await modelPlan(profile, { analyses: [line], notes: [] });
  const [first] = plan.analyses;
  assert.equal(first?.title, 'Average revenue per store per month');
  assert.deepEqual(first?.transform, { ...line.transform, agg: 'mean' });
});

void test('a panel without blanks still totals its stores', () => {
  const path = join(dir, 'whole.csv');
  const rows = STORES.flatMap((store, k) =>
    MONTHS.map((month, i) => `${month},${store},${revenue(k, i)}`),
  );
  writeFileSync(path, `${['month,store,revenue', ...rows].join('\n')}\n`);
  const json = analyzeJson<Charts>(path, 'duckdb', join(dir, 'whole.html'));
  const titles = json.charts.map((c) => c.title);
  assert.ok(titles.includes('Revenue per month'), titles.join('\n'));
  assert.ok(titles.includes('Revenue by store'), titles.join('\n'));
});
