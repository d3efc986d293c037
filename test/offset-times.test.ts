/**
 * Times written with a UTC offset are read as the times they write, in both engines: a file of
 * month starts at +02:00 is charted from January (DuckDB's instants in UTC put each row in the
 * month before: "Dec 2022"), and an evening order at -05:00 stays in the evening, across a change
 * of summer time too. Times in UTC ("Z") are left as they are.
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { offsetColumns, spacedOffsetColumns } from '../src/engine/source-offsets.js';
import { tempDir } from './helpers/fixtures.js';
import { analyzeJson, askedAlike } from './helpers/semantics.js';

const dir = tempDir('opsmind-offsets-');
after(() => rmSync(dir, { recursive: true, force: true }));

const TZ = 'TIMESTAMP WITH TIME ZONE';

void test('the columns read as the times they write: typed as instants, every value with an offset', () => {
  const columns = [
    { type: TZ, sample: ['2023-01-01T00:00:00+02:00', '2023-07-01T00:00:00+03:00'] },
    { type: TZ, sample: ['2023-01-01T00:00:00Z'] },
    { type: TZ, sample: ['2023-01-01 00:00:00+00', '2023-01-02 00:00:00+00:00'] },
    { type: TZ, sample: ['2023-01-01 10:00:00-0500', '2023-01-01 11:00:00'] },
    { type: 'VARCHAR', sample: ['2023-01-01T00:00:00+02:00'] },
    { type: TZ, sample: ['2024-05-01 09:30-05'] },
  ];
  assert.deepEqual(offsetColumns(columns), [0, 5]);
});

void test('the text columns checked as times with an offset after a space', () => {
  const columns = [
    { type: 'VARCHAR', sample: ['2024-03-01 15:00:00 -0500', '2024-03-02 03:00:00 -0400'] },
    { type: 'VARCHAR', sample: ['2024-03-01 15:00:00 +0000'] },
    { type: 'VARCHAR', sample: ['2024-03-01 15:00:00 -0500', 'soon'] },
    { type: 'VARCHAR', sample: ['2024-03-01 15:00:00-0500'] },
    { type: 'VARCHAR', sample: ['12 -0500'] },
    { type: 'VARCHAR', sample: [] },
    { type: TZ, sample: ['2024-03-01 15:00:00 -0500'] },
  ];
  assert.deepEqual(spacedOffsetColumns(columns), [0, 1]);
});

type Json = {
  insights: { text: string }[];
  warnings: string[];
  columns: { name: string; role: string; evidence: string }[];
  charts: { title: string }[];
};

/** What a report says, with both engines' findings, charts and warnings equal. */
function bothAlike(path: string, label: string): Json {
  const read = (engine: string) =>
    analyzeJson<Json>(path, engine, join(dir, `${label}-${engine}.html`));
  const [duck, pandas] = [read('duckdb'), read('pandas')];
  const said = (j: Json) => ({
    warnings: j.warnings,
    charts: j.charts.map((c) => c.title),
    insights: j.insights.map((i) => i.text),
    columns: j.columns.map((c) => [c.name, c.role]),
  });
  assert.deepEqual(said(duck), said(pandas), label);
  return duck;
}

void test("Shopify's orders, '2024-03-01 15:00:00 -0500' with a line item's blank below, are times in both engines", () => {
  // DuckDB's sniffer leaves a time with a space before its offset as text: "Created at" was free
  // text, no chart over time, where the pandas engine charted the orders per week.
  const rows = Array.from({ length: 120 }, (_, i) => {
    const day = new Date(Date.UTC(2024, 2, 1 + Math.floor(i / 2)));
    const at = `${day.toISOString().slice(0, 10)} ${i % 2 ? '21' : '09'}:15:00 -0500`;
    const order = `#${1001 + i},${at},${40 + (i % 9) * 5},Mug,2`;
    return i % 3 ? order : `${order}\n#${1001 + i},,,Tee,1`;
  });
  const path = join(dir, 'shopify.csv');
  writeFileSync(
    path,
    `Name,Created at,Total,Lineitem name,Lineitem quantity\n${rows.join('\n')}\n`,
  );
  const duck = bothAlike(path, 'shopify');
  assert.equal(duck.columns.find((c) => c.name === 'Created at')?.role, 'date');
  assert.match(
    duck.columns.find((c) => c.name === 'Created at')?.evidence ?? '',
    /from 2024-03-01T09:15:00 to 2024-04-29T21:15:00/,
  );
  assert.ok(
    duck.warnings.includes(
      'read "Created at" as the times it writes, its UTC offsets (-0500) set aside: days, months and hours are the file\'s own',
    ),
    duck.warnings.join('\n'),
  );
  assert.ok(
    duck.charts.some((c) => /per (day|week)/.test(c.title)),
    JSON.stringify(duck.charts),
  );
});

void test("'+0000' after a space is an instant in UTC; a column with one value that is no time stays text", () => {
  const times = Array.from(
    { length: 60 },
    (_, d) =>
      `2024-03-${String(1 + (d % 28)).padStart(2, '0')} 1${d % 10}:00:00 +0000,${10 + (d % 7)}`,
  );
  const utc = join(dir, 'utc-spaced.csv');
  writeFileSync(utc, `at,value\n${times.join('\n')}\n`);
  const duck = bothAlike(utc, 'utc-spaced');
  assert.equal(duck.columns[0]?.role, 'date');
  assert.match(duck.columns[0]?.evidence ?? '', /\+00:00/);
  assert.ok(!duck.warnings.some((w) => w.includes('UTC offsets')), duck.warnings.join('\n'));
  // Beyond the sniffer's sample, a value that is no time: checked over every row, the column is
  // not read as times (no value made missing). The pandas engine's profile calls it dates stored
  // as text; DuckDB's keeps it text (a known difference, as before this reading).
  const many = Array.from(
    { length: 3000 },
    (_, i) => `2024-01-01 10:${String(i % 60).padStart(2, '0')}:00 -0500,${i % 17}`,
  );
  const mixed = join(dir, 'mixed-spaced.csv');
  writeFileSync(mixed, `at,value\n${many.join('\n')}\nsoon,3\n`);
  const kept = analyzeJson<Json>(mixed, 'duckdb', join(dir, 'mixed-spaced.html'));
  assert.equal(kept.columns[0]?.role, 'category');
  assert.ok(!kept.warnings.some((w) => w.includes('UTC offsets')), kept.warnings.join('\n'));
});

