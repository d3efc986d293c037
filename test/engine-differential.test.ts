/**
 * The differential test: the same plans over the same files run by both engines — pandas (the
 * program compile-plan.ts writes, run for real by the preamble's opsmind_run.py, as the sandbox
 * runs it) and DuckDB (executePlan over `data`) — must leave the same frames and findings.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { isDeepStrictEqual, promisify } from 'node:util';
import { compilePlan } from '../src/agent/compile-plan.js';
import { heuristicPlan } from '../src/agent/heuristic-planner.js';
import { AnalysisSchema, checkPlan } from '../src/agent/plan.js';
import type { Analysis, Plan } from '../src/agent/plan.js';
import { DataProfileSchema } from '../src/agent/profile.js';
import type { DataProfile } from '../src/agent/profile.js';
import { outcomeFlag, positiveValue } from '../src/agent/planner-rates.js';
import { roles } from '../src/agent/roles.js';
import { describeData } from '../src/agent/semantics.js';
import { DuckDb, literal } from '../src/engine/duckdb.js';
import { executePlan } from '../src/engine/execute.js';
import { attachSource } from '../src/engine/source.js';
import { usedColumns } from '../src/agent/compile-plan.js';
import { provenance } from '../src/report/html-parts.js';
import type { Declaration, RenderSpec } from '../src/spec/schema.js';
import { ROOT, tempDir } from './helpers/fixtures.js';

const exec = promisify(execFile);
const dir = tempDir('opsmind-diff-');
after(() => rmSync(dir, { recursive: true, force: true }));
const lanes = [0, 1, 2].map(() => Promise.resolve<unknown>(null));
let turn = 0;

/** Python with the preamble on its path, three lanes at a time (each process holds pandas in memory). */
function python(args: string[]): Promise<string> {
  const env = { PATH: '/usr/bin:/bin', PYTHONPATH: join(ROOT, 'preamble') };
  const lane = turn++ % lanes.length;
  const job = (lanes[lane] ?? Promise.resolve()).then(() =>
    exec('/usr/bin/python3', args, { env, maxBuffer: 1 << 26 }),
  );
  lanes[lane] = job.catch(() => null);
  return job.then((r) => r.stdout);
}

const day = (i: number): string => new Date(Date.UTC(2023, 0, 1 + i)).toISOString().slice(0, 10);
const pick = (list: string, i: number): string => list.split('|')[i % list.split('|').length] ?? '';
const money = (x: number): string =>
  `"$${x.toLocaleString('en-US', { minimumFractionDigits: 2 })}"`;
const stamp = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
type Row = (i: number, r: () => number) => string | null;

/** Writes `name` with `header` and `n` rows (a null row is left out), from a seeded random r(). */
function write(name: string, header: string, n: number, row: Row): string {
  let seed = 7;
  const r = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows = Array.from({ length: n }, (_, i) => row(i, r)).filter((x) => x !== null);
  writeFileSync(join(dir, name), [header, ...rows].join('\n') + '\n');
  return join(dir, name);
}

/** JSON records whose values are objects (spread into "reading.high", …), some missing, one list. */
function nestedJson(): string {
  const records = Array.from({ length: 160 }, (_, i) => ({
    day: day(i),
    site: pick('north|south|east', i),
    reading: i % 11 === 0 ? null : { high: 40 + (i % 23), low: i % 7 ? 10 + (i % 13) : null },
    meta: { source: { name: pick('a|b', i), rank: i % 5 } },
    tags: i % 3 ? ['x', 'y'] : [],
    units: 1 + (i % 9),
  }));
  writeFileSync(join(dir, 'nested.json'), JSON.stringify(records));
  return join(dir, 'nested.json');
}

/** Real and awkward files: dates, categories and amounts with gaps, ties, numbers as text, unicode. */
function corpus(): string[] {
  const vega = [
    'seattle-weather.csv',
    'stocks.csv',
    'iowa-electricity.csv',
    'disasters.csv',
    'crimea.json',
  ];
  const where = (i: number): string =>
    `${pick('North|South|East|West|Central|Islands|', i)},${pick('Retail|Online|Online', i)}`;
  const sales: Row = (i, r) =>
    `${day(i % 500)},${where(i)},${1 + (i % 9)},${i % 17 ? Math.round(r() * 5e4) / 100 : ''},${money(1e3 + Math.floor(r() * 9e3))},${Math.round(r() * 1e3 - 700) / 10}`;
  const wide: Row = (i, r, b = r() * 10) =>
    `${i},${b},${b * 2 + r()},${i % 7 ? r() * 3 - b : ''},${r() * 100},${(i % 5) * 1.5},${Math.log1p(b)}`;
  const team: Row = (i) =>
    `${pick('Zürich|東京|São Paulo|Ørsted 🌊|', i)},${i % 5 ? (i % 3) * 10 : ''},${i % 7 ? i % 2 : ''}`;
  const hour: Row = (i) =>
    `${stamp(1704517200e3 + i * 18e6 + (i % 4) * 6e5)},${pick('b|a|a|a', i)},${(i * 37) % 101}`;
  const daily: Row = (i) =>
    /-03-/.test(day(i)) ? null : `${day(i)},${pick('x|y', i)},${(i % 13) - 4}%`;
  const named: Row = (i) => `k${i % 3},${i * 1.5},${i % 4}`;
  // Outcome flags: 0/1, a boolean beside it, and Yes/No text with gaps.
  const voyage: Row = (i, r) =>
    `${i + 1},${1 + (i % 3)},${pick('female|male|male', i)},${pick('S|C|S|Q|', i)},${Number(r() < (i % 3 ? 0.3 : 0.7))},${pick('True|False|False', i)},${Math.round(r() * 9e3) / 100}`;
  const churn: Row = (i, r) =>
    `${day((i * 7) % 400)},C${i},${pick('Month-to-month|One year|Two year|Month-to-month', i)},${1 + (i % 5)},${i % 19 ? (r() < (i % 4 ? 0.2 : 0.5) ? 'Yes' : 'No') : ''},${Math.round(r() * 1e4) / 100}`;
  return [
    write('sales.csv', 'date,region,channel,units,amount,price,margin', 600, sales),
    // Missing keys and measures, unicode names, sums that tie.
    write('gaps.csv', 'team,score,bonus', 60, team),
    // A daily series without March, and shares written as percentages.
    write('daily.csv', 'day,kind,share', 200, daily),
    write('wide.csv', 'idx,a,b,c,d,e,f', 300, wide),
    write('hours.csv', 'when,line,load', 500, hour),
    write('names.csv', '"a""b",x; DROP TABLE data; --,"line\nbreak"', 40, named),
    write('flags-voyage.csv', 'passenger,class,sex,port,survived,adult,fare', 300, voyage),
    write('flags-churn.csv', 'signed,customer,contract,rating,Churn,monthly', 240, churn),
    nestedJson(),
    ...vega.map((f) => join(ROOT, 'node_modules', 'vega-datasets', 'data', f)),
  ];
}

