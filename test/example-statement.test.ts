/**
 * examples/bank-statement.csv, as examples/README.md says: a statement written newest first with
 * money in and out in two columns. Both engines draw the balance at the end of each week (its last
 * point the closing balance) and the money in and out per month, each compared with the file's own
 * rows here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { reportFigures, ROOT, tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

const FILE = join(ROOT, 'examples/bank-statement.csv');

interface Summary {
  insights: { text: string }[];
}

/** The statement's rows, oldest first: ISO date, money out, money in, balance. */
function rows(): { date: string; out: number; into: number; balance: number }[] {
  const lines = readFileSync(FILE, 'utf8').trim().split('\n').slice(1).reverse();
  return lines.map((line) => {
    const [date = '', , , out = '', into = '', balance = ''] = line.split(',');
    const iso = `${date.slice(6, 10)}-${date.slice(3, 5)}-${date.slice(0, 2)}`;
    return { date: iso, out: Number(out || 0), into: Number(into || 0), balance: Number(balance) };
  });
}

void test('examples/bank-statement.csv: the closing balance per week and the money in and out per month, as planted, in both engines', () => {
  const all = rows();
  const months = new Map<string, [number, number]>();
  for (const r of all) {
    const [into, out] = months.get(r.date.slice(0, 7)) ?? [0, 0];
    months.set(r.date.slice(0, 7), [into + r.into, out + r.out]);
  }
  // As planted: the salary and the bonus in December; the most paid out in August (abroad).
  assert.ok((months.get('2024-12')?.[0] ?? 0) >= 2850 + 3000);
  const busiest = [...months].sort((a, b) => b[1][1] - a[1][1])[0]?.[0];
  assert.equal(busiest, '2024-08');
  const dir = tempDir();
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(FILE, engine, out);
    const figures = reportFigures(readFileSync(out, 'utf8'));
    const balance = figures.get('Balance at the end of each week')?.data[0]?.y ?? [];
    assert.equal(balance.at(-1), all.at(-1)?.balance, engine);
    const sides = figures.get('Paid in and Paid out per month')?.data ?? [];
    assert.deepEqual(
      sides.map((t) => t.name),
      ['Paid in', 'Paid out'],
      engine,
    );
    for (const [k, trace] of sides.entries())
      (trace.x ?? []).forEach((x, i) => {
        const month = String(x).slice(0, 7);
        const expected = months.get(month)?.[k] ?? NaN;
        assert.ok(
          Math.abs(Number(trace.y?.[i]) - expected) < 1e-6,
          `${engine}: ${month} ${trace.name}`,
        );
      });
    const texts = json.insights.map((i) => i.text);
    // Paid in is blank on 9 rows of 10: a 0 each time, not data missing.
    assert.ok(!texts.some((t) => t.includes('more than 50% missing')), engine);
    assert.ok(
      texts.includes(
        "Paid in and Paid out are money in and out in two columns: each is blank where the other holds the row's money, a 0, not a missing value",
      ),
      engine,
    );
    assert.ok(
      texts.includes(
        'The highest point of both lines: Paid in at 5,900 in Dec 2024 (Paid out peaked at 5,782 in Aug 2024).',
      ),
      `${engine}:\n${texts.join('\n')}`,
    );
    assert.ok(
      texts.includes('Closing Balance was lowest at -1,552 in the week ending Dec 22, 2024.'),
      engine,
    );
  }
});
