/**
 * bench/batch: `opsmind batch` over 100 generated files of 10k rows × 10 columns, with
 * `--jobs 1` and then `--jobs 2`, in one run: wall time, throughput, the per-file overhead (the
 * batch's wall time per file beyond the time its worker spent on the file), and the size of the
 * output folder against the goal of 5 MB + 150 KB per report.
 *
 *   npm run build && node --import tsx bench/batch.ts [--files 100] [--rows 10000] [--jobs 1,2]
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findPython } from '../src/sandbox/python.js';
import { percentile } from './datasets.js';

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '100' },
    rows: { type: 'string', default: '10000' },
    jobs: { type: 'string', default: '1,2' },
  },
});
const FILES = Number(args.files);
const ROWS = Number(args.rows);
const JOBS = args.jobs.split(',').map(Number);
const BIN = resolve(import.meta.dirname, '..', 'bin', 'opsmind.js');
const DATA = join(import.meta.dirname, '.data', `batch-${FILES}x${ROWS}`);

/** FILES CSVs of ROWS rows (a date, 3 categories, 6 numbers), one seed each; made once. */
async function datasets(): Promise<void> {
  if (existsSync(join(DATA, `store-${String(FILES).padStart(3, '0')}.csv`))) return;
  mkdirSync(DATA, { recursive: true });
  const python = await findPython();
  execFileSync(python.path, [
    '-c',
    `
import numpy as np, pandas as pd
for k in range(1, ${FILES} + 1):
    rng = np.random.default_rng(k)
    n = ${ROWS}
    df = pd.DataFrame({
      "date": pd.date_range("2024-01-01", periods=n, freq="h").strftime("%Y-%m-%d %H:%M"),
      "region": rng.choice(["North", "South", "East", "West", "Central"], n),
      "product": rng.choice([f"P{i:02d}" for i in range(20)], n),
      "channel": rng.choice(["Online", "Retail", "Wholesale"], n),
      "units": rng.integers(1, 50, n),
      "price": rng.gamma(2.0, 20.0, n).round(2),
      "discount": rng.uniform(0, 0.3, n).round(3),
      "rating": rng.normal(4, 0.6, n).clip(1, 5).round(1),
      "latency_ms": rng.lognormal(3, 0.5, n).round(1),
    })
    df["revenue"] = (df["units"] * df["price"]).round(2)
    df.to_csv(f"${DATA}/store-{k:03d}.csv", index=False)
`,
  ]);
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

interface Measured {
  jobs: number;
  seconds: number;
  perFileWorker: number[];
  bytes: number;
  reports: number;
  failed: number;
}

function runBatch(jobs: number): Measured {
  const home = mkdtempSync(join(tmpdir(), 'opsmind-bench-batch-'));
  const out = join(home, 'out');
  const started = performance.now();
  execFileSync(
    process.execPath,
    [BIN, 'batch', DATA, '--out-dir', out, '--jobs', String(jobs), '--json'],
    {
      env: { ...process.env, OPSMIND_HOME: home, OPSMIND_DB: '', CI: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8')) as {
    entries: { seconds: number | null; status: string }[];
  };
  return {
    jobs,
    seconds,
    perFileWorker: index.entries.map((e) => e.seconds ?? 0),
    bytes: folderBytes(out),
    reports: readdirSync(join(out, 'reports')).filter((f) => f.endsWith('.html')).length,
    failed: index.entries.filter((e) => e.status !== 'done').length,
  };
}

await datasets();
const results = JOBS.map(runBatch);
const base = results[0];
const mb = (b: number): string => (b / 2 ** 20).toFixed(2);
const lines = [
  `${FILES} files × ${ROWS.toLocaleString('en-US')} rows × 10 columns; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  '',
  '| --jobs | wall s | files/s | speed-up | worker s per file (p50) | overhead s per file | folder MB | goal MB | failed |',
  '|---|---|---|---|---|---|---|---|---|',
  ...results.map((r) => {
    const p50 = percentile(r.perFileWorker, 50);
    const overhead = (r.seconds * r.jobs) / FILES - p50;
    const goal = 5 + (150 * r.reports) / 1024;
    return `| ${r.jobs} | ${r.seconds.toFixed(1)} | ${(FILES / r.seconds).toFixed(2)} | ${base ? (base.seconds / r.seconds).toFixed(2) : '–'}× | ${p50.toFixed(2)} | ${overhead.toFixed(2)} | ${mb(r.bytes)} | ${goal.toFixed(1)} | ${r.failed} |`;
  }),
  '',
  'overhead per file = wall × jobs ÷ files − the worker’s own p50 time per file (session, engine, report, snapshot)',
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'batch.json'),
  `${JSON.stringify(results, null, 2)}\n`,
);
