/**
 * Runs one program with the preamble in a child Python process: a fresh work
 * dir, a cleared environment, a wall-clock timeout that kills the whole
 * process group, and byte caps on stdout/stderr.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { preambleDir } from '../util/package-root.js';
import { TruncatingCollector } from './truncate.js';

/** What to run and the limits to run it under. */
export interface RunRequest {
  python: string;
  /** The program's source text. */
  code: string;
  /** The name shown in tracebacks, e.g. "report.py". */
  scriptName: string;
  dataPath: string;
  /** An empty directory the program may write into; render_spec.json lands here. */
  workdir: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

/** How a run ended and what it printed. */
export interface RunResult {
  /** Process exit status; null when killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Set when the preamble could not read the data file (exit 65): the one-line reason. */
  dataError: string | null;
}

/** Defaults for the simple runner. */
export const RUN_DEFAULTS = { timeoutMs: 120_000, maxOutputBytes: 1024 * 1024 };

const DATA_ERROR_EXIT = 65;
const DATA_ERROR_PREFIX = 'opsmind-data-error: ';

/** The environment a program sees: nothing of the host's beyond a PATH and a locale. */
export function programEnv(workdir: string): NodeJS.ProcessEnv {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: workdir,
    TMPDIR: workdir,
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    OPENBLAS_NUM_THREADS: '1',
    OMP_NUM_THREADS: '1',
    MPLBACKEND: 'Agg',
  };
}

function dataErrorOf(exitCode: number | null, stderr: string): string | null {
  if (exitCode !== DATA_ERROR_EXIT) return null;
  const line = stderr.split('\n').find((l) => l.startsWith(DATA_ERROR_PREFIX));
  return line ? line.slice(DATA_ERROR_PREFIX.length).trim() : 'the data file could not be read';
}

/** Runs the program to completion (or timeout/abort); never rejects for the program's own failures. */
export function runPython(req: RunRequest): Promise<RunResult> {
  const limit = req.maxOutputBytes ?? RUN_DEFAULTS.maxOutputBytes;
  const control = join(req.workdir, '.opsmind');
  mkdirSync(control, { recursive: true });
  const scriptPath = join(control, 'program.py');
  writeFileSync(scriptPath, req.code);
  const args = ['-I', '-X', 'utf8', join(preambleDir(), 'opsmind_run.py'),
    '--data', req.dataPath, '--workdir', req.workdir, '--script', scriptPath, '--name', req.scriptName];
  const started = performance.now();
  const child = spawn(req.python, args, { cwd: req.workdir, env: programEnv(req.workdir), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new TruncatingCollector(limit);
  const err = new TruncatingCollector(limit);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  let timedOut = false;
  let aborted = false;
  const killGroup = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  const timer = setTimeout(() => { timedOut = true; killGroup(); }, req.timeoutMs ?? RUN_DEFAULTS.timeoutMs);
  const onAbort = () => { aborted = true; killGroup(); };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  const onExit = () => killGroup();
  process.once('exit', onExit);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => {
      clearTimeout(timer);
      process.off('exit', onExit);
      reject(error);
    });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      process.off('exit', onExit);
      req.signal?.removeEventListener('abort', onAbort);
      killGroup();
      const stderr = err.text();
      resolve({
        exitCode, signal, stdout: out.text(), stderr, stdoutTruncated: out.truncated, stderrTruncated: err.truncated,
        timedOut, aborted, durationMs: performance.now() - started, dataError: dataErrorOf(exitCode, stderr),
      });
    });
  });
}
