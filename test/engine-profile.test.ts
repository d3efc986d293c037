/**
 * The DuckDB profile (src/engine/profile.ts) over real DuckDB tables: the cases of
 * preamble/tests/test_profile.py, and parity with the Python profiler run for real on the same
 * CSV files.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ColumnProfile, DataProfile } from '../src/agent/profile.js';
import { DataProfileSchema } from '../src/agent/profile.js';
import { profileText } from '../src/agent/profile-text.js';
import { DuckDb, ident, literal } from '../src/engine/duckdb.js';
import { numberTextSql } from '../src/engine/profile-details.js';
import { pct, pyFixed, pyFloat, pyRound } from '../src/engine/profile-format.js';
import { EXACT_ROWS, inferFrequency, profileData } from '../src/engine/profile.js';
import { DETAIL_LIMIT } from '../src/engine/profile-columns.js';
import { futureDates } from '../src/engine/profile-warnings.js';
import type { SourceInfo } from '../src/engine/types.js';
import { MONTH_NAMES, ROOT, seeded, tempDir } from './helpers/fixtures.js';

const DIR = tempDir('opsmind-profile-');
let db: DuckDb;

function source(name = 'data.csv', format: SourceInfo['format'] = 'csv'): SourceInfo {
  return {
    path: join(DIR, name),
    name,
    format,
    encoding: format === 'csv' ? 'utf-8' : null,
    delimiter: format === 'csv' ? ',' : null,
    compression: null,
    sheet: null,
    locale: { decimal: '.', thousands: null, dateOrder: null },
    skippedLines: 0,
    rows: 0,
    columns: 0,
    sizeBytes: 0,
    warnings: [],
  };
}

/** Replaces the data table with `select` and profiles it. */
async function profileOf(select: string, src = source()): Promise<DataProfile> {
  await db.run(`CREATE OR REPLACE TABLE data AS ${select}`);
  return DataProfileSchema.parse(await profileData(db, src));
}

type Cell = string | number | boolean | null;

/** A SELECT of columns given as [SQL type, values] (equal lengths), in row order. */
function columnsSql(columns: Record<string, [string, readonly Cell[]]>): string {
  const cell = (v: Cell, type: string): string =>
    v === null ? `CAST(NULL AS ${type})` : `CAST(${literal(String(v))} AS ${type})`;
  const lists = Object.entries(columns).map(
    ([name, [type, values]]) =>
      `unnest([${values.map((v) => cell(v, type)).join(', ')}]::${type}[]) AS ${ident(name)}`,
  );
  return `SELECT ${lists.join(', ')}`;
}

async function columnOf(
  values: readonly Cell[],
  name = 'value',
  type = 'VARCHAR',
): Promise<ColumnProfile> {
  const profile = await profileOf(columnsSql({ [name]: [type, values] }));
  const column = profile.column_profiles[0];
  assert.ok(column);
  return column;
}

const range = (n: number, from = 0): number[] => Array.from({ length: n }, (_, i) => from + i);
const repeat = <T>(values: readonly T[], times: number): T[] =>
  Array.from({ length: times }, () => values).flat();
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const DAY_MS = 86_400_000;
const JAN_1 = Date.UTC(2024, 0, 1);

before(async () => {
  db = await DuckDb.open({ memoryMb: 1024, threads: 2, tempDir: join(DIR, 'spill') });
});
after(() => {
  db.close();
  rmSync(DIR, { recursive: true, force: true });
});

// Semantic types.
void test('floats are numeric; years as ints are numeric, as text not dates', async () => {
  const floats = await columnOf(
    range(50).map((i) => (i * 10) / 49),
    'value',
    'DOUBLE',
  );
  assert.equal(floats.semantic, 'numeric');
  const years = await columnOf(range(40, 1990), 'year', 'BIGINT');
  assert.equal(years.semantic, 'numeric');
  assert.equal(years.datetime, null);
  assert.notEqual((await columnOf(range(40, 1990).map(String), 'year')).semantic, 'datetime');
  const days = range(60).map((d) => String((d % 28) + 1));
  assert.notEqual((await columnOf(days, 'day')).semantic, 'datetime');
  const ages = repeat(['18-24', '25-34', '35-44', '45-54'], 10);
  assert.equal((await columnOf(ages, 'age')).semantic, 'category');
});

void test('zip codes are categories, as text or as integers', async () => {
  const text = await columnOf(repeat(['02134', '02139', '10001', '02134', '94105'], 10), 'zip');
  assert.equal(text.semantic, 'category');
  assert.equal(text.numeric_text, null);
  const ints = await columnOf(repeat([2134, 2139, 10001, 94105], 10), 'zip_code', 'BIGINT');
  assert.equal(ints.semantic, 'category');
  assert.equal(ints.numeric, null);
});

void test('an edge list: source and target node codes are categories, its weight stays a measure', async () => {
  // miserables.json's links: whole numbers from 0 naming nodes, from one range, with a weight.
  const source = range(60).map((i) => (i * 7) % 40);
  const target = range(60).map((i) => (i * 11 + 3) % 44);
  const weight = range(60).map((i) => (i % 5) + 1);
  const links = await profileOf(
    columnsSql({
      source: ['BIGINT', source],
      target: ['BIGINT', target],
      value: ['BIGINT', weight],
    }),
  );
  const [s, t, v] = links.column_profiles;
  for (const end of [s, t]) {
    assert.equal(end?.semantic, 'category', end?.name);
    assert.equal(end?.numeric, null);
    assert.ok(
      end?.notes.includes('node codes of the links source → target: counted, not averaged'),
      JSON.stringify(end?.notes),
    );
  }
  assert.equal(v?.semantic, 'numeric');
  assert.deepEqual(links.correlations, []);
  // Named the other way round, and with a shared word: still source → target.
  const named = await profileOf(
    columnsSql({ to_node: ['BIGINT', target], from_node: ['BIGINT', source] }),
  );
  assert.deepEqual(
    named.column_profiles.map((c) => [c.semantic, c.notes.at(-1)]),
    [
      ['category', 'node codes of the links from_node → to_node: counted, not averaged'],
      ['category', 'node codes of the links from_node → to_node: counted, not averaged'],
    ],
  );
});

