/**
 * The file boundary: only regular files inside the work dir are collected.
 * Empty or odd names, directories, `..` escapes and symlinks are skipped with
 * a recorded reason, never turned into `.` or a directory copy. Reads open
 * without following a link and without blocking (a FIFO), check the opened
 * file is regular, and read no further than the cap. The run's files reach
 * the host through the worker's pipe (file-sink.ts), so this is a second wall.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A collected artifact, or the reason it was skipped. */
export type ArtifactResult =
  { ok: true; path: string; bytes: number } | { ok: false; reason: string };

/** Default cap on one artifact's size. */
export const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024;

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** Resolves `name` to a regular file inside `workdir`, or says why not. */
export function resolveArtifact(
  workdir: string,
  name: unknown,
  maxBytes = MAX_ARTIFACT_BYTES,
): ArtifactResult {
  if (typeof name !== 'string' || name.trim() === '' || name.includes('\0'))
    return { ok: false, reason: 'empty or invalid artifact name' };
  if (isAbsolute(name)) return { ok: false, reason: `artifact "${name}" is an absolute path` };
  const root = realpathSync(workdir);
  const target = resolve(root, name);
  if (!inside(root, target))
    return { ok: false, reason: `artifact "${name}" is outside the work dir` };
  let stat;
  try {
    stat = lstatSync(target);
  } catch {
    return { ok: false, reason: `artifact "${name}" does not exist` };
  }
  if (stat.isSymbolicLink()) return { ok: false, reason: `artifact "${name}" is a symlink` };
  if (!stat.isFile()) return { ok: false, reason: `artifact "${name}" is not a regular file` };
  if (!inside(root, realpathSync(target)))
    return { ok: false, reason: `artifact "${name}" resolves outside the work dir` };
  if (stat.size > maxBytes)
    return {
      ok: false,
      reason: `artifact "${name}" is ${stat.size} bytes, over the ${maxBytes}-byte limit`,
    };
  return { ok: true, path: target, bytes: stat.size };
}

/** Reads an artifact as UTF-8 text after the same checks; throws with the reason when it is refused. */
export function readArtifact(
  workdir: string,
  name: unknown,
  maxBytes = MAX_ARTIFACT_BYTES,
): string {
  return readArtifactBytes(workdir, name, maxBytes).toString('utf8');
}

/**
 * Reads an artifact's bytes after the same checks, opened without following a
 * symlink and read no further than `maxBytes`, so a file swapped or grown after
 * the check is still refused; throws with the reason when it is.
 */
export function readArtifactBytes(
  workdir: string,
  name: unknown,
  maxBytes = MAX_ARTIFACT_BYTES,
): Buffer {
  const found = resolveArtifact(workdir, name, maxBytes);
  if (!found.ok) throw new Error(found.reason);
  const fd = openSync(found.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error(`artifact "${String(name)}" is not a regular file`);
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes)
      throw new Error(`artifact "${String(name)}" is over the ${maxBytes}-byte limit`);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
