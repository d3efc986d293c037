/**
 * Fast mode on the DuckDB engine, end to end through the built binary: every
 * format a user brings, locale, hostile column names, no Python on the main
 * path, a file several times larger than the memory limit, the SQL behind each
 * chart in the report, and the pandas twin that `sessions export` writes.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import writeXlsxFile from 'write-excel-file/node';
import { DuckDb, literal } from '../src/engine/duckdb.js';
import { ROOT, runCli, tempDir, testHome } from './helpers/fixtures.js';

interface Summary {
  charts: { id: string; kind: string; title: string | null }[];
  tables: { id: string; title: string | null }[];
  warnings: string[];
  spec: {
    source: { rows: number; columns: number; format: string } | null;
    charts: { kind: string; params: Record<string, unknown> }[];
  };
}

interface Analyzed {
  status: number | null;
  stderr: string;
  stdout: string;
  summary: Summary | null;
  html: string;
  json: {
    isolation: string;
    session_id: string;
    insights: { text: string; kind: string }[];
    charts?: {
      kind: string;
      title?: string;
      derivation?: { measure: string | null; agg?: string };
    }[];
  } | null;
}

function analyze(file: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Analyzed {
  const out = join(tempDir(), 'report.html');
  const r = runCli(['analyze', file, '--json', '-o', out, ...extra], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
  });
  const read = <T>(path: string): T | null => {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as T;
    } catch {
      return null;
    }
  };
  return {
    status: r.status,
    stderr: r.stderr,
    stdout: r.stdout,
    summary: read<Summary>(out.replace(/\.html$/, '.json')),
    html: existsSync(out) ? readFileSync(out, 'utf8') : '',
    json: (() => {
      try {
        return JSON.parse(r.stdout) as Analyzed['json'];
      } catch {
        return null;
      }
    })(),
  };
}

/** The columns charts and tables of a report use as measures (y, values, x of a histogram…). */
function charted(summary: Summary): Set<string> {
  const names = new Set<string>();
  for (const c of summary.spec.charts)
    for (const key of ['x', 'y', 'values', 'names'])
      if (typeof c.params[key] === 'string') names.add(c.params[key]);
  return names;
}

async function withDb<T>(body: (db: DuckDb) => Promise<T>): Promise<T> {
  const db = await DuckDb.open({ memoryMb: 256, threads: 2, tempDir: join(tempDir(), 'spill') });
  try {
    return await body(db);
  } finally {
    db.close();
  }
}

const SALES = join(ROOT, 'examples', 'sales.csv');