void test('month starts at +02:00 are charted from January, in both engines', () => {
  const months = Array.from({ length: 24 }, (_, i) => {
    const [y, m] = [2023 + Math.floor(i / 12), (i % 12) + 1];
    return `${y}-${String(m).padStart(2, '0')}-01T00:00:00+02:00,${1000 + 10 * i + (i % 3) * 25}`;
  });
  const path = join(dir, 'months.csv');
  writeFileSync(path, `month,revenue\n${months.join('\n')}\n`);
  const read = (engine: string) => analyzeJson<Json>(path, engine, join(dir, `${engine}.html`));
  const [duck, pandas] = [read('duckdb'), read('pandas')];
  assert.deepEqual(
    duck.insights.map((i) => i.text),
    pandas.insights.map((i) => i.text),
  );
  assert.ok(
    duck.insights.some((i) => /Jan 2023/.test(i.text)),
    duck.insights.map((i) => i.text).join('\n'),
  );
  assert.ok(!duck.insights.some((i) => /2022/.test(i.text)));
  const warning =
    'read "month" as the times it writes, its UTC offsets (+02:00) set aside: days, months and hours are the file\'s own';
  assert.ok(duck.warnings.includes(warning), duck.warnings.join('\n'));
  assert.ok(pandas.warnings.includes(warning), pandas.warnings.join('\n'));
  assert.match(duck.columns[0]?.evidence ?? '', /from 2023-01-01T00:00:00 to 2024-12-01T00:00:00/);
});

void test("evening orders at -05:00 and -04:00 stay in the evening: the hours of the day are the file's", () => {
  // Every order at 19:00 or 20:00 local time, across the change to summer time (Mar 10, 2024).
  const rows = Array.from({ length: 60 }, (_, d) => {
    const day = new Date(Date.UTC(2024, 1, 20 + d));
    const offset = day < new Date(Date.UTC(2024, 2, 10)) ? '-05:00' : '-04:00';
    const date = day.toISOString().slice(0, 10);
    return [
      `${date}T19:00:00${offset},${20 + (d % 7)}`,
      `${date}T20:00:00${offset},${40 + (d % 5)}`,
    ];
  }).flat();
  const path = join(dir, 'orders.csv');
  writeFileSync(path, `created_at,total\n${rows.join('\n')}\n`);
  const q = 'average total by hour of day';
  const duck = askedAlike(path, dir, q);
  assert.match(
    duck.answer[0] ?? '',
    /^hour 20 has the highest mean total \([\d.]+\); hour 19 the lowest/,
  );
});

void test('times in UTC are left as they are', () => {
  const rows = Array.from(
    { length: 30 },
    (_, d) => `2024-03-${String(d + 1).padStart(2, '0')}T23:00:00Z,${d}`,
  );
  const path = join(dir, 'utc.csv');
  writeFileSync(path, `at,value\n${rows.join('\n')}\n`);
  const duck = analyzeJson<Json>(path, 'duckdb', join(dir, 'utc.html'));
  assert.ok(!duck.warnings.some((w) => w.includes('UTC offsets')), duck.warnings.join('\n'));
  assert.match(duck.columns[0]?.evidence ?? '', /\+00:00/);
});

void test('JSON records and JSON lines are read as the times they write too, in both engines', () => {
  // A name with a quote and a comma: the second read names its columns in SQL.
  const name = 'month "local", start';
  const records = Array.from({ length: 24 }, (_, i) => {
    const [y, m] = [2023 + Math.floor(i / 12), (i % 12) + 1];
    const at = `${y}-${String(m).padStart(2, '0')}-01T00:30:00+02:00`;
    return { [name]: at, revenue: 1000 + 10 * i + (i % 3) * 25 };
  });
  const files = {
    'months.json': JSON.stringify(records),
    'months.jsonl': `${records.map((r) => JSON.stringify(r)).join('\n')}\n`,
  };
  const warning = `read ${JSON.stringify(name)} as the times it writes, its UTC offsets (+02:00) set aside: days, months and hours are the file's own`;
  for (const [file, text] of Object.entries(files)) {
    const path = join(dir, file);
    writeFileSync(path, text);
    const read = (engine: string) =>
      analyzeJson<Json>(path, engine, join(dir, `${file}-${engine}.html`));
    const [duck, pandas] = [read('duckdb'), read('pandas')];
    const texts = duck.insights.map((i) => i.text);
    assert.deepEqual(
      texts,
      pandas.insights.map((i) => i.text),
      file,
    );
    assert.ok(texts.some((t) => /Jan 2023/.test(t)) && !texts.some((t) => /2022/.test(t)), file);
    assert.ok(duck.warnings.includes(warning), `${file}: ${duck.warnings.join('\n')}`);
    assert.ok(pandas.warnings.includes(warning), `${file}: ${pandas.warnings.join('\n')}`);
    assert.match(
      duck.columns.find((c) => c.name === name)?.evidence ?? '',
      /from 2023-01-01T00:30:00 to 2024-12-01T00:30:00/,
      file,
    );
  }
});
