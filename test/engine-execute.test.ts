/** executePlan on a real DuckDB: per transform and chart kind, small tables with known answers. */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Analysis, Transform } from '../src/agent/plan.js';
import { DataProfileSchema } from '../src/agent/profile.js';
import { DuckDb } from '../src/engine/duckdb.js';
import { executePlan } from '../src/engine/execute.js';
import type { EngineOutcome, SourceInfo } from '../src/engine/types.js';
import { renderSpec } from '../src/report/render.js';
import { RenderSpecSchema } from '../src/spec/schema.js';
import type { Declaration } from '../src/spec/schema.js';
import { tempDir } from './helpers/fixtures.js';

const dir = tempDir('opsmind-execute-test-');
const dbs: DuckDb[] = [];
after(() => {
  dbs.forEach((db) => db.close());
  rmSync(dir, { recursive: true, force: true });
});

/** A database whose table `data` is `select` (a SQL query), locked as the engine runs it. */
async function table(select: string): Promise<DuckDb> {
  const spill = join(dir, `spill-${dbs.length}`);
  const db = await DuckDb.open({ memoryMb: 256, threads: 1, tempDir: spill });
  dbs.push(db);
  await db.run(`CREATE TABLE data AS ${select}`);
  await db.lock([]);
  return db;
}

const COLUMN = `{"dtype": "object", "missing": 0, "missing_share": 0, "distinct": 2, "top": [],
  "numeric": null, "datetime": null, "numeric_text": null, "text": null, "notes": []}`;
const PROFILE = `{"rows": 1, "columns": 1, "duplicate_rows": 0, "correlations": [], "warnings": [],
  "source": {"name": "data.csv", "format": "csv", "encoding": null, "delimiter": ","},
  "omitted_columns": {"count": 0, "by_dtype": {}}}`;
const SOURCE = `{"path": "/data.csv", "name": "data.csv", "format": "csv", "encoding": "utf-8",
  "delimiter": ",", "compression": null, "sheet": null, "skippedLines": 0, "rows": 1,
  "locale": {"decimal": ".", "thousands": null, "dateOrder": null}, "columns": 1,
  "sizeBytes": 1, "warnings": []}`;

interface Ran extends EngineOutcome {
  decls: Declaration[];
  frame: (i: number) => unknown[][];
  columns: (i: number) => string[];
}

let runs = 0;
/** Runs the analyses over `db` (semantics: the profile's type per column, for the cleaning). */
async function execute(db: DuckDb, list: Partial<Analysis>[], semantics = {}): Promise<Ran> {
  const workdir = join(dir, `run-${++runs}`);
  const analyses = list.map((a, i) => ({ title: `Analysis ${i + 1}`, why: 'Why.', ...a }));
  const profiles = Object.entries(semantics).map(([name, semantic]) => ({
    ...(JSON.parse(COLUMN) as object),
    name,
    semantic,
  }));
  const profile = DataProfileSchema.parse({ ...JSON.parse(PROFILE), column_profiles: profiles });
  const source = JSON.parse(SOURCE) as SourceInfo;
  const plan = { notes: [], analyses: analyses as Analysis[] };
  const out = await executePlan(db, plan, profile, { workdir, source });
  const decls = [...(out.spec?.charts ?? []), ...(out.spec?.tables ?? [])];
  decls.sort((a, b) => a.seq - b.seq);
  type Frame = { columns: string[]; data: unknown[][] };
  const read = (i: number): Frame =>
    JSON.parse(readFileSync(join(workdir, decls[i]?.data.file ?? ''), 'utf8')) as Frame;
  return { ...out, decls, frame: (i) => read(i).data, columns: (i) => read(i).columns };
}

/** What renders from the work dir's spec: the issues, and how many items were built. */
async function rendered(r: Ran): Promise<{ issues: string[]; built: number }> {
  const json = readFileSync(join(r.workdir, 'render_spec.json'), 'utf8');
  const items = await renderSpec(RenderSpecSchema.parse(JSON.parse(json)), r.workdir);
  const issues = items.flatMap((i) => i.issues.map((x) => x.message));
  return { issues, built: items.filter((i) => i.built).length };
}