void test('the sales example on DuckDB: the SQL behind each chart is in the report, and both engines draw the same charts', () => {
  const duck = analyze(SALES);
  assert.equal(duck.status, 0, duck.stderr);
  assert.ok(duck.summary && duck.json);
  assert.match(duck.json.isolation, /^DuckDB v\d/);
  const sqlBlocks = duck.html.match(/<details class="code sql">/g) ?? [];
  assert.equal(
    sqlBlocks.length,
    duck.summary.charts.length + duck.summary.tables.length,
    'one SQL block per chart and table',
  );
  assert.match(duck.html, /analysis\.sql — the DuckDB queries/);
  assert.match(duck.html, /FROM &#34;data&#34;|FROM data/);
  const pandas = analyze(SALES, ['--engine', 'pandas']);
  assert.equal(pandas.status, 0, pandas.stderr);
  assert.ok(pandas.summary && pandas.json);
  assert.doesNotMatch(pandas.json.isolation, /DuckDB/);
  assert.deepEqual(
    duck.summary.charts.map((c) => [c.kind, c.title]),
    pandas.summary.charts.map((c) => [c.kind, c.title]),
  );
  // The same findings; DuckDB types the date column as it reads it, so pandas' "dates stored as text" flag is its alone.
  const findings = (a: Analyzed) =>
    (a.json?.insights ?? []).filter((i) => !/stored as text/.test(i.text)).map((i) => i.text);
  assert.deepEqual(findings(duck), findings(pandas));
  const bad = runCli(['analyze', SALES, '--engine', 'spark']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--engine must be one of duckdb, pandas/);
});

void test('no Python on the main path: fast mode runs with OPSMIND_PYTHON pointing nowhere and no bubblewrap on PATH; run says what it needs', () => {
  const env = { OPSMIND_PYTHON: '/nonexistent/python3', PATH: dirname(process.execPath) };
  const fast = analyze(SALES, [], env);
  assert.equal(fast.status, 0, fast.stderr);
  assert.ok(fast.summary);
  assert.ok(fast.summary.charts.length >= 5);
  assert.equal(fast.summary.spec.source?.rows, 5019);
  const script = join(tempDir(), 's.py');
  writeFileSync(script, 'print(df.shape)\n');
  const run = runCli(['run', script, '--data', SALES], { env });
  assert.equal(run.status, 4);
  assert.match(run.stderr, /python|Python/);
  const pandas = runCli(['analyze', SALES, '--engine', 'pandas'], { env });
  assert.equal(pandas.status, 4, 'the pandas engine needs Python and says so');
});

void test('Parquet, gzip CSV and Excel files are read natively, with their types', async () => {
  const dir = tempDir();
  const parquet = join(dir, 'sales.parquet');
  await withDb((db) =>
    db.run(
      `COPY (SELECT * FROM read_csv(${literal(SALES)})) TO ${literal(parquet)} (FORMAT parquet)`,
    ),
  );
  const gz = join(dir, 'sales.csv.gz');
  writeFileSync(gz, gzipSync(readFileSync(SALES)));
  const xlsx = join(dir, 'shop.xlsx');
  const data = [
    ['day', 'store', 'visits', 'basket'],
    ...Array.from({ length: 120 }, (_, i) => [
      new Date(Date.UTC(2024, 0, 1 + i)),
      ['Alpha', 'Beta', 'Gamma'][i % 3] ?? 'Alpha',
      100 + ((i * 37) % 50),
      10 + ((i * 13) % 17) / 4,
    ]),
  ];
  await writeXlsxFile([{ sheet: 'Shop', data, dateFormat: 'yyyy-mm-dd' }]).toFile(xlsx);
  for (const [file, rowsExpected, format] of [
    [parquet, 5019, 'parquet'],
    [gz, 5019, 'csv'],
    [xlsx, 120, 'excel'],
  ] as const) {
    const r = analyze(file);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.ok(r.summary);
    assert.equal(r.summary.spec.source?.rows, rowsExpected, file);
    assert.equal(r.summary.spec.source?.format, format, file);
    assert.ok(
      r.summary.charts.some((c) => c.kind === 'line'),
      `${file}: a trend over its dates`,
    );
  }
  const sheet = runCli(['analyze', xlsx, '--sheet', 'Nope', '-o', join(dir, 'x.html')]);
  assert.equal(sheet.status, 2);
  assert.match(sheet.stderr, /Nope/);
  writeFileSync(join(dir, 'fake.parquet'), 'a,b\n1,2\n');
  const fake = runCli(['analyze', join(dir, 'fake.parquet')]);
  assert.equal(fake.status, 2);
  assert.match(fake.stderr, /not one/);
});

void test('decimal commas and day-first dates are read as numbers and dates, and charted', () => {
  const dir = tempDir();
  const lines = ['Datum;Filiale;Umsatz;Preis'];
  for (let i = 0; i < 200; i += 1) {
    const d = new Date(Date.UTC(2024, 0, 1 + i));
    const day = `${String(d.getUTCDate()).padStart(2, '0')}.${String(d.getUTCMonth() + 1).padStart(2, '0')}.${d.getUTCFullYear()}`;
    const amount = 1000 + ((i * 7919) % 5000) + 0.25;
    const text = amount
      .toFixed(2)
      .replace('.', ',')
      .replace(/(\d)(\d{3}),/, '$1.$2,');
    lines.push(
      `${day};${['Nord', 'Süd', 'Ost'][i % 3]};${text};${(5 + (i % 9) / 2).toFixed(1).replace('.', ',')}`,
    );
  }
  const file = join(dir, 'umsatz.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = analyze(file);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.summary);
  const used = charted(r.summary);
  assert.ok(used.has('Umsatz'), `Umsatz is charted as a number: ${[...used].join(', ')}`);
  assert.ok(used.has('Datum'), 'Datum is charted as time');
  assert.ok(r.summary.charts.some((c) => c.kind === 'line'));
});

void test('infinities in a Parquet file or a CSV are numbers left out of the statistics, never a failed run', async () => {
  const dir = tempDir();
  const parquet = join(dir, 'inf.parquet');
  await withDb((db) =>
    db.run(
      `COPY (SELECT i AS id, CASE WHEN i % 50 = 0 THEN 'inf'::DOUBLE WHEN i % 77 = 0 THEN '-inf'::DOUBLE ELSE ((i * 7) % 100) + 0.5 END AS x, ((i * 13) % 90) + 1.5 + (i % 7) AS y, (['a', 'b', 'c'])[1 + i % 3] AS g FROM range(600) t(i)) TO ${literal(parquet)} (FORMAT parquet)`,
    ),
  );
  const csv = join(dir, 'inf.csv');
  const lines = ['id,x,y,g'];
  for (let i = 0; i < 600; i += 1) {
    const x = i % 50 === 0 ? 'inf' : i % 77 === 0 ? '-Infinity' : String(((i * 7) % 100) + 0.5);
    lines.push(`${i},${x},${((i * 13) % 90) + 1.5 + (i % 7)},${['a', 'b', 'c'][i % 3]}`);
  }
  writeFileSync(csv, `${lines.join('\n')}\n`);
  for (const file of [parquet, csv]) {
    const r = analyze(file);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.ok(r.json && r.summary, r.stdout);
    assert.ok(r.summary.charts.length >= 2, r.stdout);
    const text = JSON.stringify(r.json);
    assert.doesNotMatch(text, /stored as text in: x/, 'x is read as numbers');
    assert.doesNotMatch(text, /out of range/i);
  }
});

/** The y values of every bar and line the report draws, by chart title. */
function drawnValues(html: string): Map<string, unknown[]> {
  const drawn = new Map<string, unknown[]>();
  for (const [, body] of html.matchAll(
    /<script type="application\/json" id="fig-\d+">(.*?)<\/script>/gs,
  )) {
    const fig = JSON.parse(body ?? '{}') as {
      data: { type: string; y?: unknown[] }[];
      layout: { title?: { text?: string } };
    };
    const ys = fig.data
      .filter((t) => t.type === 'bar' || t.type === 'scatter')
      .flatMap((t) => t.y ?? []);
    drawn.set(fig.layout.title?.text ?? '', ys);
  }
  return drawn;
}

void test('a measure holding infinities is drawn by its median, with a note, in both engines: no bar or point left empty', () => {
  const dir = tempDir();
  const lines = ['date,region,sales,price'];
  for (let i = 0; i < 300; i += 1) {
    const sales = i === 17 ? 'inf' : String(1 + ((i * 37) % 90));
    const price = i === 40 ? 'inf' : i === 99 ? '-inf' : String(5 + ((i * 53) % 450) / 10);
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push(`2024-01-${day},${['East', 'West', 'North'][(i * 7) % 3]},${sales},${price}`);
  }
  const file = join(dir, 'infinite.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const runs = [analyze(file), analyze(file, ['--engine', 'pandas'])];
  for (const r of runs) {
    assert.equal(r.status, 0, r.stderr);
    const charts = (r.json?.charts ?? []) as {
      title: string;
      derivation?: { measure: string | null; agg: string };
    }[];
    const aggs = charts
      .filter((c) => c.derivation?.measure === 'sales' || c.derivation?.measure === 'price')
      .map((c) => c.derivation?.agg);
    assert.ok(aggs.includes('median'), `some chart of a measure: ${JSON.stringify(charts)}`);
    for (const agg of aggs) assert.ok(agg === 'median' || agg === 'none', `agg ${agg}`);
    assert.ok(
      charts.some((c) => c.title === 'Median price by region'),
      JSON.stringify(charts),
    );
    assert.ok(
      !charts.some((c) => /^Share of sales/.test(c.title)),
      'no share of an infinite total',
    );
    for (const [title, ys] of drawnValues(r.html))
      assert.ok(
        ys.every((y) => typeof y === 'number' && Number.isFinite(y)),
        `${title}: ${JSON.stringify(ys)}`,
      );
    assert.match(r.html, /Medians: price holds 2 infinite values/);
    // The histogram, the findings and the summary table say what their figures leave out: the
    // findings' median is of the finite values, the table's quartiles (describe()) count them all.
    assert.match(
      r.html,
      /price holds 2 infinite values, which no bin or box can hold: they are left out\./,
    );
    const texts = (r.json?.insights ?? []).map((i) => i.text);
    assert.ok(
      texts.some((t) =>
        /^The median price is [\d.]+; .*, over its 298 finite values \(2 infinite values left out\)\.$/.test(
          t,
        ),
      ),
      JSON.stringify(texts),
    );
    assert.ok(
      texts.some((t) => /^Price's finite values are /.test(t)),
      JSON.stringify(texts),
    );
    assert.ok(texts.some((t) => /^The median sales is .*\(1 infinite value left out\)\.$/.test(t)));
    assert.match(
      r.html,
      /Infinities in sales \(an infinite value\), price \(2 infinite values\): their mean, std, min and max are not finite numbers and show as —/,
    );
  }
  const [duck, pandas] = runs.map((r) => [...drawnValues(r.html)]);
  assert.deepEqual(duck, pandas, 'both engines draw the same values');
  // DuckDB types the date column as it reads it: pandas' "dates stored as text" flag is its alone.
  const findings = runs.map((r) =>
    (r.json?.insights ?? []).map((i) => i.text).filter((t) => !/stored as text/.test(t)),
  );
  assert.deepEqual(findings[0], findings[1], 'both engines find the same');
});

void test('column names that try to change a query are only names', () => {
  const dir = tempDir();
  const names = ['a"b', 'x; DROP TABLE data; --', "it's", 'multi\nline'];
  const lines = [names.map((n) => `"${n.replaceAll('"', '""')}"`).join(',')];
  for (let i = 0; i < 60; i += 1) lines.push([['p', 'q', 'r'][i % 3], i * 1.5, i % 7, i].join(','));
  const file = join(dir, 'evil.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const r = analyze(file);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.summary);
  assert.equal(r.summary.spec.source?.columns, 4);
  assert.ok(r.summary.charts.length >= 2);
  assert.ok(charted(r.summary).has('x; DROP TABLE data; --') || charted(r.summary).has("it's"));
});

void test("column names the engine's own queries use as aliases (val, n, t, grp, …) are only names", () => {
  const dir = tempDir();
  // Narrow (one grouped query per column) and wide (all columns stacked in one): both profile paths.
  const narrow = ['region', 'val', 'n', 't'];
  const wide = ['val', 'n', 't', 'k', 's', 'd', 'g', 'nm', 'top', 'grp', 'cum', 'total', 'a', 'b'];
  wide.push('v', 'x', 'p', 'rid', 'size', 'first', 'series', 'group', 'lo', 'hi');
  for (const [name, header] of [
    ['narrow', narrow],
    ['wide', wide],
  ] as const) {
    const lines = [header.join(',')];
    for (let i = 0; i < 80; i += 1)
      lines.push(
        header
          .map((_, c): string => (c === 0 ? `R${i % 3}` : String(((i * (c + 1)) % 17) + 0.5)))
          .join(','),
      );
    const file = join(dir, `${name}.csv`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = analyze(file);
    assert.equal(r.status, 0, `${name}: ${r.stderr}`);
    assert.ok(r.summary);
    assert.equal(r.summary.spec.source?.columns, header.length);
    assert.ok(
      charted(r.summary).has('val'),
      `${name}: val is charted: ${[...charted(r.summary)].join(', ')}`,
    );
  }
});

void test('sessions export writes analysis.sql and its pandas twin, which opsmind run re-runs', () => {
  const r = analyze(SALES);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.json);
  const dir = join(tempDir(), 'export');
  const exported = runCli(['sessions', 'export', r.json.session_id, dir]);
  assert.equal(exported.status, 0, exported.stderr);
  assert.match(readFileSync(join(dir, 'analysis.sql'), 'utf8'), /GROUP BY/i);
  const program = join(dir, 'analysis.py');
  assert.match(readFileSync(program, 'utf8'), /declare_chart/);
  const rerun = runCli(['run', program, '--data', SALES, '--json', '-o', join(dir, 'r.html')]);
  assert.equal(rerun.status, 0, rerun.stderr);
  const again = JSON.parse(rerun.stdout) as { charts: unknown[] };
  assert.equal(again.charts.length, r.summary?.charts.length);
});

void test('a CSV several times larger than --memory-mb is reported over all its rows, with memory bounded', async () => {
  const dir = tempDir();
  const file = join(dir, 'big.csv');
  const rows = 10_000_000;
  await withDb((db) =>
    db.run(
      `COPY (SELECT DATE '2020-01-01' + (i % 1461)::INT AS day, ['North','South','East','West'][1 + i % 4] AS region,
        'P' || (i % 500) AS product, (i * 7919) % 97 + 1 AS units, round(((i * 104729) % 10000) / 100.0, 2) AS price
        FROM range(${rows}) t(i)) TO ${literal(file)} (HEADER)`,
    ),
  );
  const size = statSync(file).size;
  const limitMb = 96;
  assert.ok(size > 2.9 * limitMb * 2 ** 20, `the file (${size} bytes) is several times the limit`);
  const out = join(dir, 'big.html');
  const timed = spawnSync(
    '/usr/bin/time',
    [
      '-f',
      '%M',
      process.execPath,
      join(ROOT, 'bin', 'opsmind.js'),
      'analyze',
      file,
      '--memory-mb',
      String(limitMb),
      '--json',
      '-o',
      out,
    ],
    {
      encoding: 'utf8',
      env: {
        ...process.env,
        OPSMIND_HOME: testHome(),
        OPSMIND_DB: '',
        OPENAI_API_KEY: '',
        OPENAI_BASE_URL: '',
      },
      timeout: 240_000, // a guard: the run takes about 25 s alone, longer beside other tests
    },
  );
  assert.equal(timed.status, 0, timed.stderr);
  const peakMb = Number(timed.stderr.trim().split('\n').at(-1)) / 1024;
  const summary = JSON.parse(readFileSync(out.replace(/\.html$/, '.json'), 'utf8')) as Summary;
  assert.equal(summary.spec.source?.rows, rows);
  assert.ok(summary.charts.length >= 4);
  // DuckDB's limit bounds its buffer pool, not every allocation (window operators such as the ranks
  // behind Spearman's rho hold more): the whole process stays within the 10M-row goal of 1.5 GB.
  assert.ok(
    peakMb < 1536,
    `peak ${peakMb.toFixed(0)} MB for a ${(size / 2 ** 20).toFixed(0)} MB file`,
  );
});

void test('a query past the memory limit ends with one clear line and exit 4, not a crash', async () => {
  const dir = tempDir();
  const file = join(dir, 'wide.csv');
  await withDb((db) =>
    db.run(
      `COPY (SELECT i AS id, 'name-' || i AS name, md5(i::VARCHAR) AS token, i * 0.5 AS value
        FROM range(2000000) t(i)) TO ${literal(file)} (HEADER)`,
    ),
  );
  const r = runCli(['analyze', file, '--memory-mb', '16', '-o', join(dir, 'r.html')]);
  assert.equal(r.status, 4, r.stderr);
  const lines = r.stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('opsmind:'));
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0] ?? '', /memory limit \(raise it with --memory-mb\)/);
});

void test('the sandbox reads decimal commas and day-first dates as the engine does: the pandas twin of a German export re-runs whole', () => {
  const data = join(ROOT, 'examples', 'umsatz-filialen.csv');
  const r = analyze(data);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.json);
  const dir = join(tempDir(), 'export');
  assert.equal(runCli(['sessions', 'export', r.json.session_id, dir]).status, 0);
  const rerun = runCli([
    'run',
    join(dir, 'analysis.py'),
    '--data',
    data,
    '--json',
    '-o',
    join(dir, 'r.html'),
  ]);
  assert.equal(rerun.status, 0, rerun.stderr);
  assert.doesNotMatch(rerun.stderr, /failed/);
  const again = JSON.parse(rerun.stdout) as { charts: unknown[] };
  assert.equal(again.charts.length, r.summary?.charts.length);
  const script = join(dir, 'types.py');
  writeFileSync(
    script,
    'print(df["Umsatz (EUR)"].dtype, df["Kunden"].dtype, df["Datum"].dtype, round(df["Umsatz (EUR)"].iloc[0], 2), df["Datum"].iloc[0].month, df["Datum"].max().date())\n',
  );
  const types = runCli(['run', script, '--data', data, '-o', join(dir, 'types.html')]);
  assert.equal(types.status, 0, types.stderr);
  // Day-first dates are dates in df too: 01.01.2024 … 28.12.2024, never 12 January read month first.
  assert.match(types.stdout, /float64 int64 datetime64\[ns\] 12066\.53 1 2024-12-28/);
  // The pandas engine reads the same numbers and the same day-first dates (the host's reading,
  // as df has them): its charts and findings are the engine's, trends over the days included.
  const pandas = analyze(data, ['--engine', 'pandas']);
  assert.equal(pandas.status, 0, pandas.stderr);
  const pandasFindings = (pandas.json?.insights ?? []).map((i) => i.text);
  assert.ok(pandasFindings.some((t) => /München accounts for 25\.1% of Umsatz/.test(t)));
  assert.deepEqual(
    (pandas.json?.charts ?? []).map((c) => c.title),
    (r.json.charts ?? []).map((c) => c.title),
  );
  assert.ok(pandas.json?.charts?.some((c) => c.title === 'Umsatz (EUR) per week'));
  assert.deepEqual(
    pandasFindings,
    r.json.insights.map((i) => i.text),
  );
});

void test('a column named rowid (any case) is refused in one line with a way out, never analysed out of order', () => {
  const dir = tempDir();
  for (const [name, values] of [
    ['rowid', ['x1', 'x2', 'b7']],
    ['RowID', ['3', '1', '2']],
  ] as const) {
    const file = join(dir, `${name}.csv`);
    writeFileSync(
      file,
      `${name},region,amount\n${values.map((v, i) => `${v},r${i % 2},${i + 1}`).join('\n')}\n`,
    );
    const r = runCli(['analyze', file, '--no-llm', '-o', join(dir, `${name}.html`)]);
    assert.equal(r.status, 2, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.match(
      lines[0] ?? '',
      new RegExp(`^opsmind: the column "${name}" has the name DuckDB gives the row number`),
    );
    assert.match(r.stderr, /hint: rename the column .*--engine pandas/);
    assert.doesNotMatch(r.stderr, /Binder Error|Conversion Error/);
  }
});

void test('years before pandas’ first timestamp (1677) are charted and their trend is stated (wheat.json, from 1565)', () => {
  const r = analyze(join(ROOT, 'node_modules', 'vega-datasets', 'data', 'wheat.json'));
  assert.equal(r.status, 0, r.stderr);
  const texts = (r.json?.insights ?? []).map((i) => i.text);
  assert.ok(texts.includes('Wages grew 500% from 1565 to 1810 (5 → 30).'), texts.join('\n'));
  assert.ok(texts.includes('Wages was lowest at 5 in 1565.'), texts.join('\n'));
});
