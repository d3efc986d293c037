/**
 * End-to-end: the built binary's `opsmind batch` (and `batch merge`): a folder with broken,
 * empty and too-slow files, scripts, --fail-fast, --resume after kill -9, what changed between
 * runs and along a dated series, shards and their merge, the index in a real browser, and bad
 * usage. Each scenario has its own OPSMIND_HOME (the store that makes its re-runs incremental).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import Database from 'better-sqlite3';
import writeXlsxFile from 'write-excel-file/node';
import type { BatchIndex, Entry } from '../src/batch/types.js';
import {
  batch,
  bigCsv,
  entryOf,
  filesUnder,
  mtimeOf,
  newHome,
  pidsWithEnv,
  readIndexJson,
  salesRows,
  salesFile,
  scratchDir,
  removeScratch,
  sleep,
  writeCsv,
} from './helpers/batch.js';
import { findChromium } from './helpers/browser.js';
import { graphJson, ROOT } from './helpers/fixtures.js';

after(removeScratch);

/** Rows of each small file of the mixed folder. */
const SMALL = { a: 300, b: 1200, c: 2500 } as const;
/** The slow file: 4 million rows take ~25 s here (a small file ~0.5 s); the limit is between. */
const SLOW_ROWS = 4_000_000;
const FILE_TIMEOUT_S = 8;

let slowPath: Promise<string> | null = null;

/** The one big CSV of this file's tests (hard-linked into their folders). */
function slowFile(): Promise<string> {
  slowPath ??= (async () => {
    const path = join(scratchDir('opsmind-batch-big-'), 'big.csv');
    await bigCsv(path, SLOW_ROWS);
    return path;
  })();
  return slowPath;
}

/** Spawns `opsmind batch ...args` (asynchronously, for a test that kills something mid-batch). */
function spawnBatch(
  home: string,
  args: string[],
): { child: ChildProcess; exited: Promise<unknown[]>; stderr: () => string } {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'opsmind.js'), 'batch', ...args], {
    env: { ...process.env, OPSMIND_HOME: home, OPSMIND_DB: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return { child, exited: once(child, 'exit'), stderr: () => stderr };
}

/** Whether `promise` settles within `ms`. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits until the folder's index.json satisfies `ready` (a minute at most). */
async function waitForIndex(out: string, ready: (index: BatchIndex) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    assert.ok(Date.now() < deadline, 'the batch got going within a minute');
    if (existsSync(join(out, 'index.json')) && ready(readIndexJson(out))) return;
    await sleep(20);
  }
}

interface Summary {
  out_dir: string;
  index: string;
  totals: { files: number; done: number; failed: number; reused: number };
  failed: { name: string; file: string; error: string }[];
  entries: {
    name: string;
    status: string;
    reused: boolean;
    report: string | null;
    rows: number | null;
  }[];
}

interface Mixed {
  home: string;
  out: string;
  r: { status: number | null; stdout: string; stderr: string };
  took: number;
}

let mixed: Promise<Mixed> | null = null;

/** A folder of three small files, a binary one, an empty one and one too big for its time limit. */
function mixedRun(): Promise<Mixed> {
  mixed ??= (async () => {
    const home = newHome();
    const dir = scratchDir('opsmind-batch-mixed-');
    const data = join(dir, 'data');
    mkdirSync(data);
    for (const [name, rows] of Object.entries(SMALL))
      salesFile(join(data, `${name}.csv`), rows, rows);
    writeFileSync(join(data, 'bad.csv'), Buffer.from([0x50, 0x4b, 0, 0, 1, 0xff, 0, 10, 0, 0]));
    writeFileSync(join(data, 'empty.csv'), '');
    linkSync(await slowFile(), join(data, 'slow.csv'));
    const out = join(dir, 'out');
    const started = Date.now();
    const timeout = ['--file-timeout', String(FILE_TIMEOUT_S)];
    const r = batch(home, [data, '--out-dir', out, '--jobs', '2', ...timeout, '--json']);
    return { home, out, r, took: (Date.now() - started) / 1000 };
  })();
  return mixed;
}

void test('a folder with a binary, an empty and a too-slow file: those fail with their reason, the others are reported, exit 1', async () => {
  const { home, out, r, took } = await mixedRun();
  assert.equal(r.status, 1, r.stderr);
  assert.ok(took < FILE_TIMEOUT_S + 20, `the slow file was stopped at its limit (took ${took} s)`);
  const index = readIndexJson(out);
  assert.deepEqual(index.totals, { files: 6, done: 3, failed: 3, reused: 0 });
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status]),
    [
      ['a', 'done'],
      ['b', 'done'],
      ['bad', 'failed'],
      ['c', 'done'],
      ['empty', 'failed'],
      ['slow', 'failed'],
    ],
  );
  for (const [name, rows] of Object.entries(SMALL)) {
    const e = entryOf(index, name);
    assert.deepEqual([e.rows, e.columns, e.error, e.reused], [rows, 6, null, false], name);
    assert.equal(e.report, `reports/${name}.html`);
    assert.ok(existsSync(join(out, 'reports', `${name}.html`)), `${name}.html`);
    assert.ok(existsSync(join(out, 'reports', `${name}.json`)), `${name}.json`);
    assert.equal(e.snapshot?.rows, rows);
  }
  const bad = entryOf(index, 'bad');
  assert.match(
    bad.error ?? '',
    /looks like a binary file, not a data table \(a NUL byte at offset 2\)/,
  );
  assert.equal(bad.report, null);
  assert.match(entryOf(index, 'empty').error ?? '', /^data file is empty: .*empty\.csv$/);
  const slow = entryOf(index, 'slow');
  assert.equal(
    slow.error,
    `stopped after the ${FILE_TIMEOUT_S} s time limit per file (raise it with --file-timeout)`,
  );
  assert.equal(slow.seconds, FILE_TIMEOUT_S);
  assert.equal(slow.report, null);
  assert.ok(slow.bytes > 100_000_000, 'the slow file was hashed');
  const html = readFileSync(join(out, 'reports', 'a.html'), 'utf8');
  assert.ok(html.includes('<script src="../plotly.min.js"'), 'the report links the one Plotly');
  assert.ok(html.length < 1_000_000, 'and does not inline it');
  const reports = ['a', 'b', 'c'].flatMap((n) => [`reports/${n}.html`, `reports/${n}.json`]);
  assert.deepEqual(filesUnder(out), ['index.html', 'index.json', 'plotly.min.js', ...reports]);
  assert.deepEqual(await leftBehind(home), [], 'no worker is left behind');
});