/** Rows as text, one row per `|`: "a 10 | b 10". */
const text = (rows: unknown[][]): string => rows.map((r) => r.map(String).join(' ')).join(' | ');
type More = Partial<Analysis>;
const on = (chart: Analysis['chart'], transform: Transform, more: More = {}): More => ({
  ...{ chart, transform },
  ...more,
});
type Agg = 'sum' | 'mean' | 'median' | 'min' | 'max' | 'count';
const SUM = { type: 'group', by: 'cat', measure: 'amount' } as const;
const group = (agg: Agg, more = {}): Transform => ({ ...SUM, agg, ...more });
const top = (sort_by: string, n: number, ascending = false): Transform =>
  Object.assign({ type: 'top_rows' as const }, { sort_by, n, ascending });
const of = (column: string, by?: string): Transform => ({ type: 'distribution', column, by });

const SALES = `SELECT * FROM (VALUES ('a', 10.0, 'x'), ('b', 5.0, 'x'), ('b', 5.0, 'y'),
  ('c', 7.0, 'x'), ('d', 1.0, 'y'), (NULL, 2.0, 'y'), ('e', NULL, 'x')) AS t(cat, amount, kind)`;

void test('group: NULL keys are a group; tables sort largest first, ties in key order', async () => {
  const counts = on('table', group('count', { measure: null }));
  const r = await execute(await table(SALES), [on('table', group('sum')), counts]);
  assert.equal(text(r.frame(0)), 'a 10 | b 10 | c 7 | null 2 | d 1 | e 0');
  assert.equal(text(r.frame(1)), 'b 2 | a 1 | c 1 | d 1 | e 1 | null 1');
  assert.deepEqual(r.columns(1), ['cat', 'count']);
  assert.deepEqual(r.decls[0]?.params, { title: 'Analysis 1', max_rows: 50, note: 'Why.' });
});

void test('group: bars keep the top N in key order, the rest is "Other" only if it adds up', async () => {
  const pie = on('pie', group('count', { measure: null, top_n: 2 }));
  const bars = [on('bar', group('sum', { top_n: 2 })), on('bar', group('mean', { top_n: 2 }))];
  const r = await execute(await table(SALES), [...bars, pie]);
  assert.equal(text(r.frame(0)), 'a 10 | b 10 | Other 10');
  const { reductions, cap, source_rows } = r.decls[0]?.data ?? {};
  assert.deepEqual([reductions, cap, source_rows], [['aggregated', 'top_n'], 2, 6]);
  const params = { title: 'Analysis 1', x: 'cat', y: 'amount', top_n: 2, agg: 'sum' };
  assert.deepEqual(r.decls[0]?.params, { ...params, sort: 'descending', note: 'Why.' });
  assert.equal(text(r.frame(1)), 'a 10 | c 7', 'the rest of a mean is dropped, not summed');
  assert.equal(text(r.frame(2)), 'b 2 | a 1 | Other 4', 'a pie: largest first, ties in key order');
  const shares = r.insights.insights.filter((i) => i.analysis === 1).map((i) => i.text);
  const tie = 'a and b tie for the largest share of amount: 33.3% each (10 of 30).';
  assert.ok(shares.includes(tie), shares.join(' | '));
});

void test('group: past 10,000 groups, a ranking corrects its test for every group it was picked from', async () => {
  // 12,000 groups of two values each, one "Other" among the lowest (never ranked), one of
  // missing values (no mean): the highest and the lowest were picked from 12,000 groups.
  const r = await execute(
    await table(`SELECT 'g' || lpad(CAST(i AS VARCHAR), 5, '0') AS cat, i / 100 + j AS amount
      FROM range(12000) AS a(i), range(2) AS b(j)
      UNION ALL SELECT 'Other', 0.3 + j FROM range(2) AS b(j)
      UNION ALL SELECT 'none', NULL FROM range(2)`),
    [on('bar', group('mean', { top_n: 5 }))],
  );
  const [ranking] = r.insights.insights.filter((i) => i.kind === 'ranking');
  assert.equal(
    ranking?.text,
    "g11999 has the highest mean amount (120); g00000 the lowest (0.5), 241× apart; chance alone could give a gap this size (Welch's t-test, p = 1 after Bonferroni's correction for the 71,994,000 pairs of 12,000 groups).",
  );
  assert.equal(ranking?.numbers?.pairs, (12_000 * 11_999) / 2);
});

