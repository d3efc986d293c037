/**
 * Isolation backends, strongest first: bubblewrap (user, pid, net, ipc, uts
 * namespaces; read-only /usr; only the data file and a work dir visible; a
 * non-root uid with every capability dropped), then unshare (network and pid
 * namespaces only), then plain rlimits. The level in force is detected once
 * per process by really starting each backend, and always reported.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { cached, fingerprint, remember } from '../util/probe-cache.js';
import { createPidsCgroup } from './cgroup.js';
import type { Limits } from './limits.js';

/** How strongly programs are isolated. */
export type IsolationLevel = 'bubblewrap' | 'namespaces' | 'rlimits';

/** What detection found: the level, why, and how the process limit is enforced. */
export interface IsolationInfo {
  level: IsolationLevel;
  /** Why this level (and not a stronger one), in words. */
  reason: string;
  bwrap: string | null;
  unshare: string | null;
  /** 'cgroup' (pids cgroup), 'rlimit' (RLIMIT_NPROC, non-root) or 'none' (root without a writable cgroup). */
  processLimit: 'cgroup' | 'rlimit' | 'none';
}

/** Host paths a sandbox needs. */
export interface SandboxMounts {
  python: string;
  preambleDir: string;
  dataPath: string;
  /** Host directory shown to the program as its writable work area. */
  workdir: string;
}

/** The same paths as the program sees them. */
export interface SandboxPaths {
  preambleDir: string;
  dataPath: string;
  workdir: string;
}

const SANDBOX_UID = '65534';

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin').split(delimiter).concat(['/usr/bin', '/bin'])) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      continue;
    }
  }
  return null;
}

/** The environment of every sandboxed program: nothing of the host's. */
export function sandboxEnv(home: string): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: home, TMPDIR: '/tmp',
    PYTHONDONTWRITEBYTECODE: '1', PYTHONHASHSEED: '0', OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1', MKL_NUM_THREADS: '1', MPLBACKEND: 'Agg',
  };
}

/** Paths inside the sandbox for a level (bubblewrap remaps; the others see host paths). */
export function sandboxPaths(level: IsolationLevel, mounts: SandboxMounts): SandboxPaths {
  if (level !== 'bubblewrap') return { preambleDir: mounts.preambleDir, dataPath: mounts.dataPath, workdir: mounts.workdir };
  return { preambleDir: '/opsmind/preamble', dataPath: `/data/${basename(mounts.dataPath)}`, workdir: '/work' };
}

function pythonPrefixBinds(python: string): string[] {
  const real = realpathSync(python);
  if (real.startsWith('/usr/')) return [];
  const prefix = dirname(dirname(real));
  return ['--ro-bind', prefix, prefix];
}

/** The bubblewrap arguments that run `inner` with the mounts, env and /tmp size. */
export function bwrapArgs(mounts: SandboxMounts, limits: Pick<Limits, 'tmpMb'>, inner: string[]): string[] {
  const paths = sandboxPaths('bubblewrap', mounts);
  const env = Object.entries(sandboxEnv(paths.workdir)).flatMap(([k, v]) => ['--setenv', k, v]);
  return [
    '--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session',
    '--uid', SANDBOX_UID, '--gid', SANDBOX_UID, '--hostname', 'opsmind-sandbox', '--cap-drop', 'ALL',
    '--clearenv', ...env,
    '--ro-bind', '/usr', '/usr', '--symlink', 'usr/lib', '/lib', '--symlink', 'usr/lib64', '/lib64',
    '--symlink', 'usr/bin', '/bin', '--symlink', 'usr/sbin', '/sbin',
    '--ro-bind', '/etc/alternatives', '/etc/alternatives', '--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache',
    ...pythonPrefixBinds(mounts.python),
    '--proc', '/proc', '--dev', '/dev', '--size', String(limits.tmpMb * 1024 * 1024), '--tmpfs', '/tmp',
    '--ro-bind', mounts.preambleDir, paths.preambleDir, '--ro-bind', mounts.dataPath, paths.dataPath,
    '--bind', mounts.workdir, paths.workdir, '--remount-ro', '/', '--chdir', paths.workdir,
    ...inner,
  ];
}

