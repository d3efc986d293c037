/**
 * One run of a batch: each file hashed and either kept (same content, same settings, report
 * still there) or sent to the worker pool; every state recorded in the store's ledger as it
 * changes (so a killed run is finished by the next one) and index.json rewritten after each
 * file; then what changed — against the previous run of each file and the previous file of
 * each dated series — computed from the snapshots and written into the reports and the index.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { basename, join } from 'node:path';
import { hashFile } from '../sandbox/data-file.js';
import type { Limits } from '../sandbox/limits.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { BatchLedger } from '../store/batch-ledger.js';
import type { LedgerFile } from '../store/batch-ledger.js';
import { sha256 } from '../store/session-store.js';
import type { SessionStore } from '../store/session-store.js';
import { opsmindVersion } from '../util/version.js';
import { previousFromIndex, seriesChanges, writeIndex } from './index-file.js';
import { changesSection, fillChanges } from './index-page.js';
import { compareSnapshots } from './changes.js';
import type { BatchInput } from './inputs.js';
import { WorkerPool } from './pool.js';
import type { Entry } from './types.js';
import type { Job, JobResult } from './worker.js';

/** How a batch runs. */
export interface BatchOptions {
  inputs: BatchInput[];
  outDir: string;
  jobs: number;
  mode: 'fast' | 'deep' | 'script';
  question?: string;
  /** The batch's script path (mode script); a config dataset may name its own. */
  script?: string;
  /** Fail when the batch has no earlier run to continue. */
  resume: boolean;
  /** Redo every file, unchanged or not. */
  force: boolean;
  failFast: boolean;
  shard: { index: number; count: number } | null;
  fileTimeoutMs: number;
  limits: Limits;
  isolation: 'auto' | 'strict';
  engineMemoryMb: number;
  store: SessionStore;
  onProgress?: (event: BatchProgress) => void;
}

/** What the progress view is told. */
export type BatchProgress =
  | { type: 'start'; total: number; todo: number; reused: number; jobs: number }
  | { type: 'file'; entry: Entry };

/** The folder's one copy of Plotly, shared by every report. */
export const PLOTLY_FILE = 'plotly.min.js';
/** How often a running batch rewrites its index (index.json grows with every file). */
const INDEX_EVERY_MS = 1000;

/** Reports live in this subfolder (so no file name can clash with index.html). */
export const REPORTS_DIR = 'reports';

function copyPlotly(outDir: string): void {
  const source = createRequire(import.meta.url).resolve('plotly.js-dist-min');
  const target = join(outDir, PLOTLY_FILE);
  if (existsSync(target) && statSync(target).size === statSync(source).size) return;
  copyFileSync(source, target);
}

function readScript(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new OpsmindError(`cannot read script: ${path}`, ExitCode.BAD_INPUT);
  }
}

/** The settings that make a report what it is: a change redoes every file. */
function settingsOf(options: BatchOptions): Record<string, unknown> {
  return {
    tool: `opsmind ${opsmindVersion()}`,
    mode: options.mode,
    planner: options.mode === 'fast' ? 'heuristic' : null,
    question: options.question ?? null,
    script: options.script ? sha256(readScript(options.script)) : null,
  };
}

function failedEntry(input: BatchInput, base: Partial<Entry>, error: string, run: string): Entry {
  return {
    name: input.name,
    file: input.file,
    sha256: '',
    bytes: 0,
    settings_hash: '',
    status: 'failed',
    error,
    report: null,
    session: null,
    rows: null,
    columns: null,
    findings: [],
    seconds: null,
    reused: false,
    run,
    snapshot: null,
    changes: { previous_run: null, series: null },
    ...base,
  };
}

function entryOf(
  input: BatchInput,
  file: { sha256: string; bytes: number },
  result: JobResult,
  report: string,
  run: string,
): Entry {
  const base = { sha256: file.sha256, bytes: file.bytes, seconds: result.seconds };
  if (!result.ok)
    return failedEntry(
      input,
      { ...base, session: result.session, report: result.report ? report : null },
      result.error,
      run,
    );
  return {
    ...failedEntry(input, base, '', run),
    status: 'done',
    error: null,
    report,
    session: result.session,
    rows: result.rows,
    columns: result.columns,
    findings: result.findings,
    snapshot: result.snapshot,
  };
}

