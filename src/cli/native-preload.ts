/**
 * DuckDB's native library loaded on a worker thread while this one starts the CLI.
 *
 * Why: `dlopen` of libduckdb.so (70 MB: its relocations and static constructors) takes about
 * 30 ms, and the thread that first requires the binding waits for all of it. At start-up the
 * other cores are idle: a worker that requires the binding first does that work there, and the
 * main thread's require, when fast mode opens its database, finds the library loaded (the dynamic
 * loader keeps one copy per process; it only runs the binding's N-API module init again, ~2 ms).
 * A 10,000-row `analyze` has ~30 ms of its ~1 s on the main thread less.
 *
 * Only a head start, never a dependency: a worker that cannot start or cannot load the binding
 * changes nothing (the main thread loads it as it always did, and reports any error then), and
 * it never keeps the process alive.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The package whose require loads DuckDB's native binding for this platform. */
export const DUCKDB_BINDINGS = '@duckdb/node-bindings';

/** The code cache topics (cacheTopic) whose runs open DuckDB on the main thread soon after start. */
const DUCKDB_TOPICS: ReadonlySet<string> = new Set(['analyze']);

/**
 * Starts loading the native libraries a run of `topic` needs, resolved from `from` (a file of
 * the package), on a worker thread; returns the worker, or null when there is nothing to load or
 * it could not start. Turned off by `OPSMIND_NO_PRELOAD=1`.
 */
export function preloadNative(
  topic: string,
  from: string,
  env: NodeJS.ProcessEnv = process.env,
): Worker | null {
  if (!DUCKDB_TOPICS.has(topic) || (env.OPSMIND_NO_PRELOAD && env.OPSMIND_NO_PRELOAD !== '0'))
    return null;
  try {
    const path = createRequire(from).resolve(DUCKDB_BINDINGS);
    const worker = new Worker(`require(${JSON.stringify(path)});`, {
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
    // A binding that fails to load fails again, with its message, where the main thread loads it.
    worker.on('error', () => undefined);
    return worker;
  } catch {
    return null;
  }
}
