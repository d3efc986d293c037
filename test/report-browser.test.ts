/** Reports opened in a real headless Chromium: every chart draws, nothing errors, nothing is fetched. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findChromium, renderReport } from './helpers/browser.js';
import { runCli, salesCsv, tempDir } from './helpers/fixtures.js';

const ALL_KINDS = `
print("Every kind, one report.")
declare_chart("bar", x="region", y="revenue", sort="descending", title="Bar")
declare_chart("line", x="date", y="revenue", color="channel", title="Line")
declare_table(df.head(20), title="First rows")
declare_chart("area", x="date", y="revenue", color="channel", title="Area")
declare_chart("scatter", x="price", y="units", trendline=True, title="Scatter")
declare_chart("histogram", x="revenue", title="Histogram")
declare_chart("box", y="rating", x="region", title="Box")
declare_chart("pie", names="region", values="revenue", title="Pie")
declare_chart("heatmap", df[["units", "price", "revenue", "rating"]].corr(), title="Heatmap")
declare_chart("bar", x="region", y="revenue", titel="Broken on purpose")
`;

void test(
  'a report with every kind renders every chart in Chromium with no console errors',
  { skip: findChromium() ? false : 'no Chromium installed' },
  async () => {
    const dir = tempDir();
    const script = join(dir, 'all.py');
    writeFileSync(script, ALL_KINDS);
    const out = join(dir, 'all.html');
    const r = runCli(['run', script, '--data', salesCsv(dir), '-o', out, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as { charts: unknown[]; tables: unknown[] };
    assert.equal(summary.charts.length, 8);
    const spec = (
      JSON.parse(readFileSync(join(dir, 'all.json'), 'utf8')) as { spec: { charts: unknown[] } }
    ).spec;
    assert.equal(spec.charts.length, 9, 'the broken chart is in the spec but not rendered');
    const seen = await renderReport(out, { timeoutMs: 60_000 });
    assert.equal(seen.expectedCharts, summary.charts.length);
    assert.equal(seen.plotCount, summary.charts.length);
    assert.equal(seen.tableCount, 1);
    assert.deepEqual(seen.consoleErrors, []);
    assert.deepEqual(seen.failedRequests, [], 'a self-contained report fetches nothing');
    assert.equal(seen.title, 'all.py on sales.csv');
  },
);

void test(
  'the shipped example script: --json summary, report file, and every chart drawn in Chromium',
  { skip: findChromium() ? false : 'no Chromium installed' },
  async () => {
    const dir = tempDir();
    const out = join(dir, 'sales-report.html');
    const r = runCli([
      'run',
      'examples/sales-report.py',
      '--data',
      'examples/sales.csv',
      '-o',
      out,
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout) as {
      charts: { kind: string }[];
      tables: unknown[];
      output: string;
      warnings: string[];
      report_path: string;
    };
    assert.equal(summary.report_path, out);
    assert.deepEqual(summary.warnings, []);
    assert.ok(summary.charts.length >= 6, `${summary.charts.length} charts`);
    assert.ok(summary.tables.length >= 1);
    assert.match(summary.output, /Total revenue/);
    const seen = await renderReport(out, { timeoutMs: 60_000 });
    assert.equal(seen.plotCount, summary.charts.length);
    assert.deepEqual(seen.consoleErrors, []);
  },
);
