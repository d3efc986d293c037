/** Shared test fixtures: temp dirs, a small generated dataset, the built binary, the preamble's Python. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, '..', '..');

/** A fresh temp directory. */
export function tempDir(prefix = 'opsmind-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Writes `graph.json` into `dir`, a graph's two tables in one JSON object — 12 nodes (name,
 * group) and 40 links (source, target, value; the values sum to 100) — and returns its path.
 */
export function graphJson(dir: string): string {
  const nodes = Array.from({ length: 12 }, (_, i) => ({ name: `n${i}`, group: i % 3 }));
  const links = Array.from({ length: 40 }, (_, i) => ({
    source: i % 12,
    target: (i * 5 + 1) % 12,
    value: 1 + (i % 4),
  }));
  const path = join(dir, 'graph.json');
  writeFileSync(path, JSON.stringify({ nodes, links }));
  return path;
}

/** Writes a deterministic 400-row sales-like CSV and returns its path. */
export function salesCsv(dir: string, rows = 400): string {
  const regions = ['North', 'South', 'East', 'West', 'Central'];
  const lines = ['date,region,channel,units,price,revenue,rating'];
  for (let i = 0; i < rows; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 4))).toISOString().slice(0, 10);
    const units = 1 + ((i * 7) % 23);
    const price = 5 + ((i * 13) % 17);
    const rating = i % 11 === 0 ? '' : String(1 + ((i * 3) % 40) / 10);
    lines.push(
      [day, regions[i % 5], i % 3 ? 'Online' : 'Retail', units, price, units * price, rating].join(
        ',',
      ),
    );
  }
  const path = join(dir, 'sales.csv');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The result of running the built CLI. */
export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

let home: string | undefined;

/** A private OPSMIND_HOME for this test process, so tests never touch a person's session store. */
export function testHome(): string {
  home ??= tempDir('opsmind-home-');
  return home;
}

/** Runs `bin/opsmind.js` with arguments (synchronously), with an optional environment overlay. */
export function runCli(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): CliResult {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin', 'opsmind.js'), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, OPSMIND_HOME: testHome(), OPSMIND_DB: '', ...options.env },
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A deterministic uniform generator in [0, 1) (mulberry32). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The Python the preamble's own tests use: Debian's, with pandas. */
export const PYTHON = '/usr/bin/python3';

/**
 * Runs `code` under PYTHON with the preamble importable and `input` as JSON on stdin; its stdout
 * parsed as JSON (the parity tests' way to ask the Python originals).
 */
export function preamblePython<T>(code: string, input: unknown): T {
  const run = spawnSync(PYTHON, ['-c', code], {
    input: JSON.stringify(input),
    env: { ...process.env, PYTHONPATH: join(ROOT, 'preamble') },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

/** A finding's sentence and its numbers, as both engines write one (src/engine/insights-values.ts). */
interface Said {
  text: string;
  numbers: Record<string, number>;
}

/**
 * Asserts that the TypeScript findings say what the Python ones say for case `name`: the same
 * sentences in order, and each finding's numbers alike (`near`: within 1e-9, relative past 1).
 */
export function assertSameFindings(
  ours: readonly Said[],
  theirs: readonly Said[],
  name: string,
  near = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a)),
): void {
  assert.deepEqual(
    ours.map((f) => f.text),
    theirs.map((f) => f.text),
    name,
  );
  ours.forEach((f, k) => {
    for (const [key, value] of Object.entries(f.numbers))
      assert.ok(near(value, theirs[k]?.numbers[key] ?? NaN), `${name}: ${key}`);
  });
}

/** The months' short names, as strftime's %b writes them. */
export const MONTH_NAMES = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/** A report's Plotly figure, as far as the tests read it. */
export interface ReportFigure {
  data: { type: string; name?: string; x?: unknown[]; y?: unknown[] }[];
  layout: {
    title?: { text?: string };
    xaxis?: { categoryarray?: string[] };
    yaxis?: { rangemode?: string };
  };
}

/** The figures of a report's HTML (its `fig-N` scripts), by chart title. */
export function reportFigures(html: string): Map<string, ReportFigure> {
  const out = new Map<string, ReportFigure>();
  for (const [, body] of html.matchAll(
    /<script type="application\/json" id="fig-\d+">(.*?)<\/script>/gs,
  )) {
    const fig = JSON.parse(body ?? '{}') as ReportFigure;
    out.set(fig.layout.title?.text ?? '', fig);
  }
  return out;
}
