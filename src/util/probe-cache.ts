/**
 * A small on-disk cache for slow environment probes (which Python has
 * pandas, which isolation works): each costs an interpreter start. Entries
 * expire after a day and carry a fingerprint (paths and mtimes) so a changed
 * installation is probed again. A broken cache file is ignored.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { dataHome } from '../store/paths.js';

const TTL_MS = 24 * 60 * 60 * 1000;

/** The cache file: entries by key, each with when it was probed and the fingerprint it holds for. */
const CacheFileSchema = z.record(
  z.string(),
  z.object({ at: z.number(), fingerprint: z.string(), value: z.unknown() }),
);
type CacheFile = z.infer<typeof CacheFileSchema>;

function file(): string {
  return join(dataHome(), 'probe-cache.json');
}

function readAll(): CacheFile {
  try {
    const parsed = CacheFileSchema.safeParse(JSON.parse(readFileSync(file(), 'utf8')));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** A fingerprint of files: their paths and modification times (missing files count too). */
export function fingerprint(paths: readonly (string | null | undefined)[]): string {
  return paths
    .map((p) => {
      if (!p) return '-';
      try {
        return `${p}@${statSync(p).mtimeMs}`;
      } catch {
        return `${p}@missing`;
      }
    })
    .join('|');
}

function freshValue(key: string, print: string): unknown {
  if (process.env.OPSMIND_NO_PROBE_CACHE) return undefined;
  const entry = readAll()[key];
  if (!entry || entry.fingerprint !== print || Date.now() - entry.at > TTL_MS) return undefined;
  return entry.value;
}

/**
 * The cached value for `key` if fresh, its fingerprint matches and it parses with
 * `schema` (a value written by another version is probed again); otherwise undefined.
 */
export function cachedParsed<T>(key: string, print: string, schema: z.ZodType<T>): T | undefined {
  const parsed = schema.safeParse(freshValue(key, print));
  return parsed.success ? parsed.data : undefined;
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
