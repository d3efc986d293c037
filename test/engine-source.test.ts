/** attachSource on a real DuckDB with real files: every format, encoding, dialect and locale case. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import writeXlsxFile from 'write-excel-file/node';
import { DuckDb, literal } from '../src/engine/duckdb.js';
import { attachSource, numberLocaleOf } from '../src/engine/source.js';
import { scanEncoding } from '../src/engine/source-encoding.js';
import { sampleDayFirst } from '../src/engine/source-dates.js';
import type { SourceInfo } from '../src/engine/types.js';
import { hashFile } from '../src/sandbox/data-file.js';
import { ExitCode, OpsmindError } from '../src/shared/exit-codes.js';
import { tableRows, tableSchema, tableValues } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-source-');
const scratchDir = join(dir, 'scratch');
let db: DuckDb;

before(async () => {
  db = await DuckDb.open({ memoryMb: 256, threads: 2, tempDir: join(dir, 'spill') });
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `content` as `name` in the test dir and attaches it. */
async function attach(name: string, content: string | Buffer, sheet?: string): Promise<SourceInfo> {
  const path = join(dir, name);
  writeFileSync(path, content);
  return attachSource(db, path, sheet === undefined ? { scratchDir } : { scratchDir, sheet });
}

const schema = () => tableSchema(db);
const rows = () => tableRows(db);
const values = () => tableValues(db);

/** Asserts that attaching `content` fails with BAD_INPUT matching `message`. */
async function rejects(name: string, content: string | Buffer, message: RegExp): Promise<void> {
  await assert.rejects(attach(name, content), (error: unknown) => {
    assert.ok(error instanceof OpsmindError, String(error));
    assert.equal(error.exitCode, ExitCode.BAD_INPUT);
    assert.match(error.message, message);
    assert.ok(!error.message.includes('\n'), 'one line');
    return true;
  });
}

void test('comma, semicolon, tab and pipe delimiters, with types and file order', async () => {
  const delimiters = { 'c.csv': ',', 's.csv': ';', 't.tsv': '\t', 'p.txt': '|' };
  for (const [name, sep] of Object.entries(delimiters)) {
    const text = ['id|city|score', '2|Oslo|1.5', '1|Rome|', '3|Nice|2'].join('\n');
    const info = await attach(name, text.replaceAll('|', sep));
    assert.deepEqual([info.format, info.delimiter, info.rows, info.columns], ['csv', sep, 3, 3]);
    assert.deepEqual(await schema(), { id: 'BIGINT', city: 'VARCHAR', score: 'DOUBLE' });
    assert.deepEqual(await values(), ['[2,"Oslo",1.5]', '[1,"Rome",null]', '[3,"Nice",2]']);
  }
});

void test('encodings: a cp1252 hole is found in any chunk, ASCII ones skipped, valid UTF-8 ones not', async () => {
  const ascii = Buffer.from('name,n\nabc,1\n');
  const aHole = Buffer.from('x\x81\xe9\n', 'latin1');
  assert.equal((await scanEncoding([ascii, ascii])).encoding, 'utf-8');
  assert.equal((await scanEncoding([ascii, aHole, ascii])).encoding, 'latin-1');
  // "Á" is C3 81 in UTF-8: a hole byte in a chunk that is valid UTF-8 still counts once a later chunk is not.
  const utf8WithHole = Buffer.from('Á,1\n');
  assert.equal(
    (await scanEncoding([utf8WithHole, Buffer.from('caf\xe9\n', 'latin1')])).encoding,
    'latin-1',
  );
  assert.equal(
    (await scanEncoding([ascii, Buffer.from('caf\xe9\n', 'latin1')])).encoding,
    'cp1252',
  );
});

void test('encodings: files of many chunks read through one reused buffer (a character across a chunk edge, a cp1252 byte past 3 MiB), and their hash', async () => {
  // "é" (C3 A9) starts on the last byte of the first MiB: the carry must outlive the buffer's reuse.
  const edge = (1 << 20) - 1;
  let head = 'name,n\n';
  for (let i = 0; head.length < edge - 40; i++) head += `${String(i).padStart(12, '0')},1\n`;
  head += `${'y'.repeat(edge - head.length)}é,1\n`;
  const body = Buffer.from(`${head}${'z,7\n'.repeat(800_000)}`);
  assert.equal(body.indexOf(Buffer.from('é')), edge);
  const utf8 = await attach('chunks-utf8.csv', body);
  assert.deepEqual([utf8.encoding, utf8.warnings], ['utf-8', []]);
  const cp = await attach(
    'chunks-cp.csv',
    Buffer.concat([body, Buffer.from('caf\xe9,2\n', 'latin1')]),
  );
  assert.ok(body.length > 3 << 20);
  assert.equal(cp.encoding, 'cp1252');
  assert.deepEqual(
    (await db.all(`SELECT name FROM data WHERE n = 2`)).rows.map((r) => r[0]),
    ['café'],
  );
  const path = join(dir, 'chunks-cp.csv');
  const whole = readFileSync(path);
  assert.deepEqual(await hashFile(path), {
    sha256: createHash('sha256').update(whole).digest('hex'),
    size: whole.length,
  });
});

void test('encodings: UTF-8 BOM, UTF-16 LE BOM, Windows-1252 and Latin-1 with warnings', async () => {
  const bom = await attach('bom.csv', '\ufeffname,n\ncafé,1\n');
  assert.deepEqual([bom.encoding, await values()], ['utf-8-sig', ['["café",1]']]);
  const info16 = await attach('u16.csv', Buffer.from('\ufeffname,n\nŁódź €,2\n', 'utf16le'));
  assert.deepEqual([info16.encoding, await values()], ['utf-16le', ['["Łódź €",2]']]);
  const info = await attach('cp.csv', Buffer.from('name,price\ncaf\xe9,5 \x80\n', 'latin1'));
  assert.equal(info.encoding, 'cp1252');
  assert.deepEqual(info.warnings, ['file is not valid UTF-8; read it as Windows-1252 (Latin-1)']);
  assert.deepEqual(await values(), ['["café","5 €"]']);
  const latin = await attach('latin.csv', Buffer.from('name\nx\x81\xe9\n', 'latin1'));
  assert.deepEqual(latin.warnings, ['file is not valid UTF-8; read it as Latin-1']);
  assert.deepEqual(await values(), [JSON.stringify(['x\x81é'])]);
  assert.deepEqual(readdirSync(scratchDir), [], 'the transcoded copies are removed');
});

