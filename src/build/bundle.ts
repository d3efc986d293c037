/**
 * Build step (`npm run build`, after tsc): bundles the compiled CLI into dist/bundle/, which
 * bin/opsmind.js runs.
 *
 * Why: Node 20 loads an ES module graph file by file (resolve, read, compile, link), and has no
 * compile cache for it. The CLI's graph for `analyze` is some 300 of our modules plus zod's and
 * commander's, about 0.2 s of a 10,000-row analysis that takes 1.1–1.3 s. One file per
 * subcommand (esbuild's code splitting keeps each subcommand's code behind its dynamic import) is
 * read and compiled at once.
 *
 * Kept external, loaded from node_modules as before: native addons (DuckDB, better-sqlite3), the
 * packages loaded on first use with `require` or `import()` (openai, read-excel-file, jsdom,
 * Plotly's bundle, which is read as text), and the ones only the interactive terminal and the
 * MCP server use (ink, react, the MCP SDK). dist/src stays as tsc wrote it: the build's own steps
 * and the tests' tsx runs do not use the bundle.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

const EXTERNAL = [
  '@duckdb/node-api',
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
const outdir = join(root, 'dist', 'bundle');
rmSync(outdir, { recursive: true, force: true });
await build({
  // The batch pool starts worker-main.js beside its own module (new URL('./worker-main.js', …)).
  entryPoints: {
    main: join(root, 'dist', 'src', 'cli', 'main.js'),
    'worker-main': join(root, 'dist', 'src', 'batch', 'worker-main.js'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  // Bundled CommonJS (commander) calls require for Node's built-ins; ESM has none of its own.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});