interface Planned {
  input: BatchInput;
  file: { sha256: string; bytes: number } | null;
  settingsHash: string;
  keep: LedgerFile | null;
}

/** Runs the batch; resolves with every entry once all are known. */
export async function runBatch(options: BatchOptions): Promise<{ entries: Entry[]; run: string }> {
  const outDir = options.outDir;
  mkdirSync(outDir, { recursive: true });
  const settings = settingsOf(options);
  const batchKey = sha256(realpathSync(outDir));
  const ledger = new BatchLedger(options.store);
  const run = ledger.startRun(batchKey, outDir, settings);
  // What each report on disk is now (to keep it), and each file's last good run (to compare with).
  let newest = ledger.latest(batchKey, run);
  let previous = ledger.latest(batchKey, run, 'done');
  if (!newest.size) {
    newest = previousFromIndex(outDir);
    previous = new Map([...newest].filter(([, f]) => f.status === 'done'));
  }
  if (options.resume && !newest.size) {
    ledger.finishRun(run, 'failed');
    throw new OpsmindError(
      `nothing to resume: no earlier run wrote to ${outDir}`,
      ExitCode.BAD_INPUT,
      'run it without --resume',
    );
  }
  mkdirSync(join(outDir, REPORTS_DIR), { recursive: true });
  copyPlotly(outDir);
  const planned: Planned[] = [];
  for (const input of options.inputs) {
    const perFile = {
      ...settings,
      question: input.question ?? settings.question,
      script: input.script ? sha256(readScript(input.script)) : settings.script,
      // What in the file is the table: another sheet is another report (absent, the hash of a
      // config written before these existed stays as it was).
      ...(input.sheet ? { sheet: input.sheet } : {}),
      ...(input.records ? { records: input.records } : {}),
    };
    const settingsHash = sha256(JSON.stringify(perFile));
    let file: Planned['file'] = null;
    try {
      const hashed = await hashFile(input.file);
      file = { sha256: hashed.sha256, bytes: hashed.size };
    } catch {
      file = null;
    }
    const prev = newest.get(input.name) ?? null;
    const keep =
      !options.force &&
      file &&
      prev?.status === 'done' &&
      prev.sha256 === file.sha256 &&
      prev.settingsHash === settingsHash &&
      prev.entry.report !== null &&
      existsSync(join(outDir, prev.entry.report))
        ? prev
        : null;
    planned.push({ input, file, settingsHash, keep });
  }
  const todo = planned.filter((p) => !p.keep);
  options.onProgress?.({
    type: 'start',
    total: planned.length,
    todo: todo.length,
    reused: planned.length - todo.length,
    jobs: options.jobs,
  });
  const entries = new Map<string, Entry>();
  let lastIndex = Number.NEGATIVE_INFINITY;
  let indexTimer: NodeJS.Timeout | null = null;
  const finished = (p: Planned, done: Entry, status: 'done' | 'failed'): void => {
    const entry = { ...done, settings_hash: p.settingsHash };
    entries.set(entry.name, entry);
    ledger.record(
      run,
      { name: entry.name, sha256: entry.sha256, settingsHash: p.settingsHash },
      status,
      entry,
    );
    options.onProgress?.({ type: 'file', entry });
    // The ledger has every state at once; the folder's index follows within a second.
    const write = (): void => {
      indexTimer = null;
      writeIndex(outDir, orderedEntries(planned, entries), settings, options.shard);
      lastIndex = performance.now();
    };
    const wait = INDEX_EVERY_MS - (performance.now() - lastIndex);
    if (wait <= 0) write();
    else indexTimer ??= setTimeout(write, wait);
  };
  for (const p of planned)
    if (p.keep) finished(p, { ...p.keep.entry, file: p.input.file, reused: true }, 'done');
  try {
    await runTodo(options, run, todo, finished, ledger);
  } finally {
    if (indexTimer) clearTimeout(indexTimer);
  }
  const all = orderedEntries(planned, entries);
  addChanges(all, previous, outDir);
  writeIndex(outDir, all, settings, options.shard);
  ledger.finishRun(run, all.some((e) => e.status === 'failed') ? 'failed' : 'done');
  return { entries: all, run };
}

