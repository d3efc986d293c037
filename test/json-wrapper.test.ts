/**
 * A .json file that is one object wrapping its records (source-wrapper.ts,
 * opsmind_data._read_wrapped): its one key of records is the table, read alike by the DuckDB
 * engine and the sandbox's pandas reader, every number as written; a wrapper of several keys of
 * records, or of none, is refused in one line naming them; end to end with both engines.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { recordKeys, unwrapWarning } from '../src/engine/source-wrapper.js';
import { ExitCode, OpsmindError } from '../src/shared/exit-codes.js';
import { tableRows, tableSchema, testDatabase } from './helpers/data-table.js';
import { ROOT, runCli, tempDir } from './helpers/fixtures.js';
import { bothEngines, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-json-wrapper-');
const scratchDir = join(dir, 'scratch');
const database = testDatabase(dir);
after(() => rmSync(dir, { recursive: true, force: true }));

/** The file as each engine reads it: columns, rows, warnings. */
async function bothReads(name: string, content: string) {
  const path = join(dir, name);
  writeFileSync(path, content);
  const info = await attachSource(database(), path, { scratchDir });
  const rows = await tableRows(database());
  const pandas = pandasRead<{ columns: string[]; rows: unknown[][]; warnings: string[] }>(
    path,
    'print(json.dumps({"columns": list(df.columns), "rows": json.loads(df.to_json(orient="values")), "warnings": w}))',
  );
  return { info, rows, pandas };
}

void test("an API's wrapper on one line: its one key of records is the table, as pandas reads it", async () => {
  const wrapped =
    '{"meta":{"n":3,"next":null},"rows":[{"a":1.0,"b":{"c":2},"t":"x"},{"a":2.5,"b":{"c":3},"t":"Łódź"},{"a":2,"b":null,"t":null}],"status":"ok"}';
  const { info, rows, pandas } = await bothReads('wrapped.json', wrapped);
  assert.equal(info.format, 'json');
  assert.equal(info.rows, 3);
  assert.deepEqual(info.warnings, [
    'read the 3 records under "rows", leaving out "meta", "status"',
  ]);
  // 1.0 and 2 beside 2.5: numbers as the file wrote them, one column of doubles; the object spread.
  assert.deepEqual(await tableSchema(database()), { a: 'DOUBLE', 'b.c': 'BIGINT', t: 'VARCHAR' });
  assert.deepEqual(
    rows.map((r) => Object.values(r)),
    [
      [1, 2, 'x'],
      [2.5, 3, 'Łódź'],
      [2, null, null],
    ],
  );
  mkdirSync(scratchDir, { recursive: true });
  assert.deepEqual(readdirSync(scratchDir), [], 'the lines written for the read are removed');
  assert.deepEqual(pandas.columns, Object.keys(rows[0] ?? {}));
  assert.deepEqual(
    pandas.rows,
    rows.map((r) => Object.values(r)),
  );
  assert.deepEqual(pandas.warnings, info.warnings);
});

void test("Elasticsearch's hits one object down, pretty-printed, and a key that needs escaping", async () => {
  const search = JSON.stringify(
    {
      took: 5,
      hits: {
        total: 2,
        hits: [
          { _id: 'a', _source: { x: 1.5, y: 'p' } },
          { _id: 'b', _source: { x: 3, y: 'q' } },
        ],
      },
    },
    null,
    2,
  );
  const es = await bothReads('search.json', search);
  assert.deepEqual(es.info.warnings, [
    'read the 2 records under "hits"."hits", leaving out "took"',
  ]);
  assert.deepEqual(Object.keys(es.rows[0] ?? {}), ['_id', '_source.x', '_source.y']);
  assert.deepEqual(es.pandas.rows, [
    ['a', 1.5, 'p'],
    ['b', 3, 'q'],
  ]);
  assert.deepEqual(
    es.pandas.rows,
    es.rows.map((r) => Object.values(r)),
  );
  assert.deepEqual(es.pandas.warnings, es.info.warnings);
  // A JSON Pointer's "/" and "~", and a quote, in the key; one record.
  const odd = await bothReads('odd.json', '{"a/b~\\"c": [{"v": 1}]}');
  assert.deepEqual(odd.info.warnings, ['read the 1 record under "a/b~\\"c"']);
  assert.deepEqual(odd.rows, [{ v: 1 }]);
  assert.deepEqual(odd.pandas.warnings, odd.info.warnings);
});

void test('records at the top win over records one object down; several keys of records are refused', async () => {
  assert.deepEqual(
    recordKeys({ data: [{ a: 1 }], page: { items: [{ b: 2 }] } }).map((k) => k.path),
    [['data']],
  );
  assert.deepEqual(recordKeys({ data: [], empty: [null], list: [1, 2], grid: [[1]] }), []);
  assert.equal(
    unwrapWarning(
      { keys: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'data'], records: [] },
      { path: ['data'], records: 12_345 },
    ),
    'read the 12,345 records under "data", leaving out "a", "b", "c", "d", "e", …',
  );
  const refused = async (name: string, content: string, hint: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    await assert.rejects(attachSource(database(), path, { scratchDir }), (error: unknown) => {
      assert.ok(error instanceof OpsmindError, String(error));
      assert.equal(error.exitCode, ExitCode.BAD_INPUT);
      assert.match(error.message, /^not a JSON records file: it holds one object \(/);
      assert.equal(error.hint, hint);
      return true;
    });
  };
  // JSON:API's data and included, one object down: which is the table is the user's choice.
  await refused(
    'api.json',
    JSON.stringify({ response: { data: [{ id: 1 }], included: [{ id: 2 }, { id: 3 }] } }),
    'its keys "response"."data" (1) and "response"."included" (2) hold records: pass --records response.data (or another of them) to read one',
  );
  await refused(
    'config.json',
    '{"name": "x", "size": 3}',
    'save the data as an array of objects ([{…}, {…}]) or as one object per line (JSON lines)',
  );
});