/**
 * Plans by hand that reach every transform, chart, aggregation and filter: $m/$m2 are the file's
 * measures, $c/$c2 its categories, $d its date and $t0/$t1 the first category's top values. An
 * analysis naming a role the file lacks is left out.
 */
const COVERAGE = `[
  [["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "sum", "top_n": 3}],
   ["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "mean", "top_n": 2}],
   ["pie", {"type": "group", "by": "$c", "measure": "$m", "agg": "min"}],
   ["table", {"type": "group", "by": "$c", "measure": "$m", "agg": "median", "series": "$c2"}],
   ["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "max", "series": "$c2", "top_n": 2}],
   ["pie", {"type": "group", "by": "$c", "measure": "$m", "agg": "sum"}],
   ["pie", {"type": "group", "by": "$c", "measure": null, "agg": "count", "top_n": 2}],
   ["table", {"type": "group", "by": "$c", "measure": "$m", "agg": "count"}],
   ["table", {"type": "group", "by": "$c", "measure": "$m", "agg": "sum"}, [["$c", "!=", "$t0"], ["$m", ">", 0]]],
   ["table", {"type": "missing"}, [["$c", "==", "$t1"]]],
   ["line", {"type": "resample", "date": "$d", "freq": "M", "measure": "$m", "agg": "sum", "series": "$c", "top": 2}],
   ["table", {"type": "resample", "date": "$d", "freq": "Q", "measure": "$m", "agg": "mean", "series": "$c", "top": 2}],
   ["bar", {"type": "group", "by": "$c", "measure": "$f", "agg": "mean", "equals": "$fv", "top_n": 2}],
   ["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "mean", "min_rows": 3}],
   ["table", {"type": "group", "by": "$c", "measure": null, "agg": "count", "series": "$c2", "min_rows": 2}],
   ["bar", {"type": "group", "by": "$c", "measure": "$f", "agg": "mean", "equals": "$fv", "min_rows": 4}],
   ["table", {"type": "group", "by": "$c", "measure": "$f", "agg": "mean", "equals": "$fv", "series": "$c2"}],
   ["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "mean", "equals": "$fv"}],
   ["line", {"type": "resample", "date": "$d", "freq": "M", "measure": "$f", "agg": "mean", "equals": "$fv"}],
   ["table", {"type": "resample", "date": "$d", "freq": "Q", "measure": "$f", "agg": "mean", "equals": "$fv", "series": "$c"}],
   ["line", {"type": "resample", "date": "$d", "freq": "M", "measure": "$f", "agg": "mean", "equals": "$fv", "series": "$c", "top": 2}]],
  [["line", {"type": "resample", "date": "$d", "freq": "M", "measure": "$m", "agg": "mean", "series": "$c", "rebase": true}],
   ["table", {"type": "resample", "date": "$d", "freq": "Q", "measure": "$m", "agg": "sum", "series": "$c", "top": 3, "rebase": true}]],
  [["line", {"type": "resample", "date": "$d", "freq": "M", "measure": null, "measures": ["$m", "$m2"], "agg": "sum"}],
   ["table", {"type": "resample", "date": "$d", "freq": "Q", "measure": null, "measures": ["$m3", "$m", "$m2"], "agg": "mean"}],
   ["bar", {"type": "resample", "date": "$d", "freq": "Y", "measure": null, "measures": ["$m", "$m2"], "agg": "max"}],
   ["line", {"type": "resample", "date": "$d", "freq": "M", "measure": null, "measures": ["$m", "$m2"], "agg": "mean", "rebase": true}],
   ["area", {"type": "resample", "date": "$d", "freq": "W", "measure": null, "measures": ["$m2", "$m"], "agg": "count"}]],
  [["histogram", {"type": "distribution", "column": "$m"}],
   ["histogram", {"type": "distribution", "column": "$m"}, [["$c", "in", ["$t0", "$t1"]], ["$m", "notna"]], {"bins": 7, "log_y": true}],
   ["box", {"type": "distribution", "column": "$m"}],
   ["box", {"type": "distribution", "column": "$m", "by": "$c"}],
   ["scatter", {"type": "relationship", "x": "$m", "y": "$m2", "color": "$c"}],
   ["table", {"type": "top_rows", "sort_by": "$m", "n": 5, "ascending": false}],
   ["table", {"type": "top_rows", "sort_by": "$m", "n": 3, "ascending": true}, [["$m", "<=", 100]]],
   ["table", {"type": "top_rows", "sort_by": "$m", "n": 8, "ascending": false}, [["$c", "not in", ["$t0", "$t1"]]]],
   ["bar", {"type": "group", "by": "$c", "measure": "$m", "agg": "sum"}, [["$c", "not in", ["$t1"]]]],
   ["heatmap", {"type": "correlation", "columns": ["$m", "$m2", "$m3", "$m4"]}],
   ["table", {"type": "correlation", "columns": ["$m", "$m2"]}],
   ["bar", {"type": "season", "date": "$d", "measure": "$m", "agg": "sum", "cycle": "month"}],
   ["table", {"type": "season", "date": "$d", "measure": "$m", "agg": "mean", "cycle": "weekday"}]],
  [["line", {"type": "resample", "date": "$d", "freq": "H", "measure": "$m", "agg": "sum"}],
   ["area", {"type": "resample", "date": "$d", "freq": "D", "measure": "$m", "agg": "mean"}],
   ["bar", {"type": "resample", "date": "$d", "freq": "W", "measure": null, "agg": "count"}],
   ["table", {"type": "resample", "date": "$d", "freq": "M", "measure": "$m", "agg": "sum"}],
   ["line", {"type": "resample", "date": "$d", "freq": "Q", "measure": "$m", "agg": "mean", "series": "$c"}],
   ["line", {"type": "resample", "date": "$d", "freq": "D", "measure": null, "agg": "count", "series": "$c"}],
   ["table", {"type": "resample", "date": "$d", "freq": "W", "measure": "$m", "agg": "sum", "series": "$c"}],
   ["bar", {"type": "resample", "date": "$d", "freq": "Y", "measure": "$m", "agg": "median"}],
   ["table", {"type": "summary"}],
   ["table", {"type": "summary", "columns": ["$m", "$m2", "$m3"]}],
   ["heatmap", {"type": "season", "date": "$d", "measure": null, "agg": "count", "cycle": "weekday_hour"}],
   ["line", {"type": "season", "date": "$d", "measure": "$m", "agg": "median", "cycle": "hour"}]]
]`;

type Entry = [Analysis['chart'], Analysis['transform'], [string, string, unknown?][]?, object?];

