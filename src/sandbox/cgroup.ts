/**
 * A pids cgroup per sandbox: the process limit that also binds when the host
 * runs as root (RLIMIT_NPROC does not), and a way to kill every process of a
 * sandbox, including ones that left their process group with setsid.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../util/process-alive.js';

/** A created cgroup that processes can be moved into. */
export interface PidsCgroup {
  path: string;
  /** Command prefix that moves the command into the cgroup before it starts. */
  enterPrefix: string[];
  /** True when a fork was refused because of pids.max. */
  hitLimit(): boolean;
  /** SIGKILLs every process in the cgroup, repeating while forks race the kill. */
  killAll(): void;
  /** Kills what is left and removes the cgroup. */
  remove(): void;
}

function pidsRoot(): string | undefined {
  if (existsSync('/sys/fs/cgroup/pids/cgroup.procs')) return '/sys/fs/cgroup/pids';
  try {
    if (readFileSync('/sys/fs/cgroup/cgroup.controllers', 'utf8').split(/\s+/).includes('pids'))
      return '/sys/fs/cgroup';
  } catch {
    return undefined;
  }
  return undefined;
}

function pids(path: string): number[] {
  try {
    return readFileSync(join(path, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

let counter = 0;
let swept = false;

/** Removes the cgroups left by OpsMind processes that died without cleaning up (kill -9). */
export function sweepDeadCgroups(root: string): void {
  const parent = join(root, 'opsmind');
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  for (const entry of entries) {
    const owner = Number(/^(\d+)-\d+$/.exec(entry)?.[1]);
    if (!owner || processAlive(owner)) continue;
    const path = join(parent, entry);
    for (const pid of pids(path)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    try {
      rmdirSync(path);
    } catch {
      /* still draining; the next sweep removes it */
    }
  }
}

/** Creates a pids cgroup with `max` processes, or returns the reason it cannot (not root, read-only cgroupfs, …). */
export function createPidsCgroup(max: number): PidsCgroup | { error: string } {
  const root = pidsRoot();
  if (!root) return { error: 'no pids cgroup controller is mounted' };
  if (!swept) {
    swept = true;
    sweepDeadCgroups(root);
  }
  const path = join(root, 'opsmind', `${process.pid}-${(counter += 1)}`);
  try {
    mkdirSync(path, { recursive: true });
    if (root === '/sys/fs/cgroup')
      writeFileSync(join(root, 'opsmind', 'cgroup.subtree_control'), '+pids');
    writeFileSync(join(path, 'pids.max'), String(max));
  } catch (error) {
    return {
      error: `cannot create a pids cgroup (${(error as NodeJS.ErrnoException).code ?? 'error'}: run as root or delegate a cgroup)`,
    };
  }
  const killAll = () => {
    for (let round = 0; round < 50; round += 1) {
      const list = pids(path);
      if (list.length === 0) return;
      for (const pid of list) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  };
  return {
    path,
    enterPrefix: ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" && exec "$@"', path],
    hitLimit: () => {
      try {
        return /^max\s+[1-9]/m.test(readFileSync(join(path, 'pids.events'), 'utf8'));
      } catch {
        return false;
      }
    },
    killAll,
    remove: () => {
      killAll();
      for (let i = 0; i < 20; i += 1) {
        try {
          rmdirSync(path);
          return;
        } catch {
          killAll();
        }
      }
    },
  };
}
