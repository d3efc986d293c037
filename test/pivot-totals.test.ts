/**
 * A pivot table exported with its subtotals and grand total ("North Total", "Grand Total";
 * "Nord Ergebnis", "Gesamtergebnis"; "Total Nord", "Total général"): those rows are left out of
 * every chart in both engines, so each sale counts once — not three times, with "Grand Total" the
 * largest region; in its compact layout, the blank label cells under a group are the group's.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { subtotalGroups } from '../src/agent/semantics-aggregates.js';
import { attachSource } from '../src/engine/source.js';
import { tableRows, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-pivot-');
const database = testDatabase(dir);

void test('subtotals are labelled values whose group is a value of the column too; the grand total beside them', () => {
  const cases: [string[], string[]][] = [
    [
      ['East', 'East Total', 'Grand Total', 'North', 'North Total'],
      ['East Total', 'Grand Total', 'North Total'],
    ],
    [
      ['Gesamtergebnis', 'Nord', 'Nord Ergebnis', 'Süd', 'Süd Ergebnis'],
      ['Gesamtergebnis', 'Nord Ergebnis', 'Süd Ergebnis'],
    ],
    [
      ['Nord', 'Sud', 'Total Nord', 'Total Sud', 'Total général'],
      ['Total Nord', 'Total Sud', 'Total général'],
    ],
    [
      ['noord', 'Noord Totaal', 'Eindtotaal', 'zuid'],
      ['Eindtotaal', 'Noord Totaal'],
    ],
    // A product named with "Total" is no subtotal: no value is its group.
    [['Protein Total', 'Vitamin C', 'Zinc'], []],
    // A lone "Total" is the splits' to judge (semantics-totals.ts), by its sums.
    [['Total', 'North', 'South'], []],
  ];
  for (const [values, groups] of cases) {
    const found = subtotalGroups({ Region: values });
    assert.deepEqual(
      found,
      groups.length ? [{ column: 'Region', values: groups }] : [],
      values.join(),
    );
  }
});

void test('a pivot export with subtotals and a grand total is charted without them, in both engines alike', () => {
  const regions = ['North', 'South', 'East'];
  const products = ['Alpha', 'Beta', 'Gamma', 'Delta'];
  const lines = ['Region,Product,Sales'];
  let grand = 0;
  const byProduct = new Map<string, number>();
  for (const [r, region] of regions.entries()) {
    let sub = 0;
    for (const [p, product] of products.entries()) {
      const sales = 1_000 + (((r * 4 + p) * 7_919) % 9_000);
      lines.push(`${region},${product},${sales}`);
      sub += sales;
      byProduct.set(product, (byProduct.get(product) ?? 0) + sales);
    }
    lines.push(`${region} Total,,${sub}`);
    grand += sub;
  }
  lines.push(`Grand Total,,${grand}`);
  const file = join(dir, 'pivot.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  type Summary = { insights: { text: string }[]; charts: { title: string }[] };
  const duck = analyzeJson<Summary>(file, 'duckdb', join(dir, 'duck.html'));
  const pandas = analyzeJson<Summary>(file, 'pandas', join(dir, 'pandas.html'));
  const texts = duck.insights.map((i) => i.text);
  assert.ok(!texts.some((t) => t.includes('Total')), texts.join('\n'));
  const [top, sales] = [...byProduct].sort((a, b) => b[1] - a[1])[0] as [string, number];
  const share = ((100 * sales) / grand).toFixed(1);
  const said = (n: number) => n.toLocaleString('en-US');
  assert.ok(
    texts.includes(`${top} accounts for ${share}% of Sales (${said(sales)} of ${said(grand)}).`),
    texts.join('\n'),
  );
  assert.deepEqual(
    pandas.insights.map((i) => i.text),
    texts,
  );
});

void test("a compact pivot's blank labels are filled down to their own subtotal, in both readers; other blanks stay", async () => {
  // Excel's compact layout: each region's label once, blank below it down to "North Total".
  const text = [
    'Region,Product,Sales',
    'North,A,100',
    ',B,250',
    'North Total,,350',
    'South,A,300',
    ',B,120',
    ',C,5',
    'South Total,,425',
    // A blank under East before West's subtotal is no cell of either.
    'West,A,7',
    'East,B,8',
    ',C,9',
    'West Total,,24',
    'Grand Total,,799',
  ].join('\n');
  const file = join(dir, 'compact.csv');
  writeFileSync(file, `${text}\n`);
  const db = database();
  const info = await attachSource(db, file, { scratchDir: join(dir, 'scratch') });
  const warning =
    'filled 3 blank "Region" cell(s) with the group label above them, as a pivot table\'s compact layout leaves them blank down to the group\'s subtotal (such as "North")';
  const regions = (await tableRows(db)).map((row) => row.Region ?? null);
  const filled = ['North', 'North', 'North Total', 'South', 'South', 'South', 'South Total'];
  assert.deepEqual(
    [info.warnings, regions],
    [[warning], [...filled, 'West', 'East', null, 'West Total', 'Grand Total']],
  );
  const [w, pandasRegions] = pandasRead<[string[], (string | null)[]]>(
    file,
    'print(json.dumps([w, [None if v != v else v for v in df["Region"]]]))',
  );
  assert.deepEqual([w, pandasRegions], [info.warnings, regions]);
  const texts = findingsAlike(file, 'compact');
  // South's three rows (300 + 120 + 5), of every row but the totals (799).
  assert.ok(
    texts.some((t) => t.startsWith('South accounts for 53.2% of Sales (425 of 799)')),
    texts.join('\n'),
  );
});

void test("QuickBooks' 'Total for Checking' is the subtotal of the group labelled alone above its rows, in both engines", async () => {
  // A transaction report by account: the account's name on a row of its own, its transactions
  // below with the label blank, then "Total for <account>"; "TOTAL" at the foot.
  const text = [
    ',Date,Name,Amount',
    'Checking,,,',
    ',01/03/2024,Cool Cars,500.00',
    ',01/15/2024,Hicks Hardware,250.50',
    ',02/02/2024,Amy,"1,200.00"',
    'Total for Checking,,,"1,950.50"',
    'Savings,,,',
    ',01/10/2024,Transfer,"1,000.00"',
    ',03/10/2024,Interest,4.20',
    'Total for Savings,,,"1,004.20"',
    'TOTAL,,,"2,954.70"',
  ].join('\n');
  const file = join(dir, 'quickbooks.csv');
  writeFileSync(file, `${text}\n`);
  const db = database();
  const info = await attachSource(db, file, { scratchDir: join(dir, 'scratch-qb') });
  const labels = (await tableRows(db)).map((row) => row['Unnamed: 0'] ?? null);
  // The account's own row, its name alone, is a heading: left out, not a fourth Checking row.
  const filled = ['Checking', 'Checking', 'Checking', 'Total for Checking'];
  assert.deepEqual(labels, [...filled, 'Savings', 'Savings', 'Total for Savings', 'TOTAL']);
  assert.match(
    info.warnings[1] ?? '',
    /^left out 2 row\(s\) that hold only a group's label in "Unnamed: 0", above the group's rows, every other cell blank \(such as "Checking"\): a report's heading, not a record$/,
  );
  const [w, pandasLabels] = pandasRead<[string[], (string | null)[]]>(
    file,
    'print(json.dumps([w, [None if v != v else v for v in df["Unnamed: 0"]]]))',
  );
  assert.deepEqual([w, pandasLabels], [info.warnings, labels]);
  const texts = findingsAlike(file, 'quickbooks');
  // Checking's three transactions, of every transaction (the totals left out).
  assert.ok(
    texts.some((t) => t.startsWith('Checking accounts for 66.0% of Amount (1,950 of 2,955)')),
    texts.join('\n'),
  );
});

/** The DuckDB engine's findings for `file`, checked to be the pandas engine's word for word. */
function findingsAlike(file: string, name: string): string[] {
  type Summary = { insights: { text: string }[] };
  const [duck, pandas] = ['duckdb', 'pandas'].map((engine) =>
    analyzeJson<Summary>(file, engine, join(dir, `${name}-${engine}.html`)).insights.map(
      (i) => i.text,
    ),
  );
  assert.deepEqual(pandas, duck);
  return duck ?? [];
}