void test('link names alone make no node codes: the values must be whole, from 0, in one range', async () => {
  const source = range(60).map((i) => (i * 7) % 40);
  const target = range(60).map((i) => (i * 11 + 3) % 44);
  // Fractions, negative numbers, ranges that barely meet, and from/to values spread thin over
  // their span (a price from 100 to 2,500) stay measures.
  const measures = async (a: string, b: string, x: readonly number[], y: readonly number[]) => {
    const p = await profileOf(columnsSql({ [a]: ['DOUBLE', x], [b]: ['DOUBLE', y] }));
    assert.deepEqual(
      p.column_profiles.map((c) => c.semantic),
      ['numeric', 'numeric'],
      `${a}, ${b}: ${JSON.stringify(p.column_profiles.map((c) => [c.semantic, c.notes]))}`,
    );
  };
  await measures(
    'source',
    'target',
    source.map((n) => n + 0.5),
    target,
  );
  await measures(
    'source',
    'target',
    source.map((n) => n - 20),
    target,
  );
  await measures(
    'source',
    'target',
    source,
    target.map((n) => n + 35),
  );
  await measures(
    'price_from',
    'price_to',
    range(60).map((i) => 100 + i * 40),
    range(60).map((i) => 140 + i * 40),
  );
  await measures('source_temp', 'sink_temp', source, target);
});

void test('identifiers: unique ids, camel case, row index, order codes, uuids, e-mails', async () => {
  const id = await columnOf(range(50, 1000), 'id', 'BIGINT');
  assert.equal(id.semantic, 'identifier');
  assert.ok(id.notes.includes('identifier: not charted'));
  assert.equal((await columnOf(range(50), 'CustomerID', 'BIGINT')).semantic, 'identifier');
  assert.equal((await columnOf(range(50, 1000), 'amount', 'BIGINT')).semantic, 'numeric');
  assert.equal((await columnOf(range(10), 'id', 'BIGINT')).semantic, 'category');
  assert.equal(
    (await columnOf(repeat([1, 2, 3, 4], 10), 'store_id', 'BIGINT')).semantic,
    'category',
  );
  assert.equal((await columnOf(range(30), 'Unnamed: 0', 'BIGINT')).semantic, 'identifier');
  const orders = range(40).map((i) => `ORD-${String(i).padStart(5, '0')}`);
  assert.equal((await columnOf(orders, 'order')).semantic, 'identifier');
  const uuids = range(5).map((i) => `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`);
  assert.equal((await columnOf(uuids, 'ref')).semantic, 'identifier');
  const emails = range(9).map((i) => `user${i % 3}@example.com`);
  assert.equal((await columnOf(emails, 'who')).semantic, 'identifier');
  // A version names a release, whole or not (debian.csv's 1.1 … 15): never a measure.
  const releases = range(30).map((i) => 1 + i / 10);
  assert.equal((await columnOf(releases, 'version', 'DOUBLE')).semantic, 'identifier');
  const builds = repeat([1.1, 1.2, 2, 2.1], 10);
  assert.equal((await columnOf(builds, 'appVersion', 'DOUBLE')).semantic, 'category');
  assert.equal((await columnOf(releases, 'conversion', 'DOUBLE')).semantic, 'numeric');
});

void test('a mean within the rounding of its sum of zero is 0; a small mean of small values is kept', async () => {
  // Residuals as a model writes them: their float sum is 1e-16 or so, not 0.
  const residuals = [-2.621, 3.092, -0.471, 0.5, -0.5, 1.1, -1.1, 0.1, -0.1, -0.0000000000000001];
  const centred = residuals.map((v) => v - residuals.reduce((a, b) => a + b, 0) / residuals.length);
  assert.equal((await columnOf(centred, 'resid', 'DOUBLE')).numeric?.mean, 0);
  const tiny = await columnOf([3e-10, -1e-10, 2e-10], 'drift', 'DOUBLE');
  assert.ok(Math.abs((tiny.numeric?.mean ?? 0) - 4e-10 / 3) < 1e-20, JSON.stringify(tiny.numeric));
});

void test('booleans: bool type, yes/no in any case, 0/1 numbers (with their statistics)', async () => {
  assert.equal((await columnOf(repeat([true, false], 5), 'v', 'BOOLEAN')).semantic, 'boolean');
  assert.equal((await columnOf(repeat(['Yes', 'no', 'YES'], 5))).semantic, 'boolean');
  const zeroOne = await columnOf(repeat([0, 1, 1], 5), 'active', 'BIGINT');
  assert.equal(zeroOne.semantic, 'boolean');
  assert.ok(Math.abs((zeroOne.numeric?.mean ?? 0) - 2 / 3) < 1e-12);
  assert.equal((await columnOf(repeat(['North', 'South'], 5))).semantic, 'category');
  const regions = repeat(['North', 'South', 'East', 'West'], 10);
  assert.equal((await columnOf(regions, 'region')).semantic, 'category');
});

void test('text: long strings with their lengths, mostly unique names', async () => {
  const values = range(12).map(
    (i) => `a fairly long free-text comment about the order, number ${i % 3}`,
  );
  const comment = await columnOf(values, 'comment');
  assert.equal(comment.semantic, 'text');
  const lengths = values.map((v) => v.length);
  assert.equal(comment.text?.mean_length, lengths.reduce((a, b) => a + b) / lengths.length);
  assert.equal(comment.text?.max_length, Math.max(...lengths));
  const names = range(30).map((i) => `Customer ${String.fromCharCode(65 + (i % 26))}${i}`);
  assert.equal((await columnOf(names, 'name')).semantic, 'text');
});

void test('constant and empty columns', async () => {
  const kind = await columnOf([...repeat(['x'], 10), null, null], 'kind');
  assert.equal(kind.semantic, 'constant');
  assert.ok(kind.notes.includes("constant: every value is 'x'"));
  const empty = await columnOf([null, null, null, null, null]);
  assert.equal(empty.semantic, 'empty');
  assert.equal(empty.missing, 5);
  assert.equal(empty.dtype, 'float64'); // pandas reads a CSV column with no value as float64
});

void test('a timestamp column is datetime with its frequency', async () => {
  const weekly = range(10).map((i) => new Date(JAN_1 + (i * 7 + 6) * DAY_MS).toISOString());
  const result = await columnOf(weekly, 'value', 'TIMESTAMP');
  assert.equal(result.semantic, 'datetime');
  assert.equal(result.dtype, 'datetime64[ns]');
  assert.equal(result.datetime?.frequency, 'W');
  assert.equal(result.datetime?.parse_share, 1);
  assert.ok(!result.notes.includes('dates stored as text'));
});