void test('group: min_rows leaves out the groups with fewer values of the measure (rows, counting)', async () => {
  const r = await execute(await table(SALES), [
    on('table', group('mean', { min_rows: 2 })),
    on('table', group('count', { measure: null, min_rows: 2 })),
  ]);
  // b has two amounts; e has a row but no amount, so no mean of two values.
  assert.equal(text(r.frame(0)), 'b 5');
  assert.equal(text(r.frame(1)), 'b 2');
});

void test('an analysis aggregates once into a kept table, dropped when it is done; the SQL shown is as written and gives the frame', async () => {
  const db = await table(SALES);
  const days = `SELECT TIMESTAMP '2024-01-01' + INTERVAL (i) DAY AS day, i % 3 AS n FROM range(40) t(i)`;
  const timed = await table(days);
  const r = await execute(db, [on('bar', group('sum', { top_n: 2 })), on('table', group('mean'))]);
  const line = { type: 'resample', date: 'day', freq: 'W', agg: 'sum', measure: 'n' } as const;
  const t = await execute(timed, [on('line', line)]);
  const kept = await db.all(
    "SELECT count(*) AS n FROM duckdb_tables() WHERE table_name LIKE '_opsmind_kept_%'",
  );
  assert.equal(kept.rows[0]?.[0], 0, 'each analysis drops the table it kept once it is done');
  for (const [ran, at] of [
    [r, db],
    [t, timed],
  ] as const)
    for (const [i, decl] of ran.decls.entries()) {
      const shown = ran.queries[decl.id] ?? '';
      assert.doesNotMatch(shown, /_opsmind_kept/, 'the report shows the query as written');
      const rows = (await at.all(shown)).rows;
      assert.deepEqual(rows, ran.frame(i), `${decl.id}: the shown SQL gives the frame`);
    }
  assert.equal(text(r.frame(0)), 'a 10 | b 10 | Other 10');
  assert.equal(text(r.frame(1)), 'a 10 | c 7 | b 5 | null 2 | d 1 | e null');
  assert.equal(t.frame(0).length, 6, 'weeks ending Sunday 7 January … Sunday 11 February');
  await assert.rejects(db.keep('DELETE FROM data'), /read-only query/);
  const name = await db.keep('SELECT 41 + 1 AS x');
  assert.deepEqual((await db.all(`SELECT x FROM ${name}`)).rows, [[42]]);
  await db.dropKept([name]);
  await assert.rejects(db.all(`SELECT x FROM ${name}`), /does not exist/);
  await assert.rejects(db.dropKept(['data']), /not a kept table/);
});

void test('group: a pie of negative values is a declaration error; a series splits bars', async () => {
  const data = `SELECT * FROM (VALUES ('a', -1.0, 'x'), ('b', 2.0, 'y'), ('a', 3.0, 'y'))`;
  const db = await table(`${data} AS t(cat, amount, kind)`);
  const r = await execute(db, [
    on('pie', group('min')),
    on('bar', group('sum', { series: 'kind' })),
  ]);
  assert.match(String(r.decls[0]?.data.error), /pie values must not be negative/);
  assert.equal(r.decls[0]?.data.file, null);
  assert.equal(text(r.frame(1)), 'a x -1 | a y 3 | b y 2');
});

void test('resample: the whole span, a period without rows NULL (a gap), weeks at Sundays', async () => {
  const days = `(TIMESTAMP '2024-01-01', 1.0), (TIMESTAMP '2024-01-07 10:00', 2.0),
    (TIMESTAMP '2024-01-08', 4.0), (TIMESTAMP '2024-03-31', 8.0), (NULL, 16.0)`;
  const db = await table(`SELECT * FROM (VALUES ${days}) AS t(day, amount)`);
  const day = { type: 'resample', date: 'day' } as const;
  const every = (freq: 'W' | 'M', agg: Agg, measure: string | null = 'amount'): Transform =>
    Object.assign({ ...day, freq }, { measure, agg });
  const [month, count, week] = [every('M', 'sum'), every('M', 'count', null), every('W', 'sum')];
  const r = await execute(db, [on('line', month), on('table', count), on('table', week)]);
  const at = (d: string): string => `2024-${d}T00:00:00.000`;
  assert.equal(text(r.frame(0)), `${at('01-01')} 7 | ${at('02-01')} null | ${at('03-01')} 8`);
  assert.equal(text(r.frame(1)), `${at('01-01')} 3 | ${at('02-01')} null | ${at('03-01')} 1`);
  assert.equal(text(r.frame(2).slice(0, 2)), `${at('01-07')} 3 | ${at('01-14')} 4`);
  assert.equal(r.frame(2).at(-1)?.[0], at('03-31'), 'a Sunday ends its own week');
  // A line of sums per month starts its axis at zero (renderers/line.ts from_zero).
  const params = { title: 'Analysis 1', x: 'day', y: 'amount', from_zero: true, note: 'Why.' };
  assert.deepEqual(r.decls[0]?.params, params);
  assert.deepEqual([r.decls[0]?.data.reductions, r.decls[0]?.data.cap], [['none'], 5000]);
  assert.deepEqual(await rendered(r), { issues: [], built: 3 });
});

