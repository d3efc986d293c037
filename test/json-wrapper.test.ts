/**
 * A .json file that is one object wrapping its records (source-wrapper.ts,
 * opsmind_data._read_wrapped): its one key of records is the table, read alike by the DuckDB
 * engine and the sandbox's pandas reader, every number as written; a wrapper of several keys of
 * records, or of none, is refused in one line naming them; end to end with both engines.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { recordKeys, unwrapWarning } from '../src/engine/source-wrapper.js';
import { ExitCode, OpsmindError } from '../src/shared/exit-codes.js';
import { tableRows, tableSchema, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
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
    'its keys "response"."data" (1) and "response"."included" (2) hold records: save one of those arrays as the file',
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
