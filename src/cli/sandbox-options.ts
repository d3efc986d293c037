/** The sandbox flags shared by every command that runs code: isolation level and limits. */
import type { Command } from 'commander';
import { DEFAULT_LIMITS, resolveLimits } from '../sandbox/limits.js';
import type { Limits } from '../sandbox/limits.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** The parsed sandbox flags as commander gives them. */
export interface SandboxFlags {
  isolation: string;
  timeout?: string;
  cpuSeconds?: string;
  memoryMb?: string;
  maxProcesses?: string;
  fileSizeMb?: string;
  diskMb?: string;
}

/** Adds --isolation and the limit flags to a command. */
export function addSandboxOptions(command: Command): Command {
  return command
    .option(
      '--isolation <level>',
      'auto (strongest available) or strict (refuse to run without bubblewrap)',
      'auto',
    )
    .option(
      '--timeout <seconds>',
      `wall-clock limit per program run (default ${DEFAULT_LIMITS.wallSeconds})`,
    )
    .option('--cpu-seconds <n>', `CPU time limit per run (default ${DEFAULT_LIMITS.cpuSeconds})`)
    .option(
      '--memory-mb <n>',
      `memory a run may allocate beyond the loaded data (default ${DEFAULT_LIMITS.memoryMb})`,
    )
    .option('--max-processes <n>', `processes a run may have (default ${DEFAULT_LIMITS.processes})`)
    .option(
      '--file-size-mb <n>',
      `largest file a run may write (default ${DEFAULT_LIMITS.fileSizeMb})`,
    )
    .option(
      '--disk-mb <n>',
      `what a run may write in all: work dir, /tmp and /dev/shm (default ${DEFAULT_LIMITS.diskMb})`,
    );
}

/** Limits from flags, then OPSMIND_LIMIT_* variables (e.g. OPSMIND_LIMIT_MEMORY_MB), then defaults. */
export function limitsFrom(flags: SandboxFlags, env: NodeJS.ProcessEnv = process.env): Limits {
  return resolveLimits({
    wallSeconds: flags.timeout ?? env.OPSMIND_LIMIT_TIMEOUT,
    cpuSeconds: flags.cpuSeconds ?? env.OPSMIND_LIMIT_CPU_SECONDS,
    memoryMb: flags.memoryMb ?? env.OPSMIND_LIMIT_MEMORY_MB,
    processes: flags.maxProcesses ?? env.OPSMIND_LIMIT_MAX_PROCESSES,
    fileSizeMb: flags.fileSizeMb ?? env.OPSMIND_LIMIT_FILE_SIZE_MB,
    diskMb: flags.diskMb ?? env.OPSMIND_LIMIT_DISK_MB,
  });
}

/** The --isolation value, checked. */
export function isolationFrom(flags: SandboxFlags): 'auto' | 'strict' {
  if (flags.isolation === 'auto' || flags.isolation === 'strict') return flags.isolation;
  throw new OpsmindError(
    `--isolation must be "auto" or "strict", got "${flags.isolation}"`,
    ExitCode.BAD_INPUT,
  );
}

/** DuckDB's own memory limit when --memory-mb is not given: it spills past it, so it needs less than pandas' frames. */
export const DEFAULT_ENGINE_MEMORY_MB = 768;

/** The engine's memory limit: --memory-mb (or OPSMIND_LIMIT_MEMORY_MB) when given, else DEFAULT_ENGINE_MEMORY_MB. */
export function engineMemoryFrom(
  flags: SandboxFlags,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const given = flags.memoryMb ?? env.OPSMIND_LIMIT_MEMORY_MB;
  return given === undefined ? DEFAULT_ENGINE_MEMORY_MB : limitsFrom(flags, env).memoryMb;
}