void test('histogram: numpy edges, inner edges counted in the bin above, the last bin closed', async () => {
  const values = "(0.0), (1), (2), (3), (4), (10), (NULL), ('inf'::DOUBLE)";
  const db = await table(`SELECT * FROM (VALUES ${values}) AS t(v)`);
  const auto = on('histogram', of('v'));
  const r = await execute(db, [{ ...auto, options: { bins: 5 } }, auto]);
  assert.equal(text(r.frame(0)), '0 2 2 | 2 4 2 | 4 6 1 | 6 8 0 | 8 10 1');
  assert.deepEqual(r.columns(0), ['bin_start', 'bin_end', 'count']);
  const { reductions, cap } = r.decls[0]?.data ?? {};
  assert.deepEqual([reductions, cap, r.decls[0]?.params.bins], [['binned'], 5, 5]);
  // numpy's "auto" picks 4 bins for these six values.
  assert.equal(text(r.frame(1)), '0 2.5 3 | 2.5 5 2 | 5 7.5 0 | 7.5 10 1');
  // The infinity is in no bin and no figure, and the finding says so (its count from the query).
  const spread = r.insights.insights.find((i) => i.text.startsWith('The median v is 2.5;'));
  assert.match(spread?.text ?? '', /, over its 6 finite values \(1 infinite value left out\)\.$/);
});

void test('box: quartiles, clipped fences, mean and n per group, most frequent groups first', async () => {
  // 'c' is the second most frequent group but has no finite value: it has no box.
  const values = `('b', 1.0), ('a', 1), ('a', 2), ('a', 3), ('a', 4), ('a', 100), (NULL, 5), ('b', 3),
    ('c', NULL), ('c', 'nan'::DOUBLE), ('c', 'inf'::DOUBLE), ('c', NULL), ('a', 'inf'::DOUBLE)`;
  const r = await execute(await table(`SELECT * FROM (VALUES ${values}) AS t(g, v)`), [
    on('box', of('v', 'g')),
  ]);
  const rows = ['v a 2 3 4 1 4 22 5', 'v b 1.5 2 2.5 1 3 2 2', 'v (missing) 5 5 5 5 5 5 1'];
  assert.equal(text(r.frame(0)), rows.join(' | '));
  assert.deepEqual(r.decls[0]?.data.reductions, ['summarized']);
});

void test('scatter: all rows up to the cap, then a reproducible sample in file order', async () => {
  const db = await table('SELECT i AS x, 2 * i + (i % 7) AS y FROM range(6000) AS t(i)');
  const scatter = [on('scatter', { type: 'relationship', x: 'x', y: 'y' })];
  const [a, b] = [await execute(db, scatter), await execute(db, scatter)];
  const { rows, sampled, reductions } = a.decls[0]?.data ?? {};
  assert.deepEqual([rows, sampled, reductions], [5000, true, ['sampled']]);
  assert.deepEqual(a.frame(0), b.frame(0));
  const xs = a.frame(0).map((row) => Number(row[0]));
  assert.deepEqual(
    xs,
    [...xs].sort((p, q) => p - q),
  );
  // The correlation finding reads every row, not the sample.
  assert.match(a.insights.insights[0]?.text ?? '', /positive correlation .*n = 6,000 pairs/);
});

