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
import { offsetColumns } from '../src/engine/source-offsets.js';
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

type Json = {
  insights: { text: string }[];
  warnings: string[];
  columns: { name: string; evidence: string }[];
};

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