void test('a Windows-1252 or Latin-1 byte past the 64 KiB start: read as UTF-8 at once, then again transcoded, as the whole-file pass says', async () => {
  const rows = Array.from({ length: 6000 }, (_, i) => `r${i},${i % 7},plain`);
  const late = (tail: string) => Buffer.from(`id,n,word\n${rows.join('\n')}\n${tail}\n`, 'latin1');
  assert.ok(late('').length > 70_000, 'the sample is cut before the accent');
  const cp = await attach('late-cp.csv', late('last,8,caf\xe9 \x80'));
  assert.deepEqual(
    [cp.encoding, cp.warnings, cp.rows],
    ['cp1252', ['file is not valid UTF-8; read it as Windows-1252 (Latin-1)'], 6001],
  );
  const last = await db.all("SELECT word FROM data WHERE id = 'last'");
  assert.deepEqual(last.rows, [['café €']]);
  const latin = await attach('late-latin.csv', late('last,8,x\x81\xe9'));
  assert.deepEqual(
    [latin.encoding, latin.warnings],
    ['latin-1', ['file is not valid UTF-8; read it as Latin-1']],
  );
  const lines = Array.from({ length: 4000 }, (_, i) => JSON.stringify({ id: i, w: 'plain text' }));
  const jsonl = Buffer.from(`${lines.join('\n')}\n{"id": 4000, "w": "caf\xe9"}\n`, 'latin1');
  const json = await attach('late-cp.jsonl', jsonl);
  assert.deepEqual([json.encoding, json.rows], ['cp1252', 4001]);
  assert.deepEqual((await db.all('SELECT w FROM data WHERE id = 4000')).rows, [['café']]);
  // The sandbox's locale sniff reads the same way: decimal commas found past the late byte.
  const commas = Array.from({ length: 6000 }, (_, i) => `r${i};${i % 9},5;plain`);
  const path = join(dir, 'late-cp-commas.csv');
  writeFileSync(
    path,
    Buffer.from(`id;x;word\n${commas.join('\n')}\nlast;1,25;caf\xe9\n`, 'latin1'),
  );
  assert.deepEqual(await numberLocaleOf(path, join(dir, 'sniff')), {
    decimal: ',',
    thousands: null,
    dayFirst: false,
  });
  const utf8 = await attach(
    'late-utf8.csv',
    Buffer.from(`id,n,word\n${rows.join('\n')}\nlast,8,café\n`),
  );
  assert.deepEqual([utf8.encoding, utf8.warnings], ['utf-8', []]);
  assert.deepEqual(readdirSync(scratchDir), [], 'the transcoded copies are removed');
});

void test('title lines above the header are skipped with a warning', async () => {
  const text = 'Sales report 2024\nGenerated by X\n\nregion,units\nNorth,3\nSouth,4\nEast,5\n';
  const info = await attach('title.csv', text);
  assert.equal(info.skippedLines, 2);
  assert.deepEqual(info.warnings, ['skipped 2 line(s) above the header (a title?)']);
  assert.deepEqual(await values(), ['["North",3]', '["South",4]', '["East",5]']);
});

void test('title lines that end otherwise than the table (LF over CR LF) are skipped, in both readers', async () => {
  // A "Data Source" block a script prepended with LF over a table of CR LF lines (a World Bank
  // export's shape): DuckDB takes one line end for the whole file and refused it as malformed.
  const years = Array.from({ length: 8 }, (_, i) => 1960 + i);
  const countries = ['Aruba', 'Angola', 'Albania', 'Andorra', 'Armenia'];
  const expected = countries.map((name, i) => [
    name,
    name.slice(0, 3).toUpperCase(),
    ...years.map((_, y) => 1000 * i + y),
  ]);
  const line = (fields: readonly (string | number)[]) =>
    `${fields.map((f) => `"${f}"`).join(',')},`;
  const table = [line(['Country Name', 'Code', ...years]), ...expected.map(line)];
  const title =
    '"Data Source","World Development Indicators",\n\n"Last Updated Date","2024-06-28",\n\n';
  const info = await attach('titled-crlf.csv', `${title}${table.join('\r\n')}\r\n`);
  assert.equal(info.skippedLines, 2);
  assert.deepEqual(info.warnings.slice(0, 1), ['skipped 2 line(s) above the header (a title?)']);
  const [pandasWarnings, pandasColumns, pandasRows] = pandasRead<[string[], string[], unknown[][]]>(
    join(dir, 'titled-crlf.csv'),
    'print(json.dumps([w, [str(c) for c in df.columns], df.astype(object).where(df.notna(), None).values.tolist()]))',
  );
  assert.deepEqual(pandasWarnings, info.warnings);
  assert.deepEqual(pandasColumns, Object.keys(await schema()));
  assert.deepEqual(
    pandasRows.map((row) => JSON.stringify(row)),
    await values(),
  );
  assert.equal(pandasRows.length, 5 * years.length, 'the year columns melted, one row per year');
  // A CR title over LF lines, and lines that all end alike, read as before.
  await attach('titled-cr.csv', 'Sales report\r\rregion,units\nNorth,3\nSouth,4\n');
  assert.deepEqual(await values(), ['["North",3]', '["South",4]']);
  await attach('titled-crlf-all.csv', 'Sales report\r\n\r\nregion,units\r\nNorth,3\r\n');
  assert.deepEqual(await values(), ['["North",3]']);
  assert.deepEqual(readdirSync(scratchDir), [], 'the copy without the title is removed');
});

