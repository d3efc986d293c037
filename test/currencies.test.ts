/**
 * Amounts in several currencies, as a payments export writes them (Stripe: `Amount` beside
 * `Currency` = usd, eur, jpy): added up, yen swamp dollars ("jpy accounts for 99.1% of Amount
 * Refunded"). Every chart of a money measure keeps the currency of most rows, in both engines, and
 * a model's plan that mixes currencies is told why.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { checkPlan } from '../src/agent/plan.js';
import type { Analysis } from '../src/agent/plan.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-currencies-');
after(() => rmSync(dir, { recursive: true, force: true }));

const CURRENCIES = ['usd', 'usd', 'eur', 'jpy', 'usd'];

/** Charges of two months; each status's total of the usd amounts, in cents. */
function charges(): { text: string; usd: Map<string, number> } {
  const usd = new Map<string, number>();
  const rows = Array.from({ length: 250 }, (_, i) => {
    const currency = CURRENCIES[(i * 3 + (i % 7)) % 5] ?? 'usd';
    const status = i % 4 === 3 ? 'Failed' : 'Paid';
    // Yen have no minor unit: a charge of 12,000 yen is about 80 dollars.
    const cents = 1000 + ((i * 7919) % 20000);
    const amount = currency === 'jpy' ? String(cents * 15) : (cents / 100).toFixed(2);
    if (currency === 'usd') usd.set(status, (usd.get(status) ?? 0) + cents);
    const at = new Date(Date.UTC(2024, 0, 1) + i * 6 * 3600e3).toISOString().slice(0, 16);
    return `ch_${String(i).padStart(5, '0')},${at.replace('T', ' ')},${amount},${currency},${status}`;
  });
  return { text: `id,Created (UTC),Amount,Currency,Status\n${rows.join('\n')}\n`, usd };
}

interface Report {
  report_path: string;
  charts: {
    title: string;
    derivation: {
      measure: string | null;
      group_by: string[];
      filter: { column: string; op: string; value: unknown }[] | null;
    } | null;
  }[];
  insights: { text: string }[];
}

void test('every chart of an amount in several currencies keeps the currency of most rows, in both engines', () => {
  const { text, usd } = charges();
  const path = join(dir, 'payments.csv');
  writeFileSync(path, text);
  const read = (engine: string) => analyzeJson<Report>(path, engine, join(dir, `${engine}.html`));
  const [duck, pandas] = [read('duckdb'), read('pandas')];
  const said = (j: Report) => [j.charts.map((c) => c.title), j.insights.map((i) => i.text)];
  assert.deepEqual(said(pandas), said(duck));
  const money = duck.charts.filter((c) => c.derivation?.measure === 'Amount');
  assert.ok(money.length >= 2, duck.charts.map((c) => c.title).join('\n'));
  for (const c of money) {
    assert.ok(
      c.derivation?.filter?.some(
        (f) => f.column === 'Currency' && f.op === '==' && f.value === 'usd',
      ),
      `${c.title}: ${JSON.stringify(c.derivation)}`,
    );
    assert.ok(!c.derivation?.group_by.includes('Currency'), c.title);
    assert.match(c.title, /\(usd\)$/);
  }
  const texts = duck.insights.map((i) => i.text);
  assert.ok(!texts.some((t) => /^(jpy|eur|usd) accounts for/.test(t)), texts.join('\n'));
  // The statuses' shares of the dollars alone, from the charges written here.
  const all = [...usd.values()].reduce((s, v) => s + v, 0);
  const paid = usd.get('Paid') ?? 0;
  const share = `Where Currency is usd: Paid accounts for ${((100 * paid) / all).toFixed(1)}% of Amount (${Math.round(paid / 100).toLocaleString('en-US')} of ${Math.round(all / 100).toLocaleString('en-US')})`;
  assert.ok(
    texts.some((t) => t.startsWith(share)),
    `${share}\n${texts.join('\n')}`,
  );
  const html = readFileSync(duck.report_path, 'utf8');
  assert.ok(
    html.includes(
      'Amount is in several currencies (Currency: usd, jpy, eur): every chart of it keeps usd, the currency of',
    ),
    'the note',
  );
});