void test('--json prints one JSON object whose totals, failures and entries match index.json', async () => {
  const { out, r } = await mixedRun();
  const summary = JSON.parse(r.stdout) as Summary;
  const index = readIndexJson(out);
  assert.deepEqual(summary.totals, index.totals);
  assert.deepEqual(summary.totals, { files: 6, done: 3, failed: 3, reused: 0 });
  assert.equal(summary.out_dir, out);
  assert.equal(summary.index, join(out, 'index.html'));
  assert.deepEqual(
    summary.failed,
    index.entries
      .filter((e) => e.status === 'failed')
      .map((e) => ({ name: e.name, file: e.file, error: e.error })),
  );
  assert.deepEqual(
    summary.entries.map((e) => [e.name, e.status, e.rows, e.report]),
    index.entries.map((e) => [e.name, e.status, e.rows, e.report && join(out, e.report)]),
  );
  assert.equal(r.stderr, '', '--json shows no progress');
});

void test('a worker killed mid-file fails only that file; a fresh worker takes the rest', async () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-crash-');
  const data = join(dir, 'data');
  mkdirSync(data);
  salesFile(join(data, 'a.csv'), 300, 1);
  linkSync(await slowFile(), join(data, 'm-slow.csv'));
  salesFile(join(data, 'z.csv'), 300, 2);
  const out = join(dir, 'out');
  const flags = ['--jobs', '1', '--file-timeout', '90'];
  const { child, exited, stderr } = spawnBatch(home, [data, '--out-dir', out, ...flags]);
  await waitForIndex(out, (index) => index.entries.some((e) => e.name === 'a'));
  const workers = batchProcesses(home).workers;
  assert.equal(workers.length, 1, 'one worker, now on m-slow');
  process.kill(workers[0] ?? 0, 'SIGKILL');
  const ended = await within(exited, 20_000);
  if (!ended) child.kill('SIGKILL');
  assert.deepEqual(await leftBehind(home), [], 'no worker left');
  assert.ok(ended, "the batch went on and ended within 20 s of the worker's death");
  const code = child.exitCode;
  assert.doesNotMatch(
    stderr(),
    /Unhandled 'error' event|ERR_IPC_CHANNEL_CLOSED/,
    'the coordinator did not crash',
  );
  assert.equal(code, 1);
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status]),
    [
      ['a', 'done'],
      ['m-slow', 'failed'],
      ['z', 'done'],
    ],
  );
  assert.match(entryOf(index, 'm-slow').error ?? '', /^the worker died \(SIGKILL\)/);
  assert.equal(entryOf(index, 'z').rows, 300);
  assert.match(stderr(), /\[2\/3\] m-slow: failed: the worker died \(SIGKILL\)/);
});

/** A folder for --fail-fast: a good file, then one that fails, then `rest` good ones. */
async function failFastFolder(failing: 'bad' | 'slow'): Promise<{ data: string; out: string }> {
  const dir = scratchDir('opsmind-batch-ff-');
  const data = join(dir, 'data');
  mkdirSync(data);
  salesFile(join(data, 'a.csv'), 400, 1);
  if (failing === 'slow') linkSync(await slowFile(), join(data, 'b-slow.csv'));
  else writeFileSync(join(data, 'b-bad.csv'), Buffer.from([0, 0, 0, 1, 2, 3, 10]));
  for (const name of ['c', 'd', 'e', 'f']) salesFile(join(data, `${name}.csv`), 400, 2);
  return { data, out: join(dir, 'out') };
}

void test('--fail-fast: the batch stops at the first failure (here a time limit), the rest "not run", exit 1', async () => {
  const home = newHome();
  const { data, out } = await failFastFolder('slow');
  const flags = ['--jobs', '1', '--fail-fast', '--file-timeout', '6', '--json'];
  const r = batch(home, [data, '--out-dir', out, ...flags]);
  assert.equal(r.status, 1, r.stderr);
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status]),
    ['a', 'b-slow', 'c', 'd', 'e', 'f'].map((n) => [n, n === 'a' ? 'done' : 'failed']),
  );
  assert.match(entryOf(index, 'b-slow').error ?? '', /^stopped after the 6 s time limit per file/);
  for (const name of ['c', 'd', 'e', 'f']) {
    const e = entryOf(index, name);
    // "not run" (queued) or "not finished" (handed to a worker): never blamed on the file.
    assert.match(
      e.error ?? '',
      /^not (run|finished): --fail-fast stopped the batch after b-slow failed$/,
      name,
    );
    assert.deepEqual([e.report, e.rows, e.session], [null, null, null], name);
    assert.ok(!existsSync(join(out, 'reports', `${name}.html`)), `${name} has no report`);
  }
  const summary = JSON.parse(r.stdout) as Summary;
  assert.deepEqual(summary.totals, { files: 6, done: 1, failed: 5, reused: 0 });
  assert.deepEqual(await leftBehind(home), [], 'no worker left');
  const again = batch(home, [data, '--out-dir', out, '--jobs', '2', '--file-timeout', '6']);
  assert.equal(again.status, 1);
  const rerun = readIndexJson(out);
  assert.deepEqual(
    rerun.totals,
    { files: 6, done: 5, failed: 1, reused: 1 },
    'a re-run does the rest',
  );
});

void test('--fail-fast after a broken file: the batch ends whole, and no other file is blamed for the stop', async () => {
  const home = newHome();
  const { data, out } = await failFastFolder('bad');
  const r = batch(home, [data, '--out-dir', out, '--jobs', '1', '--fail-fast', '--json']);
  assert.doesNotMatch(r.stderr, /Unhandled 'error' event/, 'the coordinator did not crash');
  assert.equal(r.status, 1, r.stderr);
  assert.equal((JSON.parse(r.stdout) as Summary).totals.files, 6);
  const index = readIndexJson(out);
  assert.equal(index.totals.files, 6);
  assert.equal(entryOf(index, 'a').status, 'done');
  assert.match(entryOf(index, 'b-bad').error ?? '', /binary file/);
  for (const e of index.entries)
    if (e.name !== 'b-bad' && e.status === 'failed')
      assert.match(e.error ?? '', /^not (run|finished): --fail-fast/, `${e.name}: ${e.error}`);
});

const TABLE_SCRIPT = `
by_region = df.groupby("region", as_index=False)["revenue"].sum()
print(f"{len(df)} rows, {by_region['region'].nunique()} regions")
declare_table(by_region, title="Revenue by region")
declare_table(df.describe(), title="Summary statistics")
declare_chart("bar", by_region, x="region", y="revenue", title="Revenue per region")
`;

