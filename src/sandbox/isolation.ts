/**
 * Isolation backends, strongest first: bubblewrap (user, pid, net, ipc, uts
 * namespaces; read-only /usr and /proc/sys; only the data file and one
 * size-capped tmpfs visible; every capability dropped; a seccomp filter),
 * then unshare (network and pid namespaces only), then plain rlimits. At
 * every level a root host drops to an unprivileged uid first (identity.ts).
 * The level in force is detected once per process by really starting each
 * backend, and always reported.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { z } from 'zod';
import { cachedParsed, fingerprint, remember } from '../util/probe-cache.js';
import { createPidsCgroup } from './cgroup.js';
import { sandboxIdentity } from './identity.js';
import { seccompSupported } from './seccomp.js';
import { spawnSandboxed } from './spawn.js';
import type { Limits } from './limits.js';

/** How strongly programs are isolated. */
export type IsolationLevel = 'bubblewrap' | 'namespaces' | 'rlimits';

/** What detection found: the level, why, and how the process limit is enforced. */
export const IsolationInfoSchema = z.object({
  level: z.enum(['bubblewrap', 'namespaces', 'rlimits']),
  /** Why this level (and not a stronger one), in words. */
  reason: z.string(),
  bwrap: z.string().nullable(),
  unshare: z.string().nullable(),
  /** 'cgroup' (pids cgroup), 'rlimit' (RLIMIT_NPROC, non-root) or 'none' (root without a writable cgroup). */
  processLimit: z.enum(['cgroup', 'rlimit', 'none']),
  /** Whether programs run under the seccomp filter (bubblewrap on a known architecture). */
  seccomp: z.boolean(),
  /** The host uid programs run as, and whether that is a drop from root. */
  uid: z.number().int(),
  dropsRoot: z.boolean(),
});
/** The isolation in force. */
export type IsolationInfo = z.infer<typeof IsolationInfoSchema>;

/** Host paths a sandbox needs (already staged where the sandbox's identity can reach them). */
export interface SandboxMounts {
  python: string;
  preambleDir: string;
  dataPath: string;
  /** Host directory holding the runs' work dirs below the bubblewrap level (bubblewrap uses a tmpfs instead). */
  workroot: string;
}

/** The same paths as the program sees them. */
export interface SandboxPaths {
  preambleDir: string;
  dataPath: string;
  workroot: string;
}

/** The uid and gid a program sees inside bubblewrap. */
const INNER_UID = '65534';
/** The fd number the seccomp program is handed to bubblewrap on. */
export const SECCOMP_FD = 3;

function which(name: string): string | null {
  for (const dir of (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .concat(['/usr/bin', '/bin'])) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      continue;
    }
  }
  return null;
}

/** The environment of every sandboxed program: nothing of the host's (`tmp` is its TMPDIR). */
export function sandboxEnv(workroot: string, tmp = `${workroot}/.tmp`): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    HOME: workroot,
    TMPDIR: tmp,
    USER: 'sandbox',
    LOGNAME: 'sandbox',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONHASHSEED: '0',
    OPENBLAS_NUM_THREADS: '1',
    OMP_NUM_THREADS: '1',
    MKL_NUM_THREADS: '1',
    MPLBACKEND: 'Agg',
    MPLCONFIGDIR: `${tmp}/.matplotlib`,
  };
}

/** Paths inside the sandbox for a level (bubblewrap remaps; the others see host paths). */
export function sandboxPaths(level: IsolationLevel, mounts: SandboxMounts): SandboxPaths {
  if (level !== 'bubblewrap')
    return {
      preambleDir: mounts.preambleDir,
      dataPath: mounts.dataPath,
      workroot: mounts.workroot,
    };
  return {
    preambleDir: '/opsmind/preamble',
    dataPath: `/data/${basename(mounts.dataPath)}`,
    workroot: '/work',
  };
}

function pythonPrefixBinds(python: string): string[] {
  const real = realpathSync(python);
  if (real.startsWith('/usr/')) return [];
  const prefix = dirname(dirname(real));
  return ['--ro-bind', prefix, prefix];
}