void test('a first row of numbers is data, not names, in both readers; a sparse line above a header of words is a title', async () => {
  const headerless =
    'the first row holds numbers, not names: read as data, the columns named column_1 … column_3';
  const cases: [string, string, string[], string[], number][] = [
    // digits.csv, an iris export: no header at all; no row lost.
    [
      'nohead.csv',
      '5.1,3.5,0\n4.9,3.0,0\n7.0,3.2,1\n6.3,,2\n',
      [headerless],
      ['column_1', 'column_2', 'column_3'],
      4,
    ],
    // boston_house_prices.csv: "506,13" and empties above the names.
    [
      'boston.csv',
      '506,13,,,\nCRIM,ZN,INDUS,CHAS,NOX\n0.006,18,2.31,0,0.538\n0.027,0,7.07,0,0.469\n0.03,0,7.07,1,0.469\n',
      ['skipped 1 line(s) above the header (a title?)'],
      ['CRIM', 'ZN', 'INDUS', 'CHAS', 'NOX'],
      3,
    ],
    // diabetes_target.csv: one column of numbers, no name.
    [
      'target.csv',
      '1.51e+02\n75\n141\n',
      ['the first row holds numbers, not names: read as data, the column named column_1'],
      ['column_1'],
      3,
    ],
    // Names that are years, over numbers: still a header (a word among them).
    ['years.csv', 'country,2019,2020\nFR,1,2\nES,3,4\n', [], ['country', '2019', '2020'], 2],
    // Years over their values, no name column; the columns counted out: headers.
    ['years-only.csv', '2019,2020,2021\n5,6,7\n8,9,10\n', [], ['2019', '2020', '2021'], 2],
    ['counted.csv', '1,2,3\n5.5,6,7\n8,9,10\n', [], ['1', '2', '3'], 2],
    // A header of numbers over words: a header.
    ['numbered.csv', '1,2,3\na,b,c\nd,e,f\n', [], ['1', '2', '3'], 2],
    // An empty-named column over numbers: the header of a written index, never a title.
    ['index.csv', ',a,b\n0,1,2\n1,3,4\n', [], ['Unnamed: 0', 'a', 'b'], 2],
  ];
  for (const [name, text, warnings, columns, rows] of cases) {
    const info = await attach(name, text);
    assert.deepEqual([info.warnings, info.rows], [warnings, rows], name);
    assert.deepEqual((await db.all('SELECT * FROM data LIMIT 0')).columns, columns, name);
    const [pandasWarnings, pandasColumns, pandasRows] = pandasRead<[string[], string[], number]>(
      join(dir, name),
      'print(json.dumps([w, [str(c) for c in df.columns], len(df)]))',
    );
    assert.deepEqual(
      [pandasWarnings, pandasColumns, pandasRows],
      [warnings, columns, rows],
      `${name}: the sandbox's reader`,
    );
  }
});

void test('row names an R export writes first, under a header one name short, are left out by both readers', async () => {
  const rowNames =
    'the first column holds row names (the header names one column fewer): left out of the columns, as pandas keeps them in its index';
  // dietox.csv (statsmodels), as write.csv writes it: "1",26.5,NA,… under "Weight","Feed",…
  const text =
    '"Weight","Feed","Time","Pig"\n"1",26.5,NA,1,4601\n"2",27.6,5.2,2,4601\n"3",36.5,17.6,3,4601\n"x",40,28.5,4,4601\n';
  const info = await attach('dietox.csv', text);
  assert.deepEqual(info.warnings, [rowNames]);
  assert.deepEqual((await db.all('SELECT * FROM data LIMIT 0')).columns, [
    'Weight',
    'Feed',
    'Time',
    'Pig',
  ]);
  assert.deepEqual((await db.all('SELECT "Weight", "Feed", "Pig" FROM data ORDER BY rowid')).rows, [
    [26.5, null, 4601],
    [27.6, 5.2, 4601],
    [36.5, 17.6, 4601],
    [40, 28.5, 4601],
  ]);
  const [pandasWarnings, pandasColumns, weights] = pandasRead<[string[], string[], number[]]>(
    join(dir, 'dietox.csv'),
    'print(json.dumps([w, [str(c) for c in df.columns], [float(x) for x in df["Weight"]]]))',
  );
  assert.deepEqual(
    [pandasWarnings, pandasColumns, weights],
    [[rowNames], ['Weight', 'Feed', 'Time', 'Pig'], [26.5, 27.6, 36.5, 40]],
    "the sandbox's reader",
  );
  // A delimiter that ends every line is no row name: not read this way.
  const trailing = await attach('trailing.csv', 'a,b\n1,2,\n3,4,\n5,6,\n').then(
    (read) => read.warnings,
    (error: unknown) => [String(error)],
  );
  assert.ok(!trailing.includes(rowNames), trailing.join('; '));
});

void test('numbers written with spaces around them are numbers, as pandas reads them', async () => {
  // strikes.csv (statsmodels): "7, .01138" — DuckDB's sniffer typed iprod text.
  const text = 'duration,iprod,n,code\n7, .01138, 5 ,A1\n9, -.0059 ,12, B2\n63,0.02,7,C3\n';
  const info = await attach('padded.csv', text);
  assert.deepEqual(info.warnings, []);
  const schema = await tableSchema(db);
  assert.deepEqual([schema.iprod, schema.n, schema.code], ['DOUBLE', 'BIGINT', 'VARCHAR']);
  const [dtypes, rows] = pandasRead<[string[], unknown[][]]>(
    join(dir, 'padded.csv'),
    'print(json.dumps([[str(t) for t in df.dtypes], df.astype(object).values.tolist()]))',
  );
  assert.deepEqual(dtypes, ['int64', 'float64', 'int64', 'object']);
  assert.deepEqual(
    (await values()).map((v) => JSON.parse(v) as unknown[]).map((r) => r.slice(0, 3)),
    rows.map((r) => r.slice(0, 3)),
  );
});

void test('a footer under the data is left out with a warning, by both readers alike; a short last row is data', async () => {
  const data = Array.from({ length: 6 }, (_, i) => `C${i},${100 + i},${2000 + i}`).join('\n');
  const cases: [string, string, number, string[]][] = [
    [
      'footer.csv',
      `country,gdp,people\n${data}\n\nSource: World Bank, 2024\nNote: GDP in million USD\n`,
      6,
      [
        'left out 2 line(s) below the data (a footer: "Source: World Bank, 2024", "Note: GDP in million USD")',
      ],
    ],
    // A line that says what it is, as wide as the data: a footer past a blank line.
    [
      'wide-note.csv',
      `country,gdp,people\r\n${data.replaceAll('\n', '\r\n')}\r\n\r\nNote: in USD, see annex, page 4\r\n`,
      6,
      ['left out 1 line(s) below the data (a footer: "Note: in USD, see annex, page 4")'],
    ],
    // No blank line: only a lone "Source…" field is a footer.
    [
      'source.csv',
      `country,gdp,people\n${data}\nSources: national offices\n`,
      6,
      ['left out 1 line(s) below the data (a footer: "Sources: national offices")'],
    ],
    // A last row without its last value is data, not a footer.
    ['ragged.csv', `country,gdp,people\n${data}\nC6,106\n`, 7, []],
  ];
  for (const [name, text, n, warnings] of cases) {
    const info = await attach(name, text);
    assert.deepEqual([info.rows, info.warnings], [n, warnings], name);
    const types = Object.values(await schema());
    assert.ok(
      !types.slice(1).includes('VARCHAR'),
      `${name}: numbers stay numbers (${types.join(', ')})`,
    );
    const [pandasRows, pandasWarnings, dtypes] = pandasRead<[number, string[], string[]]>(
      join(dir, name),
      `print(json.dumps([len(df), w, [str(t) for t in df.dtypes]]))`,
    );
    assert.deepEqual([pandasRows, pandasWarnings], [n, warnings], `${name}: the sandbox's reader`);
    assert.ok(!dtypes.slice(1).includes('object'), `${name}: pandas reads numbers too`);
  }
});

