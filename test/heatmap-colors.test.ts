/**
 * Heatmap colour scales point the right way: on a sequential scale the highest value gets the
 * darkest colour; a diverging scale is centred on zmid. Checked on the built figure against
 * Plotly's own scale ends, then on the pixels headless Chromium draws in a real report.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { COLORSCALES, heatmap } from '../renderers/heatmap.js';
import { findChromium } from './helpers/browser.js';
import { runCli, salesCsv, tempDir } from './helpers/fixtures.js';

type Rgb = [number, number, number];

/** The ends (position 0 and 1) of Plotly's built-in scales, as plotly.js 4 defines them. */
const PLOTLY_ENDS: Record<string, [Rgb, Rgb]> = {
  Blues: [
    [5, 10, 172],
    [220, 220, 220],
  ],
  Greens: [
    [0, 68, 27],
    [247, 252, 245],
  ],
  Greys: [
    [0, 0, 0],
    [255, 255, 255],
  ],
  Reds: [
    [220, 220, 220],
    [178, 10, 28],
  ],
  YlGnBu: [
    [8, 29, 88],
    [255, 255, 217],
  ],
  YlOrRd: [
    [128, 0, 38],
    [255, 255, 204],
  ],
};
const SEQUENTIAL = Object.keys(PLOTLY_ENDS);
const DIVERGING = ['RdBu', 'RdYlBu', 'Picnic', 'Portland'];

const luminance = ([r, g, b]: Rgb): number => 0.2126 * r + 0.7152 * g + 0.0722 * b;

function build(params: Record<string, unknown>, z: number[]): Record<string, unknown> {
  const frame = { columns: ['x', 'y', 'z'], data: z.map((v, i) => [`x${i}`, 'row', v]) };
  const built = heatmap.build(frame, heatmap.schema.parse({ x: 'x', y: 'y', z: 'z', ...params }));
  assert.equal(built.type, 'plotly');
  return built.type === 'plotly' ? (built.figure.data[0] ?? {}) : {};
}

void test('the test covers every colour scale a heatmap accepts', () => {
  assert.deepEqual(
    [...COLORSCALES].sort(),
    [...SEQUENTIAL, 'Viridis', 'Cividis', ...DIVERGING].sort(),
  );
});

for (const name of SEQUENTIAL) {
  void test(`built figure: on ${name} the highest value gets the darker end of Plotly's scale`, () => {
    const trace = build({ colorscale: name }, [1, 50, 100]);
    const [low, high] = PLOTLY_ENDS[name] ?? [
      [0, 0, 0],
      [0, 0, 0],
    ];
    const [forMin, forMax] = trace.reversescale === true ? [high, low] : [low, high];
    assert.ok(
      luminance(forMax) < luminance(forMin),
      `${name}: max gets rgb(${forMax.join(',')}), min gets rgb(${forMin.join(',')})`,
    );
    assert.equal(trace.zmid, undefined, 'a sequential scale is not centred');
  });
}

void test('built figure: a diverging scale is centred on 0 for data of both signs, on zmid when given', () => {
  for (const name of DIVERGING) {
    assert.equal(build({ colorscale: name }, [-10, 0, 30]).zmid, 0, name);
    assert.equal(build({ colorscale: name, zmid: 5 }, [1, 5, 30]).zmid, 5, name);
    assert.equal(build({ colorscale: name }, [-10, 0, 30]).reversescale, false, name);
  }
  assert.equal(
    build({}, [-1, 0, 1]).colorscale,
    'RdBu',
    'signed data defaults to a diverging scale',
  );
});

const SCRIPT = (names: string[]) => `
import pandas as pd
for name in ${JSON.stringify(names)}:
    z = [-10, 0, 30] if name in ${JSON.stringify(DIVERGING)} else [1, 50, 100]
    cells = pd.DataFrame({"x": ["1 low", "2 mid", "3 high"], "y": ["row"] * 3, "z": z})
    declare_chart("heatmap", cells, x="x", y="y", z="z", colorscale=name, show_values=False, title=name)
`;

/** In the page, in report order: each heatmap's drawn colour at its left, middle and right cell, read from the image Plotly drew. */
const READ_CELLS = `(async () => {
  const out = [];
  for (const card of document.querySelectorAll('[data-chart-id]')) {
    const image = card.querySelector('g.hm image');
    const picture = new Image();
    picture.src = image.getAttribute('href') || image.getAttribute('xlink:href');
    await picture.decode();
    const canvas = document.createElement('canvas');
    canvas.width = picture.width;
    canvas.height = picture.height;
    const context = canvas.getContext('2d');
    context.drawImage(picture, 0, 0);
    const at = (f) => Array.from(context.getImageData(Math.floor(picture.width * f), Math.floor(picture.height / 2), 1, 1).data.slice(0, 3));
    out.push([at(1 / 6), at(1 / 2), at(5 / 6)]);
  }
  return out;
})()`;

void test(
  'in a report drawn by Chromium: sequential maxima are darkest, diverging scales are lightest at 0',
  { skip: findChromium() ? false : 'no Chromium installed' },
  async () => {
    const dir = tempDir();
    const script = join(dir, 'scales.py');
    writeFileSync(script, SCRIPT([...COLORSCALES]));
    const out = join(dir, 'scales.html');
    const r = runCli(['run', script, '--data', salesCsv(dir), '-o', out]);
    assert.equal(r.status, 0, r.stderr);
    const browser = await chromium.launch({
      executablePath: findChromium() ?? '',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(out).href, { waitUntil: 'load' });
      await page.waitForFunction(
        `document.querySelectorAll('g.hm image').length >= ${COLORSCALES.length}`,
        undefined,
        { timeout: 60_000 },
      );
      const cells = await page.evaluate<[Rgb, Rgb, Rgb][]>(READ_CELLS);
      assert.equal(cells.length, COLORSCALES.length);
      for (const [i, name] of COLORSCALES.entries()) {
        const [left, middle, right] =
          cells[i] ?? assert.fail(`heatmap ${i + 1} (${name}) was not drawn`);
        if (SEQUENTIAL.includes(name))
          assert.ok(
            luminance(right) < luminance(left),
            `${name}: max ${right.join(',')} should be darker than min ${left.join(',')}`,
          );
        else if (DIVERGING.includes(name))
          assert.ok(
            luminance(middle) > Math.max(luminance(left), luminance(right)),
            `${name}: 0 should get the light centre, got ${middle.join(',')} between ${left.join(',')} and ${right.join(',')}`,
          );
        else assert.ok(luminance(right) > luminance(left), `${name}: the max is the bright end`);
      }
    } finally {
      await browser.close();
    }
  },
);