void test("a model's plan that adds or compares amounts in different currencies is told why", async () => {
  const path = join(dir, 'plan.csv');
  writeFileSync(path, charges().text);
  const profile = await duckProfile(path);
  assert.deepEqual(profile.semantics.currency?.measures, ['Amount']);
  assert.equal(profile.semantics.currency?.main, 'usd');
  const bar = (by: string, filters?: Analysis['filters']): Analysis => ({
    title: `Amount by ${by}`,
    why: 'x',
    chart: 'bar',
    transform: { type: 'group', by, measure: 'Amount', agg: 'sum' },
    ...(filters ? { filters } : {}),
  });
  const problems = checkPlan(
    {
      notes: [],
      analyses: [
        bar('Currency'),
        bar('Status'),
        bar('Status', [{ column: 'Currency', op: '==', value: 'eur' }]),
        // Totals by currency as a table: each in its own currency, nothing compared.
        { ...bar('Currency'), chart: 'table' },
      ],
    },
    profile,
  );
  assert.equal(problems.length, 2, problems.join('\n'));
  assert.match(
    problems[0] ?? '',
    /"Amount" holds amounts in several currencies \(Currency: "usd", "jpy", "eur"\): grouping it by Currency compares amounts in different currencies/,
  );
  assert.match(
    problems[1] ?? '',
    /add the filter \{"column": "Currency", "op": "==", "value": "usd"\} \(one currency per analysis\)/,
  );
});

void test('totals asked by currency are a table, each in its own currency, in both engines', () => {
  const path = join(dir, 'asked.csv');
  writeFileSync(path, charges().text);
  for (const engine of ['duckdb', 'pandas']) {
    const json = analyzeJson<Report & { tables: { title: string }[] }>(
      path,
      engine,
      join(dir, `asked-${engine}.html`),
      ['-q', 'total amount by currency'],
    );
    assert.ok(
      json.tables.some((t) => t.title === 'total amount by currency'),
      `${engine}: ${JSON.stringify(json.tables)}`,
    );
    assert.ok(!json.charts.some((c) => c.derivation?.group_by.includes('Currency')), engine);
    assert.ok(!json.insights.some((i) => /^(jpy|eur|usd) accounts for/.test(i.text)), engine);
  }
});

void test('a quantity beside the amounts is no money: it is summed over every currency', async () => {
  const path = join(dir, 'units.csv');
  const text = charges()
    .text.split('\n')
    .map((l, i) => (l ? `${l},${i === 0 ? 'Qty' : 1 + (i % 3)}` : l))
    .join('\n');
  writeFileSync(path, text);
  assert.deepEqual((await duckProfile(path)).semantics.currency?.measures, ['Amount']);
});

void test('one currency, or codes that are no currencies, change nothing', async () => {
  const one = join(dir, 'one.csv');
  writeFileSync(one, charges().text.replace(/,(eur|jpy),/g, ',usd,'));
  assert.equal((await duckProfile(one)).semantics.currency, undefined);
  const countries = join(dir, 'countries.csv');
  writeFileSync(countries, charges().text.replace(/,usd,/g, ',USA,').replace(/,eur,/g, ',FRA,'));
  assert.equal((await duckProfile(countries)).semantics.currency, undefined);
});

void test('an amount zero on most rows does not lead the one most rows hold', () => {
  // Refunds beside the payments: a refund's spread is larger, and it led ("Amount Refunded per day").
  const rows = Array.from({ length: 200 }, (_, i) => {
    const amount = 10 + ((i * 7919) % 300);
    const at = new Date(Date.UTC(2024, 0, 1) + i * 8 * 3600e3).toISOString().slice(0, 10);
    return `${at},${amount}.50,${i % 9 === 4 ? `${amount}.50` : '0'},${['Paid', 'Failed'][i % 2]}`;
  });
  const path = join(dir, 'refunds.csv');
  writeFileSync(path, `Created,Amount,Amount Refunded,Status\n${rows.join('\n')}\n`);
  const json = analyzeJson<Report>(path, 'duckdb', join(dir, 'refunds.html'));
  assert.equal(json.charts[0]?.derivation?.measure, 'Amount', JSON.stringify(json.charts[0]));
  assert.ok(
    json.charts.some((c) => c.title === 'Amount by Status'),
    json.charts.map((c) => c.title).join('\n'),
  );
});