/** The coverage plans with the file's columns in place of their roles. */
function coveragePlans(profile: DataProfile): Plan[] {
  const r = roles(profile);
  const [m, c] = [r.measures.map((x) => x.name), r.categories.map((x) => x.name)];
  const top = (r.categories[0]?.top ?? []).map((t) => t.value);
  const flag = outcomeFlag(profile);
  const names = new Map<string, unknown>(
    Object.entries({
      $c: c[0],
      $c2: c[1] ?? c[0],
      $d: r.dates[0]?.name,
      $f: flag?.name,
      $fv: flag ? positiveValue(flag) : undefined,
    }),
  );
  [...m.slice(0, 4), top[0], top[1]].forEach((v, i) =>
    names.set(['$m', '$m2', '$m3', '$m4', '$t0', '$t1'][i] ?? '', v),
  );
  const fill = (key: string, v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith('$')) return names.get(v) ?? '?';
    return key === 'columns' && Array.isArray(v) ? v.filter((x) => x !== '?') : v;
  };
  const valid = (a: Analysis): boolean =>
    !JSON.stringify(a).includes('"?"') && // Shape only: the coverage plans exercise every transform, sums of levels included, to compare engines.
    !checkPlan({ analyses: [a], notes: [] }, profile, { semantics: false }).length;
  const analysis = ([chart, transform, filters = [], options]: Entry, i: number): Analysis => {
    const title = `${chart} ${i + 1}: ${JSON.stringify(transform).slice(9, 60)}`;
    const list = filters.map(([column, op, value]) => ({ column, op, value }));
    return AnalysisSchema.parse({ title, why: 'Why.', chart, transform, filters: list, options });
  };
  const plans = JSON.parse(COVERAGE, fill) as Entry[][];
  return plans.map((list) => ({ notes: [], analyses: list.map(analysis).filter(valid) }));
}

type Frame = { columns: string[]; data: unknown[][] };
interface Side {
  spec: RenderSpec;
  insights: { insights: { text: string; analysis: number }[]; failed: { analysis: number }[] };
  frame: (file: string) => Frame;
}

function side(work: string): Side {
  const json = <T>(file: string): T => JSON.parse(readFileSync(join(work, file), 'utf8')) as T;
  return { spec: json('render_spec.json'), insights: json('insights.json'), frame: (f) => json(f) };
}

/** One file of the corpus: its path, its profile and its DuckDB table. */
interface File {
  data: string;
  profile: DataProfile;
  db: DuckDb;
}

async function pandasSide({ data, profile }: File, plan: Plan, work: string): Promise<Side> {
  const [runner, program] = [join(ROOT, 'preamble', 'opsmind_run.py'), join(work, 'program.py')];
  mkdirSync(work, { recursive: true });
  writeFileSync(program, compilePlan(plan, profile, 'heuristic'));
  await python(['-I', runner, '--data', data, '--workdir', work, '--script', program]);
  return side(work);
}

const LOCALE = { decimal: '.', thousands: null, dateOrder: null } as const;
const SOURCE = { format: 'csv', encoding: 'utf-8', delimiter: ',', locale: LOCALE } as const;

async function duckSide({ data, profile, db }: File, plan: Plan, work: string): Promise<Side> {
  mkdirSync(work, { recursive: true });
  const { rows, columns, source } = profile;
  const more = { compression: null, sheet: null, skippedLines: 0, sizeBytes: 0, warnings: [] };
  const info = { ...SOURCE, ...more, path: data, name: source.name, rows, columns };
  await executePlan(db, plan, profile, { workdir: work, source: info });
  return side(work);
}

/** Both engines get the same plan input: the Python profiler's profile of the file as pandas reads it. */
async function pythonProfile(data: string): Promise<DataProfile> {
  const code = `import json, sys, opsmind_data as d, opsmind_profile as p
df, info, _ = d.read_dataset(sys.argv[1])
print(json.dumps(p.profile(df, info, sys.argv[2])))`;
  const out = await python(['-c', code, data, data.split('/').pop() ?? '']);
  return DataProfileSchema.parse(JSON.parse(out));
}

/** What legitimately differs in a file: retyped columns, and the columns whose most frequent value ties. */
type Known = { skip: Set<string>; tiedTop: Set<string> };
const TYPES: [RegExp, RegExp, string][] = [
  [/^(int|float)/, /INT|DOUBLE|FLOAT|DECIMAL/, 'number'],
  [/^bool/, /^BOOLEAN$/, 'boolean'],
  [/^datetime/, /DATE|TIME/, 'datetime'],
];
const coarse = (type: string, side: 0 | 1): string =>
  TYPES.find((t) => t[side].test(type))?.[2] ?? 'string';

/**
 * Columns the two readers type differently — pandas keeps yes/no and unused dates as text where
 * DuckDB reads BOOLEAN and DATE, and turns an integer column with gaps into floats (labelled
 * "2.0") — unless the plan's cleaning converts them on both sides: their values differ as typed.
 */
async function known(db: DuckDb, profile: DataProfile, plan: Plan): Promise<Known> {
  const { types } = await db.all('SELECT * FROM data LIMIT 0');
  const used = new Set(plan.analyses.flatMap((a) => usedColumns(a.transform)));
  const skip = profile.column_profiles.filter((c, i) => {
    const cleaned = ['numeric_text', 'datetime'].includes(c.semantic) && used.has(c.name);
    const float = /^float/.test(c.dtype) && /INT/.test(types[i] ?? '');
    return !cleaned && (coarse(c.dtype, 0) !== coarse(types[i] ?? '', 1) || float);
  });
  const tied = profile.column_profiles.filter(
    (c) => c.top.length > 1 && c.top[0]?.count === c.top[1]?.count,
  );
  return { skip: new Set(skip.map((c) => c.name)), tiedTop: new Set(tied.map((c) => c.name)) };
}

const utc = (text: string): number =>
  Date.parse(/[T ]\d/.test(text) ? `${text.replace(' ', 'T')}Z` : `${text}T00:00:00Z`);

/** Equal as the brief asks: floats within 1e-9 relative, dates as instants, the rest exactly. */
function same(a: unknown, b: unknown): boolean {
  if (a === b || (a == null && b == null)) return true;
  // A summary's most frequent value of a boolean: pandas' frame keeps it a boolean in a column of
  // mixed values, DuckDB's text column writes it as the report shows both ("false").
  if (typeof a === 'boolean' && typeof b === 'string') return String(a) === b;
  const [x, y] = [Number(a), Number(b)];
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y)) + 1e-12;
  const dates = typeof a === 'string' && typeof b === 'string' && /^\d{4}-\d\d-\d\d/.test(a);
  return dates && utc(a) === utc(b);
}