void test('a year and a month column become one date, "period", in both readers; not beside a date, nor for other numbers', async () => {
  const rows = (f: (i: number) => string) => Array.from({ length: 24 }, (_, i) => f(i)).join('\n');
  const added =
    'added the column "period": year and month as one date (the first of each month), so the rows are charted over time';
  const cases: [string, string, string[]][] = [
    [
      'ym.csv',
      `year,month,sales\n${rows((i) => `${2020 + Math.floor(i / 12)},${(i % 12) + 1},${i}`)}\n`,
      [added],
    ],
    [
      'ym-gap.csv',
      `year,month,sales\n${rows((i) => (i === 5 ? ',,5' : `${2020 + Math.floor(i / 12)},${(i % 12) + 1},${i}`))}\n`,
      [added],
    ],
    [
      'ym-date.csv',
      `date,year,month,sales\n${rows((i) => `2020-01-0${1 + (i % 9)},2020,${(i % 12) + 1},${i}`)}\n`,
      [],
    ],
    ['ym-13.csv', `year,month,sales\n${rows((i) => `2020,${(i % 13) + 1},${i}`)}\n`, []],
  ];
  for (const [name, text, warnings] of cases) {
    const info = await attach(name, text);
    assert.deepEqual(info.warnings, warnings, name);
    const schema = await tableSchema(db);
    const [pandasWarnings, pandasColumns, last] = pandasRead<[string[], string[], string[]]>(
      join(dir, name),
      `print(json.dumps([w, list(df.columns), [str(v)[:10] for v in df[df.columns[-1]].head(14)]]))`,
    );
    assert.deepEqual(
      [pandasWarnings, pandasColumns],
      [warnings, Object.keys(schema)],
      `${name}: the sandbox's reader`,
    );
    if (!warnings.length) continue;
    assert.equal(schema.period, 'TIMESTAMP');
    const periods = (
      await db.all("SELECT strftime(period, '%Y-%m-%d') FROM data ORDER BY rowid LIMIT 14")
    ).rows.map((r) => String(r[0]));
    assert.deepEqual(
      periods,
      last.map((v) => (v === 'NaT' ? 'null' : v)),
      name,
    );
    assert.equal(periods[12], '2021-01-01');
  }
});

void test('a year and a quarter column become one date too, the first of each quarter; a quarter of 5 never', async () => {
  const rows = (f: (i: number) => string) => Array.from({ length: 12 }, (_, i) => f(i)).join('\n');
  const added =
    'added the column "period": year and quarter as one date (the first of each quarter), so the rows are charted over time';
  const cases: [string, string, string[], string[]][] = [
    [
      'yq.csv',
      `year,quarter,pop\n${rows((i) => `${1959 + Math.floor(i / 4)},${(i % 4) + 1},${177 + i}`)}\n`,
      [added],
      ['1959-01-01', '1959-04-01', '1959-07-01', '1959-10-01', '1960-01-01'],
    ],
    ['yq-5.csv', `year,quarter,pop\n${rows((i) => `2000,${(i % 5) + 1},${i}`)}\n`, [], []],
  ];
  for (const [name, text, warnings, firsts] of cases) {
    const info = await attach(name, text);
    assert.deepEqual(info.warnings, warnings, name);
    const [pandasWarnings, pandasFirsts] = pandasRead<[string[], string[]]>(
      join(dir, name),
      `print(json.dumps([w, [str(v)[:10] for v in df["period"].head(5)] if "period" in df else []]))`,
    );
    assert.deepEqual(pandasWarnings, warnings, `${name}: the sandbox's reader`);
    if (!warnings.length) continue;
    const periods = (
      await db.all("SELECT strftime(period, '%Y-%m-%d') FROM data ORDER BY rowid LIMIT 5")
    ).rows.map((r) => String(r[0]));
    assert.deepEqual([periods, pandasFirsts], [firsts, firsts], name);
  }
});

void test('one column per year is read as rows ("year", "value"), row by row, in both readers; not for two years or text', async () => {
  const melted =
    'read the 3 year columns (2018 … 2020) as rows: one per country and year, in "year" and "value"';
  const cases: [string, string, string[], number][] = [
    ['wide.csv', 'country,unit,2018,2019,2020\nFrance,kt,1,2,3\nSpain,kt,4,,6.5\n', [melted], 6],
    ['wide-two.csv', 'country,2019,2020\nFrance,1,2\nSpain,3,4\n', [], 2],
    ['wide-text.csv', 'country,2018,2019,2020\nFrance,1,n/a2,3\nSpain,4,5,6\n', [], 2],
    ['wide-value.csv', 'value,2018,2019,2020\nFrance,1,2,3\nSpain,4,5,6\n', [], 2],
  ];
  for (const [name, text, warnings, n] of cases) {
    const info = await attach(name, text);
    assert.deepEqual([info.warnings, info.rows], [warnings, n], name);
    const [pw, columns, pandasRows, dtypes] = pandasRead<
      [string[], string[], unknown[][], string[]]
    >(
      join(dir, name),
      `print(json.dumps([w, list(map(str, df.columns)), df.astype(object).where(df.notna(), None).values.tolist(), [str(t) for t in df.dtypes]]))`,
    );
    assert.deepEqual(
      [pw, columns],
      [warnings, (await db.all('DESCRIBE data')).rows.map((r) => String(r[0]))],
      `${name}: the sandbox's reader`,
    );
    if (!warnings.length) continue;
    assert.deepEqual(pandasRows, [
      ['France', 'kt', 2018, 1],
      ['France', 'kt', 2019, 2],
      ['France', 'kt', 2020, 3],
      ['Spain', 'kt', 2018, 4],
      ['Spain', 'kt', 2019, null],
      ['Spain', 'kt', 2020, 6.5],
    ]);
    assert.deepEqual(dtypes.slice(2), ['int64', 'float64']);
    assert.deepEqual(
      await values(),
      pandasRows.map((r) => JSON.stringify(r)),
    );
  }
});

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const monthRow = (year: number, extra = '') =>
  `${year},${MONTHS.map((_, m) => (20 + m * 0.5 + (year - 1950)).toFixed(1)).join(',')}${extra}`;

