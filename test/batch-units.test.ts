/**
 * The parts of `opsmind batch` that decide alone: PSI from percentiles against the exact PSI of
 * the rows, what changed between two snapshots, dated series and shards, input expansion and
 * names, the ledger in a real SQLite store, and escaping in the pages.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cdf, changeLines, compareSnapshots, psi } from '../src/batch/changes.js';
import { changesSection, indexHtml } from '../src/batch/index-page.js';
import { indexOf } from '../src/batch/index-file.js';
import { inShard, inputsFromArgs, parseShard, seriesOf } from '../src/batch/inputs.js';
import type { Entry, Snapshot } from '../src/batch/types.js';
import { BatchLedger } from '../src/store/batch-ledger.js';
import { SessionStore } from '../src/store/session-store.js';
import { tempDir } from './helpers/fixtures.js';

/** 101 percentiles of values, as DuckDB's quantile_cont computes them (linear interpolation). */
function percentiles(values: number[]): number[] {
  const s = [...values].sort((a, b) => a - b);
  return Array.from({ length: 101 }, (_, i) => {
    const pos = (i / 100) * (s.length - 1);
    const lo = Math.floor(pos);
    const hi = Math.ceil(pos);
    return (s[lo] ?? 0) + ((s[hi] ?? 0) - (s[lo] ?? 0)) * (pos - lo);
  });
}

/** The PSI of the rows themselves, over the deciles of `before`. */
function exactPsi(before: number[], after: number[]): number {
  const q = percentiles(before);
  const edges = [10, 20, 30, 40, 50, 60, 70, 80, 90].map((p) => q[p] ?? 0);
  const share = (values: number[]) => {
    const counts = new Array<number>(edges.length + 1).fill(0);
    for (const v of values) {
      let i = 0;
      while (i < edges.length && v > (edges[i] ?? 0)) i++;
      counts[i] = (counts[i] ?? 0) + 1;
    }
    return counts.map((c) => Math.max(c / values.length, 1e-4));
  };
  const e = share(before);
  const a = share(after);
  return e.reduce((sum, x, i) => sum + ((a[i] ?? 0) - x) * Math.log((a[i] ?? 0) / x), 0);
}

function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 4294967296;
    return s / 4294967296;
  };
}

void test('cdf reads shares off percentiles, ties included', () => {
  const q = percentiles(Array.from({ length: 1001 }, (_, i) => i));
  assert.equal(cdf(q, -1), 0);
  assert.equal(cdf(q, 1000), 1);
  assert.ok(Math.abs(cdf(q, 250) - 0.25) < 1e-9);
  const ties = percentiles([...new Array<number>(700).fill(1), ...new Array<number>(300).fill(2)]);
  assert.ok(cdf(ties, 1) >= 0.69 && cdf(ties, 1) <= 0.71, String(cdf(ties, 1)));
});

void test('PSI from percentiles agrees with the PSI of the rows', () => {
  const rand = seeded(7);
  const normal = (mean: number, sd: number) =>
    mean + sd * Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
  const base = Array.from({ length: 20_000 }, () => normal(100, 15));
  const same = Array.from({ length: 20_000 }, () => normal(100, 15));
  const shifted = Array.from({ length: 20_000 }, () => normal(112, 15));
  const wide = Array.from({ length: 20_000 }, () => normal(100, 30));
  for (const [after, label] of [
    [same, 'same'],
    [shifted, 'shifted'],
    [wide, 'wider'],
  ] as const) {
    const estimated = psi(percentiles(base), percentiles(after));
    const exact = exactPsi(base, after);
    assert.ok(
      Math.abs(estimated - exact) < 0.02 + exact * 0.1,
      `${label}: estimated ${estimated}, exact ${exact}`,
    );
  }
  assert.ok(psi(percentiles(base), percentiles(same)) < 0.1);
  assert.ok(psi(percentiles(base), percentiles(shifted)) > 0.25);
});

function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  return {
    rows: 100,
    columns: [
      { name: 'region', type: 'category' },
      { name: 'revenue', type: 'float64' },
      { name: 'price', type: 'float64' },
    ],
    measures: [
      { column: 'revenue', role: 'amount', stat: 'sum', sum: 1000, mean: 10, count: 100 },
      { column: 'price', role: 'level', stat: 'mean', sum: 5000, mean: 50, count: 100 },
    ],
    categories: [{ column: 'region', values: ['East', 'North', 'West'] }],
    quantiles: [{ column: 'revenue', q: percentiles(Array.from({ length: 100 }, (_, i) => i)) }],
    ...over,
  };
}

