/**
 * The bundled CLI's V8 code cache (src/cli/code-cache.ts): written at the first run of a
 * subcommand, used by the next, rebuilt when V8 rejects it, and never a reason for a run to fail.
 * Real runs: child Node processes running a bundle through runBundle, and the built binary.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cacheTopic, codeCacheDir } from '../src/cli/code-cache.js';
import { ROOT, runCli, tempDir } from './helpers/fixtures.js';

/** Runs `bundle` through runBundle in a fresh Node; returns the cache use and the bundle's output. */
function runThrough(bundle: string, env: NodeJS.ProcessEnv): { use: string; out: string } {
  const script = `import { runBundle } from ${JSON.stringify(join(ROOT, 'src/cli/code-cache.ts'))};
process.stdout.write('use=' + runBundle(${JSON.stringify(bundle)}, ['analyze', 'x.csv']) + '\\n');`;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      cwd: ROOT,
      env: { ...process.env, OPSMIND_NO_CODE_CACHE: '', ...env },
      encoding: 'utf8',
    },
  );
  assert.equal(result.status, 0, result.stderr);
  const use = /^use=(\w+)$/m.exec(result.stdout)?.[1] ?? '';
  return { use, out: result.stdout.replace(/^use=\w+\n/m, '') };
}

/** A CommonJS bundle that uses what Node gives a module, and a dynamic import as ours do (esm-import.ts). */
function writeBundle(dir: string): string {
  const bundle = join(dir, 'main.cjs');
  writeFileSync(
    bundle,
    `'use strict';
const { basename } = require('node:path');
console.log(basename(__filename), basename(__dirname), typeof module.exports, this === module.exports);
globalThis[Symbol.for('opsmind.hostImport')]('node:os').then((os) => console.log('imported', typeof os.cpus));
`,
  );
  return bundle;
}

const cacheFiles = (home: string): string[] =>
  existsSync(join(home, 'cache')) ? readdirSync(join(home, 'cache')) : [];

void test('cacheTopic names the subcommand, after global options, and nothing else', () => {
  assert.equal(cacheTopic(['analyze', 'data.csv']), 'analyze');
  assert.equal(cacheTopic(['--db', 'sessions.db', 'run', 'x.py']), 'run');
  assert.equal(cacheTopic(['--verbose', 'mcp']), 'mcp');
  assert.equal(cacheTopic(['--version']), 'none');
  assert.equal(cacheTopic([]), 'none');
  assert.equal(cacheTopic(['analyz']), 'other');
  assert.equal(cacheTopic(['../../etc/passwd']), 'other');
});

void test("cacheTopic: analyze's three paths (DuckDB, pandas, deep mode) each have a cache", () => {
  assert.equal(cacheTopic(['analyze', 'd.csv'], {}), 'analyze');
  assert.equal(cacheTopic(['analyze', 'd.csv', '--engine', 'pandas'], {}), 'analyze.pandas');
  assert.equal(cacheTopic(['analyze', '--engine=pandas', 'd.csv'], {}), 'analyze.pandas');
  assert.equal(cacheTopic(['analyze', 'd.csv'], { OPSMIND_ENGINE: 'pandas' }), 'analyze.pandas');
  assert.equal(
    cacheTopic(['analyze', 'd.csv', '--engine', 'duckdb'], { OPSMIND_ENGINE: 'pandas' }),
    'analyze',
  );
  assert.equal(cacheTopic(['analyze', 'd.csv', '--mode', 'deep'], {}), 'analyze.deep');
  assert.equal(cacheTopic(['analyze', 'd.csv', '--mode=fast'], {}), 'analyze');
  assert.equal(cacheTopic(['run', 'x.py', '--engine', 'pandas'], {}), 'run');
});

void test('a run that fails saves no cache: the next one, which gets further, compiles and saves it', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = join(dir, 'main.cjs');
  writeFileSync(bundle, "console.log('ran');\nif (process.env.FAIL) process.exitCode = 2;\n");
  const script = `import { runBundle } from ${JSON.stringify(join(ROOT, 'src/cli/code-cache.ts'))};
runBundle(${JSON.stringify(bundle)}, ['analyze', 'missing.csv']);`;
  const run = (fail: boolean) =>
    spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, OPSMIND_NO_CODE_CACHE: '', OPSMIND_HOME: home, FAIL: fail ? '1' : '' },
      encoding: 'utf8',
    });
  assert.equal(run(true).status, 2);
  assert.deepEqual(cacheFiles(home), []);
  assert.equal(run(false).status, 0);
  assert.equal(cacheFiles(home).length, 1);
});

void test('codeCacheDir: OPSMIND_HOME, else the XDG cache dir; off with OPSMIND_NO_CODE_CACHE', () => {
  assert.equal(codeCacheDir({ OPSMIND_HOME: '/h' }), '/h/cache');
  assert.equal(codeCacheDir({ XDG_CACHE_HOME: '/x' }), '/x/opsmind');
  assert.equal(codeCacheDir({ OPSMIND_HOME: '/h', OPSMIND_NO_CODE_CACHE: '1' }), null);
  assert.equal(codeCacheDir({ OPSMIND_HOME: '/h', OPSMIND_NO_CODE_CACHE: '0' }), '/h/cache');
});