function orderedEntries(planned: readonly Planned[], entries: Map<string, Entry>): Entry[] {
  return planned.flatMap((p) => {
    const e = entries.get(p.input.name);
    return e ? [e] : [];
  });
}

async function runTodo(
  options: BatchOptions,
  run: string,
  todo: Planned[],
  finished: (p: Planned, entry: Entry, status: 'done' | 'failed') => void,
  ledger: BatchLedger,
): Promise<void> {
  if (!todo.length) return;
  const pool = new WorkerPool({
    jobs: Math.min(options.jobs, todo.length),
    fileTimeoutMs: options.fileTimeoutMs,
    dbPath: options.store.path,
    heapMb: 2048,
  });
  let stopped: string | null = null;
  try {
    await Promise.all(
      todo.map(async (p, i) => {
        const report = `${REPORTS_DIR}/${p.input.name}.html`;
        if (!p.file) {
          finished(p, failedEntry(p.input, {}, `cannot read ${p.input.file}`, run), 'failed');
          if (options.failFast && !stopped) {
            stopped = p.input.name;
            pool.close();
          }
          return;
        }
        ledger.record(
          run,
          { name: p.input.name, sha256: p.file.sha256, settingsHash: p.settingsHash },
          'running',
          failedEntry(p.input, { sha256: p.file.sha256, bytes: p.file.bytes }, 'running', run),
        );
        const result = await pool.run(
          jobOf(options, p.input, i, join(options.outDir, report), run),
        );
        const entry =
          stopped && !result.ok && result.error.startsWith('not run')
            ? failedEntry(
                p.input,
                { sha256: p.file.sha256, bytes: p.file.bytes },
                `not finished: --fail-fast stopped the batch after ${stopped} failed`,
                run,
              )
            : entryOf(p.input, p.file, result, report, run);
        finished(p, entry, entry.status);
        if (entry.status === 'failed' && options.failFast && !stopped) {
          stopped = p.input.name;
          pool.close();
        }
      }),
    );
  } finally {
    pool.close();
  }
}

function jobOf(
  options: BatchOptions,
  input: BatchInput,
  id: number,
  outPath: string,
  run: string,
): Job {
  const scriptPath = input.script ?? options.script;
  const question = input.question ?? options.question;
  return {
    id,
    file: input.file,
    name: input.name,
    outPath,
    plotlyUrl: `../${PLOTLY_FILE}`,
    mode: scriptPath ? 'script' : options.mode,
    ...(question ? { question } : {}),
    ...(input.sheet ? { sheet: input.sheet } : {}),
    ...(input.records ? { records: input.records } : {}),
    ...(scriptPath
      ? {
          script: { code: readScript(scriptPath), name: basename(scriptPath) },
        }
      : {}),
    limits: options.limits,
    isolation: options.isolation,
    engineMemoryMb: options.engineMemoryMb,
    engineThreads: Math.max(1, Math.floor(availableParallelism() / Math.max(1, options.jobs))),
    run,
  };
}

/**
 * Fills in what changed since the previous run and along each dated series, in entries and
 * reports (a report is rewritten only when its section changes).
 */
export function addChanges(
  entries: Entry[],
  previous: Map<string, LedgerFile>,
  outDir: string,
): void {
  for (const entry of entries) {
    const prev = previous.get(entry.name);
    // A kept report keeps what it said changed when it was made.
    if (entry.reused) continue;
    entry.changes = { ...entry.changes, previous_run: null };
    if (entry.status === 'done' && entry.snapshot && prev?.status === 'done' && prev.entry.snapshot)
      entry.changes.previous_run = compareSnapshots(
        prev.entry.snapshot,
        entry.snapshot,
        { kind: 'previous_run', name: entry.name, sha256: prev.sha256, when: prev.updatedAt },
        prev.sha256 === entry.sha256,
      );
  }
  seriesChanges(entries);
  for (const entry of entries)
    if (entry.report) fillChanges(join(outDir, entry.report), changesSection(entry));
}
