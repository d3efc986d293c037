/**
 * DuckDB's JavaScript API, loaded with `require`: imported as ESM, Node would run its CommonJS
 * export lexer over each of the package's 60 files first, which triples the load (≈330 ms
 * against ≈100 ms). The CLI's bundle (src/build/bundle.ts) replaces this module with the API
 * bundled in (≈60 ms: one file instead of 60 to resolve and compile); only its native binding,
 * `@duckdb/node-bindings`, stays a package of its own.
 */
import type * as DuckDbApi from '@duckdb/node-api';
import { createRequire } from 'node:module';

export const duckdbApi = createRequire(import.meta.url)('@duckdb/node-api') as typeof DuckDbApi;