void test('a year per row and a column per month are read as a monthly series, in both readers', async () => {
  // elnino.csv (statsmodels): YEAR, JAN … DEC of sea surface temperatures.
  const text = `"YEAR",${MONTHS.map((m) => `"${m}"`).join(',')}\n${monthRow(1950)}\n${monthRow(1951)}\n`;
  const info = await attach('months.csv', text);
  const melted =
    'read the 12 month columns (JAN … DEC) as rows: one per YEAR and month, in "period" (the first of each month) and "value"';
  assert.deepEqual([info.warnings, info.rows], [[melted], 24]);
  const [pw, columns, firsts] = pandasRead<[string[], string[], unknown[][]]>(
    join(dir, 'months.csv'),
    'print(json.dumps([w, list(map(str, df.columns)), [[str(v)[:10] for v in r] for r in df.head(3).values.tolist()]]))',
  );
  assert.deepEqual([pw, columns], [[melted], ['YEAR', 'period', 'value']]);
  assert.deepEqual(firsts, [
    ['1950', '1950-01-01', '20.0'],
    ['1950', '1950-02-01', '20.5'],
    ['1950', '1950-03-01', '21.0'],
  ]);
  const duck = (
    await db.all(
      "SELECT YEAR, strftime(period, '%Y-%m-%d'), value FROM data ORDER BY rowid LIMIT 3",
    )
  ).rows.map((r) => r.map(String));
  assert.deepEqual(duck, [
    ['1950', '1950-01-01', '20'],
    ['1950', '1950-02-01', '20.5'],
    ['1950', '1950-03-01', '21'],
  ]);
});

void test('months stay columns with one missing, or beside an annual total, in both readers', async () => {
  const cases: [string, string][] = [
    [
      'months-11.csv',
      `YEAR,${MONTHS.slice(0, 11).join(',')}\n1950,${'1,'.repeat(10)}1\n1951,${'2,'.repeat(10)}2\n`,
    ],
    [
      'months-ann.csv',
      `YEAR,${MONTHS.join(',')},ANN\n${monthRow(1950, ',25')}\n${monthRow(1951, ',26')}\n`,
    ],
  ];
  for (const [name, text] of cases) {
    const info = await attach(name, text);
    assert.deepEqual([info.warnings, info.rows], [[], 2], name);
    const [pw, rows] = pandasRead<[string[], number]>(
      join(dir, name),
      'print(json.dumps([w, len(df)]))',
    );
    assert.deepEqual([pw, rows], [[], 2], `${name}: the sandbox's reader`);
  }
});

void test('a year without a value in any row is melted with the others, as pandas reads it (NaN)', async () => {
  // fertility.csv: 2012 and 2013 are empty, which DuckDB types as text and pandas as numbers.
  const text = 'country,unit,2018,2019,2020\nFrance,kt,1,2,\nSpain,kt,4,,\n';
  const info = await attach('wide-empty.csv', text);
  assert.deepEqual(info.warnings, [
    'read the 3 year columns (2018 … 2020) as rows: one per country and year, in "year" and "value"',
  ]);
  const [pandasWarnings, pandasRows] = pandasRead<[string[], unknown[][]]>(
    join(dir, 'wide-empty.csv'),
    'print(json.dumps([w, df.astype(object).where(df.notna(), None).values.tolist()]))',
  );
  const rows = [
    ['France', 'kt', 2018, 1],
    ['France', 'kt', 2019, 2],
    ['France', 'kt', 2020, null],
    ['Spain', 'kt', 2018, 4],
    ['Spain', 'kt', 2019, null],
    ['Spain', 'kt', 2020, null],
  ];
  assert.deepEqual([pandasWarnings, pandasRows], [info.warnings, rows]);
  assert.deepEqual(
    await values(),
    rows.map((r) => JSON.stringify(r)),
  );
});

void test('CRLF and CR-only line ends', async () => {
  for (const end of ['\r\n', '\r']) {
    await attach('ends.csv', ['a,b', '1,x', '2,y', ''].join(end));
    assert.deepEqual(await values(), ['[1,"x"]', '[2,"y"]']);
  }
});

void test('the locale sample read beside the sniffer decides the locale as the one read after it did', async () => {
  // The host knows the dialect (pandas' quoting, the line ends, a field per header name), so the
  // sample is read while the sniffer types the columns; a quoted line break in a header name and
  // CR-only lines are in the guess too. "1,5" is a decimal comma either way.
  for (const [name, content] of [
    ['lf-header.csv', '"line\nbreak";n\n"1,5";2\n"3,5";4\n'],
    ['cr.csv', 'x;n\r1,5;2\r3,5;4\r'],
    ['crlf.csv', 'x;n\r\n1,5;2\r\n3,5;4\r\n'],
  ] as const) {
    const info = await attach(name, content);
    assert.equal(Object.keys(await schema())[1], 'n', name);
    assert.deepEqual([info.rows, await values()], [2, ['[1.5,2]', '[3.5,4]']], name);
  }
});

void test('a header name on two lines in a file of CR LF lines, as Excel writes it, is read', async () => {
  // DuckDB's sniffer takes the line end from the first break it meets, here the LF inside the
  // quoted name, and failed: told the line end past it, it reads the file (the name kept whole).
  for (const [name, content, header] of [
    [
      'excel.csv',
      'id,"Revenue\n(USD)",region\r\n1,10.5,North\r\n2,20.25,"East\nside"\r\n',
      'Revenue\n(USD)',
    ],
    [
      'excel-crlf.csv',
      'id,"Revenue\r\n(USD)",region\r\n1,10.5,North\r\n2,20.25,"East\nside"\r\n',
      'Revenue\r\n(USD)',
    ],
    [
      'cr.csv',
      'id,"Revenue\n(USD)",region\r1,10.5,North\r2,20.25,"East\nside"\r',
      'Revenue\n(USD)',
    ],
  ] as const) {
    const info = await attach(name, content);
    assert.deepEqual(Object.keys(await schema()), ['id', header, 'region'], name);
    assert.deepEqual(
      [info.rows, await values()],
      [2, ['[1,10.5,"North"]', '[2,20.25,"East\\nside"]']],
      name,
    );
  }
});

void test('gzip-compressed CSV, UTF-8 and Windows-1252', async () => {
  const info = await attach('data.csv.gz', gzipSync('k;v\na;1,5\nb;2\n'));
  assert.deepEqual([info.compression, info.delimiter, info.encoding], ['gzip', ';', 'utf-8']);
  assert.deepEqual(await values(), ['["a",1.5]', '["b",2]']);
  const cp = await attach('cp.csv.gz', gzipSync(Buffer.from('k,v\ncaf\xe9,1\n', 'latin1')));
  assert.deepEqual(
    [cp.compression, cp.encoding, await values()],
    ['gzip', 'cp1252', ['["café",1]']],
  );
});

