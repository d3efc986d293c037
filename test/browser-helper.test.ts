import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { findChromium, renderReport } from './helpers/browser.js';

const require = createRequire(import.meta.url);
const plotlyJs = fs.readFileSync(require.resolve('plotly.js-dist-min'), 'utf8');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsmind-browser-'));
const skip = findChromium() ? false : 'no Chromium available';

/** Builds a self-contained report page: inline Plotly, a bar + scatter chart, one table. */
function reportHtml(extraScript = ''): string {
  // Escape "</" so the inlined bundle cannot close its <script> tag early.
  const inline = (js: string): string => `<script>${js.replace(/<\//g, '<\\/')}</script>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Test Report</title>
${inline(plotlyJs)}</head><body>
<div data-chart-id="c1"><div class="plotly-chart" id="plot-c1"></div></div>
<div data-chart-id="c2"><div class="plotly-chart" id="plot-c2"></div></div>
<div data-table-id="t1"><table><thead><tr><th>a</th><th>b</th></tr></thead>
<tbody><tr><td>1</td><td>2</td></tr></tbody></table></div>
${inline(`
Plotly.newPlot('plot-c1', [{type:'bar', x:['a','b','c'], y:[3,1,2]}], {title:{text:'Bar'}}, {responsive:true, displaylogo:false});
Plotly.newPlot('plot-c2', [{type:'scatter', mode:'lines+markers', x:[1,2,3], y:[2,4,3]}], {title:{text:'Scatter'}}, {responsive:true, displaylogo:false});
${extraScript}`)}
</body></html>`;
}

function writeReport(name: string, html: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, html);
  return file;
}

void test('renders a self-contained report with two charts and a table', { skip }, async () => {
  const file = writeReport('ok.html', reportHtml());
  const t0 = performance.now();
  const r = await renderReport(file, { screenshotPath: path.join(tmp, 'ok.png') });
  console.log(`renderReport took ${Math.round(performance.now() - t0)} ms`);
  assert.equal(r.title, 'Test Report');
  assert.equal(r.expectedCharts, 2);
  assert.equal(r.plotCount, 2);
  assert.equal(r.tableCount, 1);
  assert.deepEqual(r.consoleErrors, []);
  assert.deepEqual(r.failedRequests, []);
  assert.ok(fs.statSync(path.join(tmp, 'ok.png')).size > 0);
});

void test('reports uncaught script errors', { skip }, async () => {
  const file = writeReport('throws.html', reportHtml("throw new Error('boom from report');"));
  const r = await renderReport(file, { timeoutMs: 10_000 });
  assert.ok(r.consoleErrors.length > 0, 'expected a console/page error');
  assert.ok(
    r.consoleErrors.some((m) => m.includes('boom from report')),
    r.consoleErrors.join('\n'),
  );
});

void test('records network requests a report attempts', { skip }, async () => {
  const html = reportHtml().replace('</body>', '<img src="http://example.invalid/x.png"></body>');
  const r = await renderReport(writeReport('net.html', html), { timeoutMs: 10_000 });
  assert.deepEqual(r.failedRequests, ['http://example.invalid/x.png']);
});

test.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
