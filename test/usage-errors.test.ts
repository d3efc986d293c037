/** Usage errors from the built binary look like every other error: one `opsmind:` line, a hint naming --help, exit 2. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers/fixtures.js';

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
