/** Runs the preamble's own Python tests (preamble/tests) under the real interpreter with pandas. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findPython } from '../src/sandbox/python.js';
import { preambleDir } from '../src/util/package-root.js';

const testDir = join(preambleDir(), 'tests');
const modules = readdirSync(testDir)
  .filter((f) => /^test_.*\.py$/.test(f))
  .sort();

void test('the preamble has Python tests', () => {
  assert.ok(modules.length > 0);
});

for (const file of modules) {
  void test(`preamble/tests/${file}`, async () => {
    const python = await findPython();
    const result = spawnSync(python.path, ['-m', 'unittest', '-v', file.replace(/\.py$/, '')], {
      cwd: testDir,
      encoding: 'utf8',
      timeout: 300_000,
      env: { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' },
    });
    const tail = `${result.stdout}\n${result.stderr}`.split('\n').slice(-60).join('\n');
    assert.equal(result.status, 0, tail);
    assert.match(result.stderr, /\nOK/, tail);
  });
}