/** Whether a frame's values can agree (the declaration's metadata always must). */
function comparable(_a: Analysis, p: Declaration): boolean {
  // Past the points cap both sample, and numpy's RNG cannot be reproduced in SQL.
  return !(p.data.sampled && p.kind === 'scatter');
}

/**
 * A fold whose cut falls among equal totals: pandas' fold_top sorts them with numpy's unstable
 * quicksort (past 16 categories ties land anywhere), DuckDB keeps the first in key order. The
 * charts keep different but equally large categories: the same values, the same "Other".
 */
function tiedFold(p: Declaration, pf: Frame, df: Frame): boolean {
  const values = (f: Frame): number[] =>
    f.data.map((r) => Math.abs(Number(r[r.length - 1]))).sort((x, y) => x - y);
  const folded = ['bar', 'pie'].includes(p.kind) && p.data.reductions.includes('top_n');
  return folded && values(pf).every((v, i) => same(v, values(df)[i]));
}

function compareFrames(a: Analysis, p: Declaration, pf: Frame, df: Frame, k: Known): string[] {
  const summary = a.transform.type === 'summary';
  const columns = summary ? pf.columns.filter((c) => df.columns.includes(c)) : pf.columns;
  if (!summary && !isDeepStrictEqual(pf.columns, df.columns))
    return [`columns ${pf.columns.join('|')} vs ${df.columns.join('|')}`];
  if (pf.data.length !== df.data.length) return [`${pf.data.length} vs ${df.data.length} rows`];
  const by = 'by' in a.transform && a.transform.by;
  const out: string[] = [];
  pf.data.forEach((row, i) => {
    for (const c of summary && k.skip.has(String(row[0])) ? [] : columns) {
      // describe()'s top among equally frequent values: pandas' value_counts order is unstable there.
      const tied = summary && c === 'top' && k.tiedTop.has(String(row[0]));
      if (tied || k.skip.has(c) || (c === 'group' && by && k.skip.has(by))) continue;
      const [x, y] = [row[pf.columns.indexOf(c)], df.data[i]?.[df.columns.indexOf(c)]];
      if (!same(x, y)) out.push(`row ${i} ${c}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`);
    }
  });
  return out.length && tiedFold(p, pf, df) ? [] : out.slice(0, 5);
}

/** A declaration's metadata; the columns with their dtypes (a retyped column by its name only). */
function meta({ kind, params, data }: Declaration, k: Known): unknown {
  const { file: _file, error, source_columns, columns, ...rest } = data;
  const typed = (cs: typeof columns): string[] =>
    cs.map((c) => (k.skip.has(c.name) ? c.name : `${c.name}:${c.dtype}`));
  const failed = error !== null;
  return { kind, params, ...rest, failed, source: typed(source_columns), columns: typed(columns) };
}

/** The findings of analysis n as fast mode shows them: each sentence once, under the analysis that said it first. */
function texts(s: Side, n: number): string[] {
  const first = new Map<string, number>();
  for (const x of s.insights.insights) if (!first.has(x.text)) first.set(x.text, x.analysis);
  return [...first].filter(([, m]) => m === n).map(([text]) => text);
}

/** Every difference between the two engines' results of one plan. */
function compare(plan: Plan, ps: Side, ds: Side, k: Known): string[] {
  const failed = (s: Side): number[] => s.insights.failed.map((f) => f.analysis);
  if (!isDeepStrictEqual(failed(ps), failed(ds)))
    return [`failed ${failed(ps).join(',')} vs ${failed(ds).join(',')}`];
  const order = (s: Side): Declaration[] =>
    [...s.spec.charts, ...s.spec.tables].sort((x, y) => x.seq - y.seq);
  const [pd, dd] = [order(ps), order(ds)];
  const declared = plan.analyses
    .map((a, i) => ({ a, n: i + 1 }))
    .filter(({ n }) => !failed(ps).includes(n));
  return declared.flatMap(({ a, n }, i) => {
    const [p, d] = [pd[i], dd[i]];
    if (!p || !d) return [`declaration ${i + 1} missing`];
    const out = isDeepStrictEqual(meta(p, k), meta(d, k))
      ? []
      : [`${JSON.stringify([meta(p, k), meta(d, k)])}`];
    if (p.data.file && d.data.file && comparable(a, p))
      out.push(...compareFrames(a, p, ps.frame(p.data.file), ds.frame(d.data.file), k));
    // Findings about a retyped column name its groups as each reader typed them.
    const [pt, dt] = [texts(ps, n), texts(ds, n)];
    if (!usedColumns(a.transform).some((c) => k.skip.has(c)) && !isDeepStrictEqual(pt, dt))
      out.push(`findings ${JSON.stringify([pt, dt])}`);
    return out.map((o) => `${p.id} "${a.title}": ${o}`);
  });
}

async function differences(
  data: string,
  k: number,
): Promise<{ problems: string[]; compared: number }> {
  const profile = await pythonProfile(data);
  const db = await DuckDb.open({ memoryMb: 512, threads: 1, tempDir: join(dir, `spill-${k}`) });
  try {
    // JSON goes through the engine's reader, which spreads objects into columns as pandas' does.
    // Yes/No text too: DuckDB's own sniffer would make it a boolean, the engine's reader does not.
    if (data.endsWith('.json') || /flags-/.test(data))
      await attachSource(db, data, { scratchDir: join(dir, `scratch-${k}`) });
    else await db.run(`CREATE TABLE data AS SELECT * FROM read_csv(${literal(data)})`);
    await db.lock([data]);
    const file: File = { data, profile, db };
    const plans = [heuristicPlan(profile), ...coveragePlans(profile)].filter(
      (p) => p.analyses.length,
    );
    const work = (j: number, engine: string): string => join(dir, `${k}-${j}-${engine}`);
    const pandas = await Promise.all(
      plans.map((plan, j) => pandasSide(file, plan, work(j, 'pandas'))),
    );
    const problems: string[] = [];
    let compared = 0;
    for (const [j, plan] of plans.entries()) {
      const ds = await duckSide(file, plan, work(j, 'duckdb'));
      const found = compare(plan, pandas[j] as Side, ds, await known(db, profile, plan));
      problems.push(...found.map((p) => `${profile.source.name} plan ${j}: ${p}`));
      compared += ds.spec.charts.length + ds.spec.tables.length;
    }
    return { problems, compared };
  } finally {
    db.close();
  }
}

void test(
  'pandas and DuckDB leave the same frames and findings for every transform over real files',
  // A guard against a hang, not a speed goal: the corpus takes ~60 s alone, and 106–120 s on a
  // machine busy with another run (seen on CI's kind).
  { timeout: 300_000 },
  async () => {
    const done = await Promise.all(corpus().map((data, k) => differences(data, k)));
    const compared = done.reduce((n, r) => n + r.compared, 0);
    assert.ok(compared > 200, `only ${compared} declarations compared`);
    assert.deepEqual(
      done.flatMap((r) => r.problems),
      [],
    );
  },
);

