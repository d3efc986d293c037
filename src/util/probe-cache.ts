/**
 * A small on-disk cache for slow environment probes (which Python has
 * pandas, which isolation works): each costs an interpreter start. Entries
 * expire after a day and carry a fingerprint (paths and mtimes) so a changed
 * installation is probed again. A broken cache file is ignored.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataHome } from '../store/paths.js';

const TTL_MS = 24 * 60 * 60 * 1000;

function file(): string {
  return join(dataHome(), 'probe-cache.json');
}

function readAll(): Record<string, { at: number; fingerprint: string; value: unknown }> {
  try {
    return JSON.parse(readFileSync(file(), 'utf8')) as Record<string, { at: number; fingerprint: string; value: unknown }>;
  } catch {
    return {};
  }
}

/** A fingerprint of files: their paths and modification times (missing files count too). */
export function fingerprint(paths: readonly (string | null | undefined)[]): string {
  return paths.map((p) => {
    if (!p) return '-';
    try {
      return `${p}@${statSync(p).mtimeMs}`;
    } catch {
      return `${p}@missing`;
    }
  }).join('|');
}

/** The cached value for `key` if fresh and the fingerprint matches; otherwise undefined. */
export function cached<T>(key: string, print: string): T | undefined {
  if (process.env.OPSMIND_NO_PROBE_CACHE) return undefined;
  const entry = readAll()[key];
  if (!entry || entry.fingerprint !== print || Date.now() - entry.at > TTL_MS) return undefined;
  return entry.value as T;
}

/** Stores a value; failures to write are ignored (the cache is an optimisation only). */
export function remember(key: string, print: string, value: unknown): void {
  try {
    const all = readAll();
    all[key] = { at: Date.now(), fingerprint: print, value };
    mkdirSync(dataHome(), { recursive: true });
    const tmp = `${file()}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all));
    renameSync(tmp, file());
  } catch {
    /* read-only home: probe every time */
  }
}
