/**
 * Money in and out in two columns (Paid in, Paid out; Credit, Debit), the other blank on each row:
 * the balance rises by the one and falls by the other (agent/semantics-balances.ts), both are
 * summed, a week or day with rows and only blanks totals 0, and the balance is drawn by its closing
 * values, in both engines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkPlan } from '../src/agent/plan.js';
import type { Analysis } from '../src/agent/plan.js';
import { reportFigures, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';
import { assertClosing, entries, twoColumns, weekEnding } from './helpers/statements.js';
import type { Summary } from './helpers/statements.js';

void test('money in and out in two columns: the balance rises by the one and falls by the other, in both engines', async () => {
  const dir = tempDir();
  const rows = entries();
  const file = twoColumns(dir, rows);
  const profile = await duckProfile(file);
  assert.deepEqual(profile.semantics.balances, [
    { balance: 'Balance', amount: 'Paid in', order: 'descending', debit: 'Paid out' },
  ]);
  const closing = new Map<string, number>();
  for (const e of rows) closing.set(weekEnding(e.date), e.balance);
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    const column = (name: string) => json.columns.find((c) => c.name === name);
    assert.equal(column('Paid in')?.role, 'amount', engine);
    assert.match(
      column('Paid out')?.evidence ?? '',
      /^"Balance" rises by Paid in and falls by Paid out from each row to the next \(a running balance\): Paid out is money out, summed$/,
    );
    assert.match(column('Balance')?.evidence ?? '', /^the running balance of Paid in − Paid out/);
    assertClosing(out, closing, engine);
  }
  // The two columns are each other's blanks: swapped, the balance would fall by money in.
  const bar: Analysis = {
    title: 'Balance by Description',
    why: 'x',
    chart: 'bar',
    transform: { type: 'group', by: 'Description', measure: 'Balance', agg: 'mean' },
  };
  assert.match(
    checkPlan({ notes: [], analyses: [bar] }, profile)[0] ?? '',
    /"Balance" is the running balance of Paid in − Paid out: .*; chart "Paid in" or "Paid out" by "Description"/,
  );
});

void test('money in by week, and by weekday on average: a week or day with rows but only blanks is 0, not a gap, in both engines', () => {
  const dir = tempDir();
  const rows = entries();
  const file = twoColumns(dir, rows);
  const weekly = new Map<string, number>();
  const daily = new Map<string, number>();
  for (const e of rows) {
    const paid = Math.max(e.amount, 0);
    weekly.set(weekEnding(e.date), (weekly.get(weekEnding(e.date)) ?? 0) + paid);
    daily.set(e.date, (daily.get(e.date) ?? 0) + paid);
  }
  const zeros = [...weekly.values()].filter((v) => v === 0).length;
  assert.ok(zeros > 5, `${zeros} weeks without money in`);
  // Days with rows only (a day without any is no day of the statement), averaged per weekday.
  const weekdays = new Map<number, number[]>();
  for (const [day, paid] of daily) {
    const w = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
    weekdays.set(w, [...(weekdays.get(w) ?? []), paid]);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    analyzeJson<Summary>(file, engine, out, ['-q', 'What was the total Paid in per week?']);
    const [line] = reportFigures(readFileSync(out, 'utf8')).values();
    // A gap is drawn as null: every week here has rows, so none is one.
    const drawn = (line?.data[0]?.x ?? []).map((x, i): [string, unknown] => [
      String(x).slice(0, 10),
      line?.data[0]?.y?.[i] ?? null,
    ]);
    assert.ok(drawn.length > 30, `${engine}: ${drawn.length} weeks`);
    for (const [week, y] of drawn)
      assert.ok(
        typeof y === 'number' && Math.abs(y - (weekly.get(week) ?? NaN)) < 1e-6,
        `${engine}: ${week} ${JSON.stringify(y)}`,
      );
    const cycle = join(dir, `${engine}-weekday.html`);
    analyzeJson<Summary>(file, engine, cycle, ['-q', 'Which weekday has the most Paid in?']);
    const [bars] = reportFigures(readFileSync(cycle, 'utf8')).values();
    const x = bars?.data[0]?.x ?? [];
    assert.deepEqual(x, DAYS, engine);
    x.forEach((day, i) => {
      const expected = mean(weekdays.get(DAYS.indexOf(String(day))) ?? []);
      assert.ok(Math.abs(Number(bars?.data[0]?.y?.[i]) - expected) < 1e-6, `${engine}: ${day}`);
    });
  }
});
