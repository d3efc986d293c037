/**
 * Spearman's rho over a real DuckDB table (src/engine/sql-pairs.ts pairStatsSql): ranks from
 * grouped distinct values, or one side ranked by a sort of the pairs when the profile says it has
 * many values, give the textbook figure — average ranks for ties, over the complete finite pairs.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Analysis } from '../src/agent/plan.js';
import { DuckDb } from '../src/engine/duckdb.js';
import { pairStatsSql, SORTED_RANKS, SORTED_SHARE } from '../src/engine/sql-pairs.js';
import type { Rows } from '../src/engine/sql-rows.js';
import { tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-ranks-');
const ROWS = 5000;
let db: DuckDb;

// x: 40 values repeated (ties), with NaN, infinities and gaps; y: mostly distinct, some ties, and
// gaps of its own; z: an integer column.
const TABLE = `SELECT
    CASE WHEN i % 101 = 0 THEN 'nan'::DOUBLE WHEN i % 103 = 0 THEN 'inf'::DOUBLE
      WHEN i % 17 = 0 THEN NULL ELSE ((i * 7) % 40) / 2.0 END::DOUBLE AS x,
    CASE WHEN i % 19 = 0 THEN NULL WHEN i % 5 = 0 THEN 3.5
      ELSE sin(i) * 100 + ((i * 7) % 40) END::DOUBLE AS y,
    (i * 13) % 11 AS z
  FROM range(${ROWS}) t(i)`;

before(async () => {
  db = await DuckDb.open({ memoryMb: 256, threads: 2, tempDir: join(DIR, 'spill') });
  await db.run(`CREATE TABLE data AS ${TABLE}`);
  await db.lock([]);
});
after(() => db.close());

/** Average 1-based ranks, ties sharing the middle of their places. */
function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((p, q) => p[0] - q[0]);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.[0] === order[start]?.[0]) end++;
    for (let k = start; k <= end; k++) ranks[order[k]?.[1] ?? 0] = (start + end + 2) / 2;
    start = end + 1;
  }
  return ranks;
}

function pearson(a: readonly number[], b: readonly number[]): number {
  const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [ma, mb] = [mean(a), mean(b)];
  let [sab, saa, sbb] = [0, 0, 0];
  for (const [i, x] of a.entries()) {
    const [da, db2] = [x - ma, (b[i] ?? 0) - mb];
    [sab, saa, sbb] = [sab + da * db2, saa + da * da, sbb + db2 * db2];
  }
  return sab / Math.sqrt(saa * sbb);
}

const ROWS_OF: Rows = {
  ctes: [['source', 'SELECT rowid AS "_row", * FROM data']],
  columns: [
    { name: 'x', type: 'DOUBLE' },
    { name: 'y', type: 'DOUBLE' },
    { name: 'z', type: 'BIGINT' },
  ],
  row: '_row',
  filtered: false,
  cleaned: new Set(),
};

async function rho(x: string, y: string, distinct?: Map<string, number>, tableRows?: number) {
  const [cx, cy] = [
    ROWS_OF.columns.find((c) => c.name === x),
    ROWS_OF.columns.find((c) => c.name === y),
  ];
  assert.ok(cx && cy);
  const ctx = {
    db,
    rows: ROWS_OF,
    analysis: {} as Analysis,
    ...(distinct ? { distinct } : {}),
    ...(tableRows ? { tableRows } : {}),
  };
  const sql = pairStatsSql(ctx, cx, cy);
  const [row = {}] = await db.objects(sql);
  return { sql, rho: Number(row.rho), r: Number(row.r), n: Number(row.n) };
}

void test('rho is the textbook figure whichever side is ranked by a sort', async () => {
  for (const [x, y] of [
    ['x', 'y'],
    ['y', 'x'],
    ['z', 'y'],
  ] as const) {
    const pairs = await db.objects(
      `SELECT ${x}::DOUBLE AS a, ${y}::DOUBLE AS b FROM data WHERE isfinite(${x}::DOUBLE) AND isfinite(${y}::DOUBLE)`,
    );
    const [a, b] = [pairs.map((p) => Number(p.a)), pairs.map((p) => Number(p.b))];
    const expected = pearson(averageRanks(a), averageRanks(b));
    const many = SORTED_RANKS + 1;
    const ways = {
      grouped: await rho(x, y),
      sortedY: await rho(x, y, new Map([[y, many]])),
      sortedX: await rho(x, y, new Map([[x, many]])),
    };
    for (const [way, got] of Object.entries(ways)) {
      assert.equal(got.n, a.length, `${x}~${y} ${way}: complete finite pairs`);
      assert.ok(
        Math.abs(got.rho - expected) < 1e-12,
        `${x}~${y} ${way}: ${got.rho} vs ${expected}`,
      );
      assert.ok(Math.abs(got.r - pearson(a, b)) < 1e-12, `${x}~${y} ${way}: r`);
    }
    assert.ok(!ways.grouped.sql.includes('cume_dist'), 'few values: both sides grouped');
    assert.match(ways.sortedY.sql, /ORDER BY pairs\.b\)/);
    assert.match(ways.sortedX.sql, /ORDER BY pairs\.a\)/);
  }
});

void test('a side of many values is sorted only when they are a large share of the rows', async () => {
  const rows = 1_000_000;
  const share = (n: number) => new Map([['y', n]]);
  const fewOfMany = await rho('x', 'y', share(Math.floor(SORTED_SHARE * rows) - 1), rows);
  assert.ok(!fewOfMany.sql.includes('cume_dist'), 'below the share: ranked as groups');
  const most = await rho('x', 'y', share(Math.ceil(SORTED_SHARE * rows) + 1), rows);
  assert.match(most.sql, /ORDER BY pairs\.b\)/, 'most rows distinct: sorted');
  assert.ok(Math.abs(fewOfMany.rho - most.rho) < 1e-12, 'the same figure either way');
});