void test("--script over a folder: every report has the script's tables; a file it raises on fails alone", () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-script-');
  const data = join(dir, 'data');
  mkdirSync(data);
  salesFile(join(data, 'north.csv'), 500, 0);
  salesFile(join(data, 'south.csv'), 700, 3);
  writeFileSync(
    join(data, 'noregion.csv'),
    ['date,units,revenue', '2024-01-01,3,30.5', '2024-01-02,4,41.25', '2024-01-03,5,50'].join('\n'),
  );
  const script = join(dir, 'report.py');
  writeFileSync(script, TABLE_SCRIPT);
  const out = join(dir, 'out');
  const r = batch(home, [data, '--out-dir', out, '--script', script, '--jobs', '2']);
  assert.equal(r.status, 1, r.stderr);
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status, e.rows]),
    [
      ['noregion', 'failed', null],
      ['north', 'done', 500],
      ['south', 'done', 700],
    ],
  );
  assert.match(
    entryOf(index, 'noregion').error ?? '',
    /^the script failed \(exit 1\): KeyError: 'region'/,
  );
  assert.equal(index.settings.mode, 'script');
  for (const name of ['north', 'south']) {
    const html = readFileSync(join(out, 'reports', `${name}.html`), 'utf8');
    assert.ok(html.includes('<h2>Revenue by region</h2>'), `${name}: the group-by table`);
    assert.ok(html.includes('<h2>Summary statistics</h2>'), `${name}: the describe() table`);
    assert.equal(html.match(/data-table-id=/g)?.length, 2, `${name}: two tables`);
    assert.ok(html.includes('data-chart-id='), `${name}: the chart`);
    assert.ok(html.includes('<script src="../plotly.min.js"'), `${name} links the folder's Plotly`);
  }
  assert.match(
    r.stdout,
    /^batch: 2 of 3 files done, 1 failed\n {2}failed: noregion: the script failed/,
  );
});

void test("a file restored after a failed run is not kept with the failed run's report", () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-stale-');
  const data = join(dir, 'data');
  mkdirSync(data);
  const file = salesFile(join(data, 'x.csv'), 300, 0);
  const good = readFileSync(file);
  const script = join(dir, 'report.py');
  writeFileSync(script, TABLE_SCRIPT);
  const out = join(dir, 'out');
  const args = [data, '--out-dir', out, '--script', script, '--jobs', '1'];
  assert.equal(batch(home, args).status, 0);
  writeFileSync(file, 'date,units,revenue\n2024-01-01,3,30.5\n2024-01-02,4,41\n');
  const failed = batch(home, args);
  assert.equal(failed.status, 1, 'run 2 fails: no region column');
  writeFileSync(file, good);
  const r = batch(home, args);
  assert.equal(r.status, 0, r.stderr);
  const e = entryOf(readIndexJson(out), 'x');
  assert.equal(e.status, 'done');
  const html = readFileSync(join(out, 'reports', 'x.html'), 'utf8');
  assert.ok(
    html.includes('<h2>Revenue by region</h2>'),
    'the report of a done file is its done report',
  );
  assert.equal(html.match(/data-table-id=/g)?.length, 2, 'with both tables');
});

/** Live processes of one scenario's batch: the bundled workers (`pgrep -f 'worker-main[.]js'`) and the coordinator, by its OPSMIND_HOME. */
function batchProcesses(home: string): { workers: number[]; all: number[] } {
  const all = pidsWithEnv('OPSMIND_HOME', home);
  const pgrep = spawnSync('pgrep', ['-f', 'worker-main[.]js'], { encoding: 'utf8' });
  const workers = pgrep.stdout
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => all.includes(pid));
  return { workers, all };
}

/** The processes of a scenario's batch still alive after up to `ms` (polled). */
async function leftBehind(home: string, ms = 5000): Promise<number[]> {
  let left = batchProcesses(home).all;
  for (const until = Date.now() + ms; left.length && Date.now() < until;) {
    await sleep(100);
    left = batchProcesses(home).all;
  }
  return left;
}

interface Killed {
  home: string;
  data: string;
  out: string;
  /** The entries done when the coordinator was killed, and their reports' mtimes and contents. */
  doneBefore: Entry[];
  mtimes: Map<string, number>;
  bodies: Map<string, string>;
  workersBefore: number[];
  leftAfter: number[];
  resumed: { status: number | null; stdout: string; stderr: string };
}

const RESUME_FILES = 16;
let killedRun: Promise<Killed> | null = null;

/** The report without the "What changed" slot that the batch fills at its end. */
function reportBody(html: string): string {
  const start = html.indexOf('<!--opsmind:changes-->');
  const endMarker = '<!--/opsmind:changes-->';
  const end = html.indexOf(endMarker);
  if (start < 0) return html;
  return (
    html.slice(0, start) +
    (end > start ? html.slice(end + endMarker.length) : html.slice(start + 22))
  );
}

/** 16 files through 2 workers; the coordinator kill -9'd once a few are done; then --resume. */
function killedAndResumed(): Promise<Killed> {
  killedRun ??= (async () => {
    const home = newHome();
    const dir = scratchDir('opsmind-batch-resume-');
    const data = join(dir, 'data');
    mkdirSync(data);
    for (let i = 1; i <= RESUME_FILES; i += 1)
      salesFile(join(data, `part${String(i).padStart(2, '0')}.csv`), 1500 + i * 10, i);
    const out = join(dir, 'out');
    const { child, exited } = spawnBatch(home, [data, '--out-dir', out, '--jobs', '2']);
    let workersBefore: number[] = [];
    await waitForIndex(out, (index) => {
      workersBefore = batchProcesses(home).workers;
      return index.totals.done >= 4;
    });
    assert.ok(child.pid !== undefined);
    process.kill(child.pid, 'SIGKILL');
    await exited;
    // What the killed run finished is what its ledger says (index.json follows it within a second).
    const ledger = new Database(join(home, 'sessions.db'), { readonly: true });
    const doneBefore = (
      ledger.prepare("SELECT entry FROM batch_files WHERE status = 'done' ORDER BY name").all() as {
        entry: string;
      }[]
    ).map((r) => JSON.parse(r.entry) as Entry);
    ledger.close();
    const mtimes = new Map<string, number>();
    const bodies = new Map<string, string>();
    for (const e of doneBefore) {
      const report = join(out, e.report ?? '');
      mtimes.set(e.name, mtimeOf(report));
      bodies.set(e.name, reportBody(readFileSync(report, 'utf8')));
    }
    const leftAfter = await leftBehind(home);
    await sleep(50); // so a rewritten report would have another mtime
    const resumed = batch(home, [data, '--out-dir', out, '--jobs', '2', '--resume']);
    return { home, data, out, doneBefore, mtimes, bodies, workersBefore, leftAfter, resumed };
  })();
  return killedRun;
}

