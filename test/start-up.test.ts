/**
 * What a run's first and last milliseconds rest on: DuckDB's native library loaded on a worker
 * thread while the CLI starts, and a run that ends at once unharmed by it
 * (src/cli/native-preload.ts); the bundle written in ASCII and read without UTF-8 decoding
 * (src/util/ascii-escaped.ts, code-cache.ts); the frame check written out (src/spec/load.ts frameOf) —
 * each doing exactly what the slower way did.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { isAscii } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import vm from 'node:vm';
import { asciiEscaped } from '../src/util/ascii-escaped.js';
import { duckdbLibrary, preloadNative } from '../src/cli/native-preload.js';
import { frameOf, parseFrame } from '../src/spec/load.js';
import { FrameSchema } from '../src/spec/schema.js';
import { ROOT, runCli, tempDir } from './helpers/fixtures.js';

void test('preloadNative loads the DuckDB binding on a worker for fast mode, and only then', async () => {
  const from = join(ROOT, 'package.json');
  assert.equal(preloadNative('analyze.pandas', from, {}), null);
  assert.equal(preloadNative('analyze.deep', from, {}), null);
  assert.equal(preloadNative('sessions', from, {}), null);
  assert.equal(preloadNative('analyze', from, { OPSMIND_NO_PRELOAD: '1' }), null);
  // Nothing to resolve from: no worker, no error.
  assert.equal(preloadNative('analyze', join(tempDir('preload'), 'main.cjs'), {}), null);
  const worker = preloadNative('analyze', from, {});
  assert.ok(worker, 'a worker for fast mode on DuckDB');
  worker.ref(); // it never keeps a run alive; this test waits for it
  const code = await new Promise<number>((resolve) => worker.on('exit', resolve));
  assert.equal(code, 0, 'the worker loaded the library without an error');
  const library = duckdbLibrary(from);
  assert.ok(library !== null && library.endsWith('libduckdb.so'), String(library));
  // Loaded into this process by the worker, and kept after it exited.
  assert.ok(readFileSync('/proc/self/maps', 'utf8').includes(library));
});

void test('a run refused at once exits with its code while the worker is still loading', () => {
  // A refusal ends the process ~0.25 s in, when the worker may be mid-load: a worker that ran the
  // binding's N-API init then aborted the process (SIGABRT, "terminate called … Napi::Error").
  const dir = tempDir('preload-exit');
  for (let i = 0; i < 6; i += 1) {
    const result = runCli(['analyze', i % 2 ? dir : join(dir, 'missing.csv'), '--no-llm']);
    assert.equal(result.status, 2, result.stderr);
    assert.doesNotMatch(result.stderr, /terminate called|Napi/);
  }
});

void test('a run with the preload gives the same report as one without it', () => {
  const dir = tempDir('preload-run');
  const data = join(dir, 'data.csv');
  writeFileSync(data, 'city,sales\nOslo,3\nLima,5\nOslo,4\nRome,1\n');
  const runs = ['0', '1'].map((off) => {
    const out = join(dir, `r${off}`, 'report.html');
    const result = runCli(['analyze', data, '--no-llm', '--json', '-o', out], {
      env: { OPSMIND_NO_PRELOAD: off, OPSMIND_HOME: join(dir, `home${off}`) },
    });
    assert.equal(result.status, 0, result.stderr);
    const json = JSON.parse(result.stdout) as { insights: string[]; charts: unknown[] };
    return { insights: json.insights, charts: json.charts.length };
  });
  assert.deepEqual(runs[0], runs[1]);
  assert.ok((runs[0]?.charts ?? 0) > 0);
});

void test('the built bundle is ASCII, so the CLI reads it without decoding', () => {
  const bundle = readFileSync(join(ROOT, 'dist', 'bundle', 'main.cjs'));
  assert.ok(isAscii(bundle), 'npm run build writes dist/bundle/main.cjs in ASCII');
});

void test('asciiEscaped: a script means what it meant, in regexes, strings, identifiers and comments', () => {
  const script = [
    '// a comment — with ±, ≥ and © in it',
    "const année = 'x';",
    'const words = /^(année|año|©)$/i;',
    'const unicode = /^😀+$/u;',
    'const text = `€ — ${année} 😀`;',
    "module.exports = [words.test('ANNÉE'), words.test('año'), words.test('©'), unicode.test('😀😀'), text, 'naïve'.length];",
  ].join('\n');
  const escaped = asciiEscaped(script);
  assert.ok(isAscii(Buffer.from(escaped)));
  const run = (code: string): unknown => {
    const module = { exports: undefined as unknown };
    const wrapped = vm.runInThisContext(`(function (module) {${code}\n})`) as (m: object) => void;
    wrapped(module);
    return module.exports;
  };
  assert.deepEqual(run(escaped), run(script));
  assert.deepEqual(run(escaped), [true, true, true, true, '€ — x 😀', 5]);
  assert.equal(asciiEscaped('plain ascii'), 'plain ascii');
});

void test('a bundle with other characters still runs, decoded as UTF-8', () => {
  const dir = tempDir('utf8-bundle');
  const bundle = join(dir, 'main.cjs');
  writeFileSync(bundle, "'use strict';\nconsole.log('déjà — ' + /é/.test('café'));\n");
  const script = `import { runBundle } from ${JSON.stringify(join(ROOT, 'src/cli/code-cache.ts'))};
runBundle(${JSON.stringify(bundle)}, ['sessions']);`;
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, env: { ...process.env, OPSMIND_HOME: join(dir, 'home') }, encoding: 'utf8' },
  );
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.trim(), 'déjà — true');
});

void test('frameOf accepts and returns what FrameSchema does, input by input', () => {
  const inputs: unknown[] = [
    {
      columns: ['a', 'b'],
      data: [
        [1, 'x'],
        [null, { y: 2 }],
      ],
    },
    { columns: [], data: [] },
    { columns: ['a'], data: [[]], extra: 'dropped' },
    { columns: ['a', 1], data: [] },
    { columns: ['a'], data: [1] },
    { columns: ['a'], data: [null] },
    { columns: ['a'] },
    { data: [] },
    { columns: 'a', data: [] },
    { columns: ['a'], data: {} },
    [],
    null,
    'frame',
    42,
  ];
  for (const input of inputs) {
    const parsed = FrameSchema.safeParse(input);
    assert.deepEqual(frameOf(input), parsed.success ? parsed.data : null, JSON.stringify(input));
  }
  assert.throws(
    () => parseFrame('{"columns": ["a"], "data": [1]}', 'f.json'),
    /f\.json" is not a \{columns, data\} frame/,
  );
  assert.deepEqual(parseFrame('{"columns": ["a"], "data": [[1]]}', 'f.json'), {
    columns: ['a'],
    data: [[1]],
  });
});
