/**
 * Money in findings and axes: numbers written with one currency ("$1,234.50") or in a column named
 * with one ("Revenue (USD)") are said with it in both engines ("$399,671 of $1,045,825", an axis
 * "amount ($)"); a count of them, a percentage or a column mixing currencies is not.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { currencyNamed } from '../src/agent/currency.js';
import { fmtMoney } from '../src/engine/insights-format.js';
import { currenciesOf } from '../src/engine/profile-semantic.js';
import { preamblePython, seeded, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';
import { profileText } from '../src/agent/profile-text.js';

const dir = tempDir('opsmind-currency-');

const AMOUNTS: [number, string | null][] = [
  [1234.5, '$'],
  [-5.25, '€'],
  [0, '£'],
  [1_045_825, 'EUR'],
  [-0.000001, '$'],
  [12.345, null],
];

void test('an amount is written with its currency as the Python findings write it', () => {
  const ours = AMOUNTS.map(([x, currency]) => fmtMoney(x, currency));
  // fmt_number's rounding, ties to even: 1234.5 is 1,234.
  assert.deepEqual(ours, ['$1,234', '-€5.25', '£0', '1,045,825 EUR', '-$0.000001', '12.3']);
  const python = preamblePython<string[]>(
    'import json, sys, opsmind_insights as i\n' +
      'print(json.dumps([i.fmt_money(x, c) for x, c in json.load(sys.stdin)]))',
    AMOUNTS,
  );
  assert.deepEqual(python, ours);
});

const SAMPLES: string[][] = [
  ['$1,234.50', '$12', '($300.00)'],
  ['12.50 EUR', '3 eur', 'EUR 7'],
  ['$5', '€5'],
  ['£1', '2', '3'],
  ['1', '2'],
  ['USD 4', '$4'],
  ['CHF 4', '$4', '€1', 'eur 2'],
];

void test('the currencies a column is written in: one, several or none, as Python reads them', () => {
  const ours = SAMPLES.map(currenciesOf);
  // A code and its sign are one currency, written as first seen.
  assert.deepEqual(ours, [['$'], ['EUR'], ['$', '€'], ['£'], [], ['USD'], ['CHF', '$', '€']]);
  const python = preamblePython<string[][]>(
    'import json, sys, opsmind_semantic as s\n' +
      'print(json.dumps([s._currencies_of(x) for x in json.load(sys.stdin)]))',
    SAMPLES,
  );
  assert.deepEqual(python, ours);
});

void test('a name gives a currency by its sign or a code in brackets or at its end', () => {
  assert.equal(currencyNamed('Revenue ($)'), '$');
  assert.equal(currencyNamed('Preis in €'), '€');
  assert.equal(currencyNamed('price_usd'), 'USD');
  assert.equal(currencyNamed('Sales (eur)'), 'EUR');
  assert.equal(currencyNamed('amount [GBP]'), 'GBP');
  assert.equal(currencyNamed('amount'), null);
  assert.equal(currencyNamed('$ or €'), null);
  // A code must be a word of its own: "bonus" and "caused" end in no currency.
  assert.equal(currencyNamed('bonus'), null);
  assert.equal(currencyNamed('caused'), null);
});

/**
 * A sales file: dates, stores, amounts written in dollars, margins in percent, and list prices in
 * mixed currencies under a name that says dollars (the values win: no one currency).
 */