void test('a wrapped file end to end: both engines chart and state the same', () => {
  const rows = Array.from({ length: 240 }, (_, i) => ({
    day: `2024-0${1 + (i % 6)}-${String(1 + (i % 27)).padStart(2, '0')}`,
    city: ['Oslo', 'Lima', 'Pune'][i % 3],
    temp: Math.round(100 * Math.sin(i) + 1500) / 100,
    sales: (i * 37) % 101,
  }));
  const file = join(dir, 'api-dump.json');
  writeFileSync(file, JSON.stringify({ meta: { source: 'api', count: rows.length }, data: rows }));
  const { duck, pandas } = bothEngines(file, dir);
  assert.ok(duck.charts.length >= 4, duck.charts.join('; '));
  assert.deepEqual(pandas.charts, duck.charts);
  // DuckDB types the date column as it reads it: pandas' "dates stored as text" flag is its alone.
  const parsed = (t: string): boolean => !/^dates stored as text in/.test(t);
  assert.deepEqual(pandas.findings.filter(parsed), duck.findings);
  assert.ok(
    duck.findings.some((t) => /^Oslo accounts for/.test(t)),
    duck.findings.join('\n'),
  );
});

/** A graph's file: two keys of records, "nodes" and "links" (as vega's miserables.json). */
function graphFile(): string {
  const path = join(dir, 'graph.json');
  const nodes = Array.from({ length: 12 }, (_, i) => ({ name: `n${i}`, group: i % 3 }));
  const links = Array.from({ length: 40 }, (_, i) => ({
    source: i % 12,
    target: (i * 5) % 12,
    value: 1 + (i % 7),
  }));
  writeFileSync(path, JSON.stringify({ nodes, links }));
  return path;
}

void test('--records picks the key of several whose records are the table, alike in both readers', async () => {
  const path = graphFile();
  const info = await attachSource(database(), path, { scratchDir, records: 'links' });
  assert.equal(info.rows, 40);
  assert.deepEqual(info.warnings, ['read the 40 records under "links", leaving out "nodes"']);
  assert.deepEqual(Object.keys(await tableSchema(database())), ['source', 'target', 'value']);
  // The sandbox's reader, told the same key by the host (SandboxNumbers.records).
  const program =
    'import json, sys, opsmind_data as d\ndf, info, w = d.read_dataset(sys.argv[1], {"records": "links"})\n' +
    'print(json.dumps({"columns": list(df.columns), "rows": len(df), "warnings": w}))';
  const out = execFileSync('/usr/bin/python3', ['-c', program, path], {
    env: { PATH: '/usr/bin:/bin', PYTHONPATH: join(ROOT, 'preamble') },
    encoding: 'utf8',
  });
  assert.deepEqual(JSON.parse(out), {
    columns: ['source', 'target', 'value'],
    rows: 40,
    warnings: ['read the 40 records under "links", leaving out "nodes"'],
  });
  // A key that holds no records names those that do.
  await assert.rejects(
    attachSource(database(), path, { scratchDir, records: 'edges' }),
    (error: unknown) => {
      assert.ok(error instanceof OpsmindError, String(error));
      assert.equal(error.exitCode, ExitCode.BAD_INPUT);
      assert.equal(error.message, '--records edges: no key of the file by that name holds records');
      assert.equal(error.hint, 'keys that hold records: nodes (12) and links (40)');
      return true;
    },
  );
  // On a file that wraps nothing it does nothing, and says so.
  const csv = join(dir, 'plain.csv');
  writeFileSync(csv, 'a,b\n1,2\n3,4\n');
  const plain = await attachSource(database(), csv, { scratchDir, records: 'links' });
  assert.deepEqual(plain.warnings, [
    '--records applies to a JSON file that is one object wrapping its records; ignored',
  ]);
});

void test('opsmind analyze --records, end to end: refused without it (exit 2, the hint names it), read with it by both engines', () => {
  const path = graphFile();
  const refused = runCli(['analyze', path, '--no-llm', '-o', join(dir, 'g.html')]);
  assert.equal(refused.status, ExitCode.BAD_INPUT, refused.stderr);
  assert.match(refused.stderr, /pass --records nodes \(or another of them\) to read one/);
  const titles: string[][] = [];
  for (const engine of ['duckdb', 'pandas']) {
    const r = runCli(
      [
        'analyze',
        path,
        '--records',
        'links',
        '--engine',
        engine,
        '--no-llm',
        '--json',
        '-o',
        join(dir, `graph-${engine}.html`),
      ],
      { env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' } },
    );
    assert.equal(r.status, 0, `${engine}: ${r.stderr}`);
    const summary = JSON.parse(r.stdout) as {
      charts: { title: string; derivation: { rows_used: number | null } }[];
      warnings: string[];
    };
    assert.ok(
      summary.warnings.includes('read the 40 records under "links", leaving out "nodes"'),
      `${engine}: ${JSON.stringify(summary.warnings)}`,
    );
    titles.push(summary.charts.map((c) => c.title));
    // The DuckDB engine says how many rows each chart used (the pandas engine does not).
    if (engine === 'duckdb')
      for (const chart of summary.charts) assert.equal(chart.derivation.rows_used, 40);
  }
  assert.ok((titles[0] ?? []).length > 0);
  assert.deepEqual(titles[1], titles[0]);
});