void test('dates far outside the nanosecond range are profiled, not an overflow', async () => {
  // epoch_ns of the year 1 or 5000 overflows BIGINT; spans and gaps are taken in microseconds.
  const far = ['0001-01-01T00:00:00Z', '2020-01-01T00:00:00Z', '5000-06-01T00:00:00Z'];
  const result = await columnOf(far, 'when', 'TIMESTAMP');
  assert.equal(result.datetime?.min, '0001-01-01T00:00:00');
  assert.equal(result.datetime?.max, '5000-06-01T00:00:00');
  const days = (Date.UTC(5000, 5, 1) - new Date('0001-01-01T00:00:00Z').getTime()) / DAY_MS;
  assert.equal(result.datetime?.span_days, days);
});

// Numbers stored as text.
async function assertStyle(values: string[], style: string, expected: number[]): Promise<void> {
  const result = await columnOf(values, 'amount');
  assert.equal(result.semantic, 'numeric_text');
  assert.equal(result.numeric_text?.style, style);
  const stats = result.numeric_text?.stats;
  const mean = expected.reduce((a, b) => a + b) / expected.length;
  assert.ok(Math.abs((stats?.mean ?? NaN) - mean) < 1e-9 * Math.abs(mean));
  assert.equal(stats?.min, Math.min(...expected));
  assert.equal(stats?.max, Math.max(...expected));
  assert.ok(result.notes.includes(`numbers stored as text (${style})`));
}

void test('thousands separators, currencies, percentages', async () => {
  await assertStyle(['1,234.50', '12', '2,000,000', '999'], 'thousands', [1234.5, 12, 2e6, 999]);
  await assertStyle(['$1,234', '$12.50', '-$3', '$0'], 'currency', [1234, 12.5, -3, 0]);
  await assertStyle(['€12.50', '€3'], 'currency', [12.5, 3]);
  await assertStyle(['12.50 USD', '3 USD', '1,000 USD'], 'currency', [12.5, 3, 1000]);
  await assertStyle(['12.5%', '100%', '0.5%', '40 %'], 'percent', [12.5, 100, 0.5, 40]);
});

void test('accounting negatives in parentheses parse as negative numbers', async () => {
  const texts = ['(300)', '$(1,000.5)', '($2)', '7', '12.50 USD', '1_000', 'abc'];
  const sql = texts.map((t) => numberTextSql(literal(t))).join(', ');
  const result = await db.all(`SELECT ${sql}`);
  assert.deepEqual(result.rows[0], [-300, -1000.5, -2, 7, 12.5, null, null]);
});

void test('plain numbers with some junk; mostly words are not numbers', async () => {
  const result = await columnOf([...range(19, 1).map(String), 'unknown'], 'amount');
  assert.equal(result.semantic, 'numeric_text');
  assert.equal(result.numeric_text?.style, 'plain');
  assert.ok(Math.abs((result.numeric_text?.parse_share ?? 0) - 19 / 20) < 1e-12);
  assert.equal(result.numeric_text?.stats?.mean, 10);
  assert.ok(result.notes.includes('1 values are not numbers'));
  const words = repeat(['12', 'abc', 'def', 'ghi'], 3);
  assert.equal((await columnOf(words)).semantic, 'category');
});

void test('numbers are written as Python writes them (repr, half-even ties, percentages)', () => {
  const floats = [
    1e20, 1.5e-7, 2.0, 0.0001, 123456789012345680, 1e16, 9999999999999998, -0.5, 1e-5,
  ];
  assert.deepEqual(floats.map(pyFloat), [
    '1e+20',
    '1.5e-07',
    '2.0',
    '0.0001',
    '1.2345678901234568e+17',
    '1e+16',
    '9999999999999998.0',
    '-0.5',
    '1e-05',
  ]);
  assert.deepEqual([0.1 + 0.2, Infinity, -Infinity].map(pyFloat), [
    '0.30000000000000004',
    'inf',
    '-inf',
  ]);
  assert.deepEqual(
    [12.5, 13.5, 62.5].map((v) => pyFixed(v, 0)),
    ['12', '14', '62'],
  );
  assert.deepEqual(
    [4.25, 4.35, 0.15].map((v) => pyFixed(v, 1)),
    ['4.2', '4.3', '0.1'],
  );
  assert.deepEqual([0.125, 0.0425, 0.0004, 0, 1].map(pct), ['12%', '4.2%', '<0.1%', '0%', '100%']);
  assert.equal(pyRound(0.8125, 3), 0.812);
});

// Dates stored as text.
async function assertDates(values: string[], frequency: string | null): Promise<ColumnProfile> {
  const result = await columnOf(values, 'when');
  assert.equal(result.semantic, 'datetime');
  assert.equal(result.dtype, 'object');
  assert.equal(result.datetime?.frequency, frequency);
  assert.ok(result.notes.includes('dates stored as text'));
  return result;
}
const days = (n: number, step = 1): number[] => range(n).map((i) => JAN_1 + i * step * DAY_MS);
const months = (n: number, every = 1): Date[] =>
  range(n).map((i) => new Date(Date.UTC(2020, i * every, 1)));

void test('daily ISO dates, business days', async () => {
  const daily = await assertDates(days(40).map(isoDay), 'D');
  assert.equal(daily.datetime?.min, '2024-01-01T00:00:00');
  assert.equal(daily.datetime?.max, '2024-02-09T00:00:00');
  assert.equal(daily.datetime?.span_days, 39);
  const business = days(56).filter((ms) => new Date(ms).getUTCDay() % 6 !== 0);
  await assertDates(business.map(isoDay), 'D');
});