void test('kill -9 mid-batch leaves no worker; --resume redoes nothing done and finishes the rest, exit 0', async () => {
  const k = await killedAndResumed();
  assert.ok(k.workersBefore.length >= 1, 'workers were seen running before the kill');
  assert.deepEqual(k.leftAfter, [], 'no process of the killed batch is left');
  assert.ok(
    k.doneBefore.length >= 4 && k.doneBefore.length < RESUME_FILES,
    `${k.doneBefore.length} done before the kill`,
  );
  assert.equal(k.resumed.status, 0, k.resumed.stderr);
  const index = readIndexJson(k.out);
  assert.equal(index.entries.length, RESUME_FILES);
  assert.deepEqual(index.totals, {
    files: RESUME_FILES,
    done: RESUME_FILES,
    failed: 0,
    reused: k.doneBefore.length,
  });
  const killedRunId = k.doneBefore[0]?.run;
  const before = new Map(k.doneBefore.map((e) => [e.name, e]));
  for (const e of index.entries) {
    const was = before.get(e.name);
    assert.equal(e.status, 'done', e.name);
    assert.equal(e.rows, 1500 + Number(e.name.slice(4)) * 10, e.name);
    if (was) {
      assert.equal(e.reused, true, `${e.name} kept`);
      assert.equal(e.run, killedRunId, `${e.name}: still the killed run's report`);
      assert.equal(e.session, was.session, e.name);
      assert.equal(e.sha256, was.sha256, e.name);
      const body = reportBody(readFileSync(join(k.out, e.report ?? ''), 'utf8'));
      assert.ok(body === k.bodies.get(e.name), `${e.name}: the report was not made again`);
    } else {
      assert.equal(e.reused, false, `${e.name} run by the resume`);
      assert.notEqual(e.run, killedRunId, e.name);
      assert.ok(existsSync(join(k.out, 'reports', `${e.name}.html`)));
    }
  }
  assert.match(
    k.resumed.stderr,
    new RegExp(
      `^batch: ${RESUME_FILES} files, ${RESUME_FILES - k.doneBefore.length} to run on 2 workers, ${k.doneBefore.length} unchanged\\n`,
    ),
  );
  assert.deepEqual(await leftBehind(k.home), [], 'no worker after the resumed batch');
  const db = new Database(join(k.home, 'sessions.db'), { readonly: true });
  try {
    const runs = db.prepare('SELECT status FROM batch_runs ORDER BY started_at').all();
    assert.deepEqual(runs, [{ status: 'interrupted' }, { status: 'done' }], 'the ledger');
  } finally {
    db.close();
  }
});

void test('--resume leaves the reports the killed run finished untouched (same mtime)', async () => {
  const k = await killedAndResumed();
  assert.equal(k.resumed.status, 0);
  for (const e of k.doneBefore)
    assert.equal(mtimeOf(join(k.out, e.report ?? '')), k.mtimes.get(e.name), `${e.name}: mtime`);
});

void test('--resume on a folder no batch wrote to: exit 2, one error line', () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-noresume-');
  salesFile(join(dir, 'a.csv'), 100);
  const r = batch(home, [join(dir, 'a.csv'), '--out-dir', join(dir, 'out'), '--resume']);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^opsmind: nothing to resume: no earlier run wrote to .*out\n {2}hint: run it without --resume\n$/,
  );
  assert.ok(!existsSync(join(dir, 'out', 'index.json')));
});

/** The sum of a column of a CSV file, read back from the file. */
function csvSum(path: string, column: string): number {
  const [header = '', ...lines] = readFileSync(path, 'utf8').trim().split('\n');
  const at = header.split(',').indexOf(column);
  assert.ok(at >= 0, `${path} has ${column}`);
  return lines.reduce((s, l) => s + Number(l.split(',')[at]), 0);
}

function assertClose(actual: number | undefined, expected: number, what: string): void {
  assert.ok(actual !== undefined, `${what} is there`);
  assert.ok(
    Math.abs(actual - expected) <= 1e-6 * Math.abs(expected),
    `${what}: ${actual} vs ${expected}`,
  );
}

/** The report's numbers as the "What changed" lines print them (en-US, no decimals from 100 up). */
function big(v: number): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

interface TwoRuns {
  home: string;
  data: string;
  out: string;
  files: { sales: string; month: (m: number) => string };
  before: { revenue: number; units: number; rows: number };
  after: { revenue: number; units: number; rows: number };
  run1: BatchIndex;
  run2: BatchIndex;
  r2: { status: number | null; stdout: string; stderr: string };
}

let twoRuns: TwoRuns | null = null;

/** Run 1 over sales.csv and a dated series; then sales.csv changed; run 2 over the same folder. */
function changedBetweenRuns(): TwoRuns {
  if (twoRuns) return twoRuns;
  const home = newHome();
  const dir = scratchDir('opsmind-batch-changes-');
  const data = join(dir, 'data');
  mkdirSync(data);
  const rows = salesRows(1200, 0);
  const sales = writeCsv(join(data, 'sales.csv'), rows as unknown as Record<string, number>[]);
  const month = (m: number): string => join(data, `x-2024-0${m}.csv`);
  [600, 700, 650].forEach((n, i) => salesFile(month(i + 1), n, i + 1));
  const out = join(dir, 'out');
  const r1 = batch(home, [data, '--out-dir', out, '--jobs', '2']);
  assert.equal(r1.status, 0, r1.stderr);
  const run1 = readIndexJson(out);
  const before = { revenue: csvSum(sales, 'revenue'), units: csvSum(sales, 'units'), rows: 1200 };
  const changed = rows
    .filter((r) => r.region !== 'Central')
    .map((r, i) => ({ ...r, revenue: r.revenue * 1.5, discount_pct: (i % 4) * 2.5 }));
  writeCsv(sales, changed);
  const after = {
    revenue: csvSum(sales, 'revenue'),
    units: csvSum(sales, 'units'),
    rows: changed.length,
  };
  const r2 = batch(home, [data, '--out-dir', out, '--jobs', '2']);
  const run2 = readIndexJson(out);
  twoRuns = { home, data, out, files: { sales, month }, before, after, run1, run2, r2 };
  return twoRuns;
}

void test('two runs: changes.previous_run has the added column, the vanished category, exact rows and sums, the shift', () => {
  const t = changedBetweenRuns();
  assert.equal(t.r2.status, 0, t.r2.stderr);
  assert.equal(
    entryOf(t.run1, 'sales').changes.previous_run,
    null,
    'run 1 has nothing to compare with',
  );
  const e = entryOf(t.run2, 'sales');
  assert.equal(e.reused, false);
  assert.equal(e.rows, 960);
  const c = e.changes.previous_run;
  assert.ok(c, 'run 2 compares sales with run 1');
  assert.equal(c.against.kind, 'previous_run');
  assert.equal(c.against.name, 'sales');
  assert.equal(c.against.sha256, entryOf(t.run1, 'sales').sha256);
  assert.equal(c.same_content, false);
  assert.deepEqual(c.columns_added, ['discount_pct']);
  assert.deepEqual(c.columns_removed, []);
  assert.deepEqual(c.type_changes, []);
  assert.deepEqual(c.categories, [{ column: 'region', appeared: [], vanished: ['Central'] }]);
  assert.deepEqual(c.rows, { before: 1200, after: 960, change: -240, pct: -20 });
  const revenue = c.measures.find((m) => m.column === 'revenue');
  assert.equal(revenue?.stat, 'sum');
  assertClose(revenue?.before, t.before.revenue, 'revenue before');
  assertClose(revenue?.after, t.after.revenue, 'revenue after');
  assertClose(revenue?.change, t.after.revenue - t.before.revenue, 'revenue change');
  const units = c.measures.find((m) => m.column === 'units');
  assert.equal(units?.stat, 'sum');
  assert.equal(units?.before, t.before.units);
  assert.equal(units?.after, t.after.units);
  const shift = c.shifts.find((s) => s.column === 'revenue');
  assert.ok(shift && shift.psi > 0.1, `revenue shifted: ${JSON.stringify(c.shifts)}`);
  assert.ok(['moderate', 'significant'].includes(shift.level), shift.level);
  assert.equal(shift.level, shift.psi >= 0.25 ? 'significant' : 'moderate');
  assert.equal(e.changes.series, null, 'sales is no dated series');
});

