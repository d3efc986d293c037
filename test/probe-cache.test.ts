/** The probe cache file is parsed with zod: a broken or foreign file is ignored, and values are checked on the way out. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { cachedParsed, remember } from '../src/util/probe-cache.js';
import { tempDir } from './helpers/fixtures.js';

process.env.OPSMIND_HOME = tempDir();
delete process.env.OPSMIND_NO_PROBE_CACHE;
const file = join(process.env.OPSMIND_HOME, 'probe-cache.json');
const Value = z.object({ path: z.string() });

void test('a remembered value comes back when it parses, and not when it does not', () => {
  remember('python', 'print-1', { path: '/usr/bin/python3' });
  assert.deepEqual(cachedParsed('python', 'print-1', Value), { path: '/usr/bin/python3' });
  assert.equal(cachedParsed('python', 'print-1', z.object({ version: z.string() })), undefined);
  assert.equal(cachedParsed('python', 'print-2', Value), undefined, 'another fingerprint');
});

void test('a cache file of another shape is ignored, then rewritten', () => {
  writeFileSync(file, JSON.stringify({ python: { at: 'yesterday', fingerprint: 1 } }));
  assert.equal(cachedParsed('python', 'print-1', Value), undefined);
  writeFileSync(file, '{not json');
  assert.equal(cachedParsed('python', 'print-1', Value), undefined);
  remember('python', 'print-1', { path: '/p' });
  assert.deepEqual(cachedParsed('python', 'print-1', Value), { path: '/p' });
});
