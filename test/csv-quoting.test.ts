/**
 * How a delimited file's quoting is read: pandas' ('"', doubled) when the file's start shows no
 * other, else what DuckDB's sniffer finds. Each case is read by both readers, pandas the oracle.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pandasQuoting } from '../src/engine/source-csv.js';
import { attachSource } from '../src/engine/source.js';
import { testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-quoting-');
const database = testDatabase(dir);

/** Writes `content`, attaches it, and returns the rows of `data` in file order as text. */
async function read(name: string, content: string): Promise<{ path: string; rows: string[][] }> {
  const path = join(dir, name);
  writeFileSync(path, content);
  await attachSource(database(), path, { scratchDir: join(dir, 'scratch') });
  const result = await database().all('SELECT * FROM data ORDER BY rowid');
  return {
    path,
    rows: result.rows.map((row) =>
      row.map((v) => (v === null ? '' : String(v as string | number))),
    ),
  };
}

/** The same file as pandas reads it (rows `from` to `to`): every value as text, missing as ''. */
const pandasRows = (path: string, from = 0, to = 100): string[][] =>
  pandasRead<string[][]>(
    path,
    `print(json.dumps(df.iloc[${from}:${to}].astype(object).where(df.notna(), "").astype(str).values.tolist()))`,
  );

void test("pandas' quoting is assumed only where the file's start shows no other", () => {
  assert.equal(pandasQuoting('id,name\n1,"Smith, John"\n2,"say ""hi"""\n'), true);
  assert.equal(pandasQuoting('id,name\n1,plain\n'), true);
  assert.equal(pandasQuoting("id,name\n1,O'Brien\n"), false);
  assert.equal(pandasQuoting('id,name\n1,"a \\"quoted\\" word"\n'), false);
});

void test("a quoted field far past the file's start is one field, as pandas reads it", async () => {
  const lines = ['id,name,amount'];
  for (let i = 1; i <= 60_000; i++)
    lines.push(i === 45_000 ? `${i},"Smith, John",7.5` : `${i},name ${i % 7},${i % 13}.25`);
  const { path, rows } = await read('late-quote.csv', `${lines.join('\n')}\n`);
  assert.equal(rows.length, 60_000);
  assert.deepEqual(rows[44_999], ['45000', 'Smith, John', '7.5']);
  assert.deepEqual(pandasRows(path, 44_999, 45_000), [['45000', 'Smith, John', '7.5']]);
});

void test('doubled quotes inside a quoted field are one quote, as pandas reads them', async () => {
  const content = 'id,said\n1,"she said ""hi"", then left"\n2,plain\n3,"two\nlines"\n';
  const { path, rows } = await read('doubled.csv', content);
  const expected = [
    ['1', 'she said "hi", then left'],
    ['2', 'plain'],
    ['3', 'two\nlines'],
  ];
  assert.deepEqual(rows, expected);
  assert.deepEqual(pandasRows(path), expected);
});

void test('apostrophes in the data are text, not quotes (the sniffer decides the dialect)', async () => {
  const content = "id,name,city\n1,O'Brien,Cork\n2,D'Arcy,'s-Hertogenbosch\n3,Smith,Rome\n";
  const { path, rows } = await read('apostrophes.csv', content);
  const expected = [
    ['1', "O'Brien", 'Cork'],
    ['2', "D'Arcy", "'s-Hertogenbosch"],
    ['3', 'Smith', 'Rome'],
  ];
  assert.deepEqual(rows, expected);
  assert.deepEqual(pandasRows(path), expected);
});
