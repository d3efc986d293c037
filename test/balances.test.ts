/**
 * Running balances (agent/semantics-balances.ts): a bank statement's Balance changes by the row's
 * Amount from each row to the next. That proves the Amount is a flow — summed per week and per
 * category, though most of its values are below zero (a signed measure is otherwise averaged:
 * "Average Amount per week", "Salary has the highest mean Amount") — and the Balance a level at
 * each row, never averaged by category ("Average Balance by Category" was the balance when each
 * category's rows happened to be booked), but drawn over time by its closing values.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkPlan } from '../src/agent/plan.js';
import { profileText } from '../src/agent/profile-text.js';
import type { Analysis } from '../src/agent/plan.js';
import { reportFigures, seeded, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';
import { assertClosing, entries, statement, weekEnding } from './helpers/statements.js';
import type { Summary } from './helpers/statements.js';

void test('a bank statement: the amount is summed by week and by category, the running balance never averaged by category, in both engines', () => {
  const dir = tempDir();
  const rows = entries();
  const file = statement(dir, rows, true);
  const byCategory = new Map<string, number>();
  for (const e of rows) byCategory.set(e.category, (byCategory.get(e.category) ?? 0) + e.amount);
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    const column = (name: string) => json.columns.find((c) => c.name === name);
    assert.equal(column('Amount')?.role, 'amount', engine);
    assert.match(
      column('Amount')?.evidence ?? '',
      /"Balance" changes by Amount from each row to the next/,
    );
    assert.equal(column('Balance')?.role, 'level', engine);
    assert.match(column('Balance')?.evidence ?? '', /^the running balance of Amount/);
    const titles = json.charts.map((c) => c.title);
    assert.ok(titles.includes('Amount per week'), `${engine}: ${titles.join(' | ')}`);
    // Where the money stood, over time (never by category).
    assert.ok(
      titles.includes('Balance at the end of each week'),
      `${engine}: ${titles.join(' | ')}`,
    );
    for (const chart of json.charts)
      if (chart.derivation.measure === 'Amount' && chart.title !== 'Distribution of Amount')
        assert.notEqual(chart.derivation.agg, 'mean', `${engine}: ${chart.title}`);
    assert.ok(!titles.some((t) => /Balance by /.test(t)), `${engine}: ${titles.join(' | ')}`);
    const fig = reportFigures(readFileSync(out, 'utf8')).get('Amount by Category');
    assert.ok(fig, `${engine}: ${titles.join(' | ')}`);
    const bars = fig.data[0];
    const drawn = new Map((bars?.x ?? []).map((x, i) => [String(x), Number(bars?.y?.[i])]));
    for (const [category, sum] of byCategory)
      assert.ok(Math.abs((drawn.get(category) ?? NaN) - sum) < 0.005, `${engine}: ${category}`);
    assert.ok(!json.insights.some((i) => /mean Amount/i.test(i.text)), engine);
    // Money in and out by category: no shares, but the ends and the net.
    const sorted = [...byCategory].sort((x, y) => y[1] - x[1]);
    const [high, low] = [sorted[0]?.[0], sorted.at(-1)?.[0]];
    assert.ok(
      json.insights.some((i) =>
        new RegExp(
          `^${high} has the largest Amount \\([\\d,]+\\); ${low} the most negative \\(-[\\d,]+\\); all ${byCategory.size} together come to `,
        ).test(i.text),
      ),
      `${engine}:\n${json.insights.map((i) => i.text).join('\n')}`,
    );
  }
});

void test('oldest first too; a balance-like column that does not follow the amounts is no running balance', async () => {
  const dir = tempDir();
  const rows = entries();
  const ascending = await duckProfile(statement(dir, rows, false));
  assert.deepEqual(ascending.semantics.balances, [
    { balance: 'Balance', amount: 'Amount', order: 'ascending' },
  ]);
  // The balances shuffled: no longer the running sum of the amounts.
  const random = seeded(3);
  const shuffled = rows.map((e) => ({
    ...e,
    balance: rows[Math.floor(random() * rows.length)]?.balance ?? 0,
  }));
  const other = await duckProfile(statement(tempDir(), shuffled, true));
  assert.equal(other.semantics.balances, undefined);
  assert.match(
    profileText(ascending),
    /Running balance: Balance changes by Amount from each row to the next; sum Amount .*, chart Balance over time with agg "last"/,
  );
});

void test('a plan that averages the running balance by category is refused with the reason', async () => {
  const dir = tempDir();
  const profile = await duckProfile(statement(dir, entries(), true));
  const bar = (measure: string, agg: 'mean' | 'sum'): Analysis => ({
    title: `${measure} by Category`,
    why: 'x',
    chart: 'bar',
    transform: { type: 'group', by: 'Category', measure, agg },
  });
  const problems = checkPlan(
    { notes: [], analyses: [bar('Balance', 'mean'), bar('Amount', 'sum')] },
    profile,
  );
  assert.equal(problems.length, 1, problems.join('\n'));
  assert.match(
    problems[0] ?? '',
    /"Balance" is the running balance of "Amount": by "Category" it would give the balance when those rows were booked/,
  );
});

void test('the balance at the end of each week is its latest row, listed newest first or oldest first, in both engines', () => {
  const dir = tempDir();
  const rows = entries();
  // The statement's own order is time order: of rows on one day, the later one is the latest.
  const closing = new Map<string, number>();
  for (const e of rows) closing.set(weekEnding(e.date), e.balance);
  const sameDay = rows.filter((e, i) => rows[i + 1]?.date === e.date).length;
  assert.ok(sameDay > 20, `${sameDay} rows share their day with the next`);
  for (const newestFirst of [true, false]) {
    const file = statement(dir, rows, newestFirst);
    for (const engine of ['duckdb', 'pandas']) {
      const out = join(dir, `${engine}-${newestFirst}.html`);
      const json = analyzeJson<Summary>(file, engine, out);
      const chart = json.charts.find((c) => c.title === 'Balance at the end of each week');
      assert.equal(
        chart?.derivation.agg,
        'last',
        `${engine}: ${json.charts.map((c) => c.title).join(' | ')}`,
      );
      // Every week, the last one too though it is cut short: its end is the statement's balance.
      assertClosing(out, closing, engine);
      const last = rows.at(-1)?.balance ?? NaN;
      const said = new RegExp(
        `^Closing Balance (fell|grew) by [\\d,.]+ from .* \\([\\d,.-]+ → ${Math.round(last).toLocaleString('en-US')}\\)\\.$`,
      );
      assert.ok(
        json.insights.some((i) => said.test(i.text)),
        `${engine}:\n${json.insights.map((i) => i.text).join('\n')}`,
      );
    }
  }
});

void test('a closing value of a level is planned; of the amount that flows, refused with the reason', async () => {
  const profile = await duckProfile(statement(tempDir(), entries(), true));
  const line = (measure: string | null): Analysis => ({
    title: `${measure ?? 'Rows'} at the end of each month`,
    why: 'x',
    chart: 'line',
    transform: { type: 'resample', date: 'Posting Date', measure, agg: 'last', freq: 'M' },
  });
  const problems = checkPlan(
    { notes: [], analyses: [line('Balance'), line('Amount'), line(null)] },
    profile,
  );
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(
    problems[0] ?? '',
    /"Amount" is an amount \(.*\): its latest row is one of the period's, not its total; use sum/,
  );
  assert.match(
    problems[1] ?? '',
    /"last" is the value of each period's latest row: it needs a measure/,
  );
});

void test('a question of the balance over time is answered with its closing values, unless it asks for the average', () => {
  const dir = tempDir();
  const file = statement(dir, entries(), true);
  const asked = (question: string) =>
    analyzeJson<Summary>(file, 'duckdb', join(dir, 'q.html'), ['-q', question]).charts[0]
      ?.derivation.agg;
  assert.equal(asked('How did the Balance change over time?'), 'last');
  assert.equal(asked('What was the average Balance per month?'), 'mean');
});
