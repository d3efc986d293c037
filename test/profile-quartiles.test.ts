/**
 * Quartiles picked while the profile counts a column's values (src/engine/profile-top.ts): over
 * real DuckDB tables, the same figures as np.percentile's linear interpolation of the finite
 * values and as the separate grouped query (src/engine/profile-quartiles.ts), infinities, NaN and
 * missing values left out; none for a column with many distinct values.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DuckDb } from '../src/engine/duckdb.js';
import { readColumns } from '../src/engine/profile-columns.js';
import type { NumberScan } from '../src/engine/profile-numbers.js';
import { interpolateQuartiles, quartiles } from '../src/engine/profile-quartiles.js';
import { topValues } from '../src/engine/profile-top.js';
import { tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-quartiles-');
const ROWS = 2000;
let db: DuckDb;

before(async () => {
  db = await DuckDb.open({ memoryMb: 512, threads: 2, tempDir: join(DIR, 'spill') });
});
after(() => db.close());

/** np.percentile(values, q * 100) with numpy's default (linear) method. */
function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = q * (sorted.length - 1);
  const [a, b] = [sorted[Math.floor(position)] ?? NaN, sorted[Math.ceil(position)] ?? NaN];
  const t = position - Math.floor(position);
  return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
}

const blank: NumberScan = {
  count: 0,
  min: 0,
  max: 0,
  mean: 0,
  q1: NaN,
  median: NaN,
  q3: NaN,
  zeros: 0,
  negatives: 0,
};

/** Row i: 400 distinct prices among infinities, NaN and gaps; counts 0–9; all-distinct readings. */
function cells(i: number): { price: string; units: string; reading: string } {
  const price =
    i % 97 === 0
      ? "'inf'"
      : i % 89 === 0
        ? "'-inf'"
        : i % 83 === 0
          ? "'nan'"
          : i % 79 === 0
            ? 'NULL'
            : String(((i * 7) % 400) * 0.25 + 1);
  const units = i % 13 === 0 ? 'NULL' : String((i * 3) % 10);
  return { price, units, reading: String(i * 0.37 + (i % 11) * 1e-3) };
}

void test('picked quartiles equal np.percentile of the finite values and the grouped query', async () => {
  const rows = Array.from({ length: ROWS }, (_, i) => cells(i));
  const values = rows
    .map(({ price, units, reading }) => `(CAST(${price} AS DOUBLE), ${units}, ${reading})`)
    .join(', ');
  await db.run(
    `CREATE OR REPLACE TABLE data AS SELECT price, CAST(units AS BIGINT) AS units, CAST(reading AS DOUBLE) AS reading FROM (VALUES ${values}) v(price, units, reading)`,
  );
  const columns = await readColumns(db);
  const tops = await topValues(db, columns, ROWS, 'csv');
  const finite = {
    price: rows.map((r) => Number(r.price)).filter(Number.isFinite),
    units: rows.filter((r) => r.units !== 'NULL').map((r) => Number(r.units)),
  };
  for (const name of ['price', 'units'] as const) {
    const column = columns.find((c) => c.name === name);
    assert.ok(column);
    const picks = tops.get(column.index)?.picks;
    assert.ok(picks, `${name}: quartiles picked with its value counts`);
    const picked = interpolateQuartiles(picks, blank);
    const expected = [0.25, 0.5, 0.75].map((q) => percentile(finite[name], q));
    assert.deepEqual([picked.q1, picked.median, picked.q3], expected, `${name}: np.percentile`);
    const request = { column, scan: blank, distinct: tops.get(column.index)?.distinct ?? 0 };
    const separate = (await quartiles(db, [request], ROWS, false)).scans.get(column.index);
    assert.deepEqual(
      [separate?.q1, separate?.median, separate?.q3],
      expected,
      `${name}: the grouped query`,
    );
  }
  const reading = columns.find((c) => c.name === 'reading');
  assert.ok(reading);
  assert.equal(tops.get(reading.index)?.distinct, ROWS);
  assert.equal(tops.get(reading.index)?.picks, undefined, 'every value distinct: quantile_cont');
});

void test('a column of only infinities has no picks (no finite value to order)', async () => {
  await db.run(
    "CREATE OR REPLACE TABLE data AS SELECT CASE WHEN i % 2 = 0 THEN 'inf'::DOUBLE ELSE '-inf'::DOUBLE END AS x FROM range(100) r(i)",
  );
  const columns = await readColumns(db);
  const tops = await topValues(db, columns, 100, 'csv');
  assert.equal(tops.get(0)?.distinct, 2);
  assert.equal(tops.get(0)?.picks, undefined);
});