void test('a truncated or damaged gzip stream is refused, small or large, CSV or JSON lines', async () => {
  const lines = ['k,v', ...Array.from({ length: 20_000 }, (_, i) => `r${i % 97},${i * 0.37}`)];
  const whole = gzipSync(`${lines.join('\n')}\n`);
  assert.ok(whole.length > 60_000, 'large enough that the sample is cut');
  await rejects('big.csv.gz', whole.subarray(0, 30_000), /gzip stream is truncated or damaged/);
  const small = gzipSync('k,v\na,1\nb,2\nc,3\n');
  await rejects('small.csv.gz', small.subarray(0, small.length - 6), /truncated or damaged/);
  const jsonl = gzipSync('{"a":1}\n{"a":2}\n{"a":3}\n');
  await rejects('x.jsonl.gz', jsonl.subarray(0, jsonl.length - 4), /truncated or damaged/);
  const flipped = Buffer.from(whole);
  flipped[flipped.length - 6] = (flipped[flipped.length - 6] ?? 0) ^ 0xff; // the CRC32
  await rejects('crc.csv.gz', flipped, /truncated or damaged/);
  const info = await attach('whole.csv.gz', whole);
  assert.equal(info.rows, 20_000);
});

void test("the sandbox's reader reads a gzip-compressed CSV as the engine does, and refuses a cut one", async () => {
  const lines = ['k;v', ...Array.from({ length: 20_000 }, (_, i) => `r${i % 97};${i},5`)];
  const whole = gzipSync(`${lines.join('\n')}\n`);
  writeFileSync(join(dir, 'sandbox.csv.gz'), whole);
  const info = await attach('sandbox.csv.gz', whole);
  const [rows, first, warnings] = pandasRead<[number, string[], string[]]>(
    join(dir, 'sandbox.csv.gz'),
    'print(json.dumps([len(df), [str(v) for v in df.iloc[1]], w]))',
  );
  assert.deepEqual([rows, warnings], [info.rows, info.warnings]);
  assert.deepEqual(
    first,
    ['r1', '1,5'],
    'read as text: the host tells the locale (apply_number_locale)',
  );
  writeFileSync(join(dir, 'cut.csv.gz'), whole.subarray(0, 30_000));
  assert.throws(
    () => pandasRead(join(dir, 'cut.csv.gz'), 'print(json.dumps(len(df)))'),
    /gzip stream is truncated or damaged/,
  );
});

void test('a quoted field holding a line break is read (the parallel reader refuses it; a serial one does not)', async () => {
  await attach('q.csv', 'a,b,d\n1,"x\ny",3\n4,z,6\n7,w,9\n');
  assert.deepEqual(await values(), ['[1,"x\\ny",3]', '[4,"z",6]', '[7,"w",9]']);
  const info = await attach('crlf.csv', 'id,note\r\n1,"two\r\nlines"\r\n2,plain\r\n');
  assert.equal(info.rows, 2);
  assert.deepEqual(await values(), ['[1,"two\\r\\nlines"]', '[2,"plain"]']);
  await rejects('ragged.csv', 'a,b\n1,"x\ny",3,4\n5,6\n', /not a well-formed delimited file/);
});