/** Each engine's frames of `plan` over `data`; `texts` gets each engine's findings. */
async function bothFrames(
  data: string,
  plan: Plan,
  k: number,
  texts: string[][] = [],
  decls: Declaration[][] = [],
  described = false,
): Promise<string[][][]> {
  const profile = await pythonProfile(data);
  // With its semantics, as the engines' profiles carry them: a year column is then time.
  if (described) profile.semantics = describeData(profile);
  const db = await DuckDb.open({ memoryMb: 256, threads: 1, tempDir: join(dir, `spill-c${k}`) });
  try {
    await db.run(`CREATE TABLE data AS SELECT * FROM read_csv(${literal(data)})`);
    await db.lock([data]);
    const file: File = { data, profile, db };
    const sides = [
      await pandasSide(file, plan, join(dir, `c${k}-pandas`)),
      await duckSide(file, plan, join(dir, `c${k}-duckdb`)),
    ];
    return sides.map((s) => {
      assert.deepEqual(s.insights.failed, [], 'no analysis fails');
      texts.push(s.insights.insights.map((x) => x.text));
      const ordered = [...s.spec.charts, ...s.spec.tables].sort((x, y) => x.seq - y.seq);
      decls.push(ordered);
      return ordered.map((decl) =>
        s
          .frame(decl.data.file ?? '')
          .data.map((row) =>
            row.map((v, i) => (i === 0 ? String(v).slice(0, 10) : String(v))).join(' '),
          ),
      );
    });
  } finally {
    db.close();
  }
}

const resample = (freq: string, measure: string | null, agg: string, series?: string): object => ({
  title: `${agg} ${measure ?? 'rows'} per ${freq}`,
  why: 'Why.',
  chart: 'table',
  transform: { type: 'resample', date: 'when', freq, measure, agg, ...(series ? { series } : {}) },
});
const planOf = (...analyses: object[]): Plan => ({ notes: [], analyses: analyses as Analysis[] });

void test('a period without rows is a gap, a quiet day of a sparse log 0, on the data’s own calendar (both engines)', async () => {
  // Events, 20 a year, none in 2005: a missing year, not a year with no events.
  const years = write('years.csv', 'when,kind,amount', 220, (i) =>
    Math.floor(i / 20) === 5
      ? null
      : `${2000 + Math.floor(i / 20)}-0${1 + (i % 9)}-1${i % 10},${pick('a|b', i)},${i % 7}`,
  );
  const [py, dk] = await bothFrames(
    years,
    planOf(resample('Y', null, 'count'), resample('Y', 'amount', 'sum', 'kind')),
    0,
  );
  assert.deepEqual(py, dk);
  assert.equal(py?.[0]?.[5], '2005-01-01 null', 'the missing year is a gap, not 0 rows');
  assert.equal(py?.[0]?.length, 11);
  assert.deepEqual(py?.[1]?.slice(10, 12), ['2005-01-01 a null', '2005-01-01 b null']);
  // A census every ten years, 1950 lost: decades, not 91 mostly empty years.
  const census = write(
    'census.csv',
    'when,people',
    10,
    (i) => `${1900 + 10 * (i < 5 ? i : i + 1)}-01-01,${1000 + i}`,
  );
  const [cp, cd] = await bothFrames(census, planOf(resample('Y', 'people', 'sum')), 1);
  assert.deepEqual(cp, cd);
  assert.deepEqual(cp?.[0]?.slice(4, 7), ['1940-01-01 1004', '1950-01-01 null', '1960-01-01 1005']);
  assert.equal(cp?.[0]?.length, 11);
  // A sparse log of events at odd times (40 over 59 days, two on some): a day without one is 0.
  const quiet = write('quiet.csv', 'when,amount', 40, (i) => {
    const on = i + Math.floor(i / 2) - (i % 4 === 3 ? 1 : 0);
    return `${day(on)} ${String(i % 24).padStart(2, '0')}:1${i % 6}:00,${i + 1}`;
  });
  const twice = planOf(resample('D', null, 'count'), resample('D', 'amount', 'sum'));
  const [qp, qd] = await bothFrames(quiet, twice, 2);
  assert.deepEqual(qp, qd);
  assert.deepEqual(qp?.[0]?.slice(0, 4), [
    '2023-01-01 1',
    '2023-01-02 1',
    '2023-01-03 0',
    '2023-01-04 2',
  ]);
  assert.deepEqual(qp?.[1]?.slice(0, 4), [
    '2023-01-01 1',
    '2023-01-02 2',
    '2023-01-03 0',
    '2023-01-04 7',
  ]);
  // Events in even years only (6 a quarter): a run of 4 empty quarters is more than chance leaves
  // at that rate, so the odd years are gaps, not quiet.
  const even = write('even.csv', 'when,amount', 120, (i) => {
    const [year, quarter] = [2000 + 2 * Math.floor(i / 24), Math.floor(i / 6) % 4];
    // Two events at each time: rows share times, so each row is an event.
    return `${year}-${String(3 * quarter + 1).padStart(2, '0')}-0${1 + Math.floor((i % 6) / 2)} 10:00:00,${i}`;
  });
  const [ep, ed] = await bothFrames(even, planOf(resample('Q', null, 'count')), 7);
  assert.deepEqual(ep, ed);
  assert.deepEqual(ep?.[0]?.slice(3, 6), ['2000-10-01 6', '2001-01-01 null', '2001-04-01 null']);
  // Prices on weekdays only, one holiday: the weekends are not on the calendar, the holiday is a gap.
  const business = write('business.csv', 'when,price', 40, (i) =>
    [0, 6].includes(new Date(day(i)).getUTCDay()) ? null : `${day(i)},${i === 16 ? '' : 100 + i}`,
  );
  const [bp, bd] = await bothFrames(business, planOf(resample('D', 'price', 'mean')), 3);
  assert.deepEqual(bp, bd);
  assert.deepEqual(bp?.[0]?.slice(3, 7), [
    '2023-01-05 104',
    '2023-01-06 105',
    '2023-01-09 108',
    '2023-01-10 109',
  ]);
  assert.ok(bp?.[0]?.includes('2023-01-17 null'), 'a weekday without a price is a gap');
});