void test('what changed: columns, rows, totals of amounts and means of levels, categories', () => {
  const before = snapshot();
  const after = snapshot({
    rows: 80,
    columns: [
      { name: 'region', type: 'category' },
      { name: 'revenue', type: 'float64' },
      { name: 'price', type: 'int64' },
      { name: 'margin', type: 'float64' },
    ],
    measures: [
      { column: 'revenue', role: 'amount', stat: 'sum', sum: 1500, mean: 18.75, count: 80 },
      { column: 'price', role: 'level', stat: 'mean', sum: 4400, mean: 55, count: 80 },
    ],
    categories: [{ column: 'region', values: ['East', 'South', 'West'] }],
    quantiles: [
      { column: 'revenue', q: percentiles(Array.from({ length: 80 }, (_, i) => i * 1.5 + 40)) },
    ],
  });
  const c = compareSnapshots(
    before,
    after,
    { kind: 'previous_run', name: 'x', sha256: 'a', when: null },
    false,
  );
  assert.deepEqual(c.columns_added, ['margin']);
  assert.deepEqual(c.columns_removed, []);
  assert.deepEqual(c.type_changes, [{ column: 'price', from: 'float64', to: 'int64' }]);
  assert.deepEqual(c.rows, { before: 100, after: 80, change: -20, pct: -20 });
  const revenue = c.measures.find((m) => m.column === 'revenue');
  assert.deepEqual(revenue, {
    column: 'revenue',
    stat: 'sum',
    before: 1000,
    after: 1500,
    change: 500,
    pct: 50,
  });
  // A level is compared by its mean, never its sum (5,000 → 4,400 would read as a fall).
  assert.equal(c.measures.find((m) => m.column === 'price')?.before, 50);
  assert.deepEqual(c.categories, [{ column: 'region', appeared: ['South'], vanished: ['North'] }]);
  assert.equal(c.shifts[0]?.level, 'significant');
  const lines = changeLines(c).join('\n');
  assert.match(lines, /Columns added: margin/);
  assert.match(lines, /Total revenue: 1,000 → 1,500 \(\+50\.0%\)/);
  assert.match(lines, /Mean price: 50 → 55/);
  assert.match(lines, /Gone from region: North/);
  assert.match(lines, /shifted \(significant: PSI/);
  const same = compareSnapshots(
    before,
    before,
    { kind: 'series', name: 'y', sha256: 'a', when: '2024-01' },
    true,
  );
  assert.deepEqual(changeLines(same), ['Same content as y: nothing changed.']);
});

void test('dated series: the date is found, the rest of the name is the key', () => {
  assert.deepEqual(seriesOf('sales-2024-01'), { key: 'sales-*', date: '2024-01' });
  assert.deepEqual(seriesOf('sales_2024_02_15'), { key: 'sales_*', date: '2024-02-15' });
  assert.deepEqual(seriesOf('202403-north'), { key: '*-north', date: '2024-03' });
  assert.equal(seriesOf('store-001'), null);
  assert.equal(seriesOf('sales-2024-13'), null);
  assert.equal(seriesOf('id-12024-01'), null);
});

void test('shards: every file in exactly one, a series together, by name only', () => {
  const inputs = Array.from({ length: 60 }, (_, i) => ({
    file: `/d/f${i}.csv`,
    name: i < 12 ? `sales-2024-${String(i + 1).padStart(2, '0')}` : `f${i}`,
  }));
  const shards = [1, 2, 3].map((index) => inputs.filter((x) => inShard(x, { index, count: 3 })));
  assert.equal(shards.flat().length, inputs.length);
  assert.equal(new Set(shards.flat().map((x) => x.name)).size, inputs.length);
  assert.ok(
    shards.every((s) => s.length > 5),
    shards.map((s) => s.length).join(','),
  );
  const holding = shards.filter((s) => s.some((x) => x.name.startsWith('sales-')));
  assert.equal(holding.length, 1);
  assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
  for (const bad of ['0/3', '4/3', '1/0', 'x', '1-3'])
    assert.throws(() => parseShard(bad), /--shard must be K\/N/);
});

void test('inputs: folders, globs and unique names', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  mkdirSync(join(dir, '.hidden'));
  for (const f of ['a/sales.csv', 'b/sales.csv', 'b/other.tsv', 'notes.md', '.hidden/x.csv'])
    writeFileSync(join(dir, f), 'x\n1\n');
  const all = inputsFromArgs([dir]);
  assert.deepEqual(
    all.map((i) => i.name),
    ['a-sales', 'other', 'b-sales'],
  );
  const globbed = inputsFromArgs([`${dir}/**/*.csv`]);
  assert.deepEqual(globbed.map((i) => i.name).sort(), ['a-sales', 'b-sales']);
  assert.deepEqual(
    inputsFromArgs([`${dir}/b/*.{csv,tsv}`]).map((i) => i.name),
    ['other', 'sales'],
  );
  assert.throws(() => inputsFromArgs([join(dir, 'missing.csv')]), /no such file or folder/);
  assert.throws(() => inputsFromArgs([`${dir}/*.parquet`]), /no data files found/);
});