void test('JSON records and JSON lines; objects spread into columns, lists become JSON text', async () => {
  const records = [
    { id: 1, tags: ['a', 'b'], meta: { x: 1, at: { lat: 1.5 } } },
    { id: 2, tags: [], meta: { x: 2, at: null } },
    { id: 3, tags: ['c'], meta: null },
  ];
  const info = await attach('r.json', JSON.stringify(records));
  assert.equal(info.format, 'json');
  assert.deepEqual(await schema(), {
    id: 'BIGINT',
    tags: 'VARCHAR',
    'meta.x': 'BIGINT',
    'meta.at.lat': 'DOUBLE',
  });
  assert.deepEqual(await values(), [
    JSON.stringify([1, '["a","b"]', 1, 1.5]),
    JSON.stringify([2, '[]', 2, null]),
    JSON.stringify([3, '["c"]', null, null]),
  ]);
  // Past three objects deep, or past 20 fields, or where a spread name is taken: JSON text.
  const wide = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}`, i]));
  const awkward = [{ deep: { a: { b: { c: { d: 1 } } } }, wide, clash: { y: 1 }, 'clash.y': 0 }];
  await attach('a.json', JSON.stringify(awkward));
  assert.deepEqual(await schema(), {
    'deep.a.b.c': 'VARCHAR',
    wide: 'VARCHAR',
    clash: 'VARCHAR',
    'clash.y': 'BIGINT',
  });
  const [first] = JSON.parse((await values())[0] ?? '[]') as unknown[];
  assert.equal(first, '{"d":1}');
  const lines = await attach('l.jsonl', '{"a":1,"b":"x"}\n{"a":2.5,"c":true}\n');
  assert.equal(lines.format, 'jsonl');
  assert.deepEqual(await rows(), [
    { a: 1, b: 'x', c: null },
    { a: 2.5, b: null, c: true },
  ]);
});

void test('Parquet written by DuckDB', async () => {
  const path = join(dir, 'x.parquet');
  const other = await DuckDb.open({ memoryMb: 64, threads: 1, tempDir: join(dir, 'spill2') });
  const select = `SELECT range AS id, 'n' || range AS name, DATE '2024-01-01' + range::INT AS d, [range] AS l FROM range(3)`;
  await other.run(`COPY (${select}) TO ${literal(path)} (FORMAT parquet)`);
  other.close();
  const info = await attachSource(db, path, { scratchDir });
  assert.deepEqual([info.format, info.encoding, info.rows, info.columns], ['parquet', null, 3, 4]);
  assert.deepEqual(await schema(), { id: 'BIGINT', name: 'VARCHAR', d: 'DATE', l: 'VARCHAR' });
  assert.deepEqual((await values())[2], '[2,"n2","2024-01-03","[2]"]');
});

void test('Excel: first sheet by default, a sheet by name, an unknown sheet lists the sheets', async () => {
  const path = join(dir, 'book.xlsx');
  const born = [new Date(Date.UTC(1993, 4, 2)), new Date(Date.UTC(1990, 0, 1))];
  const people = [
    ['name', 'age', 'born', 'active'],
    ['Ann', 31, born[0], true],
    ['Bob', 2.5, born[1], false],
  ];
  await writeXlsxFile([
    { sheet: 'People', data: people, dateFormat: 'yyyy-mm-dd' },
    {
      sheet: 'Other',
      data: [
        ['k', 'k'],
        ['v', 1],
      ],
    },
  ]).toFile(path);
  const info = await attachSource(db, path, { scratchDir });
  assert.deepEqual([info.format, info.sheet, info.rows, info.columns], ['excel', 'People', 2, 4]);
  assert.match(info.warnings[0] ?? '', /has 2 sheets; read the first, "People"/);
  assert.deepEqual(await schema(), {
    name: 'VARCHAR',
    age: 'DOUBLE',
    born: 'DATE',
    active: 'BOOLEAN',
  });
  assert.deepEqual(await values(), [
    '["Ann",31,"1993-05-02",true]',
    '["Bob",2.5,"1990-01-01",false]',
  ]);
  assert.equal((await attachSource(db, path, { scratchDir, sheet: 'Other' })).sheet, 'Other');
  assert.deepEqual(await rows(), [{ k: 'v', 'k.1': 1 }]);
  assert.deepEqual(readdirSync(scratchDir), [], 'the sheet written out is removed');
  await assert.rejects(attachSource(db, path, { scratchDir, sheet: 'Nope' }), (error: unknown) => {
    assert.ok(error instanceof OpsmindError && error.exitCode === ExitCode.BAD_INPUT);
    assert.match(error.message, /no sheet named "Nope".*"People", "Other"/);
    return true;
  });
  const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]);
  await rejects('old.xls', xls, /save it as \.xlsx or CSV/);
});

void test("booleans are the words pandas reads as booleans; Yes/No and t/f stay the file's text", async () => {
  await attach('flags.csv', 'id,left,ok,paid\n1,Yes,True,t\n2,No,false,f\n3,,TRUE,t\n');
  assert.deepEqual(await schema(), {
    id: 'BIGINT',
    left: 'VARCHAR',
    ok: 'BOOLEAN',
    paid: 'VARCHAR',
  });
  assert.deepEqual(await values(), [
    '[1,"Yes",true,"t"]',
    '[2,"No",false,"f"]',
    '[3,null,true,"t"]',
  ]);
});

void test('infinities are numbers, as pandas reads them: "inf", "-Infinity", "INF" beside plain numbers', async () => {
  await attach(
    'inf.csv',
    'id,x,y,z\n1,inf,1.5,a\n2,-Infinity,nan,b\n3,2.5e3,,inf\n4,INF,.5,c\n5,+inf,-2,d\n',
  );
  assert.deepEqual(await schema(), { id: 'BIGINT', x: 'DOUBLE', y: 'DOUBLE', z: 'VARCHAR' });
  const x = await db.all('SELECT x::VARCHAR FROM data ORDER BY rowid');
  assert.deepEqual(
    x.rows.map(([v]) => v),
    ['inf', '-inf', '2500.0', 'inf', 'inf'],
  );
  // A text past the sample: the file is sniffed whole, and the column read as the text it is.
  const late = [
    'n,x',
    ...Array.from({ length: 6000 }, (_, i) => `${i},${i % 9 ? i : 'inf'}`),
    '6000,oops',
  ];
  assert.equal((await attach('inf-late.csv', late.join('\n'))).rows, 6001);
  assert.equal((await schema()).x, 'VARCHAR');
});

void test('decimal commas with point thousands in a ";" file', async () => {
  const text = 'id;preis;menge;name\n1;1.234,56;1.234;a\n2;12,5;2.500;b\n3;;3.000;c\n';
  const info = await attach('de.csv', text);
  assert.deepEqual([info.locale.decimal, info.locale.thousands], [',', '.']);
  assert.deepEqual(await schema(), {
    id: 'BIGINT',
    preis: 'DOUBLE',
    menge: 'BIGINT',
    name: 'VARCHAR',
  });
  assert.deepEqual(await values(), [
    '[1,1234.56,1234,"a"]',
    '[2,12.5,2500,"b"]',
    '[3,null,3000,"c"]',
  ]);
});

void test('comma, space and no-break-space thousands; text that only looks numeric stays text', async () => {
  const info = await attach(
    'en.csv',
    'id,total,ip\n1,"1,234,567",10.0.0.1\n2,"12,000.5",10.0.0.2\n',
  );
  assert.deepEqual([info.locale.decimal, info.locale.thousands], ['.', ',']);
  assert.deepEqual(await values(), ['[1,1234567,"10.0.0.1"]', '[2,12000.5,"10.0.0.2"]']);
  const fr = await attach('fr.csv', 'id;montant\n1;1\u00a0234,5\n2;12 345\n3;7\n');
  assert.equal(fr.locale.decimal, ',');
  assert.deepEqual(await values(), ['[1,1234.5]', '[2,12345]', '[3,7]']);
});

void test('numeric dates: day-first settled, month-first settled, ambiguous warned', async () => {
  const dmy = await attach('dmy.csv', 'when,v\n01/02/2024,1\n31/12/2024,2\n');
  assert.deepEqual([dmy.locale.dateOrder, dmy.warnings], ['DMY', []]);
  assert.deepEqual(await schema(), { when: 'DATE', v: 'BIGINT' });
  assert.deepEqual(await values(), ['["2024-02-01",1]', '["2024-12-31",2]']);
  const mdy = await attach('mdy.csv', 'when,v\n01/02/2024,1\n12/31/2024,2\n');
  assert.equal(mdy.locale.dateOrder, 'MDY');
  assert.deepEqual(await values(), ['["2024-01-02",1]', '["2024-12-31",2]']);
  const amb = await attach('amb.csv', 'when,v\n03/04/2024,1\n05/06/2024,2\n');
  const words = amb.locale.dateOrder === 'MDY' ? 'month/day/year' : 'day/month/year';
  assert.ok(amb.locale.dateOrder === 'DMY' || amb.locale.dateOrder === 'MDY');
  const warning = `dates such as "03/04/2024" are ambiguous; read them as ${words} (column "when")`;
  assert.deepEqual(amb.warnings, [warning]);
  const dots = await attach('dots.csv', 'tag;datum\nx;31.12.2024 10:30\ny;01.02.2024 08:00\n');
  assert.equal(dots.locale.dateOrder, 'DMY');
  assert.deepEqual(await values(), ['["x","2024-12-31 10:30:00"]', '["y","2024-02-01 08:00:00"]']);
  const slash = await attach('slash.csv', 'at,v\n03/04/2024 10:00,1\n');
  assert.deepEqual([slash.locale.dateOrder, (await schema()).at], ['MDY', 'TIMESTAMP']);
  assert.match(
    slash.warnings[0] ?? '',
    /"03\/04\/2024 10:00" are ambiguous; read them as month\/day/,
  );
  const iso = await attach('iso.csv', 'd,v\n2024-12-31,1\n');
  assert.deepEqual([iso.locale.dateOrder, (await schema()).d], ['YMD', 'DATE']);
});

void test('header names exactly as written: duplicates, empty cells, quotes, SQL and newlines', async () => {
  await attach('dup.csv', 'a,a,,b,a,A\n1,2,3,4,5,6\n');
  assert.deepEqual(Object.keys(await schema()), ['a', 'a.1', 'Unnamed: 2', 'b', 'a.2', 'A.3']);
  // As pandas' C parser names them: the given names first, so an empty name beside a column
  // named "Unnamed: 0" is the one mangled (methylation-test.csv), and a suffix already given is
  // passed over. The sandbox's pandas reader names them alike.
  for (const [name, header, names] of [
    ['unnamed.csv', ',Unnamed: 0,gender', ['Unnamed: 0.1', 'Unnamed: 0', 'gender']],
    ['given.csv', 'a,a,a.1', ['a', 'a.2', 'a.1']],
    ['later.csv', 'x,,Unnamed: 1', ['x', 'Unnamed: 1.1', 'Unnamed: 1']],
  ] as const) {
    await attach(name, `${header}\n1,2,3\n4,5,6\n`);
    assert.deepEqual(Object.keys(await schema()), names, name);
    const read = pandasRead<string[]>(
      join(dir, name),
      'print(json.dumps([str(c) for c in df.columns]))',
    );
    assert.deepEqual(read, names, `${name}: the sandbox's reader`);
  }
  const info = await attach('inj.csv', '"a""b","x; DROP TABLE data; --","line\nbreak"\n1,2,3\n');
  assert.deepEqual(Object.keys(await schema()), ['a"b', 'x; DROP TABLE data; --', 'line\nbreak']);
  assert.deepEqual([info.rows, await values()], [1, ['[1,2,3]']]);
});