void test('the data’s own "Other" joins the rest summed as "Other": never two bars, slices or lines of it (both engines)', async () => {
  // "Other" is the largest kind; five more kinds; two days.
  const sizes: [string, number][] = [
    ['Other', 9],
    ['a', 8],
    ['b', 6],
    ['c', 3],
    ['d', 2],
    ['e', 1],
  ];
  const rows = sizes.flatMap(([kind, n]) =>
    Array.from({ length: n }, (_, i) => `${day(i % 2)},${kind},${10 + i}`),
  );
  const file = write('other.csv', 'when,kind,amount', rows.length, (i) => rows[i] ?? null);
  const group = (chart: string, top_n: number) => ({
    title: `amount by kind (${chart})`,
    why: 'Why.',
    chart,
    transform: { type: 'group', by: 'kind', measure: 'amount', agg: 'sum', top_n },
  });
  const lines = {
    ...resample('D', 'amount', 'sum', 'kind'),
    chart: 'line',
    transform: {
      type: 'resample',
      date: 'when',
      freq: 'D',
      measure: 'amount',
      agg: 'sum',
      series: 'kind',
      top: 2,
    },
  };
  const [py, dk] = await bothFrames(file, planOf(group('bar', 3), group('pie', 3), lines), 4);
  assert.deepEqual(py, dk);
  const others = (frame: string[] | undefined) =>
    (frame ?? []).filter((r) => / Other( |$)/.test(` ${r}`));
  assert.equal(others(py?.[0]).length, 1, `one "Other" bar: ${String(py?.[0])}`);
  assert.equal(others(py?.[1]).length, 1, 'one "Other" slice');
  assert.equal(others(py?.[2]).length, 2, 'one "Other" line (two days)');
  assert.ok(
    py?.[0]?.some((r) => r.startsWith('a ')),
    'the largest kind but "Other" is kept',
  );
});

void test('a bar of more periods than it holds: the rest of a sum is summed as "Other", of a mean left out (both engines)', async () => {
  // 80 days, one row each, no two amounts alike (no ties at the cut): a bar holds 50 of them.
  const file = write('days.csv', 'when,amount', 80, (i) => `${day(i)},${100 + ((i * 37) % 80)}`);
  const bar = (agg: string) => ({ ...resample('D', 'amount', agg), chart: 'bar' });
  const decls: Declaration[][] = [];
  const [py, dk] = await bothFrames(file, planOf(bar('sum'), bar('mean')), 9, [], decls);
  assert.deepEqual(py, dk);
  const [sums, means] = [py?.[0] ?? [], py?.[1] ?? []];
  assert.equal(sums.length, 51);
  assert.ok(
    sums.some((r) => / Other /.test(` ${r} `)),
    'the rest of the sums is one "Other" bar',
  );
  assert.equal(means.length, 50, 'the rest of the means is left out');
  assert.ok(!means.some((r) => /Other/.test(r)), `no summed means: ${means.join(', ')}`);
  const meta = (d: Declaration | undefined) => [d?.params.agg, d?.data.reductions];
  for (const side of decls) {
    assert.deepEqual(meta(side[0]), [undefined, ['top_n']]);
    assert.deepEqual(meta(side[1]), ['mean', ['aggregated', 'top_n']]);
    assert.match(
      provenance(side[0] as Declaration, null),
      /the 50 largest categories kept, the rest summed as &#34;Other&#34;/,
    );
    assert.match(
      provenance(side[1] as Declaration, null),
      /the 50 largest categories kept, the rest left out \(a mean cannot be summed\)/,
    );
  }
});

void test('a month written alone (2024-01, 2024/3, Jan-2025) is its first day in both engines, never an empty chart', async () => {
  const months = ['2024-01', '2024-02', '2024/3', '2024/4', '2024-05', '2024-06'];
  const numeric = write('months-alone.csv', 'when,amount', 36, (i) => `${months[i % 6]},${10 + i}`);
  const [py, dk] = await bothFrames(numeric, planOf(resample('M', 'amount', 'sum')), 10);
  assert.deepEqual(py, dk);
  // Each month holds rows i, i + 6, … i + 30: 6 × (10 + i) + 90.
  assert.deepEqual(
    py?.[0],
    months.map((_, i) => `2024-0${i + 1}-01 ${6 * (10 + i) + 90}`),
  );
  const words = ['Jan-2025', 'Feb-2025', 'Mar-2025'];
  const named = write('months-named.csv', 'when,amount', 12, (i) => `${words[i % 3]},${i}`);
  const [pn, dn] = await bothFrames(named, planOf(resample('M', 'amount', 'sum')), 11);
  assert.deepEqual(pn, dn);
  assert.deepEqual(pn?.[0], ['2025-01-01 18', '2025-02-01 22', '2025-03-01 26']);
});

void test('a filter on a year column read as timestamps keeps the years it names (both engines)', async () => {
  // Years 2010 to 2019, three countries each: the resample makes the year a timestamp in both.
  const countries = ['Chile', 'Ghana', 'Peru'];
  const file = write('years.csv', 'year,country,amount', 30, (i) => {
    const k = i % 3;
    return `${2010 + Math.floor(i / 3)},${countries[k]},${100 + 7 * i + 13 * k}`;
  });
  const rows = (title: string, filters: object[]): object => ({
    title,
    why: 'Why.',
    chart: 'table',
    transform: { type: 'group', by: 'country', measure: 'amount', agg: 'sum' },
    filters,
  });
  const plan = planOf(
    {
      ...resample('Y', 'amount', 'sum'),
      transform: { type: 'resample', date: 'year', freq: 'Y', measure: 'amount', agg: 'sum' },
    },
    rows('in 2015', [{ column: 'year', op: '==', value: 2015 }]),
    rows('2012 and 2014', [{ column: 'year', op: 'in', value: [2012, 2014] }]),
    rows('from 2018, the year as text', [{ column: 'year', op: '>=', value: '2018' }]),
    rows('not 2010 to 2018', [
      {
        column: 'year',
        op: 'not in',
        value: [2010, 2011, 2012, 2013, 2014, 2015, 2016, 2017, 2018],
      },
    ]),
    rows('not 2011', [{ column: 'year', op: '!=', value: 2011 }]),
  );
  const [py, dk] = await bothFrames(file, plan, 12, [], [], true);
  assert.deepEqual(py, dk);
  // Each country's amount in a year is one row: 100 + 7 i + 13 k, with i = 3 (year - 2010) + k.
  const amount = (year: number, k: number): number => 100 + 7 * (3 * (year - 2010) + k) + 13 * k;
  const sum = (years: number[], k: number): number => years.reduce((t, y) => t + amount(y, k), 0);
  const table = (years: number[]): string[] =>
    countries
      .map((c, k) => ({ c, v: sum(years, k) }))
      .sort((a, b) => b.v - a.v)
      .map(({ c, v }) => `${c} ${v}`);
  assert.deepEqual(py?.[1], table([2015]));
  assert.deepEqual(py?.[2], table([2012, 2014]));
  assert.deepEqual(py?.[3], table([2018, 2019]));
  assert.deepEqual(py?.[4], table([2019]));
  assert.deepEqual(py?.[5], table([2010, 2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019]));
});

