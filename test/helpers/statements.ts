/**
 * Bank statements for the running-balance tests (balances*.test.ts): ten months of a checking
 * account, written newest first or oldest first with signed amounts, or with money in and out in
 * two columns.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reportFigures, seeded } from './fixtures.js';

export interface Summary {
  columns: { name: string; role: string; evidence: string }[];
  charts: { title: string; derivation: { measure: string | null; agg: string } }[];
  insights: { text: string }[];
}

export interface Entry {
  date: string;
  category: string;
  amount: number;
  balance: number;
}

const SPENDING: Record<string, [number, number]> = {
  Groceries: [-120, -20],
  Dining: [-80, -10],
  Utilities: [-150, -60],
  Transfer: [-500, 500],
  Shopping: [-200, -15],
};

/** Ten months of a checking account: salary in, rent out on the first, spending between. */
export function entries(): Entry[] {
  const random = seeded(21);
  const out: Entry[] = [];
  let balance = 2500;
  const day = new Date(Date.UTC(2024, 0, 2));
  for (let i = 0; i < 400; i++) {
    day.setUTCDate(day.getUTCDate() + Math.floor(random() * 2.4));
    const first =
      day.getUTCDate() <= 2 && !out.some((e) => e.date.slice(0, 7) === iso(day).slice(0, 7));
    const kinds = Object.keys(SPENDING);
    const category = first
      ? i % 2
        ? 'Rent'
        : 'Salary'
      : (kinds[Math.floor(random() * kinds.length)] ?? '');
    const [lo, hi] = SPENDING[category] ?? (category === 'Rent' ? [-1500, -1500] : [3200, 3200]);
    const amount = Math.round((lo + random() * (hi - lo)) * 100) / 100;
    balance = Math.round((balance + amount) * 100) / 100;
    out.push({ date: iso(day), category, amount, balance });
  }
  return out;
}

const iso = (d: Date): string => d.toISOString().slice(0, 10);

/** The statement as a bank writes it: newest first (or oldest first), US dates, signed amounts. */
export function statement(dir: string, rows: readonly Entry[], newestFirst: boolean): string {
  const ordered = newestFirst ? [...rows].reverse() : rows;
  const us = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}/${date.slice(0, 4)}`;
  const lines = ['Posting Date,Description,Amount,Category,Balance'];
  ordered.forEach((e, i) =>
    lines.push(
      `${us(e.date)},${e.category.toUpperCase()} ${i},${e.amount.toFixed(2)},${e.category},${e.balance.toFixed(2)}`,
    ),
  );
  const file = join(dir, newestFirst ? 'statement.csv' : 'statement-oldest-first.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The Sunday ending the Monday-to-Sunday week of an ISO date (pandas' "W"). */
export function weekEnding(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + ((7 - d.getUTCDay()) % 7));
  return iso(d);
}

/** The statement with money in and out in two columns, the other blank, day-first dates. */
export function twoColumns(dir: string, rows: readonly Entry[]): string {
  const lines = ['Date,Description,Paid out,Paid in,Balance'];
  [...rows].reverse().forEach((e, i) => {
    const [out, into] = e.amount < 0 ? [(-e.amount).toFixed(2), ''] : ['', e.amount.toFixed(2)];
    const date = `${e.date.slice(8, 10)}/${e.date.slice(5, 7)}/${e.date.slice(0, 4)}`;
    lines.push(`${date},${e.category.toUpperCase()} ${i},${out},${into},${e.balance.toFixed(2)}`);
  });
  const file = join(dir, 'paid-in-paid-out.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The report's "Balance at the end of each week" holds each week's closing balance, and no more weeks. */
export function assertClosing(report: string, closing: Map<string, number>, engine: string): void {
  const line = reportFigures(readFileSync(report, 'utf8')).get('Balance at the end of each week')
    ?.data[0];
  const drawn = new Map(
    (line?.x ?? []).map((x, i) => [String(x).slice(0, 10), Number(line?.y?.[i])]),
  );
  assert.deepEqual([...drawn.keys()], [...closing.keys()], engine);
  for (const [week, balance] of closing)
    assert.ok(Math.abs((drawn.get(week) ?? NaN) - balance) < 1e-9, `${engine}: ${week}`);
}
