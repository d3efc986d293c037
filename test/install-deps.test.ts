/** `.ci/install-deps --check`: one line per missing thing the README's commands need, and nothing installed. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT, tempDir } from './helpers/fixtures.js';

/** A PATH of fake programs only: each name maps to the shell body of its script. */
function fakePath(programs: Record<string, string>): string {
  const dir = tempDir('opsmind-fakebin-');
  for (const [name, body] of Object.entries(programs)) {
    const file = join(dir, name);
    writeFileSync(file, `#!/bin/sh\n${body}\n`);
    chmodSync(file, 0o755);
  }
  return dir;
}

function check(
  programs: Record<string, string>,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; lines: string[] } {
  const r = spawnSync('/bin/bash', [join(ROOT, '.ci', 'install-deps'), '--check', ...args], {
    env: { PATH: fakePath(programs), ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.stderr, '');
  return { status: r.status, lines: r.stdout.trimEnd().split('\n') };
}

// dpkg -s <package> succeeds for every package except those named here.
const dpkgMissing = (...names: string[]) =>
  `for n in ${names.join(' ') || '-'}; do [ "$2" = "$n" ] && exit 1; done; exit 0`;
const TOOLCHAIN = { 'g++': 'exit 0', make: 'exit 0', python3: 'exit 0' };

void test('an old node and no C++ toolchain: one line each, exit 1, nothing installed', () => {
  const r = check({
    node: 'echo v18.19.0',
    dpkg: dpkgMissing(),
    'apt-get': 'echo APT-GET-RAN; exit 1',
    sudo: 'echo SUDO-RAN; exit 1',
  });
  assert.equal(r.status, 1);
  assert.deepEqual(r.lines, [
    'too old: node v18.19.0; OpsMind needs Node.js >= 20.19: install a current Node.js from NodeSource (https://github.com/nodesource/distributions) or with nvm (nvm install --lts)',
    'missing: g++ (better-sqlite3 builds from source during npm ci); apt-get install g++',
    'missing: make (better-sqlite3 builds from source during npm ci); apt-get install make',
    'missing: python3 (better-sqlite3 builds from source during npm ci); apt-get install python3',
  ]);
});

void test('no node at all is named as missing, with where to get a current one', () => {
  const r = check({ dpkg: dpkgMissing(), ...TOOLCHAIN });
  assert.equal(r.status, 1);
  assert.deepEqual(r.lines, [
    "missing: Node.js >= 20.19 (node is not on PATH); Debian's own nodejs is too old: install a current Node.js from NodeSource (https://github.com/nodesource/distributions) or with nvm (nvm install --lts)",
  ]);
});

void test('missing apt packages are listed; --minimal and OPSMIND_MINIMAL=1 leave out the optional libraries', () => {
  const programs = {
    node: 'echo v20.19.0',
    dpkg: dpkgMissing('tmux', 'python3-seaborn'),
    ...TOOLCHAIN,
  };
  const full = check(programs);
  assert.equal(full.status, 1);
  assert.deepEqual(full.lines, [
    'missing: apt package tmux',
    'missing: apt package python3-seaborn',
  ]);
  assert.deepEqual(check(programs, ['--minimal']).lines, ['missing: apt package tmux']);
  assert.deepEqual(check(programs, [], { OPSMIND_MINIMAL: '1' }).lines, [
    'missing: apt package tmux',
  ]);
});

void test('a current node (a newer major with a lower minor too) and everything installed: exit 0', () => {
  for (const version of ['v20.19.0', 'v22.1.0']) {
    const r = check({ node: `echo ${version}`, dpkg: dpkgMissing(), ...TOOLCHAIN });
    assert.equal(r.status, 0, `${version}: ${r.lines.join('\n')}`);
    assert.deepEqual(r.lines, ["install-deps: everything the README's commands need is here"]);
  }
});
