/**
 * A report of several accounts (QuickBooks' transaction detail by account): each account's name on
 * a row of its own, its transactions below with their running balance, then "Total for <account>".
 * The balance runs per account: drawn per account (a week's balance over every account is whichever
 * account booked last), and the heading rows are no transactions, in both engines.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkPlan } from '../src/agent/plan.js';
import type { Analysis } from '../src/agent/plan.js';
import { reportFigures, seeded, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';
import { weekEnding } from './helpers/statements.js';

interface Summary {
  charts: { title: string; derivation: { measure: string | null; agg: string } }[];
}

const ACCOUNTS = ['Checking', 'Savings', 'Credit Card'];

/** Three accounts of 40 transactions each, their balances from 0, US dates. */
function report(dir: string): { file: string; closing: Map<string, Map<string, number>> } {
  const random = seeded(17);
  const lines = ['Account,Date,Type,Name,Amount,Balance'];
  const closing = new Map<string, Map<string, number>>();
  for (const account of ACCOUNTS) {
    lines.push(`${account},,,,,`);
    const weeks = new Map<string, number>();
    let balance = 0;
    const day = new Date(Date.UTC(2024, 0, 2));
    for (let i = 0; i < 40; i++) {
      day.setUTCDate(day.getUTCDate() + Math.floor(random() * 9));
      const amount = Math.round((random() - 0.45) * 80000) / 100;
      balance = Math.round((balance + amount) * 100) / 100;
      const iso = day.toISOString().slice(0, 10);
      const us = `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
      lines.push(
        `,${us},${amount < 0 ? 'Check' : 'Deposit'},Payee ${i % 7},${amount.toFixed(2)},${balance.toFixed(2)}`,
      );
      weeks.set(weekEnding(iso), balance);
    }
    lines.push(`Total for ${account},,,,${balance.toFixed(2)},`);
    closing.set(account, weeks);
  }
  lines.push('TOTAL,,,,0,');
  const file = join(dir, 'transactions-by-account.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, closing };
}

void test("a report of several accounts: each account's balance is drawn on its own, by its closing values, in both engines", async () => {
  const dir = tempDir();
  const { file, closing } = report(dir);
  const profile = await duckProfile(file);
  assert.deepEqual(profile.semantics.balances, [
    { balance: 'Balance', amount: 'Amount', order: 'ascending', by: 'Account' },
  ]);
  // The heading rows are gone: 40 transactions per account, the subtotals and the total.
  assert.equal(profile.rows, 3 * 40 + 3 + 1);
  const title = 'Balance at the end of each week by Account';
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    assert.ok(
      json.charts.some((c) => c.title === title),
      `${engine}: ${json.charts.map((c) => c.title).join(' | ')}`,
    );
    const traces = reportFigures(readFileSync(out, 'utf8')).get(title)?.data ?? [];
    assert.deepEqual(traces.map((t) => t.name).sort(), [...ACCOUNTS].sort(), engine);
    for (const trace of traces) {
      const weeks = closing.get(String(trace.name)) ?? new Map<string, number>();
      const drawn = new Map(
        (trace.x ?? []).map((x, i): [string, unknown] => [String(x).slice(0, 10), trace.y?.[i]]),
      );
      for (const [week, balance] of weeks)
        assert.equal(drawn.get(week), balance, `${engine}: ${String(trace.name)} ${week}`);
    }
  }
  // A question of the balance over time is answered per account too.
  const answered = analyzeJson<{ charts: { derivation: { agg: string; group_by: string[] } }[] }>(
    file,
    'duckdb',
    join(dir, 'question.html'),
    ['-q', 'How did the Balance change over time?'],
  ).charts[0]?.derivation;
  assert.deepEqual([answered?.agg, answered?.group_by], ['last', ['Account']]);
  // Over every account, a week's balance is whichever account booked last: refused.
  const line: Analysis = {
    title: 'Balance per week',
    why: 'x',
    chart: 'line',
    transform: { type: 'resample', date: 'Date', measure: 'Balance', agg: 'last', freq: 'W' },
  };
  assert.match(
    checkPlan({ notes: [], analyses: [line] }, profile).join('\n'),
    /"Balance" runs per "Account" \(each Account's rows are listed together, with a balance of its own\): over every Account it mixes them; add series: "Account"/,
  );
});
