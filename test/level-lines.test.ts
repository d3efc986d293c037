/**
 * A series (one row per period) whose lead measure adds up draws its first level over time too: a
 * share's daily prices beside its volume had given a report of volume only, the price never drawn
 * (agent/heuristic-planner.ts levelLine). Each point is the day's own value, in both engines. Its
 * prices, which move as one, get no scatter of one against another.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { reportFigures, seeded, tempDir } from './helpers/fixtures.js';
import { analyzeJson } from './helpers/semantics.js';

interface Summary {
  charts: { title: string; derivation: { measure: string | null; agg: string } }[];
  insights: { text: string }[];
}

/** Two years of a share's trading days: open, high, low, close, adjusted close and volume. */
function prices(dir: string): { file: string; closes: Map<string, number> } {
  const random = seeded(8);
  const lines = ['Date,Open,High,Low,Close,Adj Close,Volume'];
  const closes = new Map<string, number>();
  let close = 150;
  const day = new Date(Date.UTC(2022, 0, 3));
  while (day < new Date(Date.UTC(2024, 0, 1))) {
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) {
      const open = Math.round(close * (1 + (random() - 0.5) * 0.01) * 100) / 100;
      close = Math.round(close * (1 + (random() - 0.45) * 0.03) * 100) / 100;
      const [high, low] = [Math.max(open, close) * 1.004, Math.min(open, close) * 0.996];
      const date = day.toISOString().slice(0, 10);
      const volume = 20_000_000 + Math.floor(random() * 70_000_000);
      lines.push(
        `${date},${open},${high.toFixed(2)},${low.toFixed(2)},${close},${(close * 0.98).toFixed(6)},${volume}`,
      );
      closes.set(date, close);
    }
    day.setUTCDate(day.getUTCDate() + 1);
  }
  const file = join(dir, 'prices.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, closes };
}

void test("a share's daily prices: the close is drawn day by day beside the volume, in both engines", () => {
  const dir = tempDir();
  const { file, closes } = prices(dir);
  const [first, last] = [[...closes.values()][0] ?? NaN, [...closes.values()].at(-1) ?? NaN];
  for (const engine of ['duckdb', 'pandas']) {
    const out = join(dir, `${engine}.html`);
    const json = analyzeJson<Summary>(file, engine, out);
    const titles = json.charts.map((c) => c.title);
    assert.ok(titles.includes('Volume per month'), `${engine}: ${titles.join(' | ')}`);
    assert.ok(titles.includes('Close per day'), `${engine}: ${titles.join(' | ')}`);
    // Close and Adj Close (r = 1.00) are one measure twice: no scatter of a line.
    assert.ok(!titles.some((t) => / vs /.test(t)), `${engine}: ${titles.join(' | ')}`);
    const line = reportFigures(readFileSync(out, 'utf8')).get('Close per day')?.data[0];
    const drawn = new Map(
      (line?.x ?? []).map((x, i): [string, unknown] => [String(x).slice(0, 10), line?.y?.[i]]),
    );
    // Every trading day, and no weekend: the business calendar is the data's own.
    assert.deepEqual([...drawn.keys()], [...closes.keys()], engine);
    for (const [day, close] of closes) assert.equal(drawn.get(day), close, `${engine}: ${day}`);
    const growth = (100 * (last - first)) / first;
    const said = json.insights.find((i) => i.text.startsWith('Close grew'))?.text ?? '';
    assert.match(said, /^Close grew [\d.]+% from Jan 3, 2022 to Dec 29, 2023 \(/, engine);
    assert.ok(
      said.includes(`${growth.toFixed(0)}%`) || said.includes(`${growth.toPrecision(3)}%`),
      said,
    );
  }
});