/** The full command for a level: the wrapper (if any) around `inner`. */
export function wrapCommand(info: IsolationInfo, mounts: SandboxMounts, limits: Pick<Limits, 'tmpMb'>, inner: string[]): string[] {
  if (info.level === 'bubblewrap' && info.bwrap) return [info.bwrap, ...bwrapArgs(mounts, limits, inner)];
  if (info.level === 'namespaces' && info.unshare) return [info.unshare, ...unshareFlags(), '--', ...inner];
  return inner;
}

function unshareFlags(): string[] {
  const root = process.getuid?.() === 0;
  return [...(root ? [] : ['--user', '--map-root-user']), '--net', '--pid', '--fork', '--kill-child', '--mount-proc'];
}

function works(command: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    if (!file) return resolve('empty command');
    execFile(file, args, { timeout: 15_000, env: { PATH: '/usr/bin:/bin' } }, (error, _out, stderr) => {
      resolve(error ? (stderr.trim().split('\n')[0] ?? error.message) || error.message : null);
    });
  });
}

function processLimitKind(): IsolationInfo['processLimit'] {
  const cgroup = createPidsCgroup(8);
  if (!('error' in cgroup)) {
    cgroup.remove();
    return 'cgroup';
  }
  return process.getuid?.() === 0 ? 'none' : 'rlimit';
}

let detected: Promise<IsolationInfo> | undefined;

/** Detects the strongest isolation that really works here (memoised per process). */
export function detectIsolation(python: string, preambleDir: string): Promise<IsolationInfo> {
  detected ??= detect(python, preambleDir);
  return detected;
}

/** A backend binary, unless OPSMIND_<NAME>=none disables it (to force or test a weaker level). */
function backend(name: 'bwrap' | 'unshare'): string | null {
  const override = process.env[`OPSMIND_${name.toUpperCase()}`];
  if (override === 'none') return null;
  return override || which(name);
}

async function detect(python: string, preambleDir: string): Promise<IsolationInfo> {
  const bwrap = backend('bwrap');
  const unshare = backend('unshare');
  const key = `isolation|${python}|${bwrap ?? ''}|${unshare ?? ''}|${process.getuid?.() ?? ''}`;
  const print = fingerprint([python, bwrap, unshare, '/proc/sys/kernel/unprivileged_userns_clone', '/proc/sys/user/max_user_namespaces']);
  const hit = cached<IsolationInfo>(key, print);
  if (hit) return hit;
  const found = await probeLevels(python, preambleDir, bwrap, unshare);
  remember(key, print, found);
  return found;
}

async function probeLevels(python: string, preambleDir: string, bwrap: string | null, unshare: string | null): Promise<IsolationInfo> {
  const processLimit = processLimitKind();
  const probe = [python, '-I', '-c', 'import pandas'];
  let why = 'bubblewrap is not installed (apt-get install bubblewrap)';
  if (bwrap) {
    const mounts = { python, preambleDir, dataPath: join(preambleDir, 'opsmind_run.py'), workdir: preambleDir };
    const failure = await works([bwrap, ...bwrapArgs(mounts, { tmpMb: 16 }, probe)]);
    if (!failure) return { level: 'bubblewrap', reason: 'bubblewrap can create user, pid, network, ipc and uts namespaces here', bwrap, unshare, processLimit };
    why = `bubblewrap is installed but cannot create namespaces: ${failure}`;
  }
  if (unshare) {
    const failure = await works([unshare, ...unshareFlags(), '--', ...probe]);
    if (!failure) return { level: 'namespaces', reason: `${why}; using unshare for network and pid namespaces (files of the host stay visible)`, bwrap, unshare, processLimit };
    why = `${why}; unshare cannot create namespaces either: ${failure}`;
  }
  return { level: 'rlimits', reason: `${why}; only resource limits and a cleared environment apply`, bwrap, unshare, processLimit };
}
