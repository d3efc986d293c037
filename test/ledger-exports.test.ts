/**
 * Ledger exports as European offices write them. Negatives with the minus after the number, as
 * SAP exports them ("1.234,56-", "1,234.50-"): numbers in both engines, negative, summed as
 * pandas sums them — not a column of free text left out of the report. Amounts named in French,
 * Italian or Dutch ("montant", "importo", "bedrag"), and a bank statement's debits and credits:
 * summed as amounts, not averaged as levels.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

const dir = tempDir('opsmind-minus-');

interface Summary {
  columns: { name: string; role: string }[];
  charts: { title: string }[];
  insights: { text: string }[];
}

/** A ledger of postings: three cost centres a day, amounts in cents, some negative. */
function postings(): { cents: number[]; centres: string[] } {
  const cents = Array.from({ length: 84 }, (_, i) => ((i * 7919) % 250_000) - 50_000);
  return { cents, centres: cents.map((_, i) => `K${100 * (1 + (i % 3))}`) };
}

/** `cents` as the locale writes it, the minus after a negative. */
function written(cents: number, decimal: ',' | '.'): string {
  const [whole, fraction] = (Math.abs(cents) / 100).toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, decimal === ',' ? '.' : ',');
  return `${grouped}${decimal}${fraction}${cents < 0 ? '-' : ''}`;
}

for (const decimal of [',', '.'] as const) {
  void test(`a ledger's amounts written "${written(-123456, decimal)}" are negative numbers, summed alike by both engines`, () => {
    const { cents, centres } = postings();
    const sep = decimal === ',' ? ';' : ',';
    const quote = (v: string) => (sep === ',' && v.includes(',') ? `"${v}"` : v);
    const rows = cents.map((c, i) => {
      const day = String(1 + Math.floor(i / 3)).padStart(2, '0');
      return [`2024-03-${day}`, centres[i], quote(written(c, decimal))].join(sep);
    });
    const file = join(dir, `ledger${decimal === ',' ? '-de' : '-us'}.csv`);
    writeFileSync(
      file,
      [['Buchungsdatum', 'Kostenstelle', 'Betrag'].join(sep), ...rows].join('\n') + '\n',
    );
    const duck = analyzeJson<Summary>(file, 'duckdb', join(dir, 'duck.html'));
    const pandas = analyzeJson<Summary>(file, 'pandas', join(dir, 'pandas.html'));
    const role = duck.columns.find((c) => c.name === 'Betrag')?.role;
    assert.notEqual(role, 'text', 'the amounts are numbers');
    assert.ok(cents.some((c) => c < 0));
    // The bar's share finding says the total of every posting, negatives subtracted.
    const texts = duck.insights.map((i) => i.text);
    const total = cents.reduce((a, b) => a + b, 0) / 100;
    const said = total.toLocaleString('en-US', { maximumFractionDigits: 0 });
    assert.ok(
      texts.some(
        (t) => / accounts for [\d.]+% of Betrag \(/.test(t) && t.endsWith(` of ${said}).`),
      ),
      `${said} in:\n${texts.join('\n')}`,
    );
    assert.deepEqual(
      [pandas.charts.map((c) => c.title), pandas.insights.map((i) => i.text)],
      [duck.charts.map((c) => c.title), texts],
    );
  });
}

void test('an amount named in French, Italian or Dutch is summed per region, not averaged', () => {
  for (const name of ['montant', 'importo', 'bedrag']) {
    // A posting a day in each of two regions.
    const rows = Array.from({ length: 56 }, (_, i) => {
      const day = String(1 + Math.floor(i / 2)).padStart(2, '0');
      const cents = 100_000 + ((i * 102_947) % 800_000);
      const [whole, fraction] = (cents / 100).toFixed(2).split('.') as [string, string];
      return `2024-02-${day};${i % 2 ? 'Sud' : 'Nord'};${whole.replace(/\B(?=(\d{3})+$)/g, ' ')},${fraction}`;
    });
    const file = join(dir, `${name}.csv`);
    writeFileSync(file, [`date;region;${name}`, ...rows].join('\n') + '\n');
    const json = analyzeJson<Summary>(file, 'duckdb', join(dir, `${name}.html`));
    assert.equal(json.columns.find((c) => c.name === name)?.role, 'amount', name);
    const titles = json.charts.map((c) => c.title);
    assert.ok(
      titles.includes(`${name[0]?.toUpperCase()}${name.slice(1)} by region`),
      titles.join('\n'),
    );
  }
});

void test("a bank statement's debits are summed per category and per week, in both engines", () => {
  // Date (day first), Debit or Credit on each row, the running Balance: Debit was "neither
  // heavy-tailed nor named as an amount", averaged ("Average Debit by Category").
  let [balance, seed, day] = [5000, 7, 0];
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return Math.floor(seed / 65536) % n;
  };
  const debits = new Map<string, number>();
  const rows = Array.from({ length: 150 }, (_, i) => {
    day += next(3) === 0 ? 0 : 1 + next(2);
    const at = new Date(Date.UTC(2024, 0, 1 + day));
    const date = `${String(at.getUTCDate()).padStart(2, '0')}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${at.getUTCFullYear()}`;
    const category =
      i % 12 === 5 ? 'Salary' : (['Groceries', 'Transport', 'Dining', 'Utilities'][next(4)] ?? '');
    if (category === 'Salary') {
      balance += 2500;
      return `${date},SALARY ${i},${category},,2500.00,${balance.toFixed(2)}`;
    }
    // In cents, so that the sums here are exact.
    const debit = 2000 + next(18000);
    balance -= debit / 100;
    debits.set(category, (debits.get(category) ?? 0) + debit);
    return `${date},${category.toUpperCase()} ${i},${category},${(debit / 100).toFixed(2)},,${balance.toFixed(2)}`;
  });
  const file = join(dir, 'statement.csv');
  writeFileSync(
    file,
    ['Date,Description,Category,Debit,Credit,Balance', ...rows].join('\n') + '\n',
  );
  const [duck, pandas] = ['duckdb', 'pandas'].map((e) =>
    analyzeJson<Summary>(file, e, join(dir, `statement-${e}.html`)),
  ) as [Summary, Summary];
  assert.deepEqual(
    [pandas.charts.map((c) => c.title), pandas.insights.map((i) => i.text)],
    [duck.charts.map((c) => c.title), duck.insights.map((i) => i.text)],
  );
  assert.equal(duck.columns.find((c) => c.name === 'Debit')?.role, 'amount');
  const titles = duck.charts.map((c) => c.title);
  assert.ok(
    titles.includes('Debit by Category') && titles.includes('Debit per week'),
    titles.join('\n'),
  );
  const [top, cents] = [...debits].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const value = cents / 100;
  const total = [...debits.values()].reduce((s, v) => s + v, 0) / 100;
  const said = `${top} accounts for ${((100 * value) / total).toFixed(1)}% of Debit (${Math.round(value).toLocaleString('en-US')} of ${Math.round(total).toLocaleString('en-US')})`;
  assert.ok(
    duck.insights.some((i) => i.text.startsWith(said)),
    `${said}\n${duck.insights.map((i) => i.text).join('\n')}`,
  );
});
