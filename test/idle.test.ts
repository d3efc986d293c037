/** Work done while the main thread waits on DuckDB (util/idle.ts), and the number formats it warms. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { useIdle, whenIdle } from '../src/util/idle.js';
import { numberFormat } from '../src/util/number-format.js';
import { DuckDb } from '../src/engine/duckdb.js';
import { tempDir } from './helpers/fixtures.js';

void test('a task runs once, in order, after the code that handed work over, and a failing one is dropped', async () => {
  // Tasks modules registered at load (the number formats, the Plotly bundle) go first.
  for (let i = 0; i < 10; i++) useIdle();
  await new Promise((resolve) => setImmediate(resolve));
  const ran: string[] = [];
  whenIdle(() => {
    throw new Error('warming up failed');
  });
  whenIdle(() => ran.push('first'));
  whenIdle(() => ran.push('second'));
  useIdle();
  useIdle();
  ran.push('caller');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, ['caller', 'first']);
  useIdle();
  useIdle();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, ['caller', 'first', 'second']);
});

void test('a DuckDB query hands the next task over while it runs', async () => {
  const dir = tempDir('opsmind-idle-');
  const db = await DuckDb.open({ memoryMb: 64, threads: 1, tempDir: `${dir}/spill` });
  try {
    let ran = false;
    whenIdle(() => {
      ran = true;
    });
    for (let i = 0; i < 10 && !ran; i++) await db.all('SELECT 1');
    assert.equal(ran, true);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

void test('number formats are made once per options and format as Intl does', () => {
  assert.equal(numberFormat(), numberFormat({}));
  assert.notEqual(numberFormat(), numberFormat({ maximumFractionDigits: 2 }));
  assert.equal(numberFormat().format(1234567), '1,234,567');
  assert.equal(numberFormat({ maximumSignificantDigits: 6 }).format(3.14159265), '3.14159');
});
