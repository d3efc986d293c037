import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { importEsm } from '../util/esm-import.js';

import type { PlotlyFigure } from '../../renderers/types.js';
import type * as Jsdom from 'jsdom';
import { whenIdle } from '../util/idle.js';

export type { PlotlyFigure };

/** One problem Plotly.validate reported, made readable: e.g. `data[0].marker.colr: unknown attribute`. */
export interface FigureIssue {
  path: string;
  code: string;
  message: string;
}

type Validate = (data: unknown, layout: unknown) => unknown;
interface PlotlyHandle {
  validate: Validate;
}

let bundleBytes: Buffer | undefined;
let bundleSource: string | undefined;
let loading: Promise<PlotlyHandle> | undefined;

/**
 * The inlinable Plotly bundle as bytes (memoised): a report embeds it as they are, without
 * decoding 4.8 MB to a string and encoding it back (≈ 30 ms of every report).
 */
export function plotlyBundleBytes(): Buffer {
  bundleBytes ??= readFileSync(createRequire(import.meta.url).resolve('plotly.js-dist-min'));
  return bundleBytes;
}

// Read while a run waits on DuckDB (util/idle.ts), not after its last query, when the report is due.
whenIdle(() => plotlyBundleBytes());

/** The Plotly bundle's source text (memoised). */
export function plotlyBundleSource(): string {
  bundleSource ??= plotlyBundleBytes().toString('utf8');
  return bundleSource;
}

/** The plotly.js version string of the bundle (from its `plotly.js vX.Y.Z` banner), e.g. `4.1.2`. */
export function plotlyVersion(): string {
  const m = /plotly\.js v(\d+\.\d+\.\d+[\w.-]*)/.exec(
    plotlyBundleBytes().subarray(0, 500).toString('latin1'),
  );
  if (!m?.[1])
    throw new Error('plotly-validate: cannot find the version banner in the Plotly bundle');
  return m[1];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep-copies plain objects and arrays; functions, RegExps etc. are shared by reference. */
function clonePlain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clonePlain);
  if (!isRecord(v) || Object.prototype.toString.call(v) !== '[object Object]') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) out[k] = clonePlain(v[k]);
  return out;
}

/**
 * Plotly.validate rebuilds the whole schema (PlotSchema.get, ~100-150 ms) on every call and then
 * mutates it (merges trace-specific layout attributes in). Build it once and hand out fresh copies.
 */
function memoiseSchema(plotly: Record<string, unknown>): void {
  const ps = plotly.PlotSchema;
  if (!isRecord(ps) || typeof ps.get !== 'function') return;
  const get = ps.get as () => unknown;
  const schema = get();
  ps.get = () => clonePlain(schema);
}

async function loadPlotly(): Promise<PlotlyHandle> {
  // jsdom takes most of a second to import: load it only when a figure is validated.
  const { JSDOM, VirtualConsole } = await importEsm<typeof Jsdom>('jsdom');
  const source = plotlyBundleSource();
  // A VirtualConsole with no listeners swallows jsdom noise such as
  // "Not implemented: HTMLCanvasElement's getContext()" and Plotly's own console output.
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    runScripts: 'outside-only',
    virtualConsole: new VirtualConsole(),
  });
  const win = dom.window;
  // Plotly probes canvas/WebGL support at load time; "no canvas" is the honest answer here.
  win.HTMLCanvasElement.prototype.getContext = (() =>
    null) as typeof win.HTMLCanvasElement.prototype.getContext;
  win.eval(source);
  const plotly: unknown = (win as unknown as Record<string, unknown>).Plotly;
  if (!isRecord(plotly) || typeof plotly.validate !== 'function') {
    throw new Error('plotly-validate: the Plotly bundle did not define window.Plotly.validate');
  }
  memoiseSchema(plotly);
  return { validate: plotly.validate as Validate };
}

function getPlotly(): Promise<PlotlyHandle> {
  loading ??= loadPlotly().catch((err: unknown) => {
    loading = undefined; // allow a retry after a failed load
    throw err;
  });
  return loading;
}

const SHORT: Record<string, string> = {
  schema: 'unknown attribute',
  object: 'must be an object',
  array: 'must be an array',
  unused: 'ignored by Plotly (did not get coerced: wrong type, or e.g. an axis no trace uses)',
  invisible: 'trace was defaulted to invisible (usually an invalid type or missing data)',
};

function readablePath(raw: Record<string, unknown>): string {
  const container = typeof raw.container === 'string' ? raw.container : 'figure';
  let out = typeof raw.trace === 'number' ? `${container}[${raw.trace}]` : container;
  if (Array.isArray(raw.path)) {
    for (const seg of raw.path as unknown[])
      out += typeof seg === 'number' ? `[${seg}]` : `.${String(seg)}`;
  } else if (typeof raw.astr === 'string' && raw.astr !== '') {
    out += `.${raw.astr}`;
  }
  return out;
}

function toIssue(raw: unknown): FigureIssue {
  if (!isRecord(raw)) return { path: 'figure', code: 'unknown', message: String(raw) };
  const code = typeof raw.code === 'string' ? raw.code : 'unknown';
  const msg = typeof raw.msg === 'string' ? raw.msg : '';
  const bad = code === 'value' ? /invalid value (\(.*\))$/s.exec(msg)?.[1] : undefined;
  const message = bad !== undefined ? `invalid value ${bad}` : (SHORT[code] ?? (msg || code));
  return { path: readablePath(raw), code, message };
}

/** Starts loading Plotly in jsdom now (about a second of work) so a later validateFigure does not wait; errors surface there. */
export function preloadPlotly(): void {
  getPlotly().catch(() => undefined);
}

/**
 * Validates a figure with Plotly.validate in jsdom; returns [] when valid. The figure is not
 * mutated. Plotly loads lazily (once) on the first call; a Plotly exception becomes one
 * `exception` issue rather than a rejection.
 */
export async function validateFigure(figure: PlotlyFigure): Promise<FigureIssue[]> {
  const plotly = await getPlotly();
  let result: unknown;
  // Plotly 4.1.2's validate throws on any `legend` key (an attribute whose valType it
  // does not register), so the legend is left out of this gate.
  const { legend: _legend, ...layout } = figure.layout;
  try {
    result = plotly.validate(figure.data, layout);
  } catch (err) {
    return [
      {
        path: 'figure',
        code: 'exception',
        message: err instanceof Error ? err.message : String(err),
      },
    ];
  }
  // Array.from (not .map) so the result is a Node-realm array, not a jsdom-window one.
  return Array.isArray(result) ? Array.from(result as unknown[], toIssue) : [];
}