void test('correlation: pairwise-complete Pearson as heatmap cells and as a rounded table', async () => {
  const values = '(1.0, 2.0, 3.0), (2, 4, 1), (3, 6, NULL), (4, 8.5, 2)';
  const db = await table(`SELECT * FROM (VALUES ${values}) AS t(a, b, c)`);
  const matrix = (columns: string[]): Transform => ({ type: 'correlation', columns });
  const r = await execute(db, [on('heatmap', matrix(['a', 'b'])), on('table', matrix(['a', 'c']))]);
  assert.equal(text(r.frame(0).map((row) => row.slice(0, 2))), 'a a | b a | a b | b b');
  assert.ok(Math.abs(Number(r.frame(0)[1]?.[2]) - 0.9983814394570298) < 1e-12, 'np.corrcoef');
  assert.deepEqual(r.columns(1), ['index', 'a', 'c']);
  assert.equal(text(r.frame(1)), 'a 1 -0.327 | c -0.327 1');
});

void test('summary, missing and top rows as pandas describes, counts and ranks them', async () => {
  const values = `(1, 'x', TRUE, DATE '2024-01-02'), (NULL, 'y', FALSE, NULL),
    (3, 'y', TRUE, DATE '2024-01-01'), (3, NULL, NULL, NULL)`;
  const db = await table(`SELECT * FROM (VALUES ${values}) AS t(n, s, b, d)`);
  const tables = [on('table', { type: 'summary' }), on('table', { type: 'missing' })];
  const r = await execute(db, [...tables, on('table', top('n', 2))]);
  // pandas unites the columns' lists shortest first: text's and dates' before numbers', whatever
  // the order of the columns (reorder_columns in pandas' describe).
  const numbers = ['mean', 'std', 'min', '25%', '50%', '75%', 'max'];
  const others = ['unique', 'top', 'freq', 'first', 'last'];
  assert.deepEqual(r.columns(0), ['column', 'count', ...others, ...numbers]);
  const [n] = r.frame(0);
  assert.deepEqual(
    [...(n?.slice(0, 2) ?? []), ...(n?.slice(7) ?? [])],
    ['n', 3, 7 / 3, Math.sqrt(4 / 3), 1, 2, 3, 3, 3],
  );
  const dates = '2 2024-01-02T00:00:00.000 1 2024-01-01T00:00:00.000 2024-01-02T00:00:00.000';
  const rest = ['null null null null null', '2 y 2 null null', '2 true 2 null null', dates];
  assert.equal(text(r.frame(0).map((row) => row.slice(2, 7))), rest.join(' | '));
  assert.equal(text(r.frame(1)), 'd 2 50 | n 1 25 | s 1 25 | b 1 25', 'ties in column order');
  assert.equal(
    text(r.frame(2).map((row) => row.slice(0, 2))),
    '3 y | 3 null',
    'ties in file order',
  );
});

void test('filters keep what pandas keeps: != and not in keep missing values, the others drop them', async () => {
  const rows = (...filters: NonNullable<Analysis['filters']>): More =>
    on('table', top('amount', 10, true), { filters });
  const r = await execute(await table(SALES), [
    rows({ column: 'cat', op: '!=', value: 'b' }),
    rows({ column: 'amount', op: '>=', value: 7 }),
    rows(
      { column: 'cat', op: 'in', value: ['a', 'c', 3] },
      { column: 'kind', op: '==', value: 'x' },
    ),
    rows({ column: 'cat', op: 'notna' }),
    rows({ column: 'cat', op: 'not in', value: ['a', 'b', 3] }),
  ]);
  assert.deepEqual(
    [0, 1, 2].map((i) => r.frame(i).map((row) => row[i === 1 ? 1 : 0])),
    [
      ['d', null, 'c', 'a'],
      [7, 10],
      ['c', 'a'],
    ],
  );
  assert.equal(r.frame(3).length, 5);
  // pandas' ~isin: a missing value is in no list, so it is kept; 3 is no text, so it is in none.
  assert.deepEqual(
    r.frame(4).map((row) => row[0]),
    ['d', null, 'c'],
  );
});