void test('the ledger: the newest finished state of each file, and its newest success', () => {
  const store = SessionStore.open(join(tempDir(), 'sessions.db'));
  try {
    const ledger = new BatchLedger(store);
    const entry = (name: string, status: 'done' | 'failed'): Entry => ({
      name,
      file: `/d/${name}.csv`,
      sha256: `sha-${name}`,
      bytes: 10,
      settings_hash: 's',
      status,
      error: status === 'failed' ? 'boom' : null,
      report: status === 'done' ? `reports/${name}.html` : null,
      session: null,
      rows: 1,
      columns: 1,
      findings: [],
      seconds: 1,
      reused: false,
      run: 'r',
      snapshot: null,
      changes: { previous_run: null, series: null },
    });
    const first = ledger.startRun('key', '/out', { mode: 'fast' });
    ledger.record(
      first,
      { name: 'a', sha256: 'sha-a', settingsHash: 's' },
      'done',
      entry('a', 'done'),
    );
    ledger.record(
      first,
      { name: 'b', sha256: 'sha-b', settingsHash: 's' },
      'running',
      entry('b', 'failed'),
    );
    ledger.finishRun(first, 'interrupted');
    const second = ledger.startRun('key', '/out', { mode: 'fast' });
    ledger.record(
      second,
      { name: 'a', sha256: 'sha-a', settingsHash: 's' },
      'failed',
      entry('a', 'failed'),
    );
    const third = ledger.startRun('key', '/out', { mode: 'fast' });
    const latest = ledger.latest('key', third);
    assert.equal(latest.get('a')?.status, 'failed');
    assert.equal(latest.get('a')?.run, second);
    const done = ledger.latest('key', third, 'done');
    assert.equal(done.get('a')?.status, 'done');
    assert.equal(done.get('a')?.run, first);
    assert.equal(latest.has('b'), false, 'a file left running is not finished');
    assert.equal(ledger.latest('other', third).size, 0);
  } finally {
    store.close();
  }
});

void test('pages escape what files and models wrote', () => {
  const hostile = '<img src=x onerror=alert(1)>';
  const entry: Entry = {
    name: `bad${hostile}`,
    file: '/d/x.csv',
    sha256: 'a',
    bytes: 1,
    settings_hash: 's',
    status: 'failed',
    error: hostile,
    report: 'reports/x.html',
    session: null,
    rows: null,
    columns: null,
    findings: [hostile],
    seconds: null,
    reused: false,
    run: 'r',
    snapshot: null,
    changes: {
      previous_run: compareSnapshots(
        snapshot({ categories: [{ column: hostile, values: [hostile] }] }),
        snapshot({ categories: [{ column: hostile, values: [] }] }),
        { kind: 'previous_run', name: hostile, sha256: 'b', when: null },
        false,
      ),
      series: null,
    },
  };
  const html = indexHtml(indexOf([entry], {}, null), hostile) + changesSection(entry);
  assert.ok(!html.includes('<img'), 'no raw tag from data');
  assert.match(html, /&#60;img src=x onerror=alert\(1\)&#62;/);
});
