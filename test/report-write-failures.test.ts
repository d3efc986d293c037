/**
 * A report that cannot be written: a directory as -o is refused before any work (exit 2), a full
 * disk is a one-line error (exit 3) that leaves no half-written temp file behind, and the code
 * cache never leaves one either. The full disk is a real 1 MB tmpfs (root, as in CI).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCli, tempDir } from './helpers/fixtures.js';

const SALES = join(import.meta.dirname, '..', 'examples', 'sales.csv');

void test('-o naming a directory is refused before the analysis, with nothing left in it', () => {
  const dir = tempDir();
  const out = join(dir, 'out');
  mkdirSync(out);
  const r = runCli(['analyze', SALES, '-o', out]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^opsmind: cannot write the report to .*: it is a directory/);
  assert.deepEqual(readdirSync(out), []);
  assert.deepEqual(readdirSync(dir), ['out']);
});

const mounts: string[] = [];
after(() => {
  for (const m of mounts) spawnSync('umount', [m]);
});

void test('a full disk: a one-line error, exit 3, and no temp files left on it', (t) => {
  const full = join(tempDir(), 'full');
  mkdirSync(full);
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', full]);
  if (mounted.status !== 0) {
    t.skip(`cannot mount a tmpfs here: ${mounted.stderr.toString().trim()}`);
    return;
  }
  mounts.push(full);
  // Fill most of it, so the 4.8 MB report cannot fit but the directory can be made.
  writeFileSync(join(full, 'ballast'), Buffer.alloc(900 * 1024));
  const cache = join(full, 'cache-home');
  const r = runCli(['analyze', SALES, '-o', join(full, 'r.html')], {
    env: { XDG_CACHE_HOME: cache },
  });
  assert.equal(r.status, 3, r.stderr);
  const errors = r.stderr.split('\n').filter((l) => l.startsWith('opsmind: cannot'));
  assert.equal(errors.length, 1, r.stderr);
  assert.match(errors[0] ?? '', /^opsmind: cannot write .*r\.html: no space left on its disk$/);
  assert.ok(!/internal error|at .*\.js:\d+/.test(r.stderr), r.stderr);
  const left = readdirSync(full, { recursive: true }).map(String);
  assert.deepEqual(
    left.filter((f) => f.endsWith('.tmp')),
    [],
    `temp files left: ${left.join(', ')}`,
  );
});