void test('two runs: the report and index.html show "What changed" with those numbers', () => {
  const t = changedBetweenRuns();
  const c = entryOf(t.run2, 'sales').changes.previous_run;
  assert.ok(c);
  const psi = c.shifts.find((s) => s.column === 'revenue')?.psi ?? NaN;
  const lines = [
    'Columns added: discount_pct.',
    'Rows: 1,200 → 960 (-240, -20.0%).',
    'Gone from region: Central.',
    `Total revenue: ${big(t.before.revenue)} → ${big(t.after.revenue)} (+${(((t.after.revenue - t.before.revenue) / t.before.revenue) * 100).toFixed(1)}%).`,
    `Total units: ${big(t.before.units)} → ${big(t.after.units)}`,
    `The distribution of revenue shifted (${psi >= 0.25 ? 'significant' : 'moderate'}: PSI ${psi.toFixed(2)}`,
  ];
  const report = readFileSync(join(t.out, 'reports', 'sales.html'), 'utf8');
  const section =
    /<section class="card changes" id="changes"><h2>What changed<\/h2>[\s\S]*?<\/section>/.exec(
      report,
    )?.[0] ?? '';
  assert.ok(section, 'the report has a What changed section');
  assert.ok(section.includes('Since the previous run (sales, '), 'names what it compares with');
  const index = readFileSync(join(t.out, 'index.html'), 'utf8');
  const row = /<tr id="file-sales">[\s\S]*?<\/tr>/.exec(index)?.[0] ?? '';
  for (const line of lines) {
    assert.ok(section.includes(line), `report: ${line}\n${section}`);
    assert.ok(row.includes(line), `index.html: ${line}`);
  }
  assert.equal(
    report.indexOf('<!--opsmind:changes-->'),
    report.lastIndexOf('<!--opsmind:changes-->'),
  );
});

void test('a dated series in one run: each month against the one before, the first against none', () => {
  const t = changedBetweenRuns();
  const rows = [600, 700, 650];
  for (const index of [t.run1, t.run2]) {
    assert.equal(entryOf(index, 'x-2024-01').changes.series, null);
    for (const m of [2, 3]) {
      const s = entryOf(index, `x-2024-0${m}`).changes.series;
      assert.ok(s, `x-2024-0${m} has a series comparison`);
      assert.deepEqual(s.against, {
        kind: 'series',
        name: `x-2024-0${m - 1}`,
        sha256: entryOf(index, `x-2024-0${m - 1}`).sha256,
        when: `2024-0${m - 1}`,
      });
      assert.equal(s.same_content, false);
      assert.equal(s.rows.before, rows[m - 2]);
      assert.equal(s.rows.after, rows[m - 1]);
      assertClose(
        s.measures.find((x) => x.column === 'revenue')?.after,
        csvSum(t.files.month(m), 'revenue'),
        `x-2024-0${m} revenue`,
      );
      assertClose(
        s.measures.find((x) => x.column === 'revenue')?.before,
        csvSum(t.files.month(m - 1), 'revenue'),
        `x-2024-0${m - 1} revenue`,
      );
    }
  }
  const html = readFileSync(join(t.out, 'reports', 'x-2024-02.html'), 'utf8');
  assert.ok(html.includes('Since x-2024-01, the previous file of the series (2024-01)'));
  assert.ok(html.includes('Rows: 600 → 700 (+100, +16.7%).'));
});

void test('a re-run keeps the unchanged files (reused, same run) and says they did not change', () => {
  const t = changedBetweenRuns();
  assert.equal(t.run2.totals.reused, 3);
  assert.match(t.r2.stderr, /^batch: 4 files, 1 to run on 2 workers, 3 unchanged\n/);
  for (const m of [1, 2, 3]) {
    const name = `x-2024-0${m}`;
    const e = entryOf(t.run2, name);
    assert.equal(e.reused, true, name);
    assert.equal(e.run, entryOf(t.run1, name).run, name);
    const since = e.changes.previous_run;
    assert.ok(
      since === null || since.same_content,
      `${name}: nothing changed, if anything is said`,
    );
    assert.deepEqual(
      e.changes.series,
      entryOf(t.run1, name).changes.series,
      `${name}: same series`,
    );
  }
  assert.notEqual(entryOf(t.run2, 'sales').run, entryOf(t.run1, 'sales').run);
});

void test('--force redoes every file, unchanged or not, and compares each with the run before', () => {
  const t = changedBetweenRuns();
  const home = t.home;
  const r = batch(home, [t.data, '--out-dir', t.out, '--jobs', '2', '--force']);
  assert.equal(r.status, 0, r.stderr);
  const run3 = readIndexJson(t.out);
  assert.deepEqual(run3.totals, { files: 4, done: 4, failed: 0, reused: 0 });
  const runs = new Set(run3.entries.map((e) => e.run));
  assert.equal(runs.size, 1, 'one new run made every report');
  assert.ok(!runs.has(entryOf(t.run2, 'sales').run));
  for (const e of run3.entries) assert.equal(e.changes.previous_run?.same_content, true, e.name);
});

void test('an output folder inside the input folder is not taken as input on the next run', () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-nested-');
  const data = join(dir, 'data');
  mkdirSync(data);
  salesFile(join(data, 'a.csv'), 200);
  const out = join(data, 'out');
  assert.equal(batch(home, [data, '--out-dir', out]).status, 0);
  const r = batch(home, [data, '--out-dir', out]);
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => e.name),
    ['a'],
    `inputs of the re-run: ${index.entries.map((e) => e.name).join(', ')}`,
  );
  assert.equal(r.status, 0);
  assert.equal(index.totals.reused, 1);
});

