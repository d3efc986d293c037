/**
 * What a sandbox is given, placed where its unprivileged identity can reach
 * it and nothing else: a private copy of the preamble, and the data file
 * itself (hard-linked into the staging dir, or in place), else a read-only
 * copy (a root-only file under /root, say). The staging dir is
 * traversable but not listable by others (0711); names inside are fixed.
 */
import {
  chmodSync,
  copyFileSync,
  constants,
  linkSync,
  mkdirSync,
  readdirSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { SandboxIdentity } from './identity.js';

/** The staged data file, and a note when it had to be copied. */
export interface StagedData {
  path: string;
  note: string | null;
}

/** Whether `identity` may search `dir` and every directory above it. */
export function searchableBy(dir: string, identity: Pick<SandboxIdentity, 'uid' | 'gid'>): boolean {
  try {
    for (let d = dir; ; d = dirname(d)) {
      const st = statSync(d);
      if (!otherMay(st.mode, identity.uid, identity.gid, st, 'x')) return false;
      if (d === dirname(d)) return true;
    }
  } catch {
    return false;
  }
}

/**
 * Where sandboxes of this process are staged: the temp dir when the sandbox's
 * identity can reach it (a private TMPDIR of 0700 cannot be), else /tmp,
 * /var/tmp or /dev/shm; null when none can be.
 */
export function stagingBase(identity: SandboxIdentity): string | null {
  const candidates = [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'];
  return candidates.find((dir) => !identity.drops || searchableBy(dir, identity)) ?? null;
}

/** Copies the preamble's Python modules and its contract JSON into `root/preamble` (0755/0644); returns that directory. */
export function stagePreamble(root: string, preambleDir: string): string {
  const target = join(root, 'preamble');
  mkdirSync(target, { mode: 0o755 });
  for (const name of readdirSync(preambleDir)) {
    if (!name.endsWith('.py') && !name.endsWith('.json')) continue; // modules and the generated contract
    copyFileSync(join(preambleDir, name), join(target, name));
    chmodSync(join(target, name), 0o644);
  }
  chmodSync(target, 0o755);
  return target;
}

function otherMay(
  mode: number,
  uid: number,
  gid: number,
  stat: { uid: number; gid: number },
  bit: 'r' | 'x',
): boolean {
  const shift = { r: 2, x: 0 }[bit];
  if (stat.uid === uid) return ((mode >> (6 + shift)) & 1) === 1;
  if (stat.gid === gid) return ((mode >> (3 + shift)) & 1) === 1;
  return ((mode >> shift) & 1) === 1;
}

/** Whether `identity` can read `path` where it is (every ancestor searchable, the file readable). */
export function readableBy(path: string, identity: Pick<SandboxIdentity, 'uid' | 'gid'>): boolean {
  try {
    const file = statSync(path);
    return (
      otherMay(file.mode, identity.uid, identity.gid, file, 'r') &&
      searchableBy(dirname(path), identity)
    );
  } catch {
    return false;
  }
}

/**
 * The data file as the sandbox's identity can read it: a hard link in the
 * staging dir when the file is readable by that identity (so no host path
 * of the user's shows inside the sandbox, not even in /proc/self/mountinfo),
 * else the file in place when it is readable there (another filesystem),
 * else a private read-only copy.
 */
export function stageData(root: string, dataPath: string, identity: SandboxIdentity): StagedData {
  const dir = join(root, 'data');
  mkdirSync(dir, { mode: 0o711 });
  chmodSync(dir, 0o711);
  const target = join(dir, basename(dataPath));
  const file = statSync(dataPath);
  if (!identity.drops || otherMay(file.mode, identity.uid, identity.gid, file, 'r')) {
    try {
      linkSync(dataPath, target);
      return { path: target, note: null };
    } catch {
      /* another filesystem, or links are protected here */
    }
  }
  if (!identity.drops || readableBy(dataPath, identity)) return { path: dataPath, note: null };
  copyFileSync(dataPath, target, constants.COPYFILE_FICLONE);
  chmodSync(target, 0o644);
  return {
    path: target,
    note: `the sandbox's unprivileged user (uid ${identity.uid}) cannot read ${dataPath} in place, so it reads a private copy`,
  };
}