void test('a date column named like a cycle (month) still gets its month-of-year profile (both engines)', async () => {
  const file = write(
    'months.csv',
    'month,v',
    36,
    (i) => `${2021 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01,${i % 12}`,
  );
  const season = {
    title: 'v by month of year',
    why: 'Why.',
    chart: 'bar',
    transform: { type: 'season', date: 'month', measure: 'v', agg: 'mean', cycle: 'month' },
  };
  const [py, dk] = await bothFrames(file, planOf(season), 5);
  assert.deepEqual(py, dk);
  assert.deepEqual(py?.[0]?.slice(0, 2), ['Jan 0', 'Feb 1']);
});

void test('a measure called "count" is its total count in the findings, never rows (both engines)', async () => {
  const file = write(
    'counted.csv',
    'when,industry,count',
    48,
    (i) =>
      `${2020 + Math.floor(i / 24)}-${String((Math.floor(i / 2) % 12) + 1).padStart(2, '0')}-01,${pick('farms|mines', i)},${100 + i}`,
  );
  const texts: string[][] = [];
  const plan = planOf(
    { ...resample('M', 'count', 'sum'), chart: 'line' },
    {
      title: 'count by industry',
      why: 'Why.',
      chart: 'bar',
      transform: { type: 'group', by: 'industry', measure: 'count', agg: 'sum' },
    },
  );
  await bothFrames(file, plan, 6, texts);
  assert.deepEqual(texts[0], texts[1]);
  const said = (texts[0] ?? []).join(' | ');
  assert.match(said, /mines accounts for 50\.2% of total count \(2,976 of 5,928\)/);
  assert.match(said, /Total count peaked at/);
  assert.doesNotMatch(said, /rows/);
});

void test('several measures are one line each, over their own values, gaps kept (both engines)', async () => {
  // Deaths by cause per month, one row a month: March missing, April's disease not recorded.
  const file = write('causes.csv', 'when,wounds,disease,army', 6, (i) =>
    i === 2
      ? null
      : `2024-0${i + 1}-01,${[0, 4, 0, 9, 2, 1][i]},${i === 3 ? '' : [10, 30, 0, 0, 50, 20][i]},${8000 + i}`,
  );
  const texts: string[][] = [];
  const decls: Declaration[][] = [];
  const lines = (agg: string, extra: object = {}): object => ({
    title: `wounds and disease ${agg}`,
    why: 'Why.',
    chart: 'line',
    transform: {
      type: 'resample',
      date: 'when',
      freq: 'M',
      measure: null,
      measures: ['wounds', 'disease'],
      agg,
      ...extra,
    },
  });
  const plan = planOf(lines('sum'), lines('mean', { rebase: true }), {
    ...lines('count'),
    chart: 'table',
  });
  // Each line is checked as its own measure's: these levels are not summed (the plan check says
  // so per measure); the engines still run what they are given alike.
  const problems = checkPlan(plan, await pythonProfile(file));
  assert.equal(problems.length, 2);
  assert.ok(problems.every((p) => /^analysis 1 .*"(wounds|disease)" is a level.*not sum$/.test(p)));
  const [py, dk] = await bothFrames(file, plan, 7, texts, decls);
  assert.deepEqual(py, dk);
  assert.deepEqual(texts[0], texts[1]);
  // One row per month and measure, in key order; March is a gap in both lines, April's disease too.
  assert.deepEqual(py?.[0], [
    '2024-01-01 disease 10',
    '2024-01-01 wounds 0',
    '2024-02-01 disease 30',
    '2024-02-01 wounds 4',
    '2024-03-01 disease null',
    '2024-03-01 wounds null',
    '2024-04-01 disease null',
    '2024-04-01 wounds 9',
    '2024-05-01 disease 50',
    '2024-05-01 wounds 2',
    '2024-06-01 disease 20',
    '2024-06-01 wounds 1',
  ]);
  // Rebased: 100 at the first month both lines have a value (January: wounds is 0 there, so no index).
  assert.equal(py?.[1]?.[0], '2024-01-01 disease 100');
  assert.deepEqual(py?.[2]?.slice(0, 2), ['2024-01-01 disease 1', '2024-01-01 wounds 1']);
  for (const side of decls) {
    const [line] = side;
    assert.equal(line?.params.color, 'measure');
    assert.equal(line?.params.y, 'value');
    assert.equal(line?.params.y_label, 'wounds and disease');
  }
  // The lines are the subject of the change; the peak names the highest line, then the other's.
  assert.equal(
    (texts[0] ?? []).join(' | '),
    'Both lines rose: disease the most, by 10 from Jan 2024 to Jun 2024 (10 → 20); wounds the least, by 1 from Jan 2024 to Jun 2024 (0 → 1). | The highest point of both lines: disease at 50 in May 2024 (wounds peaked at 9 in Apr 2024).',
  );
});

/** Monthly rows of four stores over two years and a plan of every chart of a mean of them. */
function percentsCase(): { file: string; plan: Plan } {
  // Monthly rows of four stores over two years: a margin written "17.5%", a growth named in
  // percent (plain numbers), a share of 1, a heart rate (a "rate" within 0–100, not a percentage)
  // and an amount.
  const file = write(
    'percents.csv',
    'when,store,margin,growth_pct,share,heart_rate,amount',
    96,
    (i, r) =>
      `${2022 + Math.floor(i / 48)}-${String((Math.floor(i / 4) % 12) + 1).padStart(2, '0')}-01,${pick('north|south|east|west', i)},${(10 + (i % 4) * 2 + r() * 5).toFixed(1)}%,${(r() * 40 - 10).toFixed(2)},${(r() * 0.9).toFixed(3)},${60 + Math.floor(r() * 40)},${Math.round(r() * 9e3)}`,
  );
  const by = (measure: string | null, agg: string, chart = 'bar'): object => ({
    title: `${agg} ${measure} by store`,
    why: 'Why.',
    chart,
    transform: { type: 'group', by: 'store', measure, agg },
  });
  const plan = planOf(
    by('margin', 'mean'),
    by('growth_pct', 'median'),
    by('share', 'mean'),
    by('heart_rate', 'mean'),
    by('margin', 'count'),
    {
      title: 'margin',
      why: 'Why.',
      chart: 'histogram',
      transform: { type: 'distribution', column: 'margin' },
    },
    {
      title: 'margin by store',
      why: 'Why.',
      chart: 'box',
      transform: { type: 'distribution', column: 'margin', by: 'store' },
    },
    { ...resample('M', 'margin', 'mean'), chart: 'line' },
    {
      title: 'margin by month',
      why: 'Why.',
      chart: 'bar',
      transform: { type: 'season', date: 'when', measure: 'margin', agg: 'mean', cycle: 'month' },
    },
    {
      title: 'margin against amount',
      why: 'Why.',
      chart: 'scatter',
      transform: { type: 'relationship', x: 'amount', y: 'margin' },
    },
  );
  return { file, plan };
}

