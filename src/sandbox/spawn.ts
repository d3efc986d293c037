/** Starting a sandbox command, with the seccomp program handed to bubblewrap on fd 3 through a pipe. */
import { spawn } from 'node:child_process';
import type { ChildProcess, StdioOptions } from 'node:child_process';
import { seccompProgram } from './seccomp.js';

/** How to start a sandboxed command. */
export interface SandboxSpawnOptions {
  env: Record<string, string>;
  /** Hand the seccomp program on fd 3 (the command must read it: `bwrap --seccomp 3`). */
  seccomp: boolean;
  stdin?: 'pipe' | 'ignore';
  stdout?: 'pipe' | 'ignore';
  detached?: boolean;
  /** Working directory of the outermost process (default `/`, which every identity can enter). */
  cwd?: string;
}

/** Spawns `command`; stderr is always a pipe. */
export function spawnSandboxed(command: string[], options: SandboxSpawnOptions): ChildProcess {
  const [file, ...args] = command;
  if (!file) throw new Error('empty sandbox command');
  const program = options.seccomp ? seccompProgram() : null;
  const stdio: StdioOptions = [
    options.stdin ?? 'ignore',
    options.stdout ?? 'pipe',
    'pipe',
    ...(program ? ['pipe' as const] : []),
  ];
  const child = spawn(file, args, {
    stdio,
    env: options.env,
    detached: options.detached ?? false,
    cwd: options.cwd ?? '/',
  });
  const filter = child.stdio[3];
  if (program && filter && 'end' in filter) {
    filter.on('error', () => undefined);
    filter.end(program);
  }
  return child;
}
