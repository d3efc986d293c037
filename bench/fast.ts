/**
 * bench/fast: `opsmind analyze` (fast mode, heuristic planner) on generated
 * 10k, 100k and 1M-row files, side by side in the same run with a bare
 * `pandas.read_csv` of the same file: wall time, peak memory of the whole
 * process tree, and the report's size with Plotly inlined.
 *
 *   npm run build && node --import tsx bench/fast.ts [--repeat 2]
 */
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { findPython } from '../src/sandbox/python.js';
import { benchCsv } from './datasets.js';
import { measure } from './tree-memory.js';

const { values: args } = parseArgs({
  options: {
    repeat: { type: 'string', default: '2' },
    rows: { type: 'string', default: '10000,100000,1000000' },
  },
});
const REPEAT = Number(args.repeat);
const BIN = resolve(import.meta.dirname, '..', 'bin', 'opsmind.js');
const python = await findPython();
const work = mkdtempSync(join(tmpdir(), 'opsmind-bench-'));
const env = { ...process.env, OPSMIND_HOME: work, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };
const rows: Record<string, number>[] = [];

for (const n of args.rows.split(',').map(Number)) {
  const data = benchCsv(python.path, n);
  const best = { read: Infinity, readMb: 0, fast: Infinity, fastMb: 0, report: 0 };
  for (let i = 0; i < REPEAT; i += 1) {
    const read = await measure(python.path, [
      '-c',
      `import pandas as pd; df = pd.read_csv(${JSON.stringify(data)}); print(df.shape)`,
    ]);
    if (read.code !== 0) throw new Error(read.stderr);
    const out = join(work, `report-${n}.html`);
    const fast = await measure(
      process.execPath,
      [BIN, 'analyze', data, '--no-llm', '--json', '-o', out],
      env,
    );
    if (fast.code !== 0) throw new Error(`analyze failed on ${n} rows: ${fast.stderr}`);
    if (read.seconds < best.read) Object.assign(best, { read: read.seconds, readMb: read.peakMb });
    if (fast.seconds < best.fast) Object.assign(best, { fast: fast.seconds, fastMb: fast.peakMb });
    best.report = statSync(out).size / 1024 / 1024;
  }
  rows.push({ rows: n, bytes: statSync(data).size, ...best });
}

const f = (v: number, d = 2) => v.toFixed(d);
const table = [
  `repeat: best of ${REPEAT}; python ${python.version}, pandas ${python.pandas}; node ${process.version}`,
  '',
  '| rows × 10 cols | CSV MB | read_csv s | read_csv peak MB | analyze s | analyze peak MB (all processes) | analyze ÷ read_csv | report MB |',
  '|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${(r.rows ?? 0).toLocaleString('en-US')} | ${f((r.bytes ?? 0) / 1048576, 1)} | ${f(r.read ?? 0)} | ${f(r.readMb ?? 0, 0)} | ${f(r.fast ?? 0)} | ${f(r.fastMb ?? 0, 0)} | ${f((r.fast ?? 0) / (r.read ?? 1), 1)}× | ${f(r.report ?? 0)} |`,
  ),
];
console.log(table.join('\n'));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'fast.json'),
  `${JSON.stringify(rows, null, 2)}\n`,
);
