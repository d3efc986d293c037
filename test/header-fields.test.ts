/**
 * An order's fields on its first row, its line items on the rows below with those fields blank,
 * as Shopify exports orders: the order's total is counted once when summed, but split by a line
 * item's column it went to the first line's product alone ("Mug accounts for 31.1% of Total",
 * where the orders' totals hold every product). Both engines find such fields (TableFacts.repeated
 * with `once`) and split them only by what holds one value per order.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { checkPlan } from '../src/agent/plan.js';
import type { Analysis } from '../src/agent/plan.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-header-');
after(() => rmSync(dir, { recursive: true, force: true }));

const PRODUCTS = ['Mug', 'Tee', 'Cap', 'Poster'];
const PRICES = [9.5, 25, 18, 12];
const COUNTRIES = ['US', 'CA', 'GB', 'DE'];

/** A Shopify-like export of 240 orders of 1 to 3 lines; each country's total of the orders' totals. */
function shopify(sparse = false): {
  text: string;
  byCountry: Map<string, number>;
  units: Map<string, number>;
} {
  const header =
    'Name,Email,Financial Status,Created at,Subtotal,Shipping,Total,Lineitem quantity,Lineitem name,Lineitem price,Discount,Shipping Country';
  const lines: string[] = [];
  const byCountry = new Map<string, number>();
  const units = new Map<string, number>();
  for (let o = 0; o < 240; o += 1) {
    const items = Array.from({ length: 1 + ((o * 7) % 3) }, (_, k) => {
      const p = (o + 3 * k + (o % 5)) % 4;
      return {
        quantity: 1 + ((o + k + 2 * p) % 4),
        name: PRODUCTS[p] ?? '',
        price: PRICES[p] ?? 0,
      };
    });
    const subtotal = items.reduce((s, i) => s + i.quantity * i.price, 0);
    const shipping = o % 4 === 0 ? 0 : 4.5 + (o % 3);
    const country = COUNTRIES[(o * 5 + (o % 7)) % 4] ?? '';
    byCountry.set(country, (byCountry.get(country) ?? 0) + subtotal + shipping);
    const day = new Date(Date.UTC(2024, 2, 1) + o * 11 * 3600e3);
    const at = `${day.toISOString().slice(0, 19).replace('T', ' ')} -0500`;
    items.forEach((item, k) => {
      units.set(item.name, (units.get(item.name) ?? 0) + item.quantity);
      // A discount on some line of some orders, not on the first alone: a line's own field.
      const discount = sparse && o % 3 === 1 && k === items.length - 1 ? '2.5' : '';
      const line = `${item.quantity},${item.name},${item.price},${discount}`;
      lines.push(
        k === 0
          ? `#${1001 + o},c${o}@example.com,paid,${at},${subtotal},${shipping},${subtotal + shipping},${line},${country}`
          : `#${1001 + o},c${o}@example.com,,,,,,${line},`,
      );
    });
  }
  return { text: `${header}\n${lines.join('\n')}\n`, byCountry, units };
}

type Json = {
  charts: {
    title: string;
    derivation: { measure: string | null; group_by: string[]; against?: string } | null;
  }[];
  insights: { text: string }[];
  warnings: string[];
};

const ORDER_FIELDS = new Set(['Subtotal', 'Shipping', 'Total']);

void test("an order's total is split by its country, never by its first line's product, in both engines", () => {
  const { text, byCountry, units } = shopify();
  const path = join(dir, 'orders_export.csv');
  writeFileSync(path, text);
  const read = (engine: string) => analyzeJson<Json>(path, engine, join(dir, `${engine}.html`));
  const [duck, pandas] = [read('duckdb'), read('pandas')];
  const said = (j: Json) => ({
    charts: j.charts.map((c) => [c.title, c.derivation?.measure, c.derivation?.group_by]),
    insights: j.insights.map((i) => i.text),
  });
  assert.deepEqual(said(pandas), said(duck));
  for (const c of duck.charts) {
    const d = c.derivation;
    if (!d?.measure || !ORDER_FIELDS.has(d.measure)) continue;
    assert.ok(!d.group_by.includes('Lineitem name'), `${c.title}: ${JSON.stringify(d)}`);
  }
  assert.ok(
    duck.charts.some((c) => c.title === 'Total by Shipping Country'),
    duck.charts.map((c) => c.title).join('\n'),
  );
  // The country's share, from the orders' totals computed here.
  const [top, value] = [...byCountry].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const all = [...byCountry.values()].reduce((s, v) => s + v, 0);
  const share = `${top} accounts for ${((100 * value) / all).toFixed(1)}% of Total (${Math.round(value).toLocaleString('en-US')} of ${Math.round(all).toLocaleString('en-US')})`;
  assert.ok(
    duck.insights.some((i) => i.text.startsWith(share)),
    `${share}\n${duck.insights.map((i) => i.text).join('\n')}`,
  );
  assert.ok(
    !duck.insights.some((i) => /^(Mug|Tee|Cap|Poster) accounts for .* of Total/.test(i.text)),
  );
  // The products compared by their own rows: the units each line item sells.
  const [product, sold] = [...units].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const allUnits = [...units.values()].reduce((s, v) => s + v, 0);
  const unitShare = `${product} accounts for ${((100 * sold) / allUnits).toFixed(1)}% of Lineitem quantity (${sold.toLocaleString('en-US')} of ${allUnits.toLocaleString('en-US')})`;
  assert.ok(
    duck.insights.some((i) => i.text.startsWith(unitShare)),
    `${unitShare}\n${duck.insights.map((i) => i.text).join('\n')}`,
  );
});