const DEVICES = ['null', 'zero', 'full', 'random', 'urandom'];
/** Kernel tunables under /proc, made read-only (bubblewrap's own cover does not hold for an unprivileged caller). */
const PROC_COVERED = ['/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus'];

/**
 * The bubblewrap arguments that run `inner`. The only writable place is one
 * tmpfs of `diskMb` at /work that also holds /tmp and /dev/shm (symlinks into
 * it), so the work dirs, temporary files and shared memory of a run share one
 * cap; /proc/sys is read-only; /dev has only the harmless devices.
 */
export function bwrapArgs(
  mounts: SandboxMounts,
  limits: Pick<Limits, 'diskMb'>,
  inner: string[],
  seccomp: boolean,
): string[] {
  const paths = sandboxPaths('bubblewrap', mounts);
  const env = Object.entries(sandboxEnv(paths.workroot, '/tmp')).flatMap(([k, v]) => [
    '--setenv',
    k,
    v,
  ]);
  return [
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--uid',
    INNER_UID,
    '--gid',
    INNER_UID,
    '--hostname',
    'opsmind-sandbox',
    '--cap-drop',
    'ALL',
    '--clearenv',
    ...env,
    '--ro-bind',
    '/usr',
    '/usr',
    '--symlink',
    'usr/lib',
    '/lib',
    '--symlink',
    'usr/lib64',
    '/lib64',
    '--symlink',
    'usr/bin',
    '/bin',
    '--symlink',
    'usr/sbin',
    '/sbin',
    '--ro-bind',
    '/etc/alternatives',
    '/etc/alternatives',
    '--ro-bind-try',
    '/etc/ld.so.cache',
    '/etc/ld.so.cache',
    '--ro-bind-try',
    '/etc/matplotlibrc',
    '/etc/matplotlibrc',
    '--ro-bind-try',
    '/etc/fonts',
    '/etc/fonts',
    ...pythonPrefixBinds(mounts.python),
    '--proc',
    '/proc',
    ...PROC_COVERED.flatMap((d) => ['--ro-bind-try', d, d]),
    '--dir',
    '/dev',
    ...DEVICES.flatMap((d) => ['--dev-bind', `/dev/${d}`, `/dev/${d}`]),
    '--symlink',
    '/proc/self/fd',
    '/dev/fd',
    '--symlink',
    '/proc/self/fd/0',
    '/dev/stdin',
    '--symlink',
    '/proc/self/fd/1',
    '/dev/stdout',
    '--symlink',
    '/proc/self/fd/2',
    '/dev/stderr',
    '--size',
    String(Math.ceil(limits.diskMb * 1024 * 1024)),
    '--tmpfs',
    '/work',
    '--dir',
    '/work/.tmp',
    '--dir',
    '/work/.shm',
    '--symlink',
    '/work/.tmp',
    '/tmp',
    '--symlink',
    '/work/.shm',
    '/dev/shm',
    '--ro-bind',
    mounts.preambleDir,
    paths.preambleDir,
    '--ro-bind',
    mounts.dataPath,
    paths.dataPath,
    '--remount-ro',
    '/',
    '--chdir',
    paths.workroot,
    ...(seccomp ? ['--seccomp', String(SECCOMP_FD)] : []),
    ...inner,
  ];
}

/** The full command for a level: the identity drop and the wrapper (if any) around `inner`. */
export function wrapCommand(
  info: IsolationInfo,
  mounts: SandboxMounts,
  limits: Pick<Limits, 'diskMb'>,
  inner: string[],
): string[] {
  const drop = sandboxIdentity().prefix;
  if (info.level === 'bubblewrap' && info.bwrap)
    return [...drop, info.bwrap, ...bwrapArgs(mounts, limits, inner, info.seccomp)];
  if (info.level === 'namespaces' && info.unshare)
    return [info.unshare, ...unshareFlags(), '--', ...drop, ...inner];
  return [...drop, ...inner];
}

