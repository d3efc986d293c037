/**
 * Running a test helper in a child process that cannot hurt the machine even
 * when the code under test is broken: a hard wall-clock timeout, and a memory
 * cgroup so that a host that reads /dev/zero is OOM-killed alone. Used for the
 * cases that, when they fail, hang or exhaust the host process itself.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** How a contained child ended. */
export interface ContainedResult {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** Killed at the timeout: the code under test hung. */
  timedOut: boolean;
  /** Killed by the memory cgroup: the code under test exhausted memory. */
  oomKilled: boolean;
  /** Whether a memory cgroup was in force (else only the timeout). */
  memoryCapped: boolean;
}

let counter = 0;

function memoryCgroup(limitMb: number): { path: string; oom: () => boolean } | null {
  const v1 = '/sys/fs/cgroup/memory';
  try {
    if (existsSync(join(v1, 'memory.limit_in_bytes'))) {
      const path = join(v1, 'opsmind-test', `${process.pid}-${(counter += 1)}`);
      mkdirSync(path, { recursive: true });
      writeFileSync(join(path, 'memory.limit_in_bytes'), String(limitMb * 1024 * 1024));
      return {
        path,
        oom: () =>
          /^oom_kill\s+[1-9]/m.test(readFileSync(join(path, 'memory.oom_control'), 'utf8')),
      };
    }
    if (readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('memory')) {
      const parent = join('/sys/fs/cgroup', 'opsmind-test');
      mkdirSync(parent, { recursive: true });
      writeFileSync(join(parent, 'cgroup.subtree_control'), '+memory');
      const path = join(parent, `${process.pid}-${(counter += 1)}`);
      mkdirSync(path);
      writeFileSync(join(path, 'memory.max'), String(limitMb * 1024 * 1024));
      writeFileSync(join(path, 'memory.swap.max'), '0');
      return {
        path,
        oom: () => /^oom_kill\s+[1-9]/m.test(readFileSync(join(path, 'memory.events'), 'utf8')),
      };
    }
  } catch {
    return null;
  }
  return null;
}

function killCgroup(path: string): void {
  for (let round = 0; round < 20; round += 1) {
    let pids: number[] = [];
    try {
      pids = readFileSync(join(path, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return;
    }
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }
}

async function removeCgroup(path: string): Promise<void> {
  for (let i = 0; i < 50; i += 1) {
    killCgroup(path);
    try {
      rmdirSync(path);
      try {
        rmdirSync(dirname(path)); // the shared parent, once no other test uses it
      } catch {
        /* still in use */
      }
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** True when a memory cgroup can be made here (root with a cgroup filesystem). */
export function canCapMemory(): boolean {
  const probe = memoryCgroup(64);
  if (!probe) return false;
  try {
    rmdirSync(probe.path);
  } catch {
    /* left empty; harmless */
  }
  return true;
}

/** Runs `argv` with `env` overlaid, killed after `timeoutMs` and capped at `memoryMb` when a cgroup can be made. */
export async function runContained(
  argv: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number; memoryMb: number },
): Promise<ContainedResult> {
  const cgroup = memoryCgroup(options.memoryMb);
  const command = cgroup
    ? ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', cgroup.path, ...argv]
    : argv;
  const [file, ...args] = command;
  const child = spawn(file ?? '', args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
    if (cgroup) killCgroup(cgroup.path);
  }, options.timeoutMs);
  const [status, signal] = await new Promise<[number | null, string | null]>((resolve) => {
    child.once('close', (code, sig) => resolve([code, sig]));
  });
  clearTimeout(timer);
  let oomKilled = false;
  if (cgroup) {
    try {
      oomKilled = cgroup.oom();
    } catch {
      oomKilled = false;
    }
    await removeCgroup(cgroup.path);
  }
  return { status, signal, stdout, stderr, timedOut, oomKilled, memoryCapped: cgroup !== null };
}
