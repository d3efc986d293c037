/** Saying which limit ended a run, in words a model and a person can act on. */
import { z } from 'zod';
import { readArtifact } from './artifacts.js';
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

const SPEC_ERROR_BYTES = 16 * 1024 * 1024;
const SpecErrorSchema = z.object({
  error: z
    .object({ type: z.string().catch(''), message: z.string().catch('') })
    .nullable()
    .catch(null),
});

/** The error the program's spec records (its type and message), from the host-only copy of the run's files. */
function programErrorType(outDir: string): string {
  try {
    const parsed = SpecErrorSchema.safeParse(
      JSON.parse(readArtifact(outDir, 'render_spec.json', SPEC_ERROR_BYTES)),
    );
    const error = parsed.success ? parsed.data.error : null;
    return error ? `${error.type}: ${error.message}` : '';
  } catch {
    return '';
  }
}

/** The limit that ended (or cut) the run, e.g. "memory limit of 1024 MB exceeded"; null when none did. */
export function limitHit(
  run: RunFacts,
  outDir: string,
  limits: Limits,
  processesHit: boolean,
): string | null {
  if (run.aborted) return null;
  if (run.timedOut)
    return `wall-clock limit of ${limits.wallSeconds} s exceeded; the run and every process it started were killed`;
  if (run.signal === 'SIGXCPU') return `CPU time limit of ${limits.cpuSeconds} s exceeded`;
  const error = `${programErrorType(outDir)}\n${run.stderr.slice(-4000)}`;
  if (/MemoryError|Cannot allocate memory|std::bad_alloc|Unable to allocate/.test(error))
    return `memory limit of ${limits.memoryMb} MB exceeded (beyond the loaded data)`;
  if (
    processesHit ||
    /(BlockingIOError|OSError).*(Resource temporarily unavailable|\[Errno 11\])/.test(error)
  )
    return `process limit of ${limits.processes} exceeded`;
  if (/File too large|\[Errno 27\]/.test(error) || run.signal === 'SIGXFSZ')
    return `file size limit of ${limits.fileSizeMb} MB exceeded`;
  if (/Too many open files|\[Errno 24\]/.test(error))
    return `open-file limit of ${limits.openFiles} exceeded`;
  if (/No space left on device|\[Errno 28\]/.test(error))
    return `disk limit of ${limits.diskMb} MB exceeded (the work dir, /tmp and /dev/shm share it)`;
  if (run.stdoutTruncated)
    return `output limit of ${limits.outputBytes.toLocaleString('en-US')} bytes reached; the rest of the output was cut`;
  return null;
}
