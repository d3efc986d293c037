/**
 * A dash standing in for a number — Excel's accounting format writes zero as "-", reports write
 * "–" for none — neither makes a column of numbers text nor counts as a number: an export's
 * amounts ("2,798.58", "(412.10)", "-") are analysed, the dashes left out of their statistics, and
 * a warning says how many, in both engines.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { numberTextStyle } from '../src/engine/profile-semantic.js';
import { preamblePython, seeded, tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

const dir = tempDir('opsmind-placeholders-');

const SAMPLES: [string[], string][] = [
  [['1,234.50', '-', '(300.00)', '12', '-', '7', '–', '--', '5', '6'], 'amount'],
  [['-', '-', '-'], 'amount'],
  [['-5', '-12', '3'], 'delta'],
  [['abc', '-', 'def'], 'note'],
  [['$5', ' - ', '$7', '$9'], 'price'],
];

void test('dashes are neither numbers nor text to the style of a column, as in Python', () => {
  const ours = SAMPLES.map(([strings, name]) => numberTextStyle(strings, name));
  assert.deepEqual(ours, ['thousands', null, 'plain', null, 'currency']);
  const python = preamblePython<(string | null)[]>(
    'import json, sys, opsmind_semantic as s\n' +
      'print(json.dumps([s._number_text_style(x, n) for x, n in json.load(sys.stdin)]))',
    SAMPLES,
  );
  assert.deepEqual(python, ours);
});

void test('an accounting export with dashes for zero is analysed, the dashes left out and counted', () => {
  const random = seeded(9);
  const lines = ['month,account,amount'];
  let dashes = 0;
  let total = 0;
  for (let i = 0; i < 120; i += 1) {
    const cents = Math.round((random() * 3500 - 500) * 100);
    const month = `2024-${String(1 + (i % 12)).padStart(2, '0')}`;
    const account = ['Rent', 'Travel', 'Payroll'][i % 3];
    const text = (Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    if (i % 9 === 0) dashes += 1;
    else total += cents;
    const amount = i % 9 === 0 ? '-' : cents < 0 ? `"(${text})"` : `"${text}"`;
    lines.push(`${month},${account},${amount}`);
  }
  const file = join(dir, 'ledger.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  type Json = { insights: { text: string }[] };
  const duck = analyzeJson<Json>(file, 'duckdb', join(dir, 'duck.html')).insights.map(
    (i) => i.text,
  );
  const pandas = analyzeJson<Json>(file, 'pandas', join(dir, 'pandas.html')).insights.map(
    (i) => i.text,
  );
  assert.deepEqual(pandas, duck);
  // The amounts are summed (refunds in parentheses as negatives), the dashes as nothing.
  const sum = (total / 100).toLocaleString('en-US', { maximumFractionDigits: 0 });
  assert.ok(
    duck.some((t) => t.includes(`of amount (`) && t.includes(` of ${sum})`)),
    `${sum}\n${duck.join('\n')}`,
  );
  assert.ok(
    duck.includes(`values that are not numbers, left out of the numbers of: amount (${dashes})`),
    duck.join('\n'),
  );
});
