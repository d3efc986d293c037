/** The README's PATH step: `opsmind` run bare, through the symlink `npm link` makes (and through a plain symlink). */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir, testHome } from './helpers/fixtures.js';

const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

/** Runs `opsmind <args>` by name through a shell, with `bin` first on PATH and the cwd elsewhere. */
function bare(
  bin: string,
  args: string,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('/bin/sh', ['-c', `opsmind ${args}`], {
    cwd: tempDir(),
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
      OPSMIND_HOME: testHome(),
      OPSMIND_DB: '',
    },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

void test('bin/opsmind.js works through a symlink on PATH, from another directory', () => {
  const bin = tempDir('opsmind-bin-');
  symlinkSync(join(ROOT, 'bin', 'opsmind.js'), join(bin, 'opsmind'));
  const r = bare(bin, '--version');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), VERSION);
  assert.match(bare(bin, '--help').stdout, /^Usage: opsmind /);
});

void test('npm link (into a private prefix) puts a working opsmind on PATH', () => {
  const prefix = tempDir('opsmind-prefix-');
  mkdirSync(join(prefix, 'lib'), { recursive: true });
  try {
    const link = spawnSync('npm', ['link', '--offline', '--no-audit', '--no-fund'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_prefix: prefix },
    });
    assert.equal(link.status, 0, link.stderr);
    const r = bare(join(prefix, 'bin'), '--version');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), VERSION);
    const usage = bare(join(prefix, 'bin'), 'frobnicate');
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /^opsmind: unknown command 'frobnicate'$/m);
  } finally {
    rmSync(prefix, { recursive: true, force: true });
  }
});