void test('a folder or glob takes in symlinked data files', () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-links-');
  mkdirSync(join(dir, 'real'));
  mkdirSync(join(dir, 'data'));
  salesFile(join(dir, 'real', 'linked.csv'), 200, 1);
  salesFile(join(dir, 'data', 'plain.csv'), 250, 2);
  symlinkSync(join(dir, 'real', 'linked.csv'), join(dir, 'data', 'linked.csv'));
  for (const input of [join(dir, 'data'), join(dir, 'data', '*.csv')]) {
    const out = join(dir, `out-${input.endsWith('*.csv') ? 'glob' : 'dir'}`);
    const r = batch(home, [input, '--out-dir', out]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      readIndexJson(out).entries.map((e) => [e.name, e.rows]),
      [
        ['linked', 200],
        ['plain', 250],
      ],
      input,
    );
  }
});

const SHARD_FILES = ['alpha', 'beta', 'gamma', 'eta', 'theta', 'mu'];
const SERIES = ['x-2024-01', 'x-2024-02', 'x-2024-03'];

interface Shards {
  data: string;
  dirs: string[];
  merged: string;
  unsharded: string;
  shardRuns: { status: number | null; stderr: string }[];
  mergeRun: { status: number | null; stdout: string; stderr: string };
}

let shards: Shards | null = null;

/** 9 files (with a dated series of 3) in 3 shards merged, and the same batch unsharded. */
function shardedAndMerged(): Shards {
  if (shards) return shards;
  const home = newHome();
  const dir = scratchDir('opsmind-batch-shards-');
  const data = join(dir, 'data');
  mkdirSync(data);
  SHARD_FILES.forEach((name, i) => salesFile(join(data, `${name}.csv`), 300 + i * 50, i));
  SERIES.forEach((name, i) => salesFile(join(data, `${name}.csv`), 400 + i * 100, 10 + i));
  const dirs = [1, 2, 3].map((k) => join(dir, `d${k}`));
  const shardRuns = dirs.map((d, i) =>
    batch(home, [data, '--out-dir', d, '--shard', `${i + 1}/3`, '--jobs', '2']),
  );
  const merged = join(dir, 'm');
  const mergeRun = batch(home, ['merge', ...dirs, '--out-dir', merged, '--json']);
  const unsharded = join(dir, 'u');
  const u = batch(home, [data, '--out-dir', unsharded, '--jobs', '2']);
  assert.equal(u.status, 0, u.stderr);
  shards = { data, dirs, merged, unsharded, shardRuns, mergeRun };
  return shards;
}

/**
 * An index without what legitimately differs between two runs of the same files: when it was
 * written, and each entry's run id, session id and seconds. Everything else (settings and
 * settings_hash, sha256, rows, findings, snapshot, changes, totals, shard: null) must be equal.
 */
function normalised(index: BatchIndex): unknown {
  return {
    ...index,
    generated_at: null,
    entries: index.entries.map((e) => ({ ...e, run: null, session: null, seconds: null })),
  };
}

void test('--shard K/3 splits the files (a series stays whole); batch merge equals the unsharded run', () => {
  const s = shardedAndMerged();
  s.shardRuns.forEach((r, i) => assert.equal(r.status, 0, `shard ${i + 1}: ${r.stderr}`));
  const parts = s.dirs.map((d) => readIndexJson(d));
  parts.forEach((p, i) => assert.deepEqual(p.shard, { index: i + 1, count: 3 }));
  const names = parts.map((p) => p.entries.map((e) => e.name));
  const all = [...SHARD_FILES, ...SERIES].sort();
  assert.deepEqual(names.flat().sort(), all, 'every file in exactly one shard');
  assert.ok(
    names.every((n) => n.length > 0),
    `no empty shard: ${JSON.stringify(names)}`,
  );
  const home = names.find((n) => n.includes('x-2024-01')) ?? [];
  assert.ok(
    SERIES.every((n) => home.includes(n)),
    'the series is in one shard',
  );

  assert.equal(s.mergeRun.status, 0, s.mergeRun.stderr);
  const summary = JSON.parse(s.mergeRun.stdout) as Summary;
  assert.deepEqual(summary.totals, { files: 9, done: 9, failed: 0, reused: 0 });
  const merged = readIndexJson(s.merged);
  const unsharded = readIndexJson(s.unsharded);
  assert.equal(merged.shard, null);
  assert.deepEqual(normalised(merged), normalised(unsharded));
  assert.ok(entryOf(merged, 'x-2024-02').changes.series, 'the merge has the series comparisons');
  for (const name of all) {
    assert.ok(existsSync(join(s.merged, 'reports', `${name}.html`)), `${name}.html merged`);
    assert.ok(existsSync(join(s.merged, 'reports', `${name}.json`)), `${name}.json merged`);
  }
  const files = filesUnder(s.merged);
  assert.deepEqual(
    files.filter((f) => /plotly/i.test(f)),
    ['plotly.min.js'],
    'one copy of Plotly',
  );
  assert.deepEqual(files.length, 3 + 2 * all.length);
  const series = readFileSync(join(s.merged, 'reports', 'x-2024-03.html'), 'utf8');
  assert.ok(series.includes('Since x-2024-02, the previous file of the series (2024-02)'));
});

void test('batch merge refuses a shard given twice, or the merged folder among its shards: exit 2', () => {
  const s = shardedAndMerged();
  const home = newHome();
  const twice = batch(home, [
    'merge',
    s.dirs[0] ?? '',
    s.dirs[0] ?? '',
    '--out-dir',
    `${s.merged}-2`,
  ]);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /^opsmind: \S+ is in two shards \(.*\); merge shards of one batch\n$/);
  const into = batch(home, ['merge', ...s.dirs, s.merged, '--out-dir', s.merged]);
  assert.equal(into.status, 2);
  assert.match(into.stderr, /^opsmind: the merged folder .* is one of the shards\n$/);
  assert.deepEqual(normalised(readIndexJson(s.merged)), normalised(readIndexJson(s.unsharded)));
});

const PLOTS = '.js-plotly-plot:has(svg.main-svg)';
const CHARTS = '[data-chart-id]:has(.plotly-chart)';
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

/** A page that records console errors and blocks (and records) anything not local. */
async function watchedPage(
  browser: Browser,
): Promise<{ page: Page; errors: string[]; remote: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  const remote: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (['file:', 'data:', 'blob:'].some((scheme) => url.startsWith(scheme)))
      return route.continue();
    remote.push(url);
    return route.abort('blockedbyclient');
  });
  return { page, errors, remote };
}

/** Waits until Plotly has drawn every chart of the page (at least one); returns how many. */
async function chartsDrawn(page: Page): Promise<number> {
  await page.waitForFunction(
    `document.querySelectorAll(${JSON.stringify(PLOTS)}).length >= Math.max(1, document.querySelectorAll(${JSON.stringify(CHARTS)}).length)`,
    undefined,
    { timeout: 20_000, polling: 50 },
  );
  return page.locator(PLOTS).count();
}

