/**
 * An ad platform's campaign report (Google Ads: `Impr.`, `Clicks`, `CTR`, `Avg. CPC`, `Cost`,
 * `Conversions`, `Cost / conv.`, `Conv. rate`). A column named as a quotient (`Cost / conv.`:
 * cost per conversion) is a value per unit, averaged and never summed: summed, it led the report
 * with "Remarketing accounts for 53.3% of Cost / conv.". An abbreviated count (`Impr.`) adds up.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { nameWords } from '../src/agent/semantics-evidence.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

interface Summary {
  columns: { name: string; role: string }[];
  charts: { title: string; derivation: { measure: string | null; agg: string } }[];
  insights: { text: string }[];
}

const CAMPAIGNS = ['Brand - Exact', 'Generic - Broad', 'Competitors', 'Remarketing'];

/** Sixty days of four campaigns, as the report writes them, under its two title lines. */
function campaignReport(dir: string): string {
  const lines = [
    'Campaign report',
    'September 1, 2024 - October 30, 2024',
    'Day,Campaign,Impr.,Clicks,CTR,Avg. CPC,Cost,Conversions,Cost / conv.,Conv. rate',
  ];
  for (let d = 0; d < 60; d++) {
    const day = new Date(Date.UTC(2024, 8, 1 + d)).toISOString().slice(0, 10);
    CAMPAIGNS.forEach((campaign, c) => {
      const impressions = 800 + ((d * 977 + c * 313) % 15_000);
      const clicks = Math.max(5, Math.round(impressions * (0.01 + ((d + c) % 7) / 100)));
      const cost = clicks * (0.4 + ((d * 3 + c) % 20) / 10);
      // A remarketing day with a single conversion costs thousands per conversion.
      const conversions = c === 3 && d % 9 === 0 ? 0.5 : 1 + ((d * 5 + c) % 40);
      lines.push(
        [
          day,
          campaign,
          `"${impressions.toLocaleString('en-US')}"`,
          clicks,
          `${((clicks / impressions) * 100).toFixed(2)}%`,
          (cost / clicks).toFixed(2),
          `"${cost.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}"`,
          conversions,
          (cost / conversions).toFixed(2),
          `${((conversions / clicks) * 100).toFixed(2)}%`,
        ].join(','),
      );
    });
  }
  const file = join(dir, 'campaigns.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

void test('a slash between words reads "per"; not between the sides of an account or in a fiscal year', () => {
  assert.deepEqual(nameWords('Cost / conv.'), ['cost', 'per', 'conv']);
  assert.deepEqual(nameWords('Revenue/User'), ['revenue', 'per', 'user']);
  assert.deepEqual(nameWords('Profit/Loss'), ['profit', 'loss']);
  assert.deepEqual(nameWords('Sales 2023/24'), ['sales', '2023', '24']);
  assert.deepEqual(nameWords('In/Out'), ['in', 'out']);
});

void test('a campaign report: cost per conversion is averaged, never summed, and impressions add up, in both engines', () => {
  const dir = tempDir();
  const file = campaignReport(dir);
  for (const engine of ['duckdb', 'pandas']) {
    const json = analyzeJson<Summary>(file, engine, join(dir, `${engine}.html`));
    const role = (name: string) => json.columns.find((c) => c.name === name)?.role;
    assert.equal(role('Cost / conv.'), 'level', engine);
    assert.equal(role('Impr.'), 'count', engine);
    assert.equal(role('Cost'), 'amount', engine);
    for (const chart of json.charts)
      if (chart.derivation.measure === 'Cost / conv.')
        assert.notEqual(chart.derivation.agg, 'sum', `${engine}: ${chart.title}`);
    const texts = json.insights.map((i) => i.text);
    assert.ok(!texts.some((t) => /accounts for .* of Cost \/ conv\./.test(t)), texts.join('\n'));
    // The report leads with what the campaigns spent.
    assert.equal(json.charts[0]?.derivation.measure, 'Cost', engine);
  }
});
