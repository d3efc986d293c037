/**
 * Spearman's rho over a real DuckDB table (src/engine/sql-ranks.ts pairStatsSql): ranks from
 * grouped distinct values, or one side ranked by a sort of the pairs when the profile says it has
 * many values, give the textbook figure — average ranks for ties, over the complete finite pairs.
 * Columns finite in every row are ranked once over the column, kept for every pair they are in.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Analysis } from '../src/agent/plan.js';
import { DuckDb } from '../src/engine/duckdb.js';
import type { ExactStats } from '../src/engine/profile-exact.js';
import { pairStatsSql, sharedRanks, SORTED_RANKS, SORTED_SHARE } from '../src/engine/sql-ranks.js';
import type { Rows } from '../src/engine/sql-rows.js';
import { dropShared, keepingShared, queryRow } from '../src/engine/sql-spec.js';
import type { Ctx, SharedTables } from '../src/engine/sql-spec.js';
import { tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-ranks-');
const ROWS = 5000;
let db: DuckDb;

// x: 40 values repeated (ties), with NaN, infinities and gaps; y: mostly distinct, some ties, and
// gaps of its own; z: an integer column; w and v: numbers in every row, with ties.
const TABLE = `SELECT
    CASE WHEN i % 101 = 0 THEN 'nan'::DOUBLE WHEN i % 103 = 0 THEN 'inf'::DOUBLE
      WHEN i % 17 = 0 THEN NULL ELSE ((i * 7) % 40) / 2.0 END::DOUBLE AS x,
    CASE WHEN i % 19 = 0 THEN NULL WHEN i % 5 = 0 THEN 3.5
      ELSE sin(i) * 100 + ((i * 7) % 40) END::DOUBLE AS y,
    (i * 13) % 11 AS z,
    round(sin(i) * 50, 0)::DOUBLE AS w,
    ((i * 31) % 97) / 4.0 AS v
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
    { name: 'w', type: 'DOUBLE' },
    { name: 'v', type: 'DOUBLE' },
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

/** The profile's exact statistics, as far as completeness goes: `n` finite values in `rows` rows. */
function knownOf(counts: Record<string, number>): ExactStats {
  const stats = (n: number) => ({
    ...{ n, rows: ROWS, min: 0, max: 0, q1: 0, median: 0, q3: 0, mean: 0 },
    ...{ skew: null, outliers: 0 },
  });
  return new Map(Object.entries(counts).map(([name, n]) => [name, stats(n)]));
}

void test('columns finite in every row are ranked once, and their ranks kept for every pair', async () => {
  const column = (name: string) => {
    const found = ROWS_OF.columns.find((c) => c.name === name);
    assert.ok(found);
    return found;
  };
  const shared: SharedTables = new Map();
  const ctx: Ctx = {
    db,
    rows: ROWS_OF,
    analysis: {} as Analysis,
    known: knownOf({ z: ROWS, w: ROWS, v: ROWS, y: ROWS - 100 }),
    shared,
  };
  // Each count written apart: the database answers a query it has seen from its results.
  let asked = 0;
  const tables = async () => {
    const sql = `SELECT count(*) AS n, ${++asked} AS asked FROM duckdb_tables() WHERE table_name LIKE '_opsmind_kept_%'`;
    return Number((await db.objects(sql))[0]?.n);
  };
  const before = await tables();
  for (const [x, y, kept] of [
    ['z', 'w', 2],
    ['w', 'v', 3],
    ['v', 'z', 3],
  ] as const) {
    const [cx, cy] = [column(x), column(y)];
    const ranks = sharedRanks(ctx, cx, cy);
    assert.equal(ranks.length, 2, `${x}~${y}: both sides over the column`);
    const sql = pairStatsSql(ctx, cx, cy);
    assert.match(sql, /FROM source GROUP BY 1/);
    const row = await queryRow(await keepingShared(ctx, ranks), sql);
    assert.equal(shared.size, kept, `${x}~${y}: one table per column, whichever side it is on`);
    const pairs = await db.objects(`SELECT ${x}::DOUBLE AS a, ${y}::DOUBLE AS b FROM data`);
    const [a, b] = [pairs.map((p) => Number(p.a)), pairs.map((p) => Number(p.b))];
    const expected = pearson(averageRanks(a), averageRanks(b));
    const got = Number(row.rho);
    assert.ok(Math.abs(got - expected) < 1e-12, `${x}~${y}: ${got} vs ${expected}`);
    assert.equal(Number(row.n), ROWS);
  }
  assert.equal(await tables(), before + 3);
  // A column with gaps, or rows filtered, and the pairs are not all rows: ranked over the pairs.
  assert.deepEqual(sharedRanks(ctx, column('y'), column('w')), []);
  assert.doesNotMatch(pairStatsSql(ctx, column('y'), column('w')), /FROM source GROUP BY 1/);
  const filtered = { ...ctx, rows: { ...ROWS_OF, filtered: true } };
  assert.deepEqual(sharedRanks(filtered, column('z'), column('w')), []);
  const gappy = await rho('y', 'w');
  const sure = await db.objects(
    'SELECT y::DOUBLE AS a, w AS b FROM data WHERE isfinite(y::DOUBLE)',
  );
  const want = pearson(
    averageRanks(sure.map((p) => Number(p.a))),
    averageRanks(sure.map((p) => Number(p.b))),
  );
  assert.ok(Math.abs(gappy.rho - want) < 1e-12, `y~w: ${gappy.rho} vs ${want}`);
  await dropShared(db, shared);
  assert.equal(await tables(), before);
  assert.equal(shared.size, 0);
});
