/**
 * Quotient columns (agent/semantics-quotients.ts): a column that is one column divided by another
 * on every row — an ad report's CTR (Clicks ÷ Impr. × 100) and cost per conversion (Cost ÷
 * Conversions) — is compared across groups and periods as the quotient of their totals. The mean
 * of the rows' quotients weighs a day of 300 impressions as much as a day of 200,000, and a day
 * without conversions (written 0.00) pulls a campaign's cost per conversion down: it had ranked
 * the campaigns in another order than their real cost per conversion.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { reportFigures, ROOT, seeded, tempDir } from './helpers/fixtures.js';
import type { ReportFigure } from './helpers/fixtures.js';
import { profileText } from '../src/agent/profile-text.js';
import { decimalsOf, quotientHolds } from '../src/agent/semantics-quotients.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';

interface Summary {
  charts: {
    title: string;
    derivation: { measure: string | null; agg: string; quotient?: string };
  }[];
  insights: { text: string }[];
}

interface Row {
  day: string;
  campaign: string;
  impressions: number;
  clicks: number;
  cost: number;
  conversions: number;
}

const CAMPAIGNS = ['Brand', 'Generic', 'Remarketing', 'Competitors', 'Display'];

/** Ninety days of five campaigns; Display's days hold far more impressions at a far lower CTR. */
function adRows(): Row[] {
  const random = seeded(11);
  const rows: Row[] = [];
  for (let d = 0; d < 90; d++) {
    const day = new Date(Date.UTC(2024, 0, 1 + d)).toISOString().slice(0, 10);
    for (const campaign of CAMPAIGNS) {
      const display = campaign === 'Display';
      const impressions = Math.round(
        display ? 50_000 + random() * 150_000 : 200 + random() * 20_000,
      );
      const ctr =
        campaign === 'Brand'
          ? 0.05 + random() * 0.07
          : display
            ? 0.0005 + random() * 0.0015
            : 0.002 + random() * 0.028;
      const clicks = Math.max(1, Math.floor(impressions * ctr));
      const cost = Math.round(clicks * (0.3 + random() * 2.2) * 100) / 100;
      // Every fifth day, Remarketing converts once: that day's cost per conversion is its cost.
      const conversions =
        campaign === 'Remarketing' && d % 5 === 0 ? 1 : Math.floor(clicks * random() * 0.08);
      rows.push({ day, campaign, impressions, clicks, cost, conversions });
    }
  }
  return rows;
}

/** The report as Google Ads writes it: CTR in percent, the quotients to two decimals, 0.00 without conversions. */
function adReport(dir: string, rows: readonly Row[], separated = false): string {
  const lines = ['Day,Campaign,Impr.,Clicks,CTR,Avg. CPC,Cost,Conversions,Cost / conv.'];
  for (const r of rows)
    lines.push(
      [
        r.day,
        r.campaign,
        r.impressions,
        r.clicks,
        `${((r.clicks / r.impressions) * 100).toFixed(2)}%`,
        (r.cost / r.clicks).toFixed(2),
        // Dollars with thousands separators, quoted ("$1,234.56"): a number stored as text.
        separated
          ? `"$${r.cost.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"`
          : r.cost.toFixed(2),
        r.conversions,
        (r.conversions ? r.cost / r.conversions : 0).toFixed(2),
      ].join(','),
    );
  const file = join(dir, 'campaigns.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Each campaign's value: `of` its rows (the quotient of their totals, or any other reduction). */
function perCampaign(rows: readonly Row[], of: (rows: Row[]) => number): Map<string, number> {
  return new Map(CAMPAIGNS.map((c) => [c, of(rows.filter((r) => r.campaign === c))]));
}

const total = (rows: readonly Row[], key: keyof Omit<Row, 'day' | 'campaign'>): number =>
  rows.reduce((s, r) => s + r[key], 0);

/** The campaign with the largest value, and the one with the smallest. */
function ends(values: Map<string, number>): [string, string] {
  const sorted = [...values].sort((a, b) => b[1] - a[1]);
  return [sorted[0]?.[0] ?? '', sorted.at(-1)?.[0] ?? ''];
}

/** A bar figure's values by category. */
function bars(html: string, title: string): Map<string, number> {
  const fig = reportFigures(html).get(title);
  assert.ok(fig, `no figure "${title}": ${[...reportFigures(html).keys()].join(' | ')}`);
  const trace = fig.data[0];
  return new Map((trace?.x ?? []).map((x, i) => [String(x), Number(trace?.y?.[i])]));
}

function assertClose(actual: Map<string, number>, expected: Map<string, number>, what: string) {
  assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), what);
  for (const [k, v] of expected)
    assert.ok(
      Math.abs((actual.get(k) ?? NaN) - v) <= 1e-9 * Math.abs(v),
      `${what}: ${k} drawn ${actual.get(k)}, expected ${v}`,
    );
}