function unshareFlags(): string[] {
  const root = process.getuid?.() === 0;
  return [
    ...(root ? [] : ['--user', '--map-root-user']),
    '--net',
    '--pid',
    '--fork',
    '--kill-child',
    '--mount-proc',
  ];
}

/** Starts a probe command the way sandboxes start (seccomp program on fd 3 for bubblewrap); null when it works. */
function works(command: string[], seccomp: boolean): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawnSandboxed(command, {
      env: { PATH: '/usr/bin:/bin' },
      seccomp,
      stdout: 'ignore',
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(null);
      resolve(stderr.trim().split('\n')[0] || `exited with ${code ?? signal ?? 'an error'}`);
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
export function detectIsolation(python: string, _preambleDir?: string): Promise<IsolationInfo> {
  detected ??= detect(python);
  return detected;
}

/** A backend binary, unless OPSMIND_<NAME>=none disables it (to force or test a weaker level). */
function backend(name: 'bwrap' | 'unshare'): string | null {
  const override = process.env[`OPSMIND_${name.toUpperCase()}`];
  if (override === 'none') return null;
  return override || which(name);
}

async function detect(python: string): Promise<IsolationInfo> {
  const bwrap = backend('bwrap');
  const unshare = backend('unshare');
  const identity = sandboxIdentity();
  const key = `isolation|v2|${python}|${bwrap ?? ''}|${unshare ?? ''}|${process.getuid?.() ?? ''}|${identity.uid}`;
  const print = fingerprint([
    python,
    bwrap,
    unshare,
    '/proc/sys/kernel/unprivileged_userns_clone',
    '/proc/sys/user/max_user_namespaces',
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  ]);
  const hit = cachedParsed(key, print, IsolationInfoSchema);
  if (hit) return hit;
  const found = await probeLevels(python, bwrap, unshare);
  remember(key, print, found);
  return found;
}

async function probeLevels(
  python: string,
  bwrap: string | null,
  unshare: string | null,
): Promise<IsolationInfo> {
  const identity = sandboxIdentity();
  const base = {
    bwrap,
    unshare,
    processLimit: processLimitKind(),
    uid: identity.uid,
    dropsRoot: identity.drops,
  };
  const probe = [python, '-I', '-c', 'import pandas'];
  const as = identity.drops ? ` as the unprivileged uid ${identity.uid}` : '';
  let why = 'bubblewrap is not installed (apt-get install bubblewrap)';
  if (bwrap) {
    const seccomp = seccompSupported();
    const info: IsolationInfo = { ...base, level: 'bubblewrap', seccomp, reason: '' };
    const mounts = { python, preambleDir: '/usr/lib', dataPath: python, workroot: '/nonexistent' };
    const failure = await works(wrapCommand(info, mounts, { diskMb: 16 }, probe), seccomp);
    const filter = seccomp
      ? 'a seccomp filter'
      : `no seccomp filter (no syscall table for ${process.arch})`;
    if (!failure)
      return {
        ...info,
        reason: `bubblewrap can create user, pid, network, ipc and uts namespaces${as} here; ${filter}`,
      };
    why = `bubblewrap is installed but cannot create namespaces${as}: ${failure}`;
  }
  if (unshare) {
    const info: IsolationInfo = { ...base, level: 'namespaces', seccomp: false, reason: '' };
    const failure = await works(
      wrapCommand(
        info,
        { python, preambleDir: '/usr/lib', dataPath: python, workroot: '/' },
        { diskMb: 16 },
        probe,
      ),
      false,
    );
    if (!failure)
      return {
        ...info,
        reason: `${why}; using unshare for network and pid namespaces${as} (host files stay visible with that user's permissions)`,
      };
    why = `${why}; unshare cannot create namespaces either: ${failure}`;
  }
  return {
    ...base,
    level: 'rlimits',
    seccomp: false,
    reason: `${why}; only resource limits${as} and a cleared environment apply`,
  };
}