void test('numbers and dates stored as text are cleaned as compile-plan.ts cleans them', async () => {
  const values = `('$1,234.50', 'Jan 5 2024'), ('(300)', '2024-02-01'), ('n/a', '03/04/2024')`;
  const db = await table(`SELECT * FROM (VALUES ${values}) AS t(price, day)`);
  const monthly: Transform = {
    type: 'resample',
    date: 'day',
    freq: 'M',
    measure: 'price',
    agg: 'sum',
  };
  const semantics = { price: 'numeric_text', day: 'datetime' };
  const r = await execute(db, [on('table', top('price', 5)), on('table', monthly)], semantics);
  const dates = ['2024-01-05', '2024-02-01'].map((d) => `${d}T00:00:00.000`);
  // An accounting negative is negative, as the profile reads it: "(300)" is -300, never 300.
  assert.equal(text(r.frame(0)), `1234.5 ${dates[0]} | -300 ${dates[1]}`);
  assert.deepEqual(
    r.frame(1).map((row) => row[1]),
    [1234.5, -300, null],
  );
});

void test('a two-digit year is this century or the last, never the year 3 (1/2/03, 19-Sep-03)', async () => {
  const values = `('1/2/03'), ('19-Sep-03'), ('19-SEP-2003'), ('12/31/99'), ('01/02/2003'), ('11/12/13')`;
  const db = await table(`SELECT * FROM (VALUES ${values}) AS t(day)`);
  const r = await execute(db, [on('table', top('day', 6))], { day: 'datetime' });
  const days = r
    .frame(0)
    .map((row) => String(row[0]).slice(0, 10))
    .sort();
  assert.deepEqual(days, [
    '1999-12-31',
    '2003-01-02',
    '2003-01-02',
    '2003-09-19',
    '2003-09-19',
    '2013-11-12',
  ]);
});

void test('column names that are SQL, quotes or line breaks stay names', async () => {
  const names = ['a"b', 'x; DROP TABLE data; --', 'line\nbreak'];
  const [k = '', x = '', y = ''] = names;
  const quoted = names.map((n) => `"${n.replaceAll('"', '""')}"`).join(', ');
  const db = await table(
    `SELECT * FROM (VALUES ('k1', 1.0, 2.0), ('k2', 3, 5), ('k1', 5, 7)) AS t(${quoted})`,
  );
  const r = await execute(db, [
    on('bar', group('sum', { by: k, measure: x }), { filters: [{ column: y, op: '>', value: 0 }] }),
    on('box', of(x, k)),
    on('scatter', { type: 'relationship', x, y, color: k }),
    on('heatmap', { type: 'correlation', columns: [x, y] }),
    on('table', { type: 'summary' }),
    on('table', top(y, 1)),
  ]);
  assert.deepEqual(r.insights.failed, []);
  assert.equal(text(r.frame(0)), 'k1 6 | k2 3');
  assert.deepEqual(r.columns(5), names);
  assert.deepEqual((await db.all('SELECT count(*) FROM data')).rows, [[3]], 'the table is there');
  for (const sql of Object.values(r.queries)) assert.ok((await db.all(sql)).rows.length, sql);
  assert.deepEqual(await rendered(r), { issues: [], built: 6 });
});

void test('a failing analysis is recorded and skipped; the rest renders with no issues', async () => {
  const r = await execute(await table(SALES), [
    on('bar', group('sum', { top_n: 3 })),
    on('table', top('cat', 2)),
    on('table', group('count', { by: 'nope' })),
    on('pie', group('sum', { by: 'kind' })),
    on('histogram', of('amount')),
    on('box', of('amount', 'kind')),
    on('line', { type: 'resample', date: 'when', freq: 'D', measure: null, agg: 'count' }),
    on('table', { type: 'missing' }),
  ]);
  assert.deepEqual(
    r.insights.failed.map((f) => f.analysis),
    [2, 3, 7],
  );
  assert.match(r.insights.failed[0]?.error ?? '', /TypeError: Column 'cat' has dtype object/);
  const ids = ['c1', 'c2', 'c3', 'c4', 't1'];
  assert.deepEqual([r.decls.map((d) => d.id), Object.keys(r.queries)], [ids, ids]);
  assert.deepEqual(await rendered(r), { issues: [], built: 5 });
  assert.deepEqual(JSON.parse(readFileSync(join(r.workdir, 'insights.json'), 'utf8')), r.insights);
});

