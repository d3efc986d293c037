/**
 * Columns lined up with spaces (" 0   0    0"): found by both readers alike, split at every run
 * of blanks as pandas' sep=r"\s+" splits them, and read by DuckDB from a tab-separated copy.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { attachSource } from '../src/engine/source.js';
import { sniffDelimiter } from '../src/engine/source-dialect.js';
import {
  splitWhitespace,
  tabbed,
  WHITESPACE,
  writeTabbed,
} from '../src/engine/source-whitespace.js';
import { tableSchema, tableValues, testDatabase } from './helpers/data-table.js';
import { preamblePython, tempDir } from './helpers/fixtures.js';
import { bothEngines, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-whitespace-');
const db = testDatabase(dir);

/** Samples and the delimiter each is read with (WHITESPACE: runs of blanks). */
const SAMPLES: [string, string][] = [
  [' 0   0    0\n 1   1    1\n 2   4    8\n 3   9   27\n', WHITESPACE],
  ['  x      y\n 1.5    2\n 3.25   4\n 7      8\n', WHITESPACE],
  ['a  b\n1  2\n3  4\n5  6\n', WHITESPACE],
  // A trailing space on every line of single spaces: pandas' split needs the runs rule too.
  ['x y \n1 2 \n3 4 \n', WHITESPACE],
  ['"unit name"   value\n"north west"   1\n"south"        2\n', WHITESPACE],
  ['t\tv  w\n1\t2   3\n4\t5   6\n', '\t'],
  // Lines that split unevenly, or columns of words only: one column, as before.
  ['a  b\n1  2  3\n4  5\n6  7  8\n', ','],
  ['first  last\nAda  Lovelace\nAlan  Turing\nGrace  Hopper\n', ','],
  ['note\nsold  out\nrain  all day\n', ','],
  // A comma splits every line: the spaces inside its fields never count.
  ['city,  note\nParis,  rain  all day\nRome,  sun\n', ','],
];

void test('sniffDelimiter: runs of blanks between lined-up columns, as the Python decides', () => {
  for (const [sample, expected] of SAMPLES)
    assert.equal(sniffDelimiter(sample, ','), expected, sample);
  const python = preamblePython<string[]>(
    'import json, sys, opsmind_data as d\nprint(json.dumps([d.sniff_delimiter(s) for s in json.load(sys.stdin)]))',
    SAMPLES.map(([sample]) => sample),
  );
  assert.deepEqual(
    python,
    SAMPLES.map(([, expected]) => expected),
  );
});

/** Lines that exercise every branch of the split: quotes, tabs, blank lines, CR, CR LF, a cut quote. */
const AWKWARD = [
  '  a   b \t c  ',
  '',
  '   ',
  '"x  y"  z',
  '"a ""q"" b"   2',
  'ab"c d"e  f',
  '"unclosed  field',
  '1\t\t2',
  'a  b\r\n1  2\r\n\r\n3  4\r',
  'p q\rr  s\n',
];

void test('splitWhitespace and tabbed split as the Python reader does', () => {
  const python = preamblePython<[string[][], string[]]>(
    'import json, sys, opsmind_data as d\nt = json.load(sys.stdin)\n' +
      'print(json.dumps([[d.split_whitespace(s) for s in t], [d.tabbed(s) for s in t]]))',
    AWKWARD,
  );
  assert.deepEqual(python, [AWKWARD.map(splitWhitespace), AWKWARD.map(tabbed)]);
  assert.deepEqual(splitWhitespace('  a   b \t c  '), ['a', 'b', 'c']);
  assert.deepEqual(splitWhitespace('"x  y"  z'), ['"x  y"', 'z']);
  assert.equal(tabbed('a  b\r\n1  2\r\n\r\n3  4\r'), 'a\tb\n1\t2\n\n3\t4\n');
});

void test('writeTabbed: the copy is tabbed() of the whole text, line ends split across chunks', async () => {
  // ~3 MB of CR LF lines (a CR and its LF fall on either side of 1 MiB reads), blank lines, quotes.
  const lines = Array.from({ length: 120_000 }, (_, i) =>
    i % 997 === 0
      ? ''
      : i % 501 === 0
        ? `"n ${i}"   ${i}  \t x`
        : `  ${i}    ${i * 0.5}   y${i % 7}`,
  );
  const text = lines.join('\r\n') + '\r\n';
  const plain = join(dir, 'lined.txt');
  writeFileSync(plain, text);
  const gz = join(dir, 'lined.txt.gz');
  writeFileSync(gz, gzipSync(text));
  for (const [from, gzip] of [
    [plain, false],
    [gz, true],
  ] as const) {
    const out = join(dir, `copy-${String(gzip)}.tsv`);
    await writeTabbed(from, gzip, out);
    assert.equal(readFileSync(out, 'utf8'), tabbed(text), from);
  }
});

/** A lined-up file as instruments and Fortran write one: a title, a header, CR LF, a blank line, quoted names. */
const LINED = [
  'READINGS',
  '  site            day    temp     rain',
  '  "north ridge"   1      12.5     0.0',
  '  valley          1       9.25    3.5',
  '',
  '  "north ridge"   2      -1.0     0.25',
  '  valley          2      10       12',
].join('\r\n');

void test('a lined-up file is read alike by DuckDB and by pandas, title skipped, names unquoted', async () => {
  const path = join(dir, 'stations.dat');
  writeFileSync(path, `${LINED}\r\n`);
  const info = await attachSource(db(), path, { scratchDir: join(dir, 'scratch') });
  assert.deepEqual([info.format, info.delimiter, info.rows, info.columns], ['csv', '\\s+', 4, 4]);
  assert.deepEqual(await tableSchema(db()), {
    site: 'VARCHAR',
    day: 'BIGINT',
    temp: 'DOUBLE',
    rain: 'DOUBLE',
  });
  const duck = await tableValues(db());
  assert.deepEqual(duck, [
    '["north ridge",1,12.5,0]',
    '["valley",1,9.25,3.5]',
    '["north ridge",2,-1,0.25]',
    '["valley",2,10,12]',
  ]);
  assert.ok(info.warnings.some((w) => w.includes('skipped 1 line(s) above the header')));
  const pandas = pandasRead<{ rows: string[]; delimiter: string; warnings: string[] }>(
    path,
    'print(json.dumps({"rows": [json.dumps(r, separators=(",", ":")) for r in df.values.tolist()], ' +
      '"delimiter": info["delimiter"], "warnings": w}))',
  );
  assert.deepEqual(
    pandas.rows.map((r) => r.replace(/\.0\b/g, '')),
    duck.map((r) => r.replace(/\.0\b/g, '')),
  );
  assert.equal(pandas.delimiter, info.delimiter);
  assert.ok(pandas.warnings.some((w) => w.includes('skipped 1 line(s) above the header')));
});

void test('a headerless lined-up file of numbers: both engines chart its columns alike', () => {
  const path = join(dir, 'powers.csv');
  const rows = Array.from({ length: 40 }, (_, i) =>
    [i, i * i, i ** 3].map((v, j) => String(v).padStart(4 + j * 2)).join(''),
  );
  writeFileSync(path, `${rows.join('\n')}\n`);
  const { duck, pandas } = bothEngines(path, dir);
  assert.deepEqual(pandas, duck);
  assert.ok(duck.charts.length >= 2, duck.charts.join('\n'));
  assert.ok(
    duck.charts.some((t) => t.includes('column_3')),
    duck.charts.join('\n'),
  );
});
