/** The resource limits of a sandboxed run: defaults, parsing, and words for a limit that was hit. */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** Limits of one run. Memory is what a run may allocate on top of the loaded dataset. */
export interface Limits {
  cpuSeconds: number;
  wallSeconds: number;
  memoryMb: number;
  processes: number;
  fileSizeMb: number;
  openFiles: number;
  /** Bytes kept of stdout and of stderr each; the rest is cut with a visible marker. */
  outputBytes: number;
  /** What a run may write in all: its work dir, /tmp and /dev/shm share this cap. */
  diskMb: number;
}

/** Defaults chosen for interactive analysis on a laptop-sized machine. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  cpuSeconds: 60,
  wallSeconds: 120,
  memoryMb: 2048,
  processes: 64,
  fileSizeMb: 256,
  openFiles: 256,
  outputBytes: 1024 * 1024,
  diskMb: 512,
});

/** Flag names (kebab-case) for each limit, as the CLI and docs show them. */
export const LIMIT_FLAGS: Readonly<Record<keyof Limits, string>> = {
  cpuSeconds: 'cpu-seconds',
  wallSeconds: 'timeout',
  memoryMb: 'memory-mb',
  processes: 'max-processes',
  fileSizeMb: 'file-size-mb',
  openFiles: 'open-files',
  outputBytes: 'output-bytes',
  diskMb: 'disk-mb',
};

/** Merges string overrides (from flags or OPSMIND_LIMIT_* variables) onto the defaults; a bad value is a usage error. */
export function resolveLimits(
  overrides: Partial<Record<keyof Limits, string | number | undefined>>,
): Limits {
  const limits: Limits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    const raw = overrides[key];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      throw new OpsmindError(
        `--${LIMIT_FLAGS[key]} must be a positive number, got "${String(raw)}"`,
        ExitCode.BAD_INPUT,
      );
    }
    limits[key] = value;
  }
  return limits;
}

/** The limits the Python side applies itself (setrlimit), as it expects them. */
export function pythonLimits(
  limits: Limits,
  processRlimit: number | null,
): Record<string, number | null> {
  return {
    cpu_seconds: Math.ceil(limits.cpuSeconds),
    memory_mb: Math.ceil(limits.memoryMb),
    processes: processRlimit,
    file_size_mb: Math.ceil(limits.fileSizeMb),
    open_files: Math.ceil(limits.openFiles),
  };
}

/** One line per limit, for `opsmind doctor` and --verbose. */
export function describeLimits(limits: Limits): string[] {
  return [
    `cpu time     ${limits.cpuSeconds} s`,
    `wall time    ${limits.wallSeconds} s`,
    `memory       ${limits.memoryMb} MB beyond the loaded data`,
    `processes    ${limits.processes}`,
    `file size    ${limits.fileSizeMb} MB per file`,
    `open files   ${limits.openFiles}`,
    `output       ${limits.outputBytes.toLocaleString('en-US')} bytes each of stdout and stderr`,
    `disk         ${limits.diskMb} MB for the work dir, /tmp and /dev/shm together`,
  ];
}
