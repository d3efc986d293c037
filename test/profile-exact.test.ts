/**
 * The profile's exact statistics of number columns (src/engine/profile-exact.ts), which a chart
 * over a whole column takes instead of scanning it again: over a real DuckDB table they are the
 * figures the charts' own statistics query gives (sql-stats.ts), and they are used for a whole
 * column as read, never for filtered rows or a cleaned column.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Analysis, Plan } from '../src/agent/plan.js';
import type { DataProfile } from '../src/agent/profile.js';
import { DuckDb } from '../src/engine/duckdb.js';
import { executePlan } from '../src/engine/execute.js';
import type { ExactStats } from '../src/engine/profile-exact.js';
import { profileWithStats } from '../src/engine/profile.js';
import { dataColumns, planCleaning, rowsFor } from '../src/engine/sql-rows.js';
import { columnStats } from '../src/engine/sql-stats.js';
import type { ColumnStats } from '../src/engine/sql-stats.js';
import type { SourceInfo } from '../src/engine/types.js';
import { tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-exact-');
let db: DuckDb;
let profile: DataProfile;
let stats: ExactStats;

const SOURCE: SourceInfo = {
  path: '/data.csv',
  name: 'data.csv',
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  compression: null,
  sheet: null,
  skippedLines: 0,
  rows: 3000,
  locale: { decimal: '.', thousands: null, dateOrder: null },
  columns: 7,
  sizeBytes: 1,
  warnings: [],
};

// Ints with gaps; prices among infinities, NaN and gaps (few distinct: quartiles picked from the
// value counts); all-distinct readings; decimals; a constant; numbers stored as text; labels.
const TABLE = `SELECT
    CASE WHEN i % 11 = 0 THEN NULL ELSE (i * 7) % 50 END::BIGINT AS units,
    CASE WHEN i % 97 = 0 THEN 'inf'::DOUBLE WHEN i % 89 = 0 THEN '-inf'::DOUBLE
      WHEN i % 83 = 0 THEN 'nan'::DOUBLE WHEN i % 13 = 0 THEN NULL
      ELSE ((i * 37) % 400) / 4.0 END::DOUBLE AS price,
    exp(((i * 7919) % 3000) / 700.0) AS reading,
    (((i * 31) % 1000) / 100.0)::DECIMAL(6, 2) AS rate,
    5.0::DOUBLE AS flat,
    format('{:,}', 1000 + (i * 13) % 5000) AS amount_text,
    ['a', 'b', 'c'][1 + i % 3] AS label
  FROM range(3000) t(i)`;

before(async () => {
  db = await DuckDb.open({ memoryMb: 512, threads: 2, tempDir: join(DIR, 'spill') });
  await db.run(`CREATE TABLE data AS ${TABLE}`);
  await db.lock([]);
  ({ profile, stats } = await profileWithStats(db, SOURCE));
});
after(() => db.close());

const NUMBERS = ['units', 'price', 'reading', 'rate', 'flat'];

/** The stats the charts' query computes over the column's rows for `analysis`. */
async function queried(analysis: Analysis, column: string): Promise<ColumnStats> {
  const plan: Plan = { notes: [], analyses: [analysis] };
  const cleaning = planCleaning(plan, profile, await dataColumns(db), null);
  const rows = rowsFor(cleaning, analysis);
  const found = rows.columns.find((c) => c.name === column);
  assert.ok(found, column);
  return columnStats({ db, rows, analysis }, found);
}

const histogram = (column: string, filters: Analysis['filters'] = []): Analysis => ({
  title: `Spread of ${column}`,
  why: 'Why.',
  chart: 'histogram',
  transform: { type: 'distribution', column },
  filters,
});

void test("the profile's exact statistics are the charts' own, figure for figure", async () => {
  assert.deepEqual([...stats.keys()].sort(), [...NUMBERS].sort(), 'numbers as text are not kept');
  for (const name of NUMBERS) {
    const known = stats.get(name);
    const fresh = await queried(histogram(name), name);
    assert.ok(known, name);
    const { mean, skew, ...exact } = known;
    const { mean: freshMean, skew: freshSkew, ...freshExact } = fresh;
    assert.deepEqual(exact, freshExact, name);
    assert.ok(Math.abs(mean - freshMean) <= 1e-12 * Math.abs(freshMean), `${name} mean`);
    // Skew is a ratio of sums summed in parallel: near 0 (a symmetric column) only its noise
    // differs between two scans, so it is compared to 1e-9 of its size or 1e-9 outright.
    const near = 1e-9 * Math.max(1, Math.abs(freshSkew ?? 0));
    if (freshSkew === null) assert.equal(skew, null, `${name} skew`);
    else assert.ok(Math.abs((skew ?? NaN) - freshSkew) <= near, `${name} skew`);
  }
  assert.equal(stats.get('flat')?.skew, null, 'no spread, no skew');
  const price = stats.get('price');
  assert.ok(price && price.n < price.rows, 'infinities, NaN and gaps are not counted');
});

/** The histogram frame and findings of `analysis`, with `known` given to the execution or not. */
async function histogramOf(analysis: Analysis, known?: ExactStats) {
  const workdir = join(DIR, `run-${Math.random().toString(36).slice(2)}`);
  const plan: Plan = { notes: [], analyses: [analysis] };
  const out = await executePlan(db, plan, profile, {
    workdir,
    source: SOURCE,
    ...(known ? { known } : {}),
  });
  const file = out.spec?.charts[0]?.data.file ?? '';
  const frame = JSON.parse(readFileSync(join(workdir, file), 'utf8')) as { data: unknown[][] };
  return { frame: frame.data, insights: out.insights.insights.map((i) => i.text) };
}

void test('a whole column takes the known statistics; filtered rows and cleaned columns do not', async () => {
  const real = stats.get('reading');
  assert.ok(real);
  // Statistics that are not the column's: a whole-column chart is seen to use them.
  const wrong: ExactStats = new Map([
    ['reading', { ...real, min: 0, max: 1000 }],
    ['amount_text', { ...real, min: 0, max: 1000 }],
  ]);
  const whole = await histogramOf(histogram('reading'), wrong);
  assert.equal(whole.frame[0]?.[0], 0, 'the first bin starts at the given minimum');
  assert.deepEqual(
    await histogramOf(histogram('reading'), stats),
    await histogramOf(histogram('reading')),
  );
  const filters = [{ column: 'label', op: '==', value: 'a' }] as Analysis['filters'];
  const filtered = histogram('reading', filters);
  assert.deepEqual(await histogramOf(filtered, wrong), await histogramOf(filtered));
  // A column the plan cleans (numbers stored as text) is another column than the one read.
  const text = histogram('amount_text');
  assert.deepEqual(await histogramOf(text, wrong), await histogramOf(text));
});