void test(
  'the merged index in headless Chromium: no console errors, every link resolves, a report from it draws its charts',
  { skip: findChromium() ? false : 'no Chromium installed' },
  async () => {
    const s = shardedAndMerged();
    const browser = await chromium.launch({
      executablePath: findChromium(),
      headless: true,
      args: LAUNCH_ARGS,
    });
    try {
      const { page, errors, remote } = await watchedPage(browser);
      const indexUrl = pathToFileURL(join(s.merged, 'index.html')).href;
      await page.goto(indexUrl, { waitUntil: 'load' });
      assert.equal(await page.locator('table.files tbody tr').count(), 9);
      const hrefs = await page.evaluate<string[]>(
        'Array.from(document.querySelectorAll("a[href]")).map((a) => a.href)',
      );
      assert.equal(hrefs.length, 9, 'one link per report');
      for (const href of hrefs) {
        assert.ok(href.startsWith('file:') && existsSync(fileURLToPath(href)), `${href} exists`);
        await page.goto(href, { waitUntil: 'load' });
        assert.ok((await chartsDrawn(page)) >= 1, `${href} draws its charts`);
      }
      await page.goto(indexUrl, { waitUntil: 'load' });
      await Promise.all([
        page.waitForURL(/reports\/x-2024-02\.html$/),
        page.click('a:text-is("x-2024-02")'),
      ]);
      const drawn = await chartsDrawn(page);
      assert.equal(drawn, await page.locator('[data-chart-id]').count(), 'every chart drawn');
      const plotly = await page.evaluate('typeof window.Plotly');
      assert.equal(plotly, 'object', 'Plotly from ../plotly.min.js');
      assert.ok(await page.locator('#changes').isVisible(), 'the What changed section shows');
      const changes = (await page.locator('#changes').textContent()) ?? '';
      assert.match(changes, /Since x-2024-01, the previous file of the series/);
      assert.deepEqual(errors, [], 'no console errors');
      assert.deepEqual(remote, [], 'nothing fetched from the network');
    } finally {
      await browser.close();
    }
  },
);

interface UsageDir {
  home: string;
  data: string;
  out: string;
  script: string;
  noDatasets: string;
  config: string;
  missing: string;
}

let usage: UsageDir | null = null;

/** A folder with one data file, a script and a config without datasets, for the usage errors. */
function usageDir(): UsageDir {
  if (usage) return usage;
  const dir = scratchDir('opsmind-batch-usage-');
  const data = join(dir, 'data');
  mkdirSync(data);
  salesFile(join(data, 'a.csv'), 100);
  const script = join(dir, 'report.py');
  writeFileSync(script, TABLE_SCRIPT);
  const noDatasets = join(dir, 'no-datasets.json');
  writeFileSync(noDatasets, JSON.stringify({ out_dir: 'out', question: 'why?' }));
  const config = join(dir, 'batch.json');
  writeFileSync(config, JSON.stringify({ datasets: [{ path: 'data/a.csv' }], out_dir: 'out' }));
  const out = join(dir, 'out');
  const missing = join(dir, 'missing.csv');
  usage = { home: newHome(), data, out, script, noDatasets, config, missing };
  return usage;
}

const NO_LLM = { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', OPSMIND_MODEL: '' };

const USAGE: {
  what: string;
  args: (u: UsageDir) => string[];
  message: RegExp;
  env?: NodeJS.ProcessEnv;
}[] = [
  { what: 'no inputs', args: (u) => ['--out-dir', u.out], message: /^name the files to report on/ },
  { what: 'no --out-dir', args: (u) => [u.data], message: /^--out-dir is required$/ },
  {
    what: '--shard 0/3',
    args: (u) => [u.data, '--out-dir', u.out, '--shard', '0/3'],
    message: /^--shard must be K\/N with 1 ≤ K ≤ N, got "0\/3"$/,
  },
  {
    what: '--shard 4/3',
    args: (u) => [u.data, '--out-dir', u.out, '--shard', '4/3'],
    message: /^--shard must be K\/N/,
  },
  {
    what: '--jobs 0',
    args: (u) => [u.data, '--out-dir', u.out, '--jobs', '0'],
    message: /^--jobs must be a whole number ≥ 1, got "0"$/,
  },
  {
    what: '--file-timeout 0',
    args: (u) => [u.data, '--out-dir', u.out, '--file-timeout', '0'],
    message: /^--file-timeout must be a whole number ≥ 1/,
  },
  {
    what: 'a missing input',
    args: (u) => [u.missing, '--out-dir', u.out],
    message: /^no such file or folder: .*missing\.csv$/,
  },
  {
    what: 'a --config without datasets',
    args: (u) => ['--config', u.noDatasets],
    message: /^the batch config .*no-datasets\.json is not valid: datasets: /,
  },
  {
    what: 'a missing --config',
    args: (u) => ['--config', `${u.noDatasets}.nope`],
    message: /^cannot read the batch config /,
  },
  {
    what: '--config and inputs',
    args: (u) => [u.data, '--config', u.config],
    message: /^give either files or --config, not both$/,
  },
  {
    what: '--mode deep without an LLM',
    args: (u) => [u.data, '--out-dir', u.out, '--mode', 'deep'],
    message: /^--mode deep needs an LLM, and none is configured$/,
    env: NO_LLM,
  },
  {
    what: '--mode turbo',
    args: (u) => [u.data, '--out-dir', u.out, '--mode', 'turbo'],
    message: /^--mode must be "fast" or "deep", got "turbo"$/,
  },
  {
    what: '--script and -q',
    args: (u) => [u.data, '--out-dir', u.out, '--script', u.script, '-q', 'why?'],
    message: /^give --script or -q, not both$/,
  },
  {
    what: 'merge without --out-dir',
    args: (u) => ['merge', u.data],
    message: /^batch merge needs --out-dir$/,
  },
  {
    what: 'merge of a folder that is no batch',
    args: (u) => ['merge', u.data, '--out-dir', u.out],
    message: /has no readable index\.json: not a batch folder$/,
  },
];

for (const c of USAGE)
  void test(`bad usage, ${c.what}: exit 2, one error line (and its hint), no output folder`, () => {
    const u = usageDir();
    const r = batch(u.home, c.args(u), c.env);
    assert.equal(r.status, 2, r.stderr);
    assert.equal(r.stdout, '');
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.filter((l) => !l.startsWith('  hint: ')).length, 1, `one line: ${r.stderr}`);
    assert.ok(lines.length <= 2, r.stderr);
    assert.match(lines[0] ?? '', /^opsmind: /);
    assert.match((lines[0] ?? '').slice('opsmind: '.length), c.message);
    assert.ok(!existsSync(u.out), 'no output folder');
  });

