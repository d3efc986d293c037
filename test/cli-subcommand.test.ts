/** The CLI loads only the module of the subcommand it runs; a line without one still gets every command. */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { subcommandOf } from '../src/cli/subcommand.js';
import { runCli } from './helpers/fixtures.js';

void test('the subcommand is the first word that is not a global option', () => {
  assert.equal(subcommandOf(['analyze', 'd.csv', '--mode', 'deep']), 'analyze');
  assert.equal(subcommandOf(['--verbose', 'sessions', 'list']), 'sessions');
  assert.equal(subcommandOf(['--db', 'analyze.db', 'batch', 'x']), 'batch');
  assert.equal(subcommandOf(['--db', 'x.db', '--verbose', 'mcp']), 'mcp');
  assert.equal(subcommandOf(['--', 'run', 'a.py']), 'run');
  assert.equal(subcommandOf(['--help']), undefined);
  assert.equal(subcommandOf([]), undefined);
  assert.equal(subcommandOf(['frobnicate']), 'frobnicate');
});

void test('help without a subcommand lists every command; a subcommand after global options runs', () => {
  const help = runCli(['--help']);
  assert.equal(help.status, 0);
  for (const name of ['analyze', 'run', 'ask', 'chat', 'doctor', 'sessions', 'mcp', 'batch'])
    assert.match(help.stdout, new RegExp(`^  ${name} `, 'm'), name);
  const version = runCli(['--version']);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\s*$/);
  const typo = runCli(['analyz', 'x.csv']);
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /did you mean analyze\?/);
  const help2 = runCli(['help', 'batch']);
  assert.equal(help2.status, 0);
  assert.match(help2.stdout, /Usage: opsmind batch/);
  const db = join(mkdtempSync(join(tmpdir(), 'opsmind-sub-')), 's.db');
  const listed = runCli(['--verbose', '--db', db, 'sessions', 'list']);
  assert.equal(listed.status, 0, listed.stderr);
  assert.match(listed.stdout, /no sessions yet/);
});
