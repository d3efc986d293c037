/**
 * Category values and column names are data, not markup: in a real headless
 * Chromium, a category `<a href=…>` never becomes a link in tick labels,
 * legends, hover labels, slice labels or titles, a column named
 * `<span style="font-size:90px">` never changes a font, and both show
 * literally. HTML tables escape them too.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { escapeFigureText, plotlyText } from '../renderers/plotly-text.js';
import { findChromium } from './helpers/browser.js';
import { runCli, tempDir } from './helpers/fixtures.js';

const LINK = '<a href="https://example.com/x">click</a>';
const BIG = '<span style="font-size:90px">big</span>';

void test('escapeFigureText escapes every string but templates, without touching the figure it got', () => {
  const figure = {
    data: [
      {
        type: 'bar',
        name: LINK,
        x: [LINK, 'A&B', 3],
        hovertemplate: '%{x}<extra>%{fullData.name}</extra>',
        marker: { color: '#123' },
      },
    ],
    layout: {
      title: { text: '<b>t</b>', subtitle: { text: BIG } },
      xaxis: { title: { text: BIG } },
      annotations: [{ text: LINK }],
    },
  };
  const escaped = escapeFigureText(figure);
  const trace = escaped.data[0] ?? {};
  assert.equal(trace.name, plotlyText(LINK));
  assert.deepEqual(trace.x, [plotlyText(LINK), 'A&amp;B', 3]);
  assert.equal(
    trace.hovertemplate,
    '%{x}<extra>%{fullData.name}</extra>',
    "templates are the renderer's own markup",
  );
  assert.deepEqual(escaped.layout, {
    title: { text: '&lt;b&gt;t&lt;/b&gt;', subtitle: { text: plotlyText(BIG) } },
    xaxis: { title: { text: plotlyText(BIG) } },
    annotations: [{ text: plotlyText(LINK) }],
  });
  assert.equal(figure.data[0]?.name, LINK, 'the input is not mutated');
});

const SCRIPT = `
big = df.columns[2]
declare_chart("bar", x="cat", y=big, color="grp", title='Bar ${LINK}', subtitle='${BIG}')
declare_chart("pie", names="cat", values=big, title="Pie")
declare_chart("box", y=big, x="cat", title="Box")
declare_chart("heatmap", x="cat", y="grp", z=big, title="Heatmap")
declare_chart("scatter", x=big, y="n", color="cat", title="Scatter")
declare_chart("line", x="n", y=big, color="cat", title="Line")
declare_table(df.head(10), title="Rows")
`;

/** Runs in the page (a string: tsconfig has no DOM lib): what the charts and tables drew. */
const PROBE = `(async () => {
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const bar = plots[0];
  Plotly.Fx.hover(bar, [{ curveNumber: 0, pointNumber: 0 }]);
  await new Promise((r) => setTimeout(r, 300));
  const hover = bar.querySelector('.hoverlayer');
  const texts = plots.flatMap((p) => [...p.querySelectorAll('text, tspan')]);
  return {
    plots: plots.length,
    links: plots.reduce((n, p) => n + p.querySelectorAll('a').length, 0),
    tableLinks: document.querySelectorAll('[data-table-id] a, [data-table-id] span[style]').length,
    huge: texts.filter((t) => getComputedStyle(t).fontSize === '90px' || (t.getAttribute('style') || '').includes('90px')).length,
    literalLink: texts.some((t) => t.textContent.includes(${JSON.stringify(LINK)})),
    literalBig: texts.some((t) => t.textContent.includes(${JSON.stringify(BIG)})),
    hoverText: hover ? hover.textContent : '',
    hoverLinks: hover ? hover.querySelectorAll('a').length : -1,
    tableText: (document.querySelector('[data-table-id] table') || {}).textContent || '',
  };
})()`;

interface Probe {
  plots: number;
  links: number;
  tableLinks: number;
  huge: number;
  literalLink: boolean;
  literalBig: boolean;
  hoverText: string;
  hoverLinks: number;
  tableText: string;
}

void test(
  'in Chromium: no <a> in any chart, no 90px text, the markup shown literally (ticks, legend, hover, table)',
  { skip: findChromium() ? false : 'no Chromium installed' },
  async () => {
    const dir = tempDir();
    const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
    const lines = [['cat', 'grp', BIG, 'n'].map(quote).join(',')];
    for (let i = 0; i < 30; i += 1)
      lines.push(
        [
          quote(i % 3 ? `plain ${i % 3}` : LINK),
          quote(i % 2 ? 'g1' : LINK),
          String(10 + i),
          String(i),
        ].join(','),
      );
    const data = join(dir, 'tricky.csv');
    writeFileSync(data, `${lines.join('\n')}\n`);
    const script = join(dir, 'tricky.py');
    writeFileSync(script, SCRIPT);
    const out = join(dir, 'tricky.html');
    const r = runCli(['run', script, '--data', data, '-o', out, '--json']);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { warnings: string[] }).warnings, []);
    const browser = await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(pathToFileURL(resolve(out)).href, { waitUntil: 'load', timeout: 60_000 });
      await page.waitForFunction(
        'document.querySelectorAll(".js-plotly-plot svg.main-svg").length >= 6',
        undefined,
        { timeout: 60_000 },
      );
      const seen = await page.evaluate<Probe>(PROBE);
      assert.deepEqual(errors, []);
      assert.equal(seen.plots, 6);
      assert.equal(seen.links, 0, 'no link in any chart');
      assert.equal(seen.huge, 0, 'no 90px text');
      assert.ok(seen.literalLink, 'the category shows literally');
      assert.ok(seen.literalBig, 'the column name shows literally');
      assert.equal(seen.hoverLinks, 0, 'no link in the hover label');
      assert.ok(
        seen.hoverText.includes(LINK) || seen.hoverText.includes(BIG),
        `hover shows the text literally: ${seen.hoverText}`,
      );
      assert.equal(seen.tableLinks, 0, 'the table escapes too');
      assert.ok(
        seen.tableText.includes(LINK) && seen.tableText.includes(BIG),
        seen.tableText.slice(0, 200),
      );
    } finally {
      await browser.close();
    }
  },
);
