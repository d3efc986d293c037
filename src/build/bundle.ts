/**
 * Build step (`npm run build`, after tsc): bundles the compiled CLI into dist/bundle/, which
 * bin/opsmind.js runs.
 *
 * Why: Node 20 loads an ES module graph file by file (resolve, read, compile, link), and has no
 * compile cache for it. The CLI's graph for `analyze` is some 300 of our modules plus zod's and
 * commander's, about 0.2 s of a 10,000-row analysis that takes 1.1–1.3 s.
 *
 * - The CLI is one CommonJS file, dist/bundle/main.cjs: V8's code cache (src/cli/code-cache.ts)
 *   works on scripts, not on ES modules, and with it a run no longer compiles the functions the
 *   last run of its subcommand compiled. Each subcommand's modules still load only when it runs:
 *   esbuild turns the dynamic imports of main.ts into lazily initialised modules.
 * - The batch worker is an ES module bundle of its own (dist/bundle/worker-main.js, where the
 *   pool starts it: new URL('./worker-main.js', …) beside the CLI).
 *
 * DuckDB's JavaScript API is bundled in (src/engine/duckdb-api.ts is swapped for an import of it,
 * which esbuild can follow); its native binding, @duckdb/node-bindings, is a dependency of ours at
 * the same exact version as the API's, so it resolves from this package in any install layout.
 *
 * Kept external, loaded from node_modules as before: native addons (DuckDB's binding,
 * better-sqlite3), the packages loaded on first use with `require` or `import()` (openai,
 * read-excel-file, jsdom, Plotly's bundle, which is read as text), and the ones only the
 * interactive terminal and the MCP server use (ink, react, the MCP SDK). dist/src stays as tsc
 * wrote it: the build's own steps and the tests' tsx runs do not use the bundle.
 */
import { build } from 'esbuild';
import type { BuildOptions, Plugin } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { asciiEscaped } from '../util/ascii-escaped.js';

const EXTERNAL = [
  '@duckdb/node-bindings',
  'better-sqlite3',
  'openai',
  'read-excel-file',
  'jsdom',
  'plotly.js-dist-min',
  'ink',
  'react',
  'react/jsx-runtime',
  '@modelcontextprotocol/sdk',
];

const root = packageRoot();

/**
 * zod's `locales` namespace with English alone: `z` re-exports all 64 of zod's locales, which
 * esbuild cannot leave out of a namespace, and OpsMind writes its messages in English (zod's
 * default). That is about 300 KB less to compile at every start.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)$/.test(args.resolveDir)
        ? { path: join(args.resolveDir, '..', 'locales', 'en-only.js'), namespace: 'zod-locales' }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(args.path, '..', 'en.js'))};\n`,
      resolveDir: join(args.path, '..'),
      loader: 'js',
    }));
  },
};

/**
 * ink in the CommonJS bundle: ink is an ES module with a top-level await, which `require` cannot
 * load, so a static import of it reads the module importEsm('ink') loaded (src/util/esm-import.ts).
 */
const inkLoadedFirst: Plugin = {
  name: 'ink-loaded-first',
  setup(builder) {
    builder.onResolve({ filter: /^ink$/ }, () => ({ path: 'ink', namespace: 'loaded-esm' }));
    builder.onLoad({ filter: /.*/, namespace: 'loaded-esm' }, (args) => ({
      contents: `import { loadedEsm } from ${JSON.stringify(join(root, 'dist', 'src', 'util', 'esm-import.js'))};\nmodule.exports = loadedEsm(${JSON.stringify(args.path)});\n`,
      resolveDir: root,
      loader: 'js',
    }));
  },
};

/** dist/src/engine/duckdb-api.js as the bundle has it: DuckDB's API required, so it is bundled. */
const duckdbApiBundled: Plugin = {
  name: 'duckdb-api',
  setup(builder) {
    builder.onLoad({ filter: /[\\/]engine[\\/]duckdb-api\.js$/ }, () => ({
      // A require esbuild bundles and evaluates on its first call, as the module it replaces does.
      contents: "export function duckdbApi() { return require('@duckdb/node-api'); }\n",
      resolveDir: root,
      loader: 'js',
    }));
  },
};
/** Rewrites the bundle at `path` in ASCII (util/ascii-escaped.ts). */
function asciiOnly(path: string): void {
  writeFileSync(path, asciiEscaped(readFileSync(path, 'utf8')));
}

const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
const shared = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  plugins: [duckdbApiBundled, zodEnglishOnly],
  sourcemap: 'linked',
  logLevel: 'warning',
} satisfies BuildOptions;
await build({
  ...shared,
  entryPoints: { main: join(root, 'dist', 'src', 'cli', 'main.js') },
  plugins: [...shared.plugins, inkLoadedFirst],
  outdir,
  outExtension: { '.js': '.cjs' },
  format: 'cjs',
  // A CommonJS file has no import.meta: its URL is the bundle's own (createRequire, the worker's
  // path and the package root are found from it). Strict, as the ES modules it was built from.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: {
    js: "'use strict';\nconst __bundleUrl = require('node:url').pathToFileURL(__filename).href;",
  },
});
asciiOnly(join(outdir, 'main.cjs'));
await build({
  ...shared,
  entryPoints: { 'worker-main': join(root, 'dist', 'src', 'batch', 'worker-main.js') },
  outdir,
  splitting: true,
  format: 'esm',
  // Bundled CommonJS (commander) calls require for Node's built-ins; ESM has none of its own.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
  },
});