void test('--config with two datasets, each with its own name and question', () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-config-');
  mkdirSync(join(dir, 'data'));
  salesFile(join(dir, 'data', 'north.csv'), 500, 0);
  salesFile(join(dir, 'data', 'units.csv'), 800, 4);
  const questions = ['Which region has the most revenue?', 'Which channel sells the most units?'];
  writeFileSync(
    join(dir, 'batch.json'),
    JSON.stringify({
      datasets: [
        { path: 'data/north.csv', name: 'revenue-by-region', question: questions[0] },
        { path: join(dir, 'data', 'units.csv'), name: 'units.by_channel', question: questions[1] },
      ],
      out_dir: 'out',
      jobs: 2,
    }),
  );
  const r = batch(home, ['--config', join(dir, 'batch.json'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = join(dir, 'out');
  const summary = JSON.parse(r.stdout) as Summary;
  assert.equal(summary.out_dir, out, 'out_dir is relative to the config file');
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status, e.rows, e.report]),
    [
      ['revenue-by-region', 'done', 500, 'reports/revenue-by-region.html'],
      ['units.by_channel', 'done', 800, 'reports/units.by_channel.html'],
    ],
  );
  const [a, b] = index.entries;
  assert.notEqual(a?.settings_hash, b?.settings_hash, 'each question is a setting of its file');
  index.entries.forEach((e, i) => {
    const html = readFileSync(join(out, e.report ?? ''), 'utf8');
    assert.ok(
      html.includes(`Answers the question: &#34;${questions[i]}&#34;`),
      `${e.name} answers its question`,
    );
  });
  const again = batch(home, ['--config', join(dir, 'batch.json'), '--json']);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readIndexJson(out).totals.reused, 2, 'a re-run keeps both');
  const fresh = batch(newHome(), ['--config', join(dir, 'batch.json'), '--json']);
  assert.equal(fresh.status, 0, fresh.stderr);
  assert.equal(
    readIndexJson(out).totals.reused,
    2,
    "with a fresh store (a scheduler's new machine), the folder's index.json is the previous run",
  );
});

void test("--config chooses what in a file is the table: an Excel sheet, a JSON wrapper's records", async () => {
  const home = newHome();
  const dir = scratchDir('opsmind-batch-tables-');
  const sheet = (n: number, scale: number) => [
    [
      { value: 'region', type: String },
      { value: 'amount', type: String },
    ],
    ...Array.from({ length: n }, (_, i) => [
      { value: ['North', 'South', 'East'][i % 3] ?? '', type: String },
      { value: (i % 7) * scale + 1, type: Number },
    ]),
  ];
  await writeXlsxFile([
    { sheet: 'First', data: sheet(30, 1) },
    { sheet: 'Second', data: sheet(45, 100) },
  ]).toFile(join(dir, 'book.xlsx'));
  graphJson(dir);
  const config = (second: string) =>
    writeFileSync(
      join(dir, 'batch.json'),
      JSON.stringify({
        datasets: [
          { path: 'book.xlsx', name: 'book', sheet: second },
          { path: 'graph.json', name: 'links', records: 'links' },
          { path: 'graph.json', name: 'nodes', records: 'nodes' },
        ],
        out_dir: 'out',
      }),
    );
  config('Second');
  const r = batch(home, ['--config', join(dir, 'batch.json'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = join(dir, 'out');
  const rows = () => readIndexJson(out).entries.map((e) => [e.name, e.status, e.rows, e.columns]);
  assert.deepEqual(rows(), [
    ['book', 'done', 45, 2],
    ['links', 'done', 40, 3],
    ['nodes', 'done', 12, 2],
  ]);
  // Another sheet is another setting: that file is reported again, the others kept.
  config('First');
  const again = batch(home, ['--config', join(dir, 'batch.json'), '--json']);
  assert.equal(again.status, 0, again.stderr);
  assert.deepEqual(rows()[0], ['book', 'done', 30, 2]);
  assert.equal(readIndexJson(out).totals.reused, 2);
  // A key the wrapper lacks fails that file alone, saying which keys it has.
  config('Nope');
  const bad = batch(home, ['--config', join(dir, 'batch.json'), '--json']);
  const entries = readIndexJson(out).entries;
  assert.equal(entries[0]?.status, 'failed', bad.stderr);
  assert.match(entries[0]?.error ?? '', /Nope/);
});

void test('the shipped examples/batch.json runs as the examples README says, and a re-run keeps it all', () => {
  const home = newHome();
  const out = join(scratchDir('opsmind-batch-example-'), 'out');
  const config = join(ROOT, 'examples', 'batch.json');
  const first = batch(home, ['--config', config, '--out-dir', out]);
  assert.equal(first.status, 0, first.stderr);
  const index = readIndexJson(out);
  assert.deepEqual(
    index.entries.map((e) => [e.name, e.status]),
    [
      ['air-quality', 'done'],
      ['sales', 'done'],
      ['sales-script', 'done'],
      ['umsatz-filialen', 'done'],
    ],
  );
  assert.equal(entryOf(index, 'sales').rows, 5019);
  assert.equal(entryOf(index, 'umsatz-filialen').rows, 1560);
  const again = batch(home, ['--config', config, '--out-dir', out]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(readIndexJson(out).totals.reused, 4);
});

void test('--mode deep: each file through the real openai client and a fake OpenAI-compatible server', async () => {
  const { completion, startFakeLlm } = await import('./helpers/fake-llm.js');
  const llm = await startFakeLlm();
  try {
    const reply = (name: string, args: unknown) => ({
      kind: 'json' as const,
      body: completion({ toolCalls: [{ name, arguments: JSON.stringify(args), id: `c-${name}` }] }),
    });
    llm.enqueue(
      reply('run_code', {
        code: "t = df.groupby('region', as_index=False)['revenue'].sum()\ndeclare_table(t, title='Revenue by region (deep)')\nprint(len(df))",
      }),
      reply('final_answer', { answer: 'West sells the most.' }),
    );
    const dir = scratchDir('opsmind-batch-deep-');
    mkdirSync(join(dir, 'data'));
    salesFile(join(dir, 'data', 'shop.csv'), 300);
    const out = join(dir, 'out');
    // The fake answers from this process: the batch must run beside it, not block it (spawnSync).
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bin', 'opsmind.js'),
        'batch',
        join(dir, 'data'),
        '--out-dir',
        out,
        '--mode',
        'deep',
        '-q',
        'Which region sells most?',
        '--jobs',
        '1',
      ],
      {
        env: {
          ...process.env,
          OPSMIND_HOME: newHome(),
          OPSMIND_DB: '',
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: 'sk-test',
          OPSMIND_MODEL: 'fake-model',
        },
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    const result = { status: code, stderr };
    assert.equal(result.status, 0, result.stderr);
    const entry = entryOf(readIndexJson(out), 'shop');
    assert.equal(entry.status, 'done');
    assert.deepEqual(entry.findings, ['West sells the most.']);
    const html = readFileSync(join(out, 'reports', 'shop.html'), 'utf8');
    assert.match(html, /Revenue by region \(deep\)/);
    assert.match(html, /West sells the most\./);
    assert.ok(llm.requests.length >= 2, 'the model was asked at least twice');
  } finally {
    await llm.close();
  }
});
