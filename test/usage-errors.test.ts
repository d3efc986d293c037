/** Usage errors from the built binary look like every other error: one `opsmind:` line, a hint naming --help, exit 2. */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from './helpers/fixtures.js';

const CASES: { args: string[]; message: string; hint: string }[] = [
  {
    args: ['run', 'a.py', '--data', 'd.csv', '--bogus'],
    message: "unknown option '--bogus'",
    hint: 'opsmind run --help',
  },
  {
    args: ['analyze', 'd.csv', '--ouput', 'r.html'],
    message: "unknown option '--ouput' (did you mean --output?)",
    hint: 'opsmind analyze --help',
  },
  { args: ['--bogus'], message: "unknown option '--bogus'", hint: 'opsmind --help' },
  {
    args: ['sessions', 'show'],
    message: "missing required argument 'id'",
    hint: 'opsmind sessions show --help',
  },
  {
    args: ['run', 'a.py'],
    message: "required option '-d, --data <file>' not specified",
    hint: 'opsmind run --help',
  },
  {
    args: ['run', 'a.py', '--data'],
    message: "option '-d, --data <file>' argument missing",
    hint: 'opsmind run --help',
  },
  { args: ['frobnicate'], message: "unknown command 'frobnicate'", hint: 'opsmind --help' },
  {
    args: ['sessions', 'frob'],
    message: "unknown command 'frob'",
    hint: 'opsmind sessions --help',
  },
  {
    args: ['run', 'a.py', 'b.py', '--data', 'd.csv'],
    message: "too many arguments for 'run'. Expected 1 argument but got 2.",
    hint: 'opsmind run --help',
  },
];

for (const { args, message, hint } of CASES) {
  void test(`opsmind ${args.join(' ')}: "${message}", exit 2`, () => {
    const r = runCli(args);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `opsmind: ${message}\n  hint: ${hint}\n`);
  });
}

void test('--help and --version still print to stdout and exit 0', () => {
  const help = runCli(['run', '--help']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: opsmind run \[options\] <script>/);
  const version = runCli(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
});

void test('a report or summary aimed at an input file is refused before any work, the input kept', () => {
  const dir = tempDir();
  const data = join(dir, 'data.csv');
  const original = 'k,v\na,1\nb,2\nc,3\n';
  writeFileSync(data, original);
  symlinkSync(data, join(dir, 'link.csv'));
  const script = join(dir, 'script.py');
  writeFileSync(script, 'print(len(df))\n');
  const attempts = [
    ['analyze', data, '-o', data],
    ['analyze', data, '-o', join(dir, 'r.html'), '--summary', data],
    ['analyze', data, '-o', join(dir, 'link.csv')],
    ['run', script, '--data', data, '-o', script],
    ['run', script, '--data', data, '-o', join(dir, 'r.html'), '--summary', data],
  ];
  for (const args of attempts) {
    const r = runCli(args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /refusing to write the report over its input/);
    assert.equal(r.stderr.trim().split('\n')[0]?.startsWith('opsmind:'), true, r.stderr);
  }
  assert.equal(readFileSync(data, 'utf8'), original);
  assert.equal(readFileSync(script, 'utf8'), 'print(len(df))\n');
});

void test('a file fast mode cannot read leaves nothing in the temp dir', () => {
  const dir = tempDir();
  const tmp = join(dir, 'tmp');
  mkdirSync(tmp);
  const bad: [string, string | Buffer][] = [
    ['ragged.csv', 'a,b\n1,2,3,4\n'],
    ['header-only.csv', 'a,b\n'],
    ['cut.csv.gz', gzipSync('k,v\na,1\nb,2\nc,3\n').subarray(0, 20)],
    ['broken.json', '[{"a": 1}, {"a": '],
  ];
  for (const [name, content] of bad) {
    writeFileSync(join(dir, name), content);
    const r = runCli(['analyze', join(dir, name), '-o', join(dir, 'r.html')], {
      env: { TMPDIR: tmp },
    });
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.deepEqual(readdirSync(tmp), [], `${name} left its scratch dir behind`);
  }
});

void test('--max-steps that is not a whole number of turns from 1 to 200 is refused (exit 2), before the model is looked for', () => {
  for (const value of ['0', '-3', 'abc', '1.5', '201']) {
    const r = runCli(['analyze', 'examples/sales.csv', '--mode', 'deep', '--max-steps', value], {
      env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    });
    assert.equal(r.status, 2, value);
    assert.equal(
      r.stderr.split('\n')[0],
      `opsmind: --max-steps must be a whole number from 1 to 200, got "${value}"`,
    );
  }
  const fine = runCli(['analyze', 'examples/sales.csv', '--mode', 'deep', '--max-steps', '5'], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  });
  assert.equal(fine.status, 3, 'a valid value goes on to the missing model');
});