void test('cost per conversion by campaign is each campaign’s cost ÷ its conversions, in both engines, not the mean of its days', () => {
  const dir = tempDir();
  const rows = adRows();
  const file = adReport(dir, rows);
  const written = (r: Row) => Number((r.conversions ? r.cost / r.conversions : 0).toFixed(2));
  const ofTotals = perCampaign(rows, (rs) => total(rs, 'cost') / total(rs, 'conversions'));
  const meanOfDays = perCampaign(rows, (rs) => rs.reduce((s, r) => s + written(r), 0) / rs.length);
  // The data tells the two apart: the mean of the days ranks another campaign highest.
  assert.notEqual(ends(meanOfDays)[0], ends(ofTotals)[0]);
  const [high, low] = ends(ofTotals);
  const said = (v: number) => String(Number(v.toPrecision(3)));
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    const chart = json.charts.find((c) => c.title === 'Cost / conv. by Campaign');
    assert.ok(chart, `${engine}: ${json.charts.map((c) => c.title).join(' | ')}`);
    assert.equal(chart.derivation.quotient, 'Cost ÷ Conversions', engine);
    const html = readFileSync(out, 'utf8');
    assertClose(bars(html, 'Cost / conv. by Campaign'), ofTotals, engine);
    const texts = json.insights.map((i) => i.text);
    assert.ok(
      texts.includes(
        `${high} has the highest Cost / conv. (${said(ofTotals.get(high) ?? 0)}); ${low} the lowest (${said(ofTotals.get(low) ?? 0)}), ${((ofTotals.get(high) ?? 0) / (ofTotals.get(low) ?? 1)).toFixed(1)}× apart.`,
      ),
      `${engine}:\n${texts.join('\n')}`,
    );
    // The caption and the note say how: of the totals, not a mean.
    assert.match(html, /Cost \/ conv\. as Cost ÷ Conversions of the totals by Campaign/, engine);
    assert.match(html, /Cost \/ conv\. per Campaign is Cost ÷ Conversions of its totals/, engine);
  }
});

void test('a question about CTR by campaign is answered with each campaign’s clicks ÷ impressions, in percent, in both engines', () => {
  const dir = tempDir();
  const rows = adRows();
  const file = adReport(dir, rows);
  const ctr = perCampaign(rows, (rs) => (100 * total(rs, 'clicks')) / total(rs, 'impressions'));
  const [high, low] = ends(ctr);
  const question = 'Which campaign has the highest CTR?';
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out, ['-q', question]);
    assertClose(bars(readFileSync(out, 'utf8'), question), ctr, engine);
    const first = json.insights[0]?.text ?? '';
    assert.match(first, new RegExp(`^${high} has the highest CTR \\(`), `${engine}: ${first}`);
    assert.match(first, new RegExp(`; ${low} the lowest \\(`), `${engine}: ${first}`);
    assert.ok(!/mean CTR/.test(first), `${engine}: ${first}`);
  }
});

void test('CTR per month per campaign is each month’s clicks ÷ impressions, in both engines', () => {
  const dir = tempDir();
  const rows = adRows();
  const file = adReport(dir, rows);
  const question = 'How did CTR change month by month for each campaign?';
  const expected = new Map<string, number[]>();
  for (const campaign of CAMPAIGNS)
    expected.set(
      campaign,
      ['2024-01', '2024-02', '2024-03'].map((month) => {
        const rs = rows.filter((r) => r.campaign === campaign && r.day.startsWith(month));
        return (100 * total(rs, 'clicks')) / total(rs, 'impressions');
      }),
    );
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out, ['-q', question]);
    const chart = json.charts[0];
    assert.equal(chart?.derivation.quotient, 'Clicks ÷ Impr. × 100', `${engine}: ${chart?.title}`);
    const fig = reportFigures(readFileSync(out, 'utf8')).get(chart?.title ?? '');
    assert.ok(fig, engine);
    for (const [campaign, values] of expected) {
      const line: ReportFigure['data'][number] | undefined = fig.data.find(
        (d) => d.name === campaign,
      );
      assert.ok(line, `${engine}: no line ${campaign}`);
      assert.deepEqual(
        (line.y ?? []).map((v) => Number(v).toFixed(9)),
        values.map((v) => v.toFixed(9)),
        `${engine}: ${campaign}`,
      );
    }
    assert.ok(!json.insights.some((i) => /[Mm]ean CTR/.test(i.text)), engine);
  }
});

