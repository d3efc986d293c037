/** Saying which limit ended a run, in words a model and a person can act on. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Limits } from './limits.js';

/** The facts about a finished run that tell which limit it hit. */
export interface RunFacts {
  exitCode: number | null;
  signal: string | null;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  stdoutTruncated: boolean;
}

function programErrorType(workdir: string): string {
  try {
    const spec = JSON.parse(readFileSync(join(workdir, 'render_spec.json'), 'utf8')) as { error?: { type?: string; message?: string } | null };
    return `${spec.error?.type ?? ''}: ${spec.error?.message ?? ''}`;
  } catch {
    return '';
  }
}

/** The limit that ended (or cut) the run, e.g. "memory limit of 1024 MB exceeded"; null when none did. */
export function limitHit(run: RunFacts, workdir: string, limits: Limits, processesHit: boolean): string | null {
  if (run.aborted) return null;
  if (run.timedOut) return `wall-clock limit of ${limits.wallSeconds} s exceeded; the run and every process it started were killed`;
  if (run.signal === 'SIGXCPU') return `CPU time limit of ${limits.cpuSeconds} s exceeded`;
  const error = `${programErrorType(workdir)}\n${run.stderr.slice(-4000)}`;
  if (/MemoryError|Cannot allocate memory|std::bad_alloc|Unable to allocate/.test(error)) return `memory limit of ${limits.memoryMb} MB exceeded (beyond the loaded data)`;
  if (processesHit || /(BlockingIOError|OSError).*(Resource temporarily unavailable|\[Errno 11\])/.test(error)) return `process limit of ${limits.processes} exceeded`;
  if (/File too large|\[Errno 27\]/.test(error) || run.signal === 'SIGXFSZ') return `file size limit of ${limits.fileSizeMb} MB exceeded`;
  if (/Too many open files|\[Errno 24\]/.test(error)) return `open-file limit of ${limits.openFiles} exceeded`;
  if (/No space left on device|\[Errno 28\]/.test(error)) return `disk space limit exceeded (/tmp holds ${limits.tmpMb} MB)`;
  if (run.stdoutTruncated) return `output limit of ${limits.outputBytes.toLocaleString('en-US')} bytes reached; the rest of the output was cut`;
  return null;
}
