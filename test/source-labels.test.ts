/**
 * Quarters written as spreadsheet and BI exports write them ("Q1 2022", "2022 Q3", "Q4-23", a
 * "Q1".."Q4" column beside the year) are read as dates by both readers, the first day of each
 * quarter, and a quarterly export is charted over time with the numbers pandas computes.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SUBTOTAL_LABEL } from '../src/agent/semantics-aggregates.js';
import {
  MONTH_NAMED,
  MONTH_NUMBERED,
  QUARTER_FIRST,
  WEEK_FIRST,
  WEEK_YEAR_FIRST,
  YEAR_FIRST,
} from '../src/engine/source-labels.js';
import { attachText, tableRows, tableSchema, testDatabase } from './helpers/data-table.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, pandasRead } from './helpers/semantics.js';

const dir = tempDir('opsmind-quarters-');
const database = testDatabase(dir);

/** `text` written as `name` and attached to the test database: its path and what the read said. */
async function attach(name: string, text: string) {
  const db = database();
  return { db, ...(await attachText(db, dir, name, text)) };
}

/** Both readers' warnings and the column's values (dates as YYYY-MM-DD) of `text` as `name`. */
async function readBoth(name: string, text: string, column: string) {
  const { db, path, info } = await attach(name, text);
  const type = (await tableSchema(db))[column];
  const duck = (await tableRows(db)).map((row) => {
    const value = row[column];
    return typeof value === 'string' ? value.slice(0, type === 'VARCHAR' ? undefined : 10) : null;
  });
  const [warnings, dtype, values] = pandasRead<[string[], string, (string | null)[]]>(
    path,
    `c = df[${JSON.stringify(column)}]\nprint(json.dumps([w, str(c.dtype), [None if v is None or v != v else (str(v)[:10] if str(c.dtype).startswith("datetime") else v) for v in c.astype(object)]]))`,
  );
  return {
    duck: { warnings: info.warnings, type, values: duck },
    pandas: { warnings, dtype, values },
  };
}

const said = (column: string, example: string, unit = 'quarter'): string =>
  `read "${column}" as dates: each ${unit} (such as "${example}") as its ${unit === 'week' ? 'Monday' : 'first day'}`;

/** Labels written one per row, the dates both readers make of them, the warning's example and unit. */
const LABELS: [string, string, string[], string, string?][] = [
  [
    'q-first.csv',
    'Q1 2022\nQ2 2022\nQ3 2022\nQ4 2022\nQ1 2023',
    ['2022-01-01', '2022-04-01', '2022-07-01', '2022-10-01', '2023-01-01'],
    'Q1 2022',
  ],
  [
    'year-first.csv',
    '2023 Q4\n2024 Q1\n2024/Q2',
    ['2023-10-01', '2024-01-01', '2024-04-01'],
    '2023 Q4',
  ],
  // Two-digit years as strptime's %y reads them: 69–99 are the 1900s.
  [
    'short.csv',
    "Q4-99\nQ1-00\nQ2 '24\nQ3'68",
    ['1999-10-01', '2000-01-01', '2024-04-01', '2068-07-01'],
    'Q1-00',
  ],
  [
    'qtr.csv',
    'Qtr 1 2024\nqtr 2 2024\n q3 2024 ',
    ['2024-01-01', '2024-04-01', '2024-07-01'],
    'Qtr 1 2024',
  ],
  // Excel's mmm-yy: "Jan-23" is January 2023 (a day of January it writes "23-Jan").
  [
    'mmm-yy.csv',
    "Dec-23\nJan-24\nsept'24\nOct. '99",
    ['2023-12-01', '2024-01-01', '2024-09-01', '1999-10-01'],
    'Dec-23',
    'month',
  ],
  [
    'mm-yyyy.csv',
    '11/2023\n12/2023\n1/2024',
    ['2023-11-01', '2023-12-01', '2024-01-01'],
    '1/2024',
    'month',
  ],
  // With its leading zero "01.2024" is text to DuckDB's sniffer and a float to pandas (10.2020
  // would be 10.202): both read it as the month.
  [
    'dotted.csv',
    '11.2023\n12.2023\n01.2024\n10.2020',
    ['2023-11-01', '2023-12-01', '2024-01-01', '2020-10-01'],
    '01.2024',
    'month',
  ],
  // ISO weeks, as their Mondays: 2024's week 1 starts on January 1st, 2021's on January 4th, 2026's
  // on December 29th, 2025.
  [
    'weeks.csv',
    '2024-W01\n2024W02\n2021-w1\n2026 W01',
    ['2024-01-01', '2024-01-08', '2021-01-04', '2025-12-29'],
    '2021-w1',
    'week',
  ],
  [
    'kw.csv',
    'KW 05/2024\nW52 2024\nkw1-2025',
    ['2024-01-29', '2024-12-23', '2024-12-30'],
    'KW 05/2024',
    'week',
  ],
];