void test('quotients are found from the values: a price is revenue ÷ units, the units are not revenue ÷ price, and noise is none', async () => {
  const sales = await duckProfile(join(ROOT, 'examples', 'sales.csv'));
  assert.deepEqual(sales.semantics.quotients, [
    { column: 'unit_price', numerator: 'revenue', denominator: 'units', scale: 1 },
  ]);
  const dir = tempDir();
  const random = seeded(5);
  const lines = ['shop,a,b,c,n,d,rounded'];
  for (let i = 0; i < 300; i++) {
    const [a, b] = [1 + Math.floor(random() * 500), 1 + Math.floor(random() * 500)];
    const c = Math.round(random() * 10_000) / 100;
    // n ÷ d rounded to a whole number between 1 and 15: within half a unit of n ÷ d on every row,
    // as any column of whole numbers near it would be; too few units apart to tell.
    const d = 10 + Math.floor(random() * 90);
    const n = Math.round(d * (1 + random() * 14));
    lines.push(`s${i % 7},${a},${b},${c},${n},${d},${Math.round(n / d)}`);
  }
  const file = join(dir, 'noise.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const noise = await duckProfile(file);
  assert.equal(noise.semantics.quotients, undefined);
});

void test('a quotient named as an amount is a level, and the profile a model reads says how to aggregate it', async () => {
  const dir = tempDir();
  const random = seeded(9);
  const lines = ['shop,units,total,amount'];
  for (let i = 0; i < 200; i++) {
    const units = 1 + Math.floor(random() * 40);
    const total = Math.round(units * (2 + random() * 30) * 100) / 100;
    lines.push(`s${i % 6},${units},${total.toFixed(2)},${(total / units).toFixed(2)}`);
  }
  const file = join(dir, 'shops.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const profile = await duckProfile(file);
  assert.deepEqual(profile.semantics.quotients, [
    { column: 'amount', numerator: 'total', denominator: 'units', scale: 1 },
  ]);
  const role = profile.semantics.columns.find((c) => c.name === 'amount');
  assert.equal(role?.role, 'level');
  assert.match(role?.evidence ?? '', /^amount = total ÷ units on every row/);
  assert.match(
    profileText(profile),
    /Quotient: amount = total ÷ units on every row; plan agg "mean" of it/,
  );
});

void test('a quotient holds within half a unit of its last decimal: 8.42% for 8.4199…%, not 8.45%', () => {
  assert.equal(decimalsOf([1, 2, null]), 0);
  assert.equal(decimalsOf([8.42, 0.1, 3]), 2);
  assert.equal(decimalsOf([1 / 3]), null);
  assert.ok(quotientHolds(8.42, 2119, 25167, 100, 2));
  assert.ok(!quotientHolds(8.45, 2119, 25167, 100, 2));
  // Within 0.1% besides (parts rounded before the quotient was computed); written in full, only that.
  assert.ok(quotientHolds(2119 / 25167, 2119, 25167, 1, null));
  assert.ok(!quotientHolds(0.0845, 2119, 25167, 1, null));
});

void test('which weekday has the highest CTR: each weekday’s clicks ÷ impressions over every campaign, in both engines', () => {
  const dir = tempDir();
  const rows = adRows();
  const file = adReport(dir, rows);
  const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const ctr = new Map<string, number>();
  for (const [i, day] of DAYS.entries()) {
    const rs = rows.filter((r) => new Date(`${r.day}T00:00:00Z`).getUTCDay() === i);
    ctr.set(day, (100 * total(rs, 'clicks')) / total(rs, 'impressions'));
  }
  const question = 'Which weekday has the highest CTR?';
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out, ['-q', question]);
    const html = readFileSync(out, 'utf8');
    assertClose(bars(html, question), ctr, engine);
    assert.equal(json.charts[0]?.derivation.quotient, 'Clicks ÷ Impr. × 100', engine);
    assert.match(html, /CTR as Clicks ÷ Impr\. × 100 of the totals by weekday of Day/, engine);
    const [high] = ends(ctr);
    assert.match(json.insights[0]?.text ?? '', new RegExp(`^${high} has the highest CTR \\(`));
  }
});

void test('which weekday has the highest cost is answered by weekday, not by the first category', () => {
  const dir = tempDir();
  const file = adReport(dir, adRows());
  const json = analyzeJson<Summary & { charts: { derivation: { cycle?: string } }[] }>(
    file,
    'duckdb',
    join(dir, 'report.html'),
    ['-q', 'Which weekday has the highest Cost?'],
  );
  assert.equal(json.charts[0]?.derivation.cycle, 'weekday', json.charts[0]?.title);
  assert.match(json.insights[0]?.text ?? '', /has the highest average daily Cost/);
});

void test('a cost written in dollars ("$1,234.56") is a quotient’s part all the same, in both engines', () => {
  const dir = tempDir();
  const rows = adRows();
  assert.ok(rows.some((r) => r.cost >= 1000));
  const file = adReport(dir, rows, true);
  const ofTotals = perCampaign(rows, (rs) => total(rs, 'cost') / total(rs, 'conversions'));
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    const chart = json.charts.find((c) => c.title === 'Cost / conv. by Campaign');
    assert.equal(
      chart?.derivation.quotient,
      'Cost ÷ Conversions',
      `${engine}: ${json.charts.map((c) => c.title).join(' | ')}`,
    );
    assertClose(bars(readFileSync(out, 'utf8'), 'Cost / conv. by Campaign'), ofTotals, engine);
  }
});