void test('a header with no rows, a type broken past the sniffer sample, missing-value markers', async () => {
  const empty = await attach('hdr.csv', 'a,b\n');
  assert.deepEqual([empty.rows, empty.columns], [0, 2]);
  const late = ['n,t', ...Array.from({ length: 25_000 }, (_, i) => `${i},x`), 'oops,y'].join('\n');
  assert.equal((await attach('late.csv', late)).rows, 25_001);
  assert.equal((await schema()).n, 'VARCHAR');
  await attach('na.csv', 'a,b\n1,x\nNA,y\n,z\n');
  assert.deepEqual(await schema(), { a: 'BIGINT', b: 'VARCHAR' });
  assert.deepEqual(await values(), ['[1,"x"]', '[null,"y"]', '[null,"z"]']);
});

void test('empty, binary, ragged and mislabelled files are clear BAD_INPUT errors', async () => {
  await rejects('empty.csv', '', /^the file is empty$/);
  await rejects('blank.csv', '  \n\n', /^the file is empty$/);
  const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));
  await rejects('junk.csv', junk, /looks binary/);
  const ragged = /^not a well-formed delimited file: line 3 has 3 fields but the header has 2$/;
  await rejects('ragged.csv', 'a,b\n1,2\n3,4,5\n', ragged);
  await rejects('bad.json', '[{"a":1},{"b":', /^not a JSON records file: /);
  await rejects('none.json', '[]', /^the JSON file holds no records$/);
  await rejects('fake.parquet', 'a,b\n1,2\n', /not a Parquet file/);
  await rejects('fake.xlsx', 'a,b\n1,2\n', /not an Excel workbook/);
  await assert.rejects(attachSource(db, join(dir, 'missing.csv'), { scratchDir }), /no such file/);
});

void test('a .json file that is one object says what it holds, and where its records are (json-wrapper.test.ts reads one key of them); a list of objects is a column', async () => {
  // volcano.json: {"width": 87, "height": 61, "values": [103, …]}, pretty-printed: neither layout reads it.
  const grid = JSON.stringify({ width: 2, height: 1, values: [103, 104] }, null, 2);
  await rejects(
    'grid.json',
    grid,
    /^not a JSON records file: it holds one object \("width", "height", "values"\), not an array/,
  );
  // miserables.json: a graph's nodes and links, both records.
  const graph = JSON.stringify({
    nodes: [{ name: 'a' }, { name: 'b' }],
    links: [{ source: 0, target: 1 }],
  });
  await assert.rejects(attach('graph.json', graph), (error: unknown) => {
    assert.ok(error instanceof OpsmindError, String(error));
    assert.equal(
      error.hint,
      'its keys "nodes" (2) and "links" (1) hold records: pass --records nodes (or another of them) to read one',
    );
    return true;
  });
  // A column of lists of objects was spread as if it were one object: a binder error, exit 1.
  await attach('tags.json', '[{"id":1,"tags":[{"k":"a"},{"k":"b"}]},{"id":2,"tags":[]}]');
  assert.deepEqual(await schema(), { id: 'BIGINT', tags: 'VARCHAR' });
  assert.deepEqual(await values(), ['[1,"[{\\"k\\":\\"a\\"},{\\"k\\":\\"b\\"}]"]', '[2,"[]"]']);
});

void test('the sandbox is told day-first dates from the sample as settleDates would decide them', () => {
  const text = (...sample: string[]) => [{ name: 'd', type: 'VARCHAR', sample }];
  const none = { dateFormat: null, timestampFormat: null };
  assert.equal(sampleDayFirst(text('01/02/2024', '13/02/2024'), none), true, 'a day above 12');
  assert.equal(sampleDayFirst(text('01/02/2024', '02/13/2024'), none), false, 'a month above 12');
  assert.equal(sampleDayFirst(text('01.02.2024', '03.04.2024 10:30'), none), true, '"." assumed');
  assert.equal(sampleDayFirst(text('01/02/2024', '03/04/2024'), none), false, '"/" assumed');
  assert.equal(sampleDayFirst(text('2024-01-02'), none), false, 'ISO dates have no order to tell');
  const typed = [{ name: 'd', type: 'DATE', sample: ['01/02/2024'] }];
  assert.equal(sampleDayFirst(typed, { dateFormat: '%d/%m/%Y', timestampFormat: null }), true);
});