void test('a column of quarter or month labels pandas does not read becomes the first day of each period, in both readers', async () => {
  for (const [name, labels, dates, example, unit] of LABELS) {
    const text = `when,sales\n${labels
      .split('\n')
      .map((label, i) => `${label},${10 + i}`)
      .join('\n')}\n`;
    const { duck, pandas } = await readBoth(name, text, 'when');
    assert.deepEqual(
      duck,
      { warnings: [said('when', example, unit)], type: 'TIMESTAMP', values: dates },
      name,
    );
    assert.deepEqual(
      pandas,
      { warnings: [said('when', example, unit)], dtype: 'datetime64[ns]', values: dates },
      name,
    );
  }
});

void test('blanks stay blank; a label among other text, a fifth quarter, or only the forms pandas reads leave the column as it is', async () => {
  const blanks = await readBoth('blank.csv', 'q,v\nQ1 2024,1\n,2\nQ3 2024,3\n', 'q');
  assert.deepEqual(blanks.duck.values, ['2024-01-01', null, '2024-07-01']);
  assert.deepEqual(blanks.pandas.values, ['2024-01-01', null, '2024-07-01']);
  const kept: [string, string, string[]][] = [
    ['total.csv', 'q,v\nQ1 2024,1\nQ2 2024,2\nTotal,3\n', ['Q1 2024', 'Q2 2024', 'Total']],
    ['q5.csv', 'q,v\nQ4 2024,1\nQ5 2024,2\n', ['Q4 2024', 'Q5 2024']],
    // pandas reads 1974Q1 and 1974-q3 itself, as the profile does: text, parsed where dates are.
    ['pandas.csv', 'q,v\n1974Q1,1\n1974-q3,2\n', ['1974Q1', '1974-q3']],
    // "Jan 23" with a space may be January 23rd; month 13 is none.
    ['spaced.csv', 'q,v\nJan 23,1\nFeb 23,2\n', ['Jan 23', 'Feb 23']],
    ['month13.csv', 'q,v\n12/2023,1\n13/2023,2\n', ['12/2023', '13/2023']],
    ['mixed.csv', 'q,v\nJan-23,1\nQ1 2023,2\n', ['Jan-23', 'Q1 2023']],
  ];
  for (const [name, text, values] of kept) {
    const { duck, pandas } = await readBoth(name, text, 'q');
    assert.deepEqual(duck, { warnings: [], type: 'VARCHAR', values }, name);
    assert.deepEqual([pandas.warnings, pandas.values], [[], values], name);
  }
});

void test('whole numbers writing months as YYYYMM are months in a column named as a month or period, in both readers; not elsewhere', async () => {
  const yyyymm = 'read "Month" as dates: its numbers write each month as YYYYMM';
  const cases: [string, string, string, string[], (string | number)[]][] = [
    [
      'ym.csv',
      'Month,v\n202311,1\n202312,2\n202401,3\n',
      'Month',
      [yyyymm],
      ['2023-11-01', '2023-12-01', '2024-01-01'],
    ],
    ['ym13.csv', 'Month,v\n202312,1\n202313,2\n', 'Month', [], [202312, 202313]],
    ['ym-code.csv', 'code,v\n202311,1\n202312,2\n', 'code', [], [202311, 202312]],
    ['ym-small.csv', 'period,v\n1,1\n12,2\n', 'period', [], [1, 12]],
  ];
  for (const [name, text, column, warnings, values] of cases) {
    const { db, path, info } = await attach(name, text);
    const duck = (await tableRows(db)).map((row) => {
      const value = row[column];
      return typeof value === 'string' ? value.slice(0, 10) : Number(value);
    });
    const [pandasWarnings, pandasValues] = pandasRead<[string[], (string | number)[]]>(
      path,
      `c = df[${JSON.stringify(column)}]\nprint(json.dumps([w, [str(v)[:10] if str(c.dtype).startswith("datetime") else int(v) for v in c]]))`,
    );
    assert.deepEqual([info.warnings, duck], [warnings, values], name);
    assert.deepEqual(
      [pandasWarnings, pandasValues],
      [warnings, values],
      `${name}: the sandbox's reader`,
    );
  }
});

