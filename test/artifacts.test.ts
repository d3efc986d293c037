/** The file boundary (DESIGN.md 1): only regular files inside the work dir are collected. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readArtifact, resolveArtifact } from '../src/sandbox/artifacts.js';

function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opsmind-art-'));
  mkdirSync(join(dir, 'artifacts'));
  writeFileSync(join(dir, 'artifacts', 'c1.json'), '{"columns":[],"data":[]}');
  return dir;
}

void test('a regular file inside the work dir is collected', () => {
  const dir = workdir();
  const found = resolveArtifact(dir, 'artifacts/c1.json');
  assert.equal(found.ok, true);
  assert.equal(readArtifact(dir, 'artifacts/c1.json'), '{"columns":[],"data":[]}');
});

void test('an empty name is skipped, never turned into "."', () => {
  const dir = workdir();
  for (const name of ['', '   ', '.', null, undefined, 42]) {
    const found = resolveArtifact(dir, name);
    assert.equal(found.ok, false, `name ${JSON.stringify(name)} must be refused`);
  }
  assert.match((resolveArtifact(dir, '') as { reason: string }).reason, /empty/);
});

void test('a directory is skipped, never copied', () => {
  const dir = workdir();
  const found = resolveArtifact(dir, 'artifacts');
  assert.deepEqual(found, { ok: false, reason: 'artifact "artifacts" is not a regular file' });
});

void test('".." paths and absolute paths are refused', () => {
  const dir = workdir();
  writeFileSync(join(dir, '..', 'outside-secret.txt'), 'secret');
  for (const name of [
    '../outside-secret.txt',
    'artifacts/../../outside-secret.txt',
    '..',
    '/etc/passwd',
  ]) {
    const found = resolveArtifact(dir, name);
    assert.equal(found.ok, false, name);
  }
  assert.throws(() => readArtifact(dir, '../outside-secret.txt'), /outside the work dir/);
});

void test('a symlink pointing outside the work dir is refused', () => {
  const dir = workdir();
  symlinkSync('/etc/passwd', join(dir, 'artifacts', 'c2.json'));
  const found = resolveArtifact(dir, 'artifacts/c2.json');
  assert.equal(found.ok, false);
  assert.match((found as { reason: string }).reason, /symlink/);
});

void test('a file reached through a symlinked directory that leaves the work dir is refused', () => {
  const dir = workdir();
  const outside = mkdtempSync(join(tmpdir(), 'opsmind-out-'));
  writeFileSync(join(outside, 'x.json'), '{}');
  symlinkSync(outside, join(dir, 'linked'));
  assert.equal(resolveArtifact(dir, 'linked/x.json').ok, false);
});

void test('an artifact over the size limit is refused with its size', () => {
  const dir = workdir();
  writeFileSync(join(dir, 'big.json'), 'x'.repeat(2048));
  const found = resolveArtifact(dir, 'big.json', 1024);
  assert.equal(found.ok, false);
  assert.match((found as { reason: string }).reason, /2048 bytes, over the 1024-byte limit/);
});
