/**
 * DuckDB's JavaScript API, loaded with `require` the first time a database opens: imported as
 * ESM, Node would run its CommonJS export lexer over each of the package's 60 files first, which
 * triples the load (≈330 ms against ≈100 ms). The CLI's bundle (src/build/bundle.ts) replaces
 * this module with the API bundled in (≈60 ms: one file instead of 60 to resolve and compile);
 * only its native binding, `@duckdb/node-bindings`, stays a package of its own.
 *
 * Loaded when first asked for, not when this module is: the binding's library takes ~30 ms to
 * load, which a worker started with the CLI (src/cli/native-preload.ts) does meanwhile on
 * another core, and a run that never opens a database never loads it.
 */
import type * as DuckDbApi from '@duckdb/node-api';
import { createRequire } from 'node:module';

let api: typeof DuckDbApi | undefined;

/** The API, loaded on the first call. */
export function duckdbApi(): typeof DuckDbApi {
  api ??= createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDbApi;
  return api;
}
