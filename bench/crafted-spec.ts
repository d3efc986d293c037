/**
 * bench/crafted-spec: the host's memory when a program writes its own
 * render_spec.json and frames (skipping the preamble's caps). Each case of
 * test/helpers/crafted-spec.ts runs through the built binary under
 * `/usr/bin/time -v` (`opsmind run … --json`); the table gives what rendered,
 * what was refused, what the session stored, and the peak resident memory.
 *
 *   npm run build && node --import tsx bench/crafted-spec.ts [--cases shared-frame,big-tables] [--bin other/bin/opsmind.js] [--timeout-s 600]
 *
 * Goal: the host (node) stays under 600 MB in every case, and a normal run works after them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { CRAFTED_CASES } from '../test/helpers/crafted-spec.js';
import { salesCsv } from '../test/helpers/fixtures.js';

const { values: args } = parseArgs({
  options: {
    cases: { type: 'string', default: CRAFTED_CASES.map((c) => c.name).join(',') },
    bin: { type: 'string' },
    'timeout-s': { type: 'string', default: '600' },
  },
});
/** `--bin` runs another build (e.g. of an older commit) for a before/after comparison. */
const BIN = resolve(args.bin ?? join(import.meta.dirname, '..', 'bin', 'opsmind.js'));
const TIME = '/usr/bin/time';
const GOAL_MB = 600;

if (!existsSync(TIME))
  throw new Error('bench/crafted-spec needs GNU time at /usr/bin/time (apt package "time")');
const work = mkdtempSync(join(tmpdir(), 'opsmind-bench-crafted-'));
const data = salesCsv(work);
const env = {
  ...process.env,
  OPSMIND_HOME: work,
  OPSMIND_DB: '',
  OPENAI_API_KEY: '',
  OPENAI_BASE_URL: '',
};

/** VmHWM (peak resident set) of a process in KiB, or 0 once it is gone. */
function peakKb(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The pid of the first child of `pid` (the node process /usr/bin/time started), or 0. */
function childOf(pid: number): number {
  try {
    return Number(
      readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0] ?? 0,
    );
  } catch {
    return 0;
  }
}

interface Measured {
  code: number | null;
  stdout: string;
  timeMaxMb: number;
  nodePeakMb: number;
  wallSeconds: number;
  timedOut: boolean;
}

/** Runs the CLI under `/usr/bin/time -v`, polling the node process's VmHWM every 20 ms; killed (its process group) after --timeout-s. */
function measureRun(cliArgs: string[]): Promise<Measured> {
  return new Promise((done) => {
    const child = spawn(TIME, ['-v', process.execPath, BIN, ...cliArgs], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let timedOut = false;
    const killer = setTimeout(
      () => {
        timedOut = true;
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      },
      Number(args['timeout-s']) * 1000,
    );
    let stdout = '';
    let stderr = '';
    let nodePeak = 0;
    let node = 0;
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setInterval(() => {
      node ||= child.pid ? childOf(child.pid) : 0;
      if (node) nodePeak = Math.max(nodePeak, peakKb(node));
    }, 20);
    child.once('close', (code) => {
      clearInterval(timer);
      clearTimeout(killer);
      const field = (name: string) => new RegExp(`${name}: (.+)`).exec(stderr)?.[1]?.trim() ?? '';
      const [m = '0', s = '0'] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
        .split(':')
        .slice(-2);
      done({
        code,
        stdout,
        timeMaxMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
        nodePeakMb: nodePeak / 1024,
        wallSeconds: Number(m) * 60 + Number(s),
        timedOut,
      });
    });
  });
}

/** Bytes of the artifacts a session stored. */
function storedBytes(sessionId: string): number {
  const db = new Database(join(work, 'sessions.db'), { readonly: true });
  try {
    return (
      db
        .prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM artifacts WHERE session_id = ?')
        .get(sessionId) as { b: number }
    ).b;
  } finally {
    db.close();
  }
}

interface Row {
  case: string;
  what: string;
  exit: number | string;
  rendered: number;
  warnings: number;
  stored_kb: number;
  wall_s: number;
  time_max_mb: number;
  node_peak_mb: number;
}
const rows: Row[] = [];
for (const name of args.cases.split(',')) {
  const crafted = CRAFTED_CASES.find((c) => c.name === name);
  if (!crafted)
    throw new Error(`no case "${name}"; cases: ${CRAFTED_CASES.map((c) => c.name).join(', ')}`);
  const script = join(work, `${name}.py`);
  writeFileSync(script, crafted.code);
  const run = await measureRun([
    'run',
    script,
    '--data',
    data,
    '-o',
    join(work, `${name}.html`),
    '--json',
  ]);
  let json: { charts: unknown[]; tables: unknown[]; warnings: string[]; session_id: string | null };
  try {
    json = JSON.parse(run.stdout) as typeof json;
  } catch {
    json = { charts: [], tables: [], warnings: [], session_id: null };
  }
  rows.push({
    case: name,
    what: crafted.what,
    exit: run.timedOut ? `killed after ${args['timeout-s']} s` : (run.code ?? -1),
    rendered: json.charts.length + json.tables.length,
    warnings: json.warnings.length,
    stored_kb: json.session_id ? Math.round(storedBytes(json.session_id) / 1024) : -1,
    wall_s: run.wallSeconds,
    time_max_mb: Math.round(run.timeMaxMb),
    node_peak_mb: Math.round(run.nodePeakMb),
  });
}
const normal = join(work, 'normal.py');
writeFileSync(normal, 'declare_chart("bar", x="region", y="revenue")\nprint(df.shape)\n');
const after = await measureRun([
  'run',
  normal,
  '--data',
  data,
  '-o',
  join(work, 'normal.html'),
  '--json',
]);

const lines = [
  `machine: ${process.platform} ${process.arch}, node ${process.version}; goal: node under ${GOAL_MB} MB in every case; a normal run afterwards: ${after.code === 0 ? 'ok' : `FAILED (exit ${String(after.code)})`}`,
  '',
  '| case | what the program wrote | exit | rendered | refused / warnings | stored KB | wall s | max RSS MB (time -v) | node peak MB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.case} | ${r.what} | ${r.exit} | ${r.rendered} | ${r.warnings} | ${r.stored_kb.toLocaleString('en-US')} | ${r.wall_s.toFixed(1)} | ${r.time_max_mb} | ${r.node_peak_mb} |`,
  ),
];
console.log(lines.join('\n'));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'crafted-spec.json'),
  `${JSON.stringify({ rows, normal_after: after.code }, null, 2)}\n`,
);