function salesFile(): string {
  const random = seeded(51);
  const lines = ['date,store,amount,margin,list price ($)'];
  for (let i = 0; i < 300; i += 1) {
    const day = `2024-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
    const store = ['North', 'South', 'East'][Math.floor(random() * 3)];
    const amount = (5 + random() * 4000).toLocaleString('en-US', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const sign = random() < 0.5 ? '$' : '€';
    lines.push(
      `${day},${store},"$${amount}",${(random() * 40).toFixed(1)}%,${sign}${(1 + random() * 90).toFixed(2)}`,
    );
  }
  const file = join(dir, 'sales.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

interface Analyzed {
  insights: { text: string }[];
  spec: { charts: { params: Record<string, unknown> }[] };
}

/** analyze --json's findings, and the spec its report was drawn from (the JSON beside the report). */
function analyzed(file: string, engine: string, report: string): Analyzed {
  const { insights } = analyzeJson<Pick<Analyzed, 'insights'>>(file, engine, report);
  const written = JSON.parse(readFileSync(report.replace(/\.html$/, '.json'), 'utf8')) as Analyzed;
  return { insights, spec: written.spec };
}

/** `file` analysed by both engines, which must say the same findings: DuckDB's findings and spec. */
function bothAlike(
  file: string,
  name: string,
): { texts: string[]; duck: Analyzed; pandas: Analyzed } {
  const duck = analyzed(file, 'duckdb', join(dir, `${name}-duck.html`));
  const pandas = analyzed(file, 'pandas', join(dir, `${name}-pandas.html`));
  const texts = duck.insights.map((i) => i.text);
  assert.deepEqual(
    pandas.insights.map((i) => i.text),
    texts,
  );
  return { texts, duck, pandas };
}

void test('both engines say dollars as dollars, and neither gives a mixed-currency price one', async () => {
  const file = salesFile();
  const { texts, duck, pandas } = bothAlike(file, 'sales');
  assert.deepEqual(
    pandas.spec.charts.map((c) => c.params),
    duck.spec.charts.map((c) => c.params),
  );
  // The share of the largest store, and the distribution of amounts, in dollars.
  assert.ok(
    texts.some((t) => /accounts for [\d.]+% of amount \(\$[\d,]+ of \$[\d,]+\)/.test(t)),
    texts.join('\n'),
  );
  assert.ok(
    texts.some((t) => /^The median amount is \$[\d,]+; .* \(IQR \$[\d,]+\)/.test(t)),
    texts.join('\n'),
  );
  // Counts of rows and percentages keep their own units.
  assert.ok(texts.some((t) => /^The number of rows .* \(\d+ → \d+\)/.test(t)));
  assert.ok(texts.some((t) => /mean margin \([\d.]+%\)/.test(t)));
  // Prices in dollars and euros have no one currency to be said in: neither sign appears with them.
  assert.ok(!texts.some((t) => /price.*[$€]\d|[$€]\d.*price/i.test(t)), texts.join('\n'));
  // …and the profile says why, in both engines.
  assert.ok(
    texts.some((t) =>
      /^numbers in several currencies in: list price \(\$\) \((\$, €|€, \$)\); their sums and means mix them$/i.test(
        t,
      ),
    ),
    texts.join('\n'),
  );
  // A model reading the profile (deep mode, MCP) is told the currency too.
  const text = profileText(await duckProfile(file));
  assert.match(text, /- amount \[numeric_text [^\n]*text like currency numbers in \$/);
  assert.doesNotMatch(text, /- list price[^\n]* in [$€]/);
  const labels = duck.spec.charts.map((c) => c.params.y_label ?? c.params.x_label);
  assert.ok(labels.includes('amount ($)'), JSON.stringify(labels));
  assert.ok(labels.includes('margin (%)'), JSON.stringify(labels));
  assert.ok(!labels.some((l) => typeof l === 'string' && /price \(/.test(l)));
});

void test('a number column named with a currency code is said in it', () => {
  const random = seeded(7);
  const lines = ['region,Revenue (USD)'];
  for (let i = 0; i < 120; i += 1)
    lines.push(`${['a', 'b', 'c'][i % 3]},${(10 + random() * 900).toFixed(2)}`);
  const file = join(dir, 'named.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const { texts, duck } = bothAlike(file, 'named');
  assert.ok(
    texts.some((t) => /of Revenue \(USD\) \([\d,]+ USD of [\d,]+ USD\)/.test(t)),
    texts.join('\n'),
  );
  // The axis already says USD: no "(USD)" added twice.
  const labels = duck.spec.charts.map((c) => c.params.y_label ?? c.params.x_label);
  assert.ok(!labels.some((l) => typeof l === 'string' && l.includes('(USD) (USD)')));
});

void test('a decimal-comma file reads "2.217,89 €" and "12,5 %" as money and percentages, in both engines', () => {
  const random = seeded(11);
  const lines = ['Filiale;Umsatz;Marge;Notiz'];
  let total = 0;
  for (let i = 0; i < 150; i += 1) {
    const cents = Math.round((50 + random() * 5000) * 100);
    total += cents;
    const euros = (cents / 100).toLocaleString('de-DE', { minimumFractionDigits: 2 });
    // Signs before and after, a plain number among them, and one negative refund.
    const amount =
      i === 7
        ? `-${euros} €`
        : i % 10 === 3
          ? `€ ${euros}`
          : i % 10 === 5
            ? `${euros} EUR`
            : i % 25 === 4
              ? euros
              : `${euros} €`;
    if (i === 7) total -= 2 * cents;
    lines.push(
      `${['Nord', 'Süd', 'West'][i % 3]};${amount};${(random() * 30).toFixed(1).replace('.', ',')} %;Lieferung ${i}`,
    );
  }
  const file = join(dir, 'umsatz.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const { texts } = bothAlike(file, 'umsatz');
  const euros = (total / 100).toLocaleString('en-US', { maximumFractionDigits: 0 });
  assert.ok(
    texts.some((t) => t.includes(`of Umsatz (€`) && t.includes(` of €${euros})`)),
    `${euros}\n${texts.join('\n')}`,
  );
  assert.ok(
    texts.some((t) => /mean Marge \([\d.]+%\)/.test(t)),
    texts.join('\n'),
  );
  // Free text that holds numbers stays text.
  assert.ok(!texts.some((t) => /Notiz \(/.test(t)));
});
