/** A cold run: one sandboxed interpreter that loads the data, runs one program and exits. */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createPidsCgroup } from './cgroup.js';
import { sandboxEnv, sandboxPaths, wrapCommand } from './isolation.js';
import type { IsolationInfo, SandboxMounts } from './isolation.js';
import { limitHit } from './limit-hit.js';
import { pythonLimits } from './limits.js';
import type { Limits } from './limits.js';
import { TruncatingCollector } from './truncate.js';

/** What a cold run needs. */
export interface ColdRequest {
  isolation: IsolationInfo;
  mounts: SandboxMounts;
  limits: Limits;
  /** The run's directory name under the work dir; its .opsmind/program.py holds the code. */
  id: string;
  scriptName: string;
  processRlimit: number | null;
  signal?: AbortSignal;
}

/** How a run ended (cold or warm): status, bounded output, and which limit, if any, ended it. */
export interface ColdResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** The limit that ended or constrained the run, in words; null when none. */
  limitHit: string | null;
  /** Set when the data file could not be read. */
  dataError: string | null;
}

const DATA_ERROR_EXIT = 65;
const DATA_ERROR_PREFIX = 'opsmind-data-error: ';

/** Reads at most `max` bytes of a file, with the truncation marker when there was more. */
export function readBounded(path: string, max: number): { text: string; truncated: boolean } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { text: '', truncated: false };
  }
  try {
    const size = statSync(path).size;
    const buffer = Buffer.alloc(Math.min(size, max));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const collector = new TruncatingCollector(max);
    collector.push(buffer.subarray(0, read));
    if (size > max) collector.push(Buffer.alloc(size - max));
    return { text: collector.text(), truncated: size > max };
  } finally {
    closeSync(fd);
  }
}

function dataErrorOf(exitCode: number | null, stderr: string): string | null {
  if (exitCode !== DATA_ERROR_EXIT) return null;
  const line = stderr.split('\n').find((l) => l.startsWith(DATA_ERROR_PREFIX));
  return line ? line.slice(DATA_ERROR_PREFIX.length).trim() : 'the data file could not be read';
}

/** Runs the program cold under the isolation level; never rejects for the program's own failures. */
export function runCold(req: ColdRequest): Promise<ColdResult> {
  const paths = sandboxPaths(req.isolation.level, req.mounts);
  const workdir = join(paths.workdir, req.id);
  const inner = [req.mounts.python, '-I', '-X', 'utf8', join(paths.preambleDir, 'opsmind_run.py'), '--data', paths.dataPath,
    '--workdir', workdir, '--script', join(workdir, '.opsmind', 'program.py'), '--name', req.scriptName,
    '--source-path', req.mounts.dataPath, '--limits', JSON.stringify(pythonLimits(req.limits, req.processRlimit))];
  const made = req.isolation.processLimit === 'cgroup' ? createPidsCgroup(req.limits.processes + 8) : undefined;
  const cgroup = made && !('error' in made) ? made : undefined;
  const [file, ...args] = [...(cgroup?.enterPrefix ?? []), ...wrapCommand(req.isolation, req.mounts, req.limits, inner)];
  const started = performance.now();
  const child = spawn(file ?? '', args, { cwd: join(req.mounts.workdir, req.id), env: sandboxEnv(join(req.mounts.workdir, req.id)), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new TruncatingCollector(req.limits.outputBytes);
  const err = new TruncatingCollector(req.limits.outputBytes);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  let timedOut = false;
  let aborted = false;
  const killAll = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
    cgroup?.killAll();
  };
  const timer = setTimeout(() => { timedOut = true; killAll(); }, req.limits.wallSeconds * 1000);
  const onAbort = () => { aborted = true; killAll(); };
  req.signal?.addEventListener('abort', onAbort, { once: true });
  process.once('exit', killAll);
  return new Promise((resolve, reject) => {
    child.once('error', (error) => { clearTimeout(timer); process.off('exit', killAll); cgroup?.remove(); reject(error); });
    child.once('close', (exitCode, signal) => {
      clearTimeout(timer);
      process.off('exit', killAll);
      req.signal?.removeEventListener('abort', onAbort);
      const processesHit = cgroup?.hitLimit() ?? false;
      killAll();
      cgroup?.remove();
      const stderr = err.text();
      const base = { exitCode, signal, stdout: out.text(), stderr, stdoutTruncated: out.truncated, stderrTruncated: err.truncated, timedOut, aborted, durationMs: performance.now() - started };
      resolve({ ...base, dataError: dataErrorOf(exitCode, stderr), limitHit: limitHit(base, join(req.mounts.workdir, req.id), req.limits, processesHit) });
    });
  });
}
