/**
 * Test helper: load a generated report in a real headless Chromium and report what rendered.
 * Uses playwright-core with a system Chromium (never downloads a browser).
 */
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, errors } from 'playwright-core';

/** What a report looks like once a real headless Chromium has loaded and rendered it. */
export interface RenderedReport {
  /** Elements with class "js-plotly-plot" that contain an svg.main-svg (i.e. Plotly actually drew). */
  plotCount: number;
  /** Count of elements matching [data-chart-id] (the report marks each chart container). */
  expectedCharts: number;
  /** Count of table elements inside [data-table-id] containers. */
  tableCount: number;
  /** console.error messages and uncaught page errors. */
  consoleErrors: string[];
  /** Network requests the page attempted other than file:/data:/blob:/about: URLs. */
  failedRequests: string[];
  title: string;
}

/** Options for {@link renderReport}. */
export interface RenderOptions {
  /** Max time to wait for charts to render (default 20 000 ms). */
  timeoutMs?: number;
  /** If set, a full-page PNG screenshot is written here. */
  screenshotPath?: string;
}

const CANDIDATES = ['/usr/bin/chromium', '/usr/lib/chromium/chromium'];
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const LOCAL_SCHEMES = ['file:', 'data:', 'blob:', 'about:'];
const PLOTS = '.js-plotly-plot:has(svg.main-svg)';
const CHARTS_WITH_PLOT = '[data-chart-id]:has(.plotly-chart)';

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Path of a usable Chromium executable: $OPSMIND_CHROMIUM, then /usr/bin/chromium, /usr/lib/chromium/chromium; undefined if none. */
export function findChromium(): string | undefined {
  const fromEnv = process.env['OPSMIND_CHROMIUM'];
  const candidates = fromEnv ? [fromEnv, ...CANDIDATES] : CANDIDATES;
  return candidates.find(isExecutable);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Opens a report HTML file from disk (file:// URL) in headless Chromium, waits for charts to render, and returns what it saw. Throws a clear Error if no Chromium is found. */
export async function renderReport(
  htmlPath: string,
  opts: RenderOptions = {},
): Promise<RenderedReport> {
  const executablePath = findChromium();
  if (!executablePath) {
    throw new Error(
      'renderReport: no Chromium found. Set $OPSMIND_CHROMIUM or install Debian "chromium" (/usr/bin/chromium).',
    );
  }
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const consoleErrors: string[] = [];
  const failedRequests: string[] = [];

  const browser = await chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS });
  try {
    const page = await browser.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(`pageerror: ${errorMessage(err)}`));
    // Record and block anything non-local: a self-contained report must not touch the network.
    await page.route('**/*', async (route) => {
      const url = route.request().url();
      if (LOCAL_SCHEMES.some((s) => url.startsWith(s))) return route.continue();
      failedRequests.push(url);
      return route.abort('blockedbyclient');
    });
    page.on('websocket', (ws) => failedRequests.push(ws.url()));

    const started = Date.now();
    try {
      await page.goto(pathToFileURL(resolve(htmlPath)).href, {
        waitUntil: 'load',
        timeout: timeoutMs,
      });
      const remaining = Math.max(1, timeoutMs - (Date.now() - started));
      // String expression: tsconfig has no DOM lib, and this runs in the page anyway.
      await page.waitForFunction(
        `document.querySelectorAll(${JSON.stringify(PLOTS)}).length >= ` +
          `document.querySelectorAll(${JSON.stringify(CHARTS_WITH_PLOT)}).length`,
        undefined,
        { timeout: remaining, polling: 50 },
      );
    } catch (e: unknown) {
      if (!(e instanceof errors.TimeoutError)) throw e; // timeout: return what we saw; the test asserts
    }

    if (opts.screenshotPath) await page.screenshot({ path: opts.screenshotPath, fullPage: true });
    return {
      plotCount: await page.locator(PLOTS).count(),
      expectedCharts: await page.locator('[data-chart-id]').count(),
      tableCount: await page.locator('[data-table-id] table').count(),
      consoleErrors,
      failedRequests,
      title: await page.title(),
    };
  } finally {
    await browser.close();
  }
}