/** The measure an analysis splits, and the column it splits it by (bars, boxes, lines, colours). */
function splitOf(a: Analysis): [string | null | undefined, string | null | undefined] {
  const t = a.transform;
  if (t.type === 'group') return [t.measure, t.by];
  if (t.type === 'distribution') return [t.column, t.by];
  if (t.type === 'resample') return [t.measure, t.series];
  if (t.type === 'relationship') return [t.y, t.color];
  return [null, null];
}

void test('the facts: the order fields written once per order, what holds one value per order, and a model told why', async () => {
  const path = join(dir, 'facts.csv');
  writeFileSync(path, shopify(true).text);
  const profile = await duckProfile(path);
  const once = (profile.semantics.repeated ?? []).filter((r) => r.once);
  assert.deepEqual(
    once.filter((r) => r.entity === 'Name').map((r) => r.measure),
    ['Subtotal', 'Shipping', 'Total'],
    JSON.stringify(profile.semantics.repeated),
  );
  assert.ok(once[0]?.within.includes('Shipping Country'), JSON.stringify(once[0]));
  assert.ok(!once[0]?.within.includes('Lineitem name'), JSON.stringify(once[0]));
  // A line's own sparse field (a discount on the last line of some orders) is not an order's.
  assert.ok(!once.some((r) => r.measure === 'Discount'), JSON.stringify(once));
  // Summed over rows, each order's total counts once: it stays an amount.
  assert.equal(profile.semantics.columns.find((c) => c.name === 'Total')?.role, 'amount');
  const bar = (by: string): Analysis => ({
    title: `Total by ${by}`,
    why: 'x',
    chart: 'bar',
    transform: { type: 'group', by, measure: 'Total', agg: 'sum' },
  });
  const line: Analysis = {
    title: 'Total per week by product',
    why: 'x',
    chart: 'line',
    transform: {
      type: 'resample',
      date: 'Created at',
      measure: 'Total',
      agg: 'sum',
      freq: 'W',
      series: 'Lineitem name',
    },
  };
  const problems = checkPlan(
    { notes: [], analyses: [bar('Lineitem name'), bar('Shipping Country'), line] },
    profile,
  );
  assert.equal(problems.length, 2, problems.join('\n'));
  for (const p of problems)
    assert.match(
      p,
      /"Total" is one value per Name, on the first of its rows \(the others blank\), and "Lineitem name" varies within each Name: each Name's value would go to its first row's Lineitem name alone; group it by "Name" or "Shipping Country"/,
    );
  for (const a of heuristicPlan(profile).analyses) {
    const [measure, split] = splitOf(a);
    if (measure && ORDER_FIELDS.has(measure)) assert.notEqual(split, 'Lineitem name', a.title);
  }
});

void test('rows that all hold their own values are no header: a table with blanks in no pattern', async () => {
  // Each store's sales on every row; a blank now and then, on any row of a store.
  const rows = Array.from({ length: 90 }, (_, i) => {
    const blank = i % 7 === 3;
    return `S${i % 6},${['A', 'B', 'C'][i % 3]},${blank ? '' : 10 + ((i * 13) % 40)}`;
  });
  const path = join(dir, 'blanks.csv');
  writeFileSync(path, `store,kind,sales\n${rows.join('\n')}\n`);
  const profile = await duckProfile(path);
  assert.ok(
    !(profile.semantics.repeated ?? []).some((r) => r.once),
    JSON.stringify(profile.semantics.repeated),
  );
});
