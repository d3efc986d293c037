/**
 * bench/fast: `opsmind analyze` (fast mode, heuristic planner) with each engine, one after the
 * other per dataset and beside a bare pandas read of the same file: generated CSVs (10k and 1M
 * rows by default, 10M with --rows 10000000) and a Parquet copy of the 1M-row one. Wall time and
 * peak memory of the whole process tree, the report's size with Plotly inlined, the goals, and
 * where each CSV's fastest duckdb run spent its time (dated by its session's stored events).
 *
 *   npm run build && node --import tsx bench/fast.ts [--repeat 2] [--rows 10000,1000000]
 *     [--no-parquet] [--timeout-s 300]
 *
 * Best of --repeat runs, but files of 10M rows or more are measured once. Every command is
 * killed after --timeout-s (`timeout`, whose own ~1 MB counts in the tree), and a failure is
 * recorded as the row's outcome instead of ending the bench.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { findPython } from '../src/sandbox/python.js';
import { benchCsv, benchParquet } from './datasets.js';
import { PHASES, phasesOf } from './phases.js';
import { measure } from './tree-memory.js';

const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    repeat: { type: 'string', default: '2' },
    rows: { type: 'string', default: '10000,1000000' },
    parquet: { type: 'boolean', default: true },
    'timeout-s': { type: 'string', default: '300' },
  },
});
const REPEAT = Number(args.repeat);
const TIMEOUT_S = Number(args['timeout-s']);
/** Files this large are measured once, whatever --repeat says. */
const SINGLE_RUN_ROWS = 10_000_000;
const BIN = resolve(import.meta.dirname, '..', 'bin', 'opsmind.js');
const python = await findPython();
const work = mkdtempSync(join(tmpdir(), 'opsmind-bench-'));
const env = { ...process.env, OPSMIND_HOME: work, OPENAI_API_KEY: '', OPENAI_BASE_URL: '' };

/** What is measured on each file: a bare pandas read, then analyze with each engine. */
const TOOLS = ['read', 'pandas', 'duckdb'] as const;
type Tool = (typeof TOOLS)[number];

/** One tool's best run on one file, or why there is none. */
type Cell =
  | {
      ok: true;
      seconds: number;
      peakMb: number;
      reportMb: number | null;
      items: number;
      /** analyze's session (its events date each phase) and when the command was started (epoch ms). */
      session: string | null;
      startedAt: number;
    }
  | { ok: false; note: string; seconds?: number; peakMb?: number; stderr?: string };

interface Dataset {
  path: string;
  format: 'csv' | 'parquet';
  rows: number;
}

interface Row extends Dataset {
  bytes: number;
  runs: number;
  cells: Record<Tool, Cell>;
}