void test('a "Q1".."Q4" quarter column beside the year makes "period", as a numbered one does; "Q5" or other text never', async () => {
  const rows = (f: (i: number) => string) => Array.from({ length: 8 }, (_, i) => f(i)).join('\n');
  const added =
    'added the column "period": Year and Quarter as one date (the first of each quarter), so the rows are charted over time';
  const cases: [string, string, string[]][] = [
    [
      'yq-text.csv',
      `Year,Quarter,v\n${rows((i) => `${2020 + Math.floor(i / 4)},Q${(i % 4) + 1},${i}`)}\n`,
      [added],
    ],
    [
      'yq-qtr.csv',
      `Year,Quarter,v\n${rows((i) => `${2020 + Math.floor(i / 4)},Qtr ${(i % 4) + 1},${i}`)}\n`,
      [added],
    ],
    [
      'yq-q5.csv',
      `Year,Quarter,v\n${rows((i) => `${2020 + Math.floor(i / 4)},Q${(i % 5) + 1},${i}`)}\n`,
      [],
    ],
    [
      'yq-h1.csv',
      `Year,Quarter,v\n${rows((i) => `${2020 + Math.floor(i / 4)},${i % 2 ? 'H1' : 'Q1'},${i}`)}\n`,
      [],
    ],
  ];
  for (const [name, text, warnings] of cases) {
    const { db, path, info } = await attach(name, text);
    const [pandasWarnings, periods] = pandasRead<[string[], string[]]>(
      path,
      `print(json.dumps([w, [str(v)[:10] for v in df["period"]] if "period" in df else []]))`,
    );
    assert.deepEqual([info.warnings, pandasWarnings], [warnings, warnings], name);
    if (!warnings.length) continue;
    const duck = (await tableRows(db)).map((row) => String(row.period).slice(0, 10));
    const firsts = ['2020-01-01', '2020-04-01', '2020-07-01', '2020-10-01', '2021-01-01'];
    assert.deepEqual([duck.slice(0, 5), periods.slice(0, 5)], [firsts, firsts], name);
  }
});

void test('a quarterly export is charted per quarter with the totals pandas computes, the same in both engines', () => {
  const regions = ['North', 'South'];
  // A season, not a running total: each year's quarters rise and fall.
  const SEASON = [300, 100, 400, 200];
  const lines = ['Quarter,Region,Revenue'];
  for (const year of [2023, 2024])
    for (const q of [1, 2, 3, 4])
      for (const [r, region] of regions.entries())
        lines.push(
          `Q${q} ${year},${region},"$${(1000 + (SEASON[q - 1] ?? 0) + 37 * r + (year - 2023) * 400).toLocaleString('en-US')}"`,
        );
  const file = join(dir, 'export.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  type Summary = {
    warnings: string[];
    charts: { title: string; derivation: { time: { column: string; freq: string } | null } }[];
    insights: { text: string }[];
  };
  const duck = analyzeJson<Summary>(file, 'duckdb', join(dir, 'duck.html'));
  const pandas = analyzeJson<Summary>(file, 'pandas', join(dir, 'pandas.html'));
  assert.deepEqual(duck.warnings, [said('Quarter', 'Q1 2023')]);
  assert.deepEqual(duck.charts[0]?.title, 'Revenue per quarter');
  assert.deepEqual(duck.charts[0]?.derivation.time, { column: 'Quarter', freq: 'QS' });
  // 2023: 8 rows of 1000 + season + 37r = 8,000 + 2·1,000 + 37·4 = 10,148; 2024 adds 400 a row.
  assert.ok(
    duck.insights.some((i) => i.text.includes('$13,348 vs $10,148')),
    duck.insights.map((i) => i.text).join('\n'),
  );
  assert.deepEqual(
    [pandas.warnings, pandas.charts.map((c) => c.title), pandas.insights.map((i) => i.text)],
    [duck.warnings, duck.charts.map((c) => c.title), duck.insights.map((i) => i.text)],
  );
});

void test("the sandbox's reader matches labels with the host's own patterns", () => {
  const host = {
    QUARTER_FIRST,
    YEAR_FIRST,
    MONTH_NAMED,
    MONTH_NUMBERED,
    WEEK_YEAR_FIRST,
    WEEK_FIRST,
    SUBTOTAL_LABEL,
  };
  const names = Object.keys(host);
  writeFileSync(join(dir, 'patterns.csv'), 'a\n1\n');
  const sandbox = pandasRead<Record<string, string>>(
    join(dir, 'patterns.csv'),
    `print(json.dumps({k: getattr(d, k).pattern for k in ${JSON.stringify(names)}}))`,
  );
  assert.deepEqual(sandbox, host);
});