void test('the first run compiles and saves the cache, the next runs from it, with the same behaviour', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = writeBundle(dir);
  const first = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(first.use, 'compiled');
  assert.match(first.out, /^main\.cjs opsmind-cc-\w+ object true\nimported function\n$/);
  const files = cacheFiles(home);
  assert.equal(files.length, 1);
  assert.match(files[0] ?? '', /^main\.cjs-analyze-v\d+[\w.-]*\.bin$/);
  const path = join(home, 'cache', files[0] ?? '');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  const before = statSync(path).mtimeMs;
  const second = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(second.use, 'cached');
  assert.equal(second.out, first.out);
  assert.equal(statSync(path).mtimeMs, before, 'a used cache is not rewritten');
});

void test('a damaged cache is rejected, rebuilt, and the run is unchanged', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = writeBundle(dir);
  const first = runThrough(bundle, { OPSMIND_HOME: home });
  const path = join(home, 'cache', cacheFiles(home)[0] ?? '');
  const garbage = Buffer.alloc(statSync(path).size, 0x5a);
  writeFileSync(path, garbage);
  const damaged = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(damaged.use, 'rejected');
  assert.equal(damaged.out, first.out);
  assert.notDeepEqual(readFileSync(path), garbage, 'the damaged file was replaced');
  assert.equal(runThrough(bundle, { OPSMIND_HOME: home }).use, 'cached');
});

void test('a changed bundle gets a cache of its own, and the old one is removed', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = writeBundle(dir);
  runThrough(bundle, { OPSMIND_HOME: home });
  const [old] = cacheFiles(home);
  writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}console.log('changed');\n`);
  const changed = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(changed.use, 'compiled');
  assert.match(changed.out, /changed/);
  const files = cacheFiles(home);
  assert.equal(files.length, 1);
  assert.notEqual(files[0], old);
});

void test('a bundle of the same size and mtime but other bytes (two npm releases) gets a cache of its own', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = join(dir, 'main.cjs');
  writeFileSync(bundle, "console.log('release A');\n");
  const { mtime } = statSync(bundle);
  assert.match(runThrough(bundle, { OPSMIND_HOME: home }).out, /release A/);
  writeFileSync(bundle, "console.log('release B');\n");
  utimesSync(bundle, mtime, mtime);
  const second = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(second.use, 'compiled');
  assert.match(second.out, /release B/);
});

void test('a cache that cannot be written, or is turned off, never stops a run', () => {
  const dir = tempDir('opsmind-cc-');
  const bundle = writeBundle(dir);
  const blocked = join(dir, 'blocked');
  mkdirSync(blocked);
  writeFileSync(join(blocked, 'cache'), 'a file where the cache directory would be');
  const unwritable = runThrough(bundle, { OPSMIND_HOME: blocked });
  assert.equal(unwritable.use, 'compiled');
  assert.match(unwritable.out, /imported function/);
  const off = join(dir, 'off');
  const none = runThrough(bundle, { OPSMIND_HOME: off, OPSMIND_NO_CODE_CACHE: '1' });
  assert.equal(none.use, 'off');
  assert.match(none.out, /imported function/);
  assert.equal(existsSync(off), false, 'nothing is written with the cache off');
});

void test('a cache directory or file others can write is neither read nor written', () => {
  const dir = tempDir('opsmind-cc-');
  const home = join(dir, 'home');
  const bundle = writeBundle(dir);
  runThrough(bundle, { OPSMIND_HOME: home });
  const cache = join(home, 'cache');
  const [name = ''] = cacheFiles(home);
  assert.equal(statSync(cache).mode & 0o777, 0o700);
  // A file another user could have replaced: compiled afresh, and then written back privately.
  chmodSync(join(cache, name), 0o666);
  assert.equal(runThrough(bundle, { OPSMIND_HOME: home }).use, 'compiled');
  assert.equal(statSync(join(cache, name)).mode & 0o777, 0o600);
  assert.equal(runThrough(bundle, { OPSMIND_HOME: home }).use, 'cached');
  // A directory others can write to: the cache is off, and nothing is written there.
  chmodSync(cache, 0o777);
  const before = statSync(join(cache, name)).mtimeMs;
  const shared = runThrough(bundle, { OPSMIND_HOME: home });
  assert.equal(shared.use, 'off');
  assert.match(shared.out, /imported function/);
  assert.equal(statSync(join(cache, name)).mtimeMs, before);
});

void test('the built CLI writes one cache per subcommand and prints the same with it', () => {
  const home = tempDir('opsmind-cc-home-');
  const env = { OPSMIND_HOME: home, OPSMIND_NO_CODE_CACHE: '' };
  const first = runCli(['--version'], { env });
  assert.equal(first.status, 0, first.stderr);
  const second = runCli(['--version'], { env });
  assert.equal(second.stdout, first.stdout);
  const help = runCli(['doctor', '--help'], { env });
  assert.equal(help.status, 0, help.stderr);
  assert.deepEqual(
    cacheFiles(home)
      .map((f) => f.split('-v')[0])
      .sort(),
    ['main.cjs-doctor', 'main.cjs-none'],
  );
});