function importable(module: string): boolean {
  try {
    execFileSync(python.path, ['-c', `import ${module}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const pyarrow = importable('pyarrow');
// pandas reads Parquet through pyarrow or fastparquet; without either, the pandas engine cannot.
const pandasParquet = pyarrow || importable('fastparquet');

/** The command line of `tool` on `data`, or why it cannot run. */
function command(tool: Tool, data: Dataset, out: string): string[] | string {
  switch (tool) {
    case 'read': {
      if (data.format === 'parquet' && !pyarrow) return 'n/a (no pyarrow)';
      const reader = data.format === 'parquet' ? 'read_parquet' : 'read_csv';
      const code = `import pandas as pd; df = pd.${reader}(${JSON.stringify(data.path)}); print(df.shape)`;
      return [python.path, '-c', code];
    }
    case 'pandas':
    case 'duckdb':
      if (tool === 'pandas' && data.format === 'parquet' && !pandasParquet)
        return 'n/a (no pyarrow)';
      return [
        process.execPath,
        BIN,
        'analyze',
        data.path,
        '--engine',
        tool,
        '--no-llm',
        '--json',
        '-o',
        out,
      ];
  }
}

/** Why a run failed, in a few words: the sandbox limit it names, the timeout, or the error's first line. */
function failure(code: number | null, stderr: string, stdout: string): string {
  if (code === 124 || code === 137) return `timeout (${TIMEOUT_S} s)`;
  const text = `${stderr}\n${stdout}`;
  const limit = /[\w-]+ (?:time )?limit of [^;\n]*? exceeded/.exec(text)?.[0];
  if (limit) return limit;
  if (/memory limit|MemoryError|Cannot allocate memory|out of memory/i.test(text))
    return 'memory limit';
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find(Boolean);
  return `exit ${code}: ${(line ?? 'no output').slice(0, 160)}`;
}

const SummarySchema = z.object({
  session_id: z.string(),
  charts: z.array(z.unknown()),
  tables: z.array(z.unknown()),
});

/** analyze's --json summary: its session and how many charts and tables it lists. */
function summary(stdout: string): { session: string | null; items: number } {
  try {
    const parsed = SummarySchema.parse(JSON.parse(stdout));
    return { session: parsed.session_id, items: parsed.charts.length + parsed.tables.length };
  } catch {
    return { session: null, items: 0 };
  }
}

/** Runs `tool` once on `data` under the timeout. */
async function runOnce(tool: Tool, data: Dataset): Promise<Cell> {
  const out = join(work, `report-${tool}-${data.rows}-${data.format}.html`);
  const line = command(tool, data, out);
  if (typeof line === 'string') return { ok: false, note: line };
  const startedAt = Date.now();
  const run = await measure('timeout', ['--kill-after=10', String(TIMEOUT_S), ...line], env);
  if (run.code !== 0) {
    const note = failure(run.code, run.stderr, run.stdout).replaceAll(`${data.path}`, 'the file');
    const { seconds, peakMb } = run;
    return { ok: false, note, seconds, peakMb, stderr: run.stderr.slice(-4000) };
  }
  const reportMb = tool === 'read' ? null : statSync(out).size / 1048576;
  const { session, items } = tool === 'read' ? { session: null, items: 0 } : summary(run.stdout);
  const { seconds, peakMb } = run;
  return { ok: true, seconds, peakMb, reportMb, items, session, startedAt };
}

/** Best (fastest) of `runs` rounds; each round runs the three tools one after the other. */
async function measureDataset(data: Dataset, runs: number): Promise<Row> {
  const cells: Partial<Record<Tool, Cell>> = {};
  for (let i = 0; i < runs; i += 1) {
    for (const tool of TOOLS) {
      const before = cells[tool];
      if (before && !before.ok) continue; // a failed command is not retried
      const cell = await runOnce(tool, data);
      if (!before || !cell.ok || (before.ok && cell.seconds < before.seconds)) cells[tool] = cell;
      process.stderr.write(`${data.rows} ${data.format} ${tool} #${i + 1}: ${describe(cell)}\n`);
    }
  }
  const none: Cell = { ok: false, note: 'not run' };
  return {
    ...data,
    bytes: statSync(data.path).size,
    runs,
    cells: { read: cells.read ?? none, pandas: cells.pandas ?? none, duckdb: cells.duckdb ?? none },
  };
}

function describe(cell: Cell): string {
  const numbers = `${cell.seconds?.toFixed(2) ?? '–'} s, ${cell.peakMb?.toFixed(0) ?? '–'} MB`;
  return cell.ok ? numbers : `${cell.note} (${numbers})`;
}

async function datasets(): Promise<Dataset[]> {
  const list: Dataset[] = [];
  for (const rows of args.rows.split(',').map(Number)) {
    const path = benchCsv(python.path, rows);
    list.push({ path, format: 'csv', rows });
    if (args.parquet && rows === 1_000_000)
      list.push({ path: await benchParquet(path), format: 'parquet', rows });
  }
  return list;
}

const loadBefore = loadavg()[0] ?? 0;
const table: Row[] = [];
for (const data of await datasets())
  table.push(await measureDataset(data, data.rows >= SINGLE_RUN_ROWS ? 1 : REPEAT));

const f = (v: number, d = 2) => v.toFixed(d);
/** A run's seconds; a failed run (✗) says why and when, a command that could not run only why. */
const seconds = (c: Cell) => {
  if (c.ok) return f(c.seconds);
  return c.seconds === undefined ? c.note : `✗ ${c.note} (after ${f(c.seconds, 1)} s)`;
};
const peak = (c: Cell) => (c.peakMb === undefined ? '–' : f(c.peakMb, 0));
const report = (c: Cell) => (c.ok && c.reportMb !== null ? `${f(c.reportMb)} (${c.items})` : '–');
const ratio = (a: Cell, b: Cell) => (a.ok && b.ok ? `${f(a.seconds / b.seconds, 2)}×` : '–');

function line(r: Row): string {
  const { read, pandas, duckdb } = r.cells;
  const name = `${r.rows.toLocaleString('en-US')} ${r.format === 'csv' ? 'CSV' : 'Parquet'}`;
  return `| ${name} | ${f(r.bytes / 1048576, 1)} | ${r.runs} | ${seconds(read)} | ${peak(read)} | ${seconds(pandas)} | ${peak(pandas)} | ${report(pandas)} | ${seconds(duckdb)} | ${peak(duckdb)} | ${report(duckdb)} | ${ratio(duckdb, read)} | ${ratio(pandas, duckdb)} |`;
}

/** A goal's line: ✓ or ✗ with the number behind it; a failed command fails its goal. */
function goal(
  text: string,
  cells: Cell[],
  check: (cells: Extract<Cell, { ok: true }>[]) => [boolean, string],
) {
  if (!cells.length) return `- – ${text}: not measured`;
  const failed = cells.find((c) => !c.ok);
  if (failed) return `- ✗ ${text}: ${failed.note}`;
  const [holds, value] = check(cells.filter((c) => c.ok));
  return `- ${holds ? '✓' : '✗'} ${text}: ${value}`;
}

const csv = (n: number, ...tools: Tool[]): Cell[] => {
  const row = table.find((r) => r.format === 'csv' && r.rows === n);
  return row ? tools.map((t) => row.cells[t]) : [];
};
const reports = table.flatMap((r) =>
  [r.cells.pandas, r.cells.duckdb].filter((c) => c.ok && c.reportMb !== null),
);
const goals = [
  goal('10k rows analysed in ≤ 1.0 s wall (duckdb, whole command)', csv(1e4, 'duckdb'), ([d]) => [
    (d?.seconds ?? Infinity) <= 1.0,
    `${f(d?.seconds ?? NaN)} s`,
  ]),
  goal(
    '1M rows analysed faster than read_csv loads them (duckdb ÷ read_csv ≤ 1.0×)',
    csv(1e6, 'duckdb', 'read'),
    ([d, r]) => [
      (d?.seconds ?? Infinity) <= (r?.seconds ?? 0),
      `${f((d?.seconds ?? NaN) / (r?.seconds ?? NaN))}×`,
    ],
  ),
  goal('10M rows with peak memory ≤ 1.5 GiB (duckdb, whole tree)', csv(1e7, 'duckdb'), ([d]) => [
    (d?.peakMb ?? Infinity) <= 1536,
    `${f(d?.peakMb ?? NaN, 0)} MiB`,
  ]),
  goal('every report ≤ 5.3 MB with Plotly inlined', reports, (ok) => {
    const largest = Math.max(...ok.map((c) => c.reportMb ?? 0));
    return [largest <= 5.3, `largest ${f(largest)} MB`];
  }),
];

/** The fastest of --repeat runs of a node command, in milliseconds. */
async function fastestMs(argv: string[], overlay: NodeJS.ProcessEnv = {}): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < REPEAT; i += 1)
    best = Math.min(best, (await measure(process.execPath, argv, { ...env, ...overlay })).seconds);
  return best * 1000;
}

