/**
 * bench/sandbox: round-trip latency of a run that prints df.shape, warm worker
 * vs cold run, on 10k and 1M-row datasets (p50/p95), under the isolation in force.
 *
 *   node --import tsx bench/sandbox.ts [--runs 40] [--cold-runs 8] [--gap-ms 50]
 *
 * Warm runs are measured with an idle gap between them (as between the steps of
 * an agent, where a model call sits between runs) and back to back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { benchCsv, percentile } from './datasets.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '40' },
    'cold-runs': { type: 'string', default: '8' },
    'gap-ms': { type: 'string', default: '50' },
  },
});
const RUNS = Number(args.runs);
const COLD_RUNS = Number(args['cold-runs']);
const GAP = Number(args['gap-ms']);
const CODE = 'print(df.shape)';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timeRuns(sandbox: Sandbox, runs: number, gapMs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    if (gapMs) await sleep(gapMs);
    const started = performance.now();
    const run = await sandbox.run({ code: CODE, scriptName: 'bench.py' });
    times.push(performance.now() - started);
    if (run.exitCode !== 0) throw new Error(`bench run failed: ${run.stderr}`);
  }
  return times;
}

const python = await findPython();
const rows: Record<string, unknown>[] = [];
let isolation = '';
for (const n of [10_000, 1_000_000]) {
  const data = benchCsv(python.path, n);
  const warm = await Sandbox.open({ python, dataPath: data, limits: DEFAULT_LIMITS });
  isolation = warm.isolation.level;
  const startup = performance.now();
  await warm.run({ code: CODE, scriptName: 'bench.py' });
  const firstMs = performance.now() - startup;
  const gapped = await timeRuns(warm, RUNS, GAP);
  const backToBack = await timeRuns(warm, RUNS, 0);
  warm.close();
  const cold = await Sandbox.open({ python, dataPath: data, limits: DEFAULT_LIMITS, warm: false });
  const coldTimes = await timeRuns(cold, COLD_RUNS, 0);
  cold.close();
  const row = {
    rows: n,
    first_warm_ms: firstMs,
    warm_p50: percentile(gapped, 50),
    warm_p95: percentile(gapped, 95),
    warm_b2b_p50: percentile(backToBack, 50),
    warm_b2b_p95: percentile(backToBack, 95),
    cold_p50: percentile(coldTimes, 50),
    cold_p95: percentile(coldTimes, 95),
  };
  rows.push({ ...row, speedup: row.cold_p50 / row.warm_p50 });
}

const f = (v: unknown) => (typeof v === 'number' ? v.toFixed(1) : String(v));
const lines = [
  `isolation: ${isolation}; python ${python.version}, pandas ${python.pandas}; warm runs: ${RUNS} with a ${GAP} ms gap, ${RUNS} back to back; cold runs: ${COLD_RUNS}`,
  '',
  '| rows × 10 cols | first run (worker start + load) ms | warm p50 ms | warm p95 ms | warm back-to-back p50 / p95 ms | cold p50 ms | cold p95 ms | cold ÷ warm (p50) |',
  '|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${Number(r.rows).toLocaleString('en-US')} | ${f(r.first_warm_ms)} | ${f(r.warm_p50)} | ${f(r.warm_p95)} | ${f(r.warm_b2b_p50)} / ${f(r.warm_b2b_p95)} | ${f(r.cold_p50)} | ${f(r.cold_p95)} | ${f(r.speedup)}× |`,
  ),
];
console.log(lines.join('\n'));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'sandbox.json'),
  `${JSON.stringify({ isolation, python, rows }, null, 2)}\n`,
);
