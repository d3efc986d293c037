/**
 * DuckDB's native library loaded on a worker thread while this one starts the CLI.
 *
 * Why: `dlopen` of libduckdb.so (70 MB: its relocations and static constructors) takes about
 * 30 ms, and the thread that first requires DuckDB's binding waits for all of it. At start-up the
 * other cores are idle: a worker that loads the library first does that work there, and the main
 * thread's require, when fast mode opens its database, finds it loaded (the dynamic loader keeps
 * one copy per process) and only loads the small binding beside it and runs its init, ~5 ms.
 *
 * The worker loads the library alone, not the binding: a binding's N-API init running on a worker
 * that the process stops as it exits (a run refused at once: a missing file, a directory) aborted
 * the whole process ("terminate called after throwing an instance of 'Napi::Error'"). The
 * library has no N-API init: process.dlopen loads it, then throws "did not self-register", which
 * the worker ignores; the library stays loaded.
 *
 * Only a head start, never a dependency: a worker that cannot start or load the library changes
 * nothing (the main thread loads it as it always did, and reports any error then), and it never
 * keeps the process alive.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** The package whose require loads DuckDB's native binding for this platform. */
export const DUCKDB_BINDINGS = '@duckdb/node-bindings';

/** DuckDB's shared library, beside the binding of each platform's package. */
const LIBRARY: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'libduckdb.so',
  darwin: 'libduckdb.dylib',
  win32: 'duckdb.dll',
};

/** The code cache topics (cacheTopic) whose runs open DuckDB on the main thread soon after start. */
const DUCKDB_TOPICS: ReadonlySet<string> = new Set(['analyze']);

/** DuckDB's shared library for this platform, resolved from `from` (a file of the package), or null. */
export function duckdbLibrary(from: string): string | null {
  const name = LIBRARY[process.platform];
  if (!name) return null;
  try {
    // The platform's package is a dependency of the bindings' package: resolved from there.
    const bindings = createRequire(from).resolve(DUCKDB_BINDINGS);
    const binding = createRequire(bindings).resolve(
      `${DUCKDB_BINDINGS}-${process.platform}-${process.arch}/duckdb.node`,
    );
    const library = join(dirname(binding), name);
    return existsSync(library) ? library : null;
  } catch {
    return null;
  }
}

/**
 * Starts loading the native library a run of `topic` needs, resolved from `from`, on a worker
 * thread; returns the worker, or null when there is nothing to load or it could not start.
 * Turned off by `OPSMIND_NO_PRELOAD=1`.
 */
export function preloadNative(
  topic: string,
  from: string,
  env: NodeJS.ProcessEnv = process.env,
): Worker | null {
  if (!DUCKDB_TOPICS.has(topic) || (env.OPSMIND_NO_PRELOAD && env.OPSMIND_NO_PRELOAD !== '0'))
    return null;
  const library = duckdbLibrary(from);
  if (library === null) return null;
  try {
    const load = `try { process.dlopen({ exports: {} }, ${JSON.stringify(library)}); } catch {}`;
    const worker = new Worker(load, {
      eval: true,
      // The worker needs nothing of the process: no stdin, its output discarded, no environment
      // of its own to copy, and a small heap.
      stdin: false,
      stdout: true,
      stderr: true,
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    worker.unref();
    worker.on('error', () => undefined);
    return worker;
  } catch {
    return null;
  }
}
