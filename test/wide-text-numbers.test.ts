/**
 * A wide table whose year columns hold numbers written as text ("11,266,775" in quotes, as
 * budget.json writes them) is read as rows of numbers by both readers; another column of text
 * numbers beside them (a period that is no year) is left out, said so; text that is not surely a
 * number, or a comma that may be a decimal one, leaves the table as it is.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { attachSource } from '../src/engine/source.js';
import { tableRows, tableSchema, testDatabase } from './helpers/data-table.js';
import { ROOT, tempDir } from './helpers/fixtures.js';
import { bothEngines, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-wide-text-');
const db = testDatabase(dir);

const record = (name: string, years: Record<string, string | null>, extra = {}) => ({
  name,
  code: 931,
  ...extra,
  ...years,
});

/** Reads `records` as JSON with both readers: their warnings, columns and rows. */
async function readBoth(file: string, records: unknown[]) {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(records));
  const info = await attachSource(db(), path, { scratchDir: join(dir, 'scratch') });
  const duck = {
    warnings: info.warnings,
    schema: await tableSchema(db()),
    rows: (await tableRows(db())).map((r) =>
      Object.values(r).map((v) => (typeof v === 'bigint' ? Number(v) : v)),
    ),
  };
  const [warnings, columns, rows] = pandasRead<[string[], string[], unknown[][]]>(
    path,
    'print(json.dumps([w, list(map(str, df.columns)), df.astype(object).where(df.notna(), None).values.tolist()]))',
  );
  return { duck, pandas: { warnings, columns, rows } };
}

void test('year columns of text numbers are melted as numbers by both readers; a text-number period beside them is left out', async () => {
  const records = [
    record('Income', { '2018': '11,266,775', '2019': '-2,104,000', '2020': '0' }, { TQ: '5,000' }),
    record('Excise', { '2018': '252,000', '2019': null, '2020': '17' }, { TQ: '0' }),
  ];
  const { duck, pandas } = await readBoth('budget-like.json', records);
  const warning =
    'read the 3 year columns (2018 … 2020) as rows: one per name and year, in "year" and "value"; left out TQ: numbers written as the years\' are, a period that is no year, which would repeat in every year\'s rows';
  assert.deepEqual(duck.warnings, [warning]);
  assert.deepEqual(pandas.warnings, [warning]);
  assert.deepEqual(Object.keys(duck.schema), ['name', 'code', 'year', 'value']);
  assert.equal(duck.schema.value, 'BIGINT');
  assert.deepEqual(pandas.columns, Object.keys(duck.schema));
  const expected = [
    ['Income', 931, 2018, 11266775],
    ['Income', 931, 2019, -2104000],
    ['Income', 931, 2020, 0],
    ['Excise', 931, 2018, 252000],
    ['Excise', 931, 2019, null],
    ['Excise', 931, 2020, 17],
  ];
  assert.deepEqual(duck.rows, expected);
  assert.deepEqual(pandas.rows, expected);
});

void test('text that is not surely a number, or only single commas (maybe decimal ones), stays as it was', async () => {
  const cases: [string, Record<string, string>[]][] = [
    [
      'words.json',
      [
        { '2018': '1', '2019': 'n/a', '2020': '3' },
        { '2018': '4', '2019': '5', '2020': '6' },
      ],
    ],
    [
      'commas.json',
      [
        { '2018': '1,234', '2019': '5,678', '2020': '9,012' },
        { '2018': '4', '2019': '5', '2020': '6' },
      ],
    ],
  ];
  for (const [file, years] of cases) {
    const { duck, pandas } = await readBoth(
      file,
      years.map((y, i) => record(`row ${i}`, y)),
    );
    assert.deepEqual([duck.warnings, pandas.warnings], [[], []], file);
    assert.deepEqual(Object.keys(duck.schema), ['2018', '2019', '2020', 'name', 'code'], file);
    assert.deepEqual(pandas.columns, Object.keys(duck.schema), file);
  }
});

void test('budget.json is charted by year in both engines, its transition quarter left out', () => {
  const file = join(ROOT, 'node_modules', 'vega-datasets', 'data', 'budget.json');
  const { duck, pandas } = bothEngines(file, tempDir('opsmind-wide-budget-'));
  assert.deepEqual(pandas, duck);
  assert.equal(duck.charts[0], 'Average value per year');
  assert.match(duck.findings[0] ?? '', /^Mean value rose by 17,858,930 from 1962 to 2020/);
  for (const text of [...duck.charts, ...duck.findings])
    assert.doesNotMatch(text, /\bTQ\b|\b2001\b/, text);
});
