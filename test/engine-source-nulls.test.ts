/**
 * Reading pandas' missing texts ('NA', 'null', 'NaN', …) on a real DuckDB: a read that takes only
 * the empty field as missing and makes the rest missing in its query (faster), a read redone with
 * the whole list when a typed column meets one past the sample (a wide file's shorter sample too),
 * and the file's row order kept.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { localeSampleRows } from '../src/engine/source-csv.js';
import type { SourceInfo } from '../src/engine/types.js';
import { tableRows, tableSchema, tableValues, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';

const dir = tempDir('opsmind-source-nulls-');
const scratchDir = join(dir, 'scratch');
const database = testDatabase(dir);

async function attach(name: string, content: string): Promise<SourceInfo> {
  const path = join(dir, name);
  writeFileSync(path, content);
  return attachSource(database(), path, { scratchDir });
}

const schema = () => tableSchema(database());
const rows = () => tableRows(database());
const values = () => tableValues(database());

void test("pandas' missing texts, however the read finds them, read as pandas reads them", async () => {
  // The sample shows no missing text in a typed column: the table is read with the empty field
  // as its only missing text, and the query makes the rest missing.
  const tokens = ['#N/A', '#N/A N/A', '#NA', '-1.#IND', '-1.#QNAN', '-NaN', '-nan', '1.#IND'];
  const more = ['1.#QNAN', '<NA>', 'N/A', 'NA', 'NULL', 'NaN', 'None', 'n/a', 'nan', 'null'];
  const texts = [...tokens, ...more, 'NA ', ' null', 'Na', 'x'];
  const lines = texts.map((t, i) => `${i},${t.includes(' ') ? `"${t}"` : t}`);
  await attach('tokens.csv', ['n,t', ...lines].join('\n'));
  assert.deepEqual(await schema(), { n: 'BIGINT', t: 'VARCHAR' });
  const kept = (await rows()).map((row) => row.t);
  // "None" in a column of words is a level (damage: None), not a missing value.
  const level = (t: string): string | null => (t === 'None' ? t : null);
  assert.deepEqual(kept, [...texts.slice(0, 18).map(level), 'NA ', ' null', 'Na', 'x']);
  // NaN's spellings past the sample, in a column of numbers: missing, as pandas reads them; inf
  // stays a number.
  const numbers = Array.from({ length: 6000 }, (_, i) => `${i},${i / 4}`);
  const late = ['n,x', ...numbers, '6000,NaN', '6001,-nan', '6002,inf', '6003,'].join('\n');
  await attach('nan.csv', late);
  assert.deepEqual(await schema(), { n: 'BIGINT', x: 'DOUBLE' });
  const [counts] = await database().objects(
    'SELECT count(*) FILTER (WHERE x IS NULL) AS missing, count(*) FILTER (WHERE isnan(x)) AS nan, count(*) FILTER (WHERE isinf(x)) AS inf FROM data',
  );
  assert.deepEqual(counts, { missing: 3, nan: 0, inf: 1 });
  // "NA" first met past the sample in columns of whole numbers and dates: the read is redone
  // with every missing text, and the columns keep their types.
  const days = Array.from({ length: 6000 }, (_, i) => `${i},2024-01-0${(i % 9) + 1},${i}.5`);
  await attach('late-na.csv', ['n,d,x', ...days, 'NA,N/A,#N/A', '6001,null,None'].join('\n'));
  assert.deepEqual(await schema(), { n: 'BIGINT', d: 'DATE', x: 'DOUBLE' });
  const tail = (await rows()).slice(-2);
  assert.deepEqual(tail, [
    { n: null, d: null, x: null },
    { n: 6001, d: null, x: null },
  ]);
  // Seen in the sample, in a typed column: read with every missing text from the start. A text
  // column beside it keeps "None" as a word, its empty field and "NA" missing; unless the file
  // writes None for a missing number (a Python export): then None is its missing marker.
  await attach('mixed-na.csv', 'n,damage\n1,None\nNA,Minor\n3,\n4,NA\n');
  assert.deepEqual(await schema(), { n: 'BIGINT', damage: 'VARCHAR' });
  assert.deepEqual(await values(), ['[1,"None"]', '[null,"Minor"]', '[3,null]', '[4,null]']);
  await attach('python-na.csv', 'n,damage\n1,None\nNone,Minor\n3,\n');
  assert.deepEqual(await schema(), { n: 'BIGINT', damage: 'VARCHAR' });
  assert.deepEqual(await values(), ['[1,null]', '[null,"Minor"]', '[3,null]']);
  await attach('early-na.csv', 'n,x\n1,NA\n2,2.5\nNA,nan\n');
  assert.deepEqual(await schema(), { n: 'BIGINT', x: 'DOUBLE' });
  assert.deepEqual(await values(), ['[1,null]', '[2,2.5]', '[null,null]']);
});

void test('rows keep their file order (rowid) across many row groups, whichever missing texts', async () => {
  // A million rows, read in parallel over several buffers and row groups, as a big file is read
  // (a join in the read, such as DuckDB plans for a long IN list, lands them out of order here).
  const lines = (na: string) =>
    Array.from(
      { length: 1_000_000 },
      (_, i) => `${i},${['x', 'y', 'NA'][i % 3]},${i % 7 ? 1 : na}`,
    );
  for (const na of ['', 'NA']) {
    await attach('order.csv', ['i,label,x', ...lines(na)].join('\n'));
    const [row] = await database().objects(
      'SELECT count_if(i IS DISTINCT FROM rowid) AS moved, count(label) AS labels, count(x) AS xs FROM data',
    );
    assert.deepEqual(row, { moved: 0, labels: 666_667, xs: 857_142 }, `missing x as "${na}"`);
  }
});

void test('a wide file samples fewer rows for its locale, and what lies past them still reads', async () => {
  assert.equal(localeSampleRows(10), 5000);
  assert.equal(localeSampleRows(20), 5000);
  assert.equal(localeSampleRows(40), 2500);
  assert.equal(localeSampleRows(300), 500);
  assert.equal(localeSampleRows(5000), 500);
  // 300 columns of decimal commas in a ';' file: 500 rows sampled, all 800 read as numbers, and
  // the 'NA' of row 700 (past the sample) missing, as pandas reads it.
  const header = Array.from({ length: 300 }, (_, c) => `m${c}`).join(';');
  const lines = Array.from({ length: 800 }, (_, r) =>
    Array.from({ length: 300 }, (_, c) => (r === 700 && c === 299 ? 'NA' : `${r},${c % 10}`)).join(
      ';',
    ),
  );
  const info = await attach('wide-comma.csv', [header, ...lines].join('\n'));
  assert.equal(info.locale.decimal, ',');
  const [counts] = await database().objects(
    'SELECT count(*) AS n, count(m299) AS m299, sum(m0) AS m0, max(m299) AS top FROM data',
  );
  assert.deepEqual(counts, { n: 800, m299: 799, m0: 319600, top: 799.9 });
  assert.equal((await schema()).m299, 'DOUBLE');
});