const csvRows = table.filter((r) => r.format === 'csv' && r.cells.duckdb.ok);
const phases = csvRows.map((r) => {
  const cell = r.cells.duckdb;
  return cell.ok && cell.session ? phasesOf({ ...cell, session: cell.session }, BIN, env) : [];
});
// The table's runs share one OPSMIND_HOME, so all but the first start from the CLI's code cache
// (src/cli/code-cache.ts), as a person's second run does; this is the smallest file without it.
const noCodeCache = { OPSMIND_NO_CODE_CACHE: '1' };
const [smallest] = csvRows;
const quiet = ['--no-llm', '--json', '-o', join(work, 'uncached.html')];
const startup = smallest
  ? {
      bare: await fastestMs(['-e', '0']),
      version: await fastestMs([BIN, '--version']),
      uncached: await fastestMs([BIN, 'analyze', smallest.path, ...quiet], noCodeCache),
      rows: smallest.rows,
    }
  : null;
const breakdown = startup
  ? [
      '',
      'Where the fastest duckdb run spent its time, ms (from its session events):',
      '',
      `| phase | ${csvRows.map((r) => `${r.rows.toLocaleString('en-US')} rows`).join(' | ')} |`,
      `|---|${csvRows.map(() => '---|').join('')}`,
      ...PHASES.map(
        (name, i) => `| ${name} | ${phases.map((p) => f(p[i] ?? NaN, 0)).join(' | ')} |`,
      ),
      '',
      `For scale, measured apart (best of ${REPEAT}): \`node -e 0\` ${f(startup.bare, 0)} ms, \`node bin/opsmind.js --version\` ${f(startup.version, 0)} ms; the ${startup.rows.toLocaleString('en-US')}-row CSV with \`OPSMIND_NO_CODE_CACHE=1\` (every run compiles the CLI): ${f(startup.uncached / 1000)} s.`,
    ]
  : [];

const output = [
  `best of ${REPEAT} (files of ${SINGLE_RUN_ROWS.toLocaleString('en-US')}+ rows: 1 run); timeout ${TIMEOUT_S} s per command; load average ${f(loadBefore)} → ${f(loadavg()[0] ?? 0)}; python ${python.version}, pandas ${python.pandas}${pyarrow ? '' : ' (no pyarrow)'}; node ${process.version}`,
  '',
  '| rows × 10 cols | file MB | runs | read s | read peak MB | pandas engine s | pandas peak MB | pandas report MB (charts+tables) | duckdb engine s | duckdb peak MB | duckdb report MB (charts+tables) | duckdb ÷ read | pandas ÷ duckdb |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...table.map(line),
  '',
  'Goals:',
  ...goals,
  ...breakdown,
];
console.log(output.join('\n'));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'fast.json'),
  `${JSON.stringify({ python, pyarrow, timeoutS: TIMEOUT_S, repeat: REPEAT, rows: table, phases, startup }, null, 2)}\n`,
);
