/**
 * A profit and loss by month, as accounting tools export it: a row per account, a column per
 * month named by its month and year ("Jan 2024" … "Dec 2024"), and a "Total". Read as twelve
 * measures it said "Oct 2024 vs Sep 2024: a strong negative correlation" and charted no month;
 * both readers now melt the months into "period" and "value" and leave out the total, which
 * would repeat in every month's row.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { monthYearOf } from '../src/engine/source-wide-months.js';
import { attachText, tableValues, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-month-years-');
const database = testDatabase(dir);

/** `text` written as `name` and read by both readers: the warnings and rows of each. */
async function bothRead(name: string, text: string) {
  const db = database();
  const { path, info } = await attachText(db, dir, name, text);
  const [warnings, rows] = pandasRead<[string[], unknown[][]]>(
    path,
    'print(json.dumps([w, [[str(v)[:10] if isinstance(v, __import__("pandas").Timestamp) else v for v in r] for r in df.astype(object).where(df.notna(), None).values.tolist()]]))',
  );
  const duck = (await tableValues(db)).map((r) =>
    (JSON.parse(r) as unknown[]).map((v) =>
      typeof v === 'string' && /^\d{4}-\d{2}-\d{2} /.test(v) ? v.slice(0, 10) : v,
    ),
  );
  return { info, pandas: { warnings, rows }, duck };
}

void test('month columns are named as their month and year in the forms exports write', () => {
  assert.deepEqual(monthYearOf('Jan 2024'), { year: 2024, month: 1 });
  assert.deepEqual(monthYearOf('September-2023'), { year: 2023, month: 9 });
  assert.deepEqual(monthYearOf("Mar '24"), { year: 2024, month: 3 });
  assert.deepEqual(monthYearOf('Dec-99'), { year: 1999, month: 12 });
  assert.deepEqual(monthYearOf('2024-07'), { year: 2024, month: 7 });
  for (const name of ['Total', 'Jan', '2024', 'Janet 2024', '2024-13', 'Q1 2024'])
    assert.equal(monthYearOf(name), null, name);
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'];

void test('a profit and loss by month is read as months, its total left out, in both readers', async () => {
  const accounts = ['Sales', 'Rent', 'Payroll'];
  const rows = accounts.map((a, i) => {
    const values = MONTHS.map((_, m) => 1000 * (i + 1) + 10 * m + 0.25);
    // Budget is no sum of the months: kept, beside each month.
    return `${a},${values.join(',')},${values.reduce((s, v) => s + v, 0)},${500 * (i + 1)}`;
  });
  const header = `Account,${MONTHS.map((m) => `${m} 2024`).join(',')},Total,Budget`;
  const { info, pandas, duck } = await bothRead('pnl.csv', `${header}\n${rows.join('\n')}\n`);
  const melted =
    'read the 6 month columns (Jan 2024 … Jun 2024) as rows: one per Account and month, in "period" (the first of each month) and "value"; left out Total: the sum of the months on every row, which would repeat in every month\'s row';
  assert.deepEqual(info.warnings, [melted]);
  assert.deepEqual(pandas.warnings, [melted]);
  assert.equal(info.rows, 18);
  assert.deepEqual(duck.slice(0, 2), [
    ['Sales', 500, '2024-01-01', 1000.25],
    ['Sales', 500, '2024-02-01', 1010.25],
  ]);
  assert.deepEqual(pandas.rows, duck);
});

void test('months stay columns when fewer than three, or written as text', async () => {
  const cases: [string, string][] = [
    ['two.csv', 'Account,Jan 2024,Feb 2024\nSales,1,2\nRent,3,4\n'],
    ['text.csv', 'Account,Jan 2024,Feb 2024,Mar 2024\nSales,1,2,soon\nRent,3,4,5\n'],
    ['iso.csv', 'Account,2024-01,2024-01,2024-02\nSales,1,2,3\nRent,3,4,5\n'],
  ];
  for (const [name, text] of cases) {
    const { info, pandas } = await bothRead(name, text);
    assert.deepEqual([info.warnings, pandas.warnings], [[], []], name);
    assert.equal(info.rows, 2, name);
  }
});

void test("a P&L's report charts its months per account, in both engines", () => {
  // Each account on a scale of its own (Sales 2,000–2,999, Services 4,000–4,999…): the panel's
  // entity, not a category made of ranges of the value, which would chart nothing against it.
  const rows = ['Sales', 'Services', 'Rent', 'Payroll'].map((a, i) => {
    const values = Array.from(
      { length: 12 },
      (_, m) => 2000 * (i + 1) + ((m * 7919 + i * 104729) % 1000) + 0.5,
    );
    return `${a},${values.join(',')},${values.reduce((s, v) => s + v, 0)}`;
  });
  const names = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
  const path = join(dir, 'profit-and-loss.csv');
  writeFileSync(
    path,
    `Account,${names.map((m) => `${m}-24`).join(',')},Total\n${rows.join('\n')}\n`,
  );
  type Report = { charts: { title: string }[]; insights: { text: string }[] };
  const [duck, pandas] = ['duckdb', 'pandas'].map((e) =>
    analyzeJson<Report>(path, e, join(dir, `pnl-${e}.html`)),
  ) as [Report, Report];
  const said = (j: Report) => [j.charts.map((c) => c.title), j.insights.map((i) => i.text)];
  assert.deepEqual(said(pandas), said(duck));
  assert.ok(
    duck.charts.some((c) => c.title === 'Value per month by Account'),
    duck.charts.map((c) => c.title).join('\n'),
  );
  assert.ok(
    !duck.charts.some((c) => / vs /.test(c.title)),
    duck.charts.map((c) => c.title).join('\n'),
  );
});