void test('monthly, month-end US format, hourly, quarterly, yearly', async () => {
  await assertDates(
    months(30).map((d) => d.toISOString().slice(0, 7)),
    'M',
  );
  const monthEnds = range(30).map((i) => new Date(Date.UTC(2020, i + 1, 0)));
  const us = (d: Date): string =>
    `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
  await assertDates(monthEnds.map(us), 'M');
  const hourly = range(48).map((i) => new Date(Date.UTC(2024, 2, 1) + i * 3_600_000));
  await assertDates(
    hourly.map((d) => d.toISOString().slice(0, 19).replace('T', ' ')),
    'H',
  );
  await assertDates(
    months(12, 3).map((d) => isoDay(d.getTime())),
    'Q',
  );
  await assertDates(
    months(12, 12).map((d) => isoDay(d.getTime())),
    'Y',
  );
});

void test('irregular stamps have no frequency; unparseable values are counted', async () => {
  const random = seeded(0);
  let at = JAN_1;
  const stamps = range(200).map(
    () => (at += Math.round(-Math.log(1 - random()) * 7 * 3600) * 1000),
  );
  const text = stamps.map((ms) => new Date(ms).toISOString().slice(0, 19).replace('T', ' '));
  await assertDates(text, null);
  const result = await assertDates([...days(19).map(isoDay), '2024-13-45'], 'D');
  assert.ok(Math.abs((result.datetime?.parse_share ?? 0) - 0.95) < 1e-12);
  assert.ok(result.notes.includes('1 values do not parse as dates'));
});

void test('inferFrequency (TypeScript) needs three points and a regular spacing', () => {
  assert.equal(inferFrequency([JAN_1, JAN_1 + DAY_MS]), null);
  assert.equal(inferFrequency(days(10)), 'D');
  assert.equal(inferFrequency(range(10).map((i) => JAN_1 + i * 3_600_000)), 'H');
  assert.equal(inferFrequency(months(24).map((d) => d.getTime())), 'M');
  assert.equal(inferFrequency([...days(10), ...days(10)]), 'D');
  const uneven = [0, 1, 3, 7, 15, 31, 63].map((d) => JAN_1 + d * DAY_MS);
  assert.equal(inferFrequency(uneven), null);
});

/** Standard normal draws (Box-Muller), rounded to 6 decimals so CSV text reads back exactly. */
function normals(random: () => number, n: number): number[] {
  return range(n).map(() => {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.round(z * 1e6) / 1e6;
  });
}

/** Quantile of sorted values, as np.percentile's linear method. */
function quantile(sorted: readonly number[], q: number): number {
  const position = q * (sorted.length - 1);
  const low = Math.floor(position);
  const a = sorted[low] ?? NaN;
  const b = sorted[Math.min(low + 1, sorted.length - 1)] ?? NaN;
  const t = position - low;
  return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
}

/** Pearson r over pairwise-complete values (two-pass, as pandas). */
function pearson(x: readonly (number | null)[], y: readonly (number | null)[]): number {
  const pairs = x.flatMap((a, i) => (a !== null && y[i] != null ? [[a, y[i] ?? 0]] : []));
  const mean = (k: 0 | 1): number => pairs.reduce((s, p) => s + (p[k] ?? 0), 0) / pairs.length;
  const [mx, my] = [mean(0), mean(1)];
  let [sxy, sxx, syy] = [0, 0, 0];
  for (const [a = 0, b = 0] of pairs) {
    sxy += (a - mx) * (b - my);
    sxx += (a - mx) ** 2;
    syy += (b - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const close = (a: number | null | undefined, b: number, tolerance = 1e-9): boolean =>
  typeof a === 'number' && Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b), 1e-3);

// Statistics.
void test('number statistics match pandas: mean, std, quartiles, skew, zeros, outliers', async () => {
  const random = seeded(1);
  const present = [...normals(random, 500).map((z) => Math.exp(z)), 0, 0, -5, 80];
  const values = [...present.slice(0, 250), ...repeat(['nan'], 20), ...present.slice(250)];
  const stats = (await columnOf(values, 'x', 'DOUBLE')).numeric;
  const sorted = [...present].sort((a, b) => a - b);
  const n = present.length;
  const mean = present.reduce((a, b) => a + b) / n;
  const m2 = present.reduce((s, v) => s + (v - mean) ** 2, 0);
  const m3 = present.reduce((s, v) => s + (v - mean) ** 3, 0);
  assert.ok(close(stats?.mean, mean, 1e-12));
  assert.ok(close(stats?.std, Math.sqrt(m2 / (n - 1))));
  assert.ok(close(stats?.skew, ((n * Math.sqrt(n - 1)) / (n - 2)) * (m3 / m2 ** 1.5)));
  assert.equal(stats?.median, quantile(sorted, 0.5));
  assert.ok(close(stats?.q1, quantile(sorted, 0.25), 1e-15));
  assert.ok(close(stats?.q3, quantile(sorted, 0.75), 1e-15));
  assert.deepEqual([stats?.min, stats?.max, stats?.zeros, stats?.negatives], [-5, 80, 2, 1]);
  const [q1, q3] = [stats?.q1 ?? 0, stats?.q3 ?? 0];
  const fences = [q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)] as const;
  assert.equal(stats?.outliers, present.filter((v) => v < fences[0] || v > fences[1]).length);
});

void test('missing, distinct and top values; one value has no std or skew', async () => {
  const result = await columnOf(['b', 'a', 'b', null, 'c', 'b', 'a', null], 'k');
  assert.deepEqual([result.missing, result.distinct, result.missing_share], [2, 3, 0.25]);
  assert.deepEqual(result.top, [
    { value: 'b', count: 3 },
    { value: 'a', count: 2 },
    { value: 'c', count: 1 },
  ]);
  assert.ok(result.notes.includes('25% missing'));
  const single = (await columnOf([1.5, null], 'x', 'DOUBLE')).numeric;
  assert.equal(single?.std, null);
  assert.equal(single?.skew, null);
});

void test('infinities are left out of statistics and the profile stays strict JSON', async () => {
  const result = await columnOf([1, 2, 'inf', '-inf', 3], 'x', 'DOUBLE');
  assert.equal(result.numeric?.max, 3);
  assert.ok(result.notes.includes('2 infinite values left out of statistics'));
  assert.equal(result.infinite, 2, 'counted for the planner (a median, not a sum or mean)');
  assert.equal((await columnOf([1, 2, 3], 'x', 'DOUBLE')).infinite, undefined);
  assert.doesNotThrow(() => JSON.parse(JSON.stringify(result)));
});

void test('a float column read as stored (no NaN, no inf) has the figures of one read through the NaN and inf checks', async () => {
  const random = seeded(3);
  const values: Cell[] = normals(random, 400).map((z, i) => (i % 37 === 5 ? null : z * 3 + 1));
  const profile = await profileOf(
    columnsSql({
      stored: ['DOUBLE', values],
      // The same values with NaN for the gaps (missing to pandas too), and one with an infinity
      // more: both scanned again, exactly.
      nan: ['DOUBLE', values.map((v) => v ?? 'nan')],
      inf: ['DOUBLE', [...values.slice(0, -1), 'inf']],
    }),
  );
  const [stored, nan, inf] = profile.column_profiles;
  assert.ok(stored?.numeric && nan?.numeric && inf?.numeric);
  assert.deepEqual(nan.numeric, stored.numeric);
  assert.equal(nan.missing, stored.missing);
  assert.equal(stored.missing, values.filter((v) => v === null).length);
  const finite = values.slice(0, -1).filter((v): v is number => typeof v === 'number');
  assert.equal(inf.numeric.max, Math.max(...finite));
  assert.ok(close(inf.numeric.mean, finite.reduce((a, b) => a + b) / finite.length, 1e-12));
  assert.ok(inf.notes.includes('1 infinite values left out of statistics'), inf.notes.join('; '));
  assert.equal(inf.infinite, 1);
  assert.equal(nan.infinite, undefined, 'NaN is missing, not infinite');
});

void test('duplicate rows as pandas counts them, missing equal to missing', async () => {
  const profile = await profileOf(
    columnsSql({
      a: ['DOUBLE', [1, 1, 2, null, null, 1]],
      b: ['VARCHAR', ['x', 'x', 'y', null, null, 'z']],
    }),
  );
  assert.equal(profile.duplicate_rows, 2);
  assert.ok(profile.warnings.includes('2 duplicate rows (33% of rows)'));
});

void test('rows differing only beyond the detail limit are not duplicates', async () => {
  const cells = range(250).map(
    (c) => `CASE WHEN i = 1 AND ${c} = 240 THEN 1.0 ELSE 0.0 END AS c${c}`,
  );
  const profile = await profileOf(`SELECT ${cells.join(', ')} FROM range(3) t(i)`);
  assert.equal(profile.duplicate_rows, 1);
  assert.equal(profile.column_profiles.length, DETAIL_LIMIT);
});

// Correlations.
const random = seeded(2);
const x = normals(random, 400);
const noisy = (scale: number, k: number): number[] =>
  normals(random, 400).map((e, i) => k * (x[i] ?? 0) + e * scale);
const frame = {
  x: ['DOUBLE', x],
  strong: ['DOUBLE', noisy(0.3, 3)],
  negative: ['DOUBLE', noisy(1, -1)],
  moderate: ['DOUBLE', noisy(2.5, 1)],
  noise: ['DOUBLE', normals(random, 400)],
  order_id: ['BIGINT', range(400)],
  region: ['VARCHAR', repeat(['a', 'b'], 200)],
} satisfies Record<string, [string, Cell[]]>;

void test('pairs, order and rounding match pandas', async () => {
  const pairs = (await profileOf(columnsSql(frame))).correlations;
  assert.deepEqual([pairs[0]?.a, pairs[0]?.b], ['x', 'strong']);
  for (const { a, b, r } of pairs) {
    const expected = pearson(frame[a as 'x'][1], frame[b as 'x'][1]);
    assert.equal(r, Number(expected.toFixed(3)), `${a}/${b}`);
    assert.ok(Math.abs(r) >= 0.3);
  }
  const magnitudes = pairs.map((p) => Math.abs(p.r));
  assert.deepEqual(
    magnitudes,
    [...magnitudes].sort((a, b) => b - a),
  );
  const names = new Set(pairs.flatMap((p) => [p.a, p.b]));
  assert.ok(!names.has('noise') && !names.has('order_id'));
});

void test('at most ten pairs; pairwise-complete rows; a constant column gives none', async () => {
  const base = normals(seeded(3), 200);
  const similar = Object.fromEntries(
    range(8).map((i) => [`c${i}`, ['DOUBLE', base.map((v, j) => v + ((j * (i + 3)) % 7) / 70)]]),
  ) as Record<string, [string, Cell[]]>;
  assert.equal((await profileOf(columnsSql(similar))).correlations.length, 10);
  const gappy = frame.strong[1].map((v, i) => (i % 7 === 0 ? null : v));
  const pair = await profileOf(columnsSql({ x: frame.x, strong: ['DOUBLE', gappy] }));
  assert.equal(pair.correlations[0]?.r, Number(pearson(x, gappy).toFixed(3)));
  const constant = columnsSql({ a: ['DOUBLE', [1, 2, 3, 4]], b: ['DOUBLE', [5, 5, 5, 5]] });
  assert.deepEqual((await profileOf(constant)).correlations, []);
});

// Warnings and shape.
void test('dataset warnings in the Python words', async () => {
  const days = range(5).map((i) => isoDay(JAN_1 + i * DAY_MS));
  const profile = await profileOf(
    columnsSql({
      a: ['DOUBLE', [null, null, null, 1, 2]],
      b: ['DOUBLE', [null, null, 1, 2, 3]],
      c: ['VARCHAR', repeat(['k'], 5)],
      price: ['VARCHAR', ['$1', '$2', '$3', '$4', '$5']],
      day: ['VARCHAR', days],
    }),
  );
  for (const warning of [
    '1 column more than 50% missing: a',
    '1 constant column: c',
    'numbers stored as text in: price',
    'dates stored as text in: day',
  ])
    assert.ok(profile.warnings.includes(warning), warning);
});

void test('dates after today are named with their latest (a mistyped year, 2046 for 1946)', async () => {
  const profile = await profileOf(
    columnsSql({
      released: ['VARCHAR', repeat(['1998-06-12', '2046-11-05', '2001-01-01'], 4)],
      shown: ['TIMESTAMP', repeat(['2099-01-02', '2000-01-01', null], 4)],
      filed: ['DATE', repeat(['2001-03-04', '2000-01-01', '2010-05-06'], 4)],
    }),
  );
  assert.ok(
    profile.warnings.includes(
      'dates after today in: released (the latest 2046-11-05), shown (the latest 2099-01-02)',
    ),
    profile.warnings.join('; '),
  );
  const columns = profile.column_profiles;
  assert.equal(futureDates(columns, '2100-01-01'), null);
  assert.equal(
    futureDates(columns, '2046-11-05'),
    'dates after today in: shown (the latest 2099-01-02)',
  );
});

void test('source, empty tables, odd types and hostile column names', async () => {
  const sales = await profileOf(columnsSql({ a: ['BIGINT', [1, 2, 3]] }), source('sales.csv'));
  assert.deepEqual(sales.source, {
    name: 'sales.csv',
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
  });
  const none = await profileOf('SELECT 1 AS a, NULL::VARCHAR AS b WHERE false');
  assert.deepEqual([none.rows, none.columns, none.warnings], [0, 2, ['the dataset has no rows']]);
  const blank = await profileOf('SELECT NULL::DOUBLE AS a');
  assert.equal(blank.column_profiles[0]?.semantic, 'empty');
  const odd = await profileOf(
    `SELECT INTERVAL (i) HOUR AS td, TIMESTAMPTZ '2024-01-01 00:00:00+00' + INTERVAL (i) DAY AS tz, ` +
      `[i, i + 1] AS lists, {'k': i % 2} AS structs, uuid() AS u, TIME '10:00:00' + INTERVAL (i) MINUTE AS t, ` +
      `(i / 3)::DECIMAL(10, 2) AS dec, i::HUGEINT AS huge, DATE '2024-01-01' + i::INT AS d FROM range(30) r(i)`,
    source('odd.parquet', 'parquet'),
  );
  const kinds = Object.fromEntries(odd.column_profiles.map((c) => [c.name, c.semantic]));
  assert.deepEqual(kinds, {
    td: 'numeric',
    tz: 'datetime',
    lists: 'text',
    structs: 'category',
    u: 'identifier',
    t: 'datetime',
    dec: 'numeric',
    huge: 'numeric',
    d: 'datetime',
  });
  assert.ok(odd.column_profiles[0]?.notes.includes('durations: statistics in seconds'));
  const hostile = ['a"b', 'x; DROP TABLE data; --', 'line\nbreak', "it's"];
  const cols = Object.fromEntries(hostile.map((n, i) => [n, ['BIGINT', range(25, i)]]));
  const named = await profileOf(columnsSql(cols as Record<string, [string, Cell[]]>));
  assert.deepEqual(
    named.column_profiles.map((c) => c.name),
    hostile,
  );
});

void test('works on a locked database, leaves no table behind, and stops when aborted', async () => {
  const locked = await DuckDb.open({ memoryMb: 256, threads: 1, tempDir: join(DIR, 'locked') });
  try {
    await locked.run(
      `CREATE TABLE data AS SELECT '$' || i AS price, i % 3 AS k FROM range(50) t(i)`,
    );
    await locked.lock([]);
    const profile = await profileData(locked, source());
    assert.equal(profile.column_profiles[0]?.semantic, 'numeric_text');
    const tables = await locked.all('SELECT table_name FROM duckdb_tables()');
    assert.deepEqual(tables.rows, [['data']]);
    await assert.rejects(profileData(locked, source(), AbortSignal.abort()));
  } finally {
    locked.close();
  }
});

// Scale.
void test('only the first 200 of 5,000 number columns are profiled; the rest are counted by dtype', async () => {
  const cells = range(5000).map((c) =>
    c === 4999 ? `round(random() * 4)::BIGINT AS c${c}` : `random() AS c${c}`,
  );
  const profile = await profileOf(`SELECT ${cells.join(', ')} FROM range(1000)`);
  assert.equal(profile.column_profiles.length, DETAIL_LIMIT);
  assert.deepEqual(profile.omitted_columns, {
    count: 4800,
    by_dtype: { float64: 4799, int64: 1 },
  });
  assert.equal(profile.columns, 5000);
  assert.ok(
    profile.warnings.includes(
      'only 200 of 5,000 columns are profiled in detail: the first 200 of the 5,000 number columns',
    ),
  );
});

void test('beyond EXACT_ROWS quartiles of many-valued columns are approximate, and said so', async () => {
  const rows = EXACT_ROWS + 1;
  const profile = await profileOf(
    `SELECT DATE '2021-01-01' + (i % 1000)::INT AS date, ` +
      `CASE WHEN i % 7 = 0 THEN NULL ELSE i % 1000 END AS v, random() AS r FROM range(${rows}) t(i)`,
  );
  assert.deepEqual(profile.approximate, { distinct: false, quantiles: true });
  assert.ok(profile.warnings.some((w) => w.includes('approximate')));
  const [date, v, r] = profile.column_profiles;
  assert.equal(date?.semantic, 'datetime');
  assert.equal(date?.datetime?.frequency, 'D');
  assert.equal(v?.missing, Math.ceil(rows / 7));
  assert.equal(v?.distinct, 1000);
  // Few distinct values: quartiles from the groups, exact even here.
  const values = range(rows).flatMap((i) => (i % 7 === 0 ? [] : [i % 1000]));
  values.sort((a, b) => a - b);
  const exact = [0.25, 0.5, 0.75].map((q) => quantile(values, q));
  assert.deepEqual([v?.numeric?.q1, v?.numeric?.median, v?.numeric?.q3], exact);
  assert.ok(Math.abs((r?.numeric?.median ?? 0) - 0.5) < 0.01);
});

void test('correlations from a sample are labelled so, where the profile text quotes them', async () => {
  const profile = await profileOf('SELECT i AS a, i * 2 + (i % 13) AS b FROM range(300000) t(i)');
  assert.deepEqual(profile.approximate, { distinct: false, quantiles: false, correlations: true });
  assert.ok(profile.correlations.some((c) => c.a === 'a' && c.b === 'b'));
  assert.match(
    profileText(profile),
    /Strongest correlations \(r from an even sample of 200,000 rows; a scatter finding gives r over all rows\): a~b r=1\.00/,
  );
  const small = await profileOf('SELECT i AS a, i * 2 + (i % 13) AS b FROM range(1000) t(i)');
  assert.equal(small.approximate, undefined);
  assert.match(profileText(small), /Strongest correlations: a~b/);
});

// Parity: the Python profiler, run for real on the same CSV, and the DuckDB profile agree.

const PYTHON = '/usr/bin/python3';
const PROFILE_PY =
  'import sys, json, opsmind_data, opsmind_profile\n' +
  'df, info, w = opsmind_data.read_dataset(sys.argv[1])\n' +
  'print(json.dumps(opsmind_profile.profile(df, info, sys.argv[2])))';

function pythonProfile(path: string, name: string): DataProfile {
  const env = { ...process.env, PYTHONPATH: join(ROOT, 'preamble') };
  const out = execFileSync(PYTHON, ['-c', PROFILE_PY, path, name], { env, encoding: 'utf8' });
  return DataProfileSchema.parse(JSON.parse(out));
}

function hasPandas(): boolean {
  try {
    execFileSync(PYTHON, ['-c', 'import pandas, numpy'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function writeCsv(name: string, header: string[], rows: readonly Cell[][]): string {
  const quote = (v: Cell): string => {
    const text = v === null ? '' : String(v);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  const path = join(DIR, name);
  const lines = [header.map(quote).join(','), ...rows.map((row) => row.map(quote).join(','))];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const money = (x: number): string =>
  `$${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function salesCsv(): string {
  const random = seeded(11);
  const rows = range(3000).map((i): Cell[] => {
    const price = random() < 0.05 ? null : Math.round(random() * 10000) / 100;
    const qty = 1 + Math.floor(random() * 20);
    return [
      `ORD-${String(i).padStart(5, '0')}`,
      isoDay(JAN_1 + Math.floor(i / 10) * DAY_MS),
      ['North', 'South', 'East', 'West'][Math.floor(random() * 4)] ?? '',
      price,
      qty,
      money(Math.round((price ?? 10) * qty * 100) / 100),
      `${(random() * 30).toFixed(1)}%`,
      random() < 0.5 ? 'true' : 'false',
      `Customer ${String.fromCharCode(65 + (i % 26))}${i % 700}`,
      1 + Math.floor(random() * 12),
      random() < 0.1 ? `a fairly long free-text comment about the order, number ${i % 3}` : 'ok',
    ];
  });
  const header = ['order_id', 'date', 'region', 'price', 'qty', 'revenue', 'discount', 'paid'];
  return writeCsv('sales.csv', [...header, 'customer', 'store_id', 'comment'], rows);
}

function numbersCsv(): string {
  const random = seeded(12);
  const z = normals(random, 600);
  const rows = range(600).map((i): Cell[] => {
    const x = Math.round(Math.exp(z[i] ?? 0) * 1e6) / 1e6;
    return [
      x,
      random() < 0.2 ? null : Math.floor(random() * 1000) - 200,
      random() < 0.01 ? 'inf' : Math.round((1e9 + (random() * 2 - 1) * 1e6) * 100) / 100,
      7,
      null,
      i % 3 === 0 ? 0 : 1,
      Math.floor(random() * 5e6).toLocaleString('en-US'),
      i,
      Math.round((3 * x + random()) * 1e6) / 1e6,
      Math.round((-x + random() * 2) * 1e6) / 1e6,
      i < 590 ? String(i % 40) : 'unknown',
    ];
  });
  const header = ['x', 'ints', 'big', 'const', 'empty', 'active', 'population', 'Unnamed: 0'];
  return writeCsv('numbers.csv', [...header, 'strong', 'negative', 'amount'], rows);
}

function datesCsv(): string {
  const random = seeded(13);
  const names = MONTH_NAMES;
  const stamp = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  let at = Date.UTC(2024, 2, 1);
  const rows = range(240).map((i): Cell[] => {
    at += Math.round(-Math.log(1 - random()) * 7 * 3600) * 1000;
    const end = new Date(Date.UTC(2020, i + 1, 0));
    return [
      new Date(Date.UTC(2020, i, 1)).toISOString().slice(0, 7),
      `${String(end.getUTCMonth() + 1).padStart(2, '0')}/${end.getUTCDate()}/${end.getUTCFullYear()}`,
      stamp(Date.UTC(2024, 2, 1) + i * 3_600_000),
      stamp(at),
      i === 5 ? '2024-13-45' : isoDay(JAN_1 + i * 7 * DAY_MS),
      `${names[i % 12] ?? ''} ${1 + (i % 28)}, ${2000 + Math.floor(i / 12)}`,
      1990 + (i % 40),
      `${String(1 + (i % 28)).padStart(2, '0')}.${String(1 + (i % 12)).padStart(2, '0')}.2023`,
    ];
  });
  const header = ['month', 'month_end', 'hourly', 'irregular', 'weekly', 'named', 'year', 'dotted'];
  return writeCsv('dates.csv', header, rows);
}

function sampledCsv(): string {
  const rows = range(8000).map((i): Cell[] => {
    const j = i % 100 === 99 ? i - 1 : i; // every hundredth row repeats the one before
    const random = seeded(j);
    return [
      `user${j % 5000}@example.com`,
      ['a', 'b', 'c'][j % 3] ?? '',
      Math.floor(random() * 100),
      random() < 0.3 ? null : (random() * 50).toFixed(2),
      `SKU-${j}`,
      random() < 0.5 ? 'Y' : 'N',
      `${Math.floor(random() * 100)}-${Math.floor(random() * 100)}`,
    ];
  });
  return writeCsv('sampled.csv', ['email', 'grp', 'n', 'v', 'code', 'yn', 'range'], rows);
}

function qualityCsv(): string {
  const rows = range(60).map((i): Cell[] => {
    const k = i >= 50 ? i - 50 : i; // the last ten rows repeat the first ten
    return [k, k < 40 ? null : k * 1.5, 'same', null, `tag${k % 4}`, k % 5, -k * 2.25];
  });
  const header = ['customer_id', 'sparse', 'kind', 'blank', 'we"ird; --name', 'bucket', 'neg'];
  return writeCsv('quality.csv', header, rows);
}

function assertNumbers(py: unknown, duck: unknown, at: string): void {
  if (typeof py === 'number' && typeof duck === 'number') {
    const ok = py === duck || Math.abs(py - duck) <= 1e-9 * Math.max(Math.abs(py), Math.abs(duck));
    assert.ok(ok, `${at}: python ${py}, duckdb ${duck}`);
  } else if (py && duck && typeof py === 'object' && typeof duck === 'object') {
    const keys = new Set([...Object.keys(py), ...Object.keys(duck)]);
    for (const key of keys)
      assertNumbers(
        (py as Record<string, unknown>)[key],
        (duck as Record<string, unknown>)[key],
        `${at}.${key}`,
      );
  } else assert.deepEqual(duck, py, at);
}

/** Python's view with what legitimately differs when DuckDB types text dates taken out. */
function withoutTypedDates(py: DataProfile, typed: ReadonlySet<string>): DataProfile {
  const columns = py.column_profiles.map((c) =>
    typed.has(c.name)
      ? {
          ...c,
          notes: c.notes.filter((n) => n !== 'dates stored as text'),
          dtype: 'datetime64[ns]',
        }
      : c,
  );
  const warnings = py.warnings.flatMap((w) => {
    if (!w.startsWith('dates stored as text in: ')) return [w];
    const kept = py.column_profiles.filter(
      (c) => c.semantic === 'datetime' && c.dtype === 'object',
    );
    const names = kept.map((c) => c.name).filter((n) => !typed.has(n));
    return names.length ? [`dates stored as text in: ${names.join(', ')}`] : [];
  });
  return { ...py, column_profiles: columns, warnings };
}

/** The DuckDB profile agrees with Python's on everything the reading difference leaves alike. */
function assertParity(py: DataProfile, duck: DataProfile, name: string): void {
  // Dates DuckDB types from text that Python keeps as written (12/31/2024, Jan 5, 2024): typed
  // there, their top values written as DuckDB writes a date, not as the file does.
  const asWritten = (c: ColumnProfile | undefined): boolean =>
    c?.dtype === 'object' || (c?.top ?? []).some((t) => !/^\d{4}-\d{2}-\d{2}/.test(t.value));
  const typed = new Set(
    duck.column_profiles
      .filter((c, i) => c.dtype.startsWith('datetime64') && asWritten(py.column_profiles[i]))
      .map((c) => c.name),
  );
  const { column_profiles: pyColumns, ...pyRest } = withoutTypedDates(py, typed);
  const { column_profiles: duckColumns, ...duckRest } = duck;
  assertNumbers(pyRest, duckRest, name);
  assert.equal(duckColumns.length, pyColumns.length);
  pyColumns.forEach((column, i) => {
    const ours = duckColumns[i];
    // DuckDB keeps typed dates, not their text: compare how often, not how written.
    const top = typed.has(column.name) ? column.top.map((t) => t.count) : column.top;
    const oursTop = typed.has(column.name) ? ours?.top.map((t) => t.count) : ours?.top;
    assert.deepEqual(oursTop, top, `${name}: ${column.name} top`);
    assertNumbers({ ...column, top: null }, { ...ours, top: null }, `${name}: ${column.name}`);
  });
}

/** 201 number columns between a date, and a flag and a label at the end (an ML file's shape). */
function wideCsv(): string {
  const random = seeded(5);
  const numbers = range(201).map((c) => `x${String(c).padStart(3, '0')}`);
  const rows = range(60).map((i): Cell[] => [
    isoDay(JAN_1 + i * DAY_MS),
    ...numbers.map((_, c) => Math.round((random() + c) * 100) / 100),
    i % 3 === 0 ? 'true' : 'false',
    ['cat', 'dog', 'bird'][i % 3] ?? '',
  ]);
  return writeCsv('wide.csv', ['when', ...numbers, 'flag', 'label'], rows);
}

void test('a wide file details every column that holds no numbers, then the first numbers', async () => {
  const path = wideCsv();
  await db.run(`CREATE OR REPLACE TABLE data AS SELECT * FROM read_csv(${literal(path)})`);
  const profile = await profileData(db, source('wide.csv'));
  const names = profile.column_profiles.map((c) => c.name);
  assert.equal(names.length, DETAIL_LIMIT);
  assert.deepEqual(
    [names[0], names[1], names[197], names.at(-2), names.at(-1)],
    ['when', 'x000', 'x196', 'flag', 'label'],
  );
  assert.deepEqual(profile.omitted_columns, { count: 4, by_dtype: { float64: 4 } });
  assert.ok(
    profile.warnings.includes(
      'only 200 of 204 columns are profiled in detail: every column that holds no numbers and the first 197 of the 201 number columns',
    ),
    profile.warnings.join('; '),
  );
  assert.equal(profile.column_profiles.at(-1)?.semantic, 'category');
});

/**
 * An edge list: node codes with a gap (pandas reads them as floats), a weight, a from/to pair of
 * dense codes and one of prices spread thin (a measure's range, not nodes).
 */
function linksCsv(): string {
  const random = seeded(6);
  const rows = range(300).map((i): Cell[] => [
    i % 50 === 7 ? null : Math.floor(random() * 80),
    Math.floor(random() * 90),
    1 + Math.floor(random() * 9),
    Math.floor(random() * 30),
    Math.floor(random() * 30),
    100 + Math.floor(random() * 50) * 97,
    150 + Math.floor(random() * 50) * 97,
  ]);
  const header = ['source', 'target', 'value', 'from_stop', 'to_stop', 'price_from', 'price_to'];
  return writeCsv('links.csv', header, rows);
}

const PARITY_FILES = {
  salesCsv,
  numbersCsv,
  datesCsv,
  sampledCsv,
  qualityCsv,
  wideCsv,
  linksCsv,
};
const SKIP_PARITY = hasPandas() ? false : `no pandas for ${PYTHON}`;
for (const [label, write] of Object.entries(PARITY_FILES))
  void test(`parity with the Python profiler: ${label}`, { skip: SKIP_PARITY }, async () => {
    const path = write();
    const name = label.replace('Csv', '.csv');
    const py = pythonProfile(path, name);
    await db.run(`CREATE OR REPLACE TABLE data AS SELECT * FROM read_csv(${literal(path)})`);
    assertParity(py, await profileData(db, source(name)), name);
  });

void test(
  'parity: an edge list’s node codes are categories in both profilers',
  { skip: SKIP_PARITY },
  async () => {
    const path = linksCsv();
    const py = pythonProfile(path, 'links.csv');
    await db.run(`CREATE OR REPLACE TABLE data AS SELECT * FROM read_csv(${literal(path)})`);
    const ours = await profileData(db, source('links.csv'));
    const semantics = (p: DataProfile) => p.column_profiles.map((c) => [c.name, c.semantic]);
    const expected = [
      ['source', 'category'],
      ['target', 'category'],
      ['value', 'numeric'],
      ['from_stop', 'category'],
      ['to_stop', 'category'],
      ['price_from', 'numeric'],
      ['price_to', 'numeric'],
    ];
    assert.deepEqual(semantics(py), expected);
    assert.deepEqual(semantics(ours), expected);
    assert.deepEqual(
      ours.correlations.map((c) => [c.a, c.b]),
      py.correlations.map((c) => [c.a, c.b]),
    );
    assert.ok(ours.correlations.every((c) => !/source|target|stop/.test(`${c.a} ${c.b}`)));
  },
);