void test('a cancelled run throws instead of recording every analysis as failed', async () => {
  const db = await table(SALES);
  const analyses: Analysis[] = [
    { title: 'Bar', why: 'Why.', chart: 'bar', transform: group('sum') },
  ];
  const profile = DataProfileSchema.parse({ ...JSON.parse(PROFILE), column_profiles: [] });
  const source = JSON.parse(SOURCE) as SourceInfo;
  const signal = AbortSignal.abort(new Error('stopped'));
  const options = { workdir: join(dir, 'cancelled'), source, signal };
  await assert.rejects(executePlan(db, { notes: [], analyses }, profile, options), /stopped/);
});

void test('season: a chart says its highest and lowest month or hour, as a ranking of groups does', async () => {
  // Two years of days at 10 each, Decembers at 30: a month's total averages 930 in December and
  // (280 + 290) / 2 in February, the shortest month.
  const days = `SELECT CAST(DATE '2023-01-01' + INTERVAL (i) DAY AS TIMESTAMP) AS day,
      CASE WHEN month(DATE '2023-01-01' + INTERVAL (i) DAY) = 12 THEN 30.0 ELSE 10.0 END AS amount,
      CAST(i % 24 AS DOUBLE) AS temp, (DATE '2023-01-01' + INTERVAL (i) DAY + INTERVAL (i % 24) HOUR) AS at
    FROM range(731) AS t(i)`;
  const season = (cycle: string, measure: string | null, agg: string, date = 'day') =>
    ({ type: 'season', date, measure, agg, cycle }) as Transform;
  const r = await execute(await table(days), [
    on('bar', season('month', 'amount', 'sum')),
    on('line', season('hour', 'temp', 'mean', 'at')),
    on('table', season('month', 'amount', 'sum')),
    on('bar', season('weekday', null, 'count')),
  ]);
  const said = (n: number) =>
    r.insights.insights.filter((i) => i.analysis === n).map((i) => i.text);
  assert.deepEqual(said(1), [
    'Dec has the highest average monthly amount (930); Feb the lowest (285), 3.3× apart.',
  ]);
  assert.deepEqual(said(2), ['hour 23 has the highest mean temp (23); hour 0 the lowest (0).']);
  assert.deepEqual(said(3), [], 'a table speaks for itself');
  // 731 days from a Sunday: 105 Sundays and Mondays, 104 of each other day, one row a day.
  assert.deepEqual(said(4), []);
});

void test('correlation: the heatmap names its strongest pairs from its own cells; a table says nothing', async () => {
  const r = await execute(
    await table(`SELECT i AS a, 2 * i + (i % 3) AS b, (i * 7) % 5 AS c FROM range(30) AS t(i)`),
    [
      on('heatmap', { type: 'correlation', columns: ['a', 'b', 'c'] }),
      on('table', { type: 'correlation', columns: ['a', 'b', 'c'] }),
    ],
  );
  const said = (n: number) =>
    r.insights.insights.filter((i) => i.analysis === n).map((i) => i.text);
  assert.deepEqual(said(1), ['The strongest correlation: a and b (r = 1.00).']);
  assert.deepEqual(said(2), []);
});

void test('box by a text grouping: the highest and lowest median, only when every group is drawn and named', async () => {
  const ranked = (r: Ran) =>
    r.insights.insights.filter((i) => i.kind === 'ranking').map((i) => i.text);
  // 'x' and 'y' tie at the top (median 5): the first in name order is named, as pandas sorts.
  const values = `('y', 4.0), ('y', 6), ('x', 5), ('z', 1), ('z', 2), ('z', 'inf'::DOUBLE), ('w', NULL)`;
  const r = await execute(await table(`SELECT * FROM (VALUES ${values}) AS t(g, v)`), [
    on('box', of('v', 'g')),
  ]);
  assert.deepEqual(ranked(r), ['x has the highest median v (5); z the lowest (1.5), 3.3× apart.']);
  // A missing group (drawn as "(missing)", pandas' nan) or more groups than the box draws: no ranking.
  const missing = await execute(
    await table(`SELECT * FROM (VALUES ('a', 1.0), ('b', 2), (NULL, 3)) AS t(g, v)`),
    [on('box', of('v', 'g'))],
  );
  assert.deepEqual(ranked(missing), []);
  const many = await execute(
    await table(`SELECT 'g' || (i % 31) AS g, CAST(i AS DOUBLE) AS v FROM range(93) AS t(i)`),
    [on('box', of('v', 'g'))],
  );
  assert.deepEqual(ranked(many), []);
});