void test('percentages are said as percentages, apart by percentage points, with "(%)" on their axes (both engines)', async () => {
  const { file, plan } = percentsCase();
  const texts: string[][] = [];
  const decls: Declaration[][] = [];
  // The frames agree within float noise (the corpus test compares them so); the words exactly.
  await bothFrames(file, plan, 8, texts, decls);
  // Each sentence once, as fast mode shows them (a box says its column's spread as the histogram did).
  const [pandas, duckdb] = texts.map((side) => [...new Set(side)]);
  assert.deepEqual(pandas, duckdb);
  const said = (pandas ?? []).join(' | ');
  // Means of percentages: "%" and percentage points, tested as means (Welch), never as a rate.
  assert.match(
    said,
    /has the highest mean margin \([\d.]+%\); \w+ the lowest \([\d.]+%\), [\d.]+ percentage points apart/,
  );
  assert.match(said, /has the highest median growth_pct \(-?[\d.]+%\);.* percentage points apart/);
  assert.match(
    said,
    /The median margin is [\d.]+%; the middle half lies between [\d.]+% and [\d.]+% \(IQR [\d.]+ percentage points\)/,
  );
  assert.match(said, /has the highest median margin \([\d.]+%\)/);
  assert.match(
    said,
    /In 2023, mean margin was [\d.]+ percentage points (lower|higher) than in 2022 \(averaging the 12 months of each year: [\d.]+% vs [\d.]+%\)/,
  );
  assert.match(said, /Mean margin peaked at [\d.]+% in /);
  assert.match(said, /has the highest mean margin \([\d.]+%\);.*between the 12 months/);
  assert.doesNotMatch(said, /Fisher/);
  // A share of 1 and a heart rate are no percentages: a ratio apart, no "%".
  assert.match(
    said,
    /has the highest mean share \(0\.\d+\); \w+ the lowest \(0\.\d+\), [\d.]+× apart/,
  );
  assert.match(
    said,
    /has the highest mean heart_rate \([\d.]+\); \w+ the lowest \([\d.]+\), [\d.]+× apart/,
  );
  for (const side of decls) {
    const labels = side.map((d) => d.params.y_label ?? d.params.x_label ?? null);
    assert.deepEqual(labels, [
      'margin (%)',
      'growth_pct (%)',
      null,
      null,
      null,
      'margin (%)',
      'margin (%)',
      'margin (%)',
      'margin (%)',
      'margin (%)',
    ]);
    // The scatter's x (an amount) keeps its own title.
    assert.equal(side.at(-1)?.params.x_label, undefined);
  }
});

void test('an infinite value in a table is ∞ or -∞, never shown as missing (both engines)', async () => {
  // A ratio divided by zero: infinite, not unknown.
  const values = ['1.5', 'inf', '-inf', '2.5', '', '0.5', '1.0', '2.0', '3.0', '3.5'];
  const file = write(
    'infinite.csv',
    'name,ratio,amount',
    values.length,
    (i) => `${String.fromCharCode(97 + i)},${values[i]},${10 * (i + 1)}`,
  );
  const table = (transform: object): object => ({
    title: JSON.stringify(transform),
    why: 'Why.',
    chart: 'table',
    transform,
  });
  const plan = planOf(
    table({ type: 'summary', columns: ['ratio'] }),
    table({ type: 'top_rows', sort_by: 'ratio', n: 3, ascending: false }),
  );
  const [py, dk] = await bothFrames(file, plan, 9);
  assert.deepEqual(py, dk);
  // The summary's minimum and maximum; its mean of ∞ and -∞ has no value (NaN), as pandas' describe says.
  assert.match(py?.[0]?.join(' | ') ?? '', /^ratio 9 null null -∞ 1 2 3 ∞$/);
  assert.deepEqual(py?.[1], ['b ∞ 20', 'j 3.5 100', 'i 3 90']);
});

void test('a quartile beside an infinity is that value or the infinity, never NaN (both engines)', async () => {
  // numpy interpolates -inf, 0.5, 1.5, 2.5, inf to a NaN 75% (2.5 + 0 × ∞); DuckDB's is 2.5, and
  // the pandas program's summary says what DuckDB says.
  const rows = [
    '0.5 -inf 1.5 2.5 inf',
    '1.0 2.0 inf inf',
    '-inf 1.0 2.0 3.0',
    '-inf -inf 1.0 2.0 3.0 4.0',
    '1.0 inf -inf',
  ];
  const file = write('quartiles.csv', 'k,v', 22, (i) => {
    const all = rows.flatMap((r, k) => r.split(' ').map((v) => `g${k},${v}`));
    return all[i] ?? null;
  });
  const plan = planOf(
    ...rows.map((_, k) => ({
      title: `g${k}`,
      why: 'Why.',
      chart: 'table',
      transform: { type: 'summary', columns: ['v'] },
      filters: [{ column: 'k', op: '==', value: `g${k}` }],
    })),
  );
  const [py, dk] = await bothFrames(file, plan, 10);
  assert.deepEqual(py, dk);
  const quartiles = (py ?? []).slice(0, 5).map((t) => t[0]?.split(' ').slice(5, 8).join(' '));
  assert.deepEqual(quartiles, ['0.5 1.5 2.5', '1.75 ∞ ∞', '-∞ 1.5 2.25', '-∞ 1.5 2.75', '-∞ 1 ∞']);
  // The means: pandas' (∞ beside numbers, NaN beside −∞), not a compensated sum's NaN.
  assert.deepEqual(
    (py ?? []).slice(0, 5).map((t) => t[0]?.split(' ')[2]),
    ['null', '∞', '-∞', '-∞', 'null'],
  );
});

void test('a box by a whole-number grouping names its highest and lowest median, "class 2" (both engines)', async () => {
  // Classes 1, 2, 3 and 10: ties go to the smaller number, as pandas' groupby orders them (not "10" < "2").
  const fares: [number, number][] = [
    [1, 8],
    [1, 9],
    [2, 60],
    [2, 80],
    [3, 20],
    [3, 22],
    [10, 70],
  ];
  const file = write('classes.csv', 'class,fare', fares.length, (i) => fares[i]?.join(',') ?? null);
  const texts: string[][] = [];
  const plan = planOf({
    title: 'fare by class',
    why: 'Why.',
    chart: 'box',
    transform: { type: 'distribution', column: 'fare', by: 'class' },
  });
  await bothFrames(file, plan, 11, texts);
  const [pandas, duckdb] = texts.map((side) => [...new Set(side)]);
  assert.deepEqual(pandas, duckdb);
  assert.ok(
    pandas?.includes(
      'class 2 has the highest median fare (70); class 1 the lowest (8.5), 8.2× apart.',
    ),
    JSON.stringify(pandas),
  );
});
