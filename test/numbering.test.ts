/**
 * Whole numbers that count entities out, each on as many rows — a panel's subject 1–59 over four
 * periods, as epil.csv writes it without dates — are an identifier in both profiles: never
 * averaged ("progabide has the highest mean subject (44)") nor summed.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { preamblePython, tempDir } from './helpers/fixtures.js';
import { analyzeJson, duckProfile } from './helpers/semantics.js';

const dir = tempDir('opsmind-numbering-');

/** A panel of `subjects` × `periods` rows: a subject number, its period, a count and a treatment. */
function panel(name: string, subjects: number, periods: number, from = 1, column = 'subject') {
  const lines = [`${column},period,y,trt,age`];
  for (let s = 0; s < subjects; s++)
    for (let p = 1; p <= periods; p++)
      lines.push(
        `${s + from},${p},${(s * 7 + p * 3) % 19},${s % 2 ? 'drug' : 'placebo'},${20 + ((s * 13) % 23)}`,
      );
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** The semantic type of `column` in the pandas profile of `file` (opsmind_profile). */
function pandasSemantic(file: string, column: string): string {
  return preamblePython<string>(
    [
      'import json, sys, opsmind_data as d, opsmind_profile as p',
      'path, column = json.load(sys.stdin)',
      'df, info, w = d.read_dataset(path)',
      'profile = p.profile(df, info)',
      'print(json.dumps(next(c["semantic"] for c in profile["column_profiles"] if c["name"] == column)))',
    ].join('\n'),
    [file, column],
  );
}

const CASES: { file: string; column: string; semantic: string }[] = [
  // 59 subjects × 4 periods: counted out, an identifier.
  { file: panel('epil.csv', 59, 4), column: 'subject', semantic: 'identifier' },
  // From 0, as a program numbers them.
  { file: panel('zero.csv', 30, 3, 0), column: 'subject', semantic: 'identifier' },
  // Fewer than 10 numbers: a scale's points as much as entities.
  { file: panel('few.csv', 8, 4), column: 'subject', semantic: 'numeric' },
  // More rows per number than a tenth of the numbers: a cycle over many days, or a measure's
  // values cycled evenly, not entities.
  { file: panel('cycle.csv', 12, 30), column: 'subject', semantic: 'numeric' },
  { file: panel('even.csv', 40, 5), column: 'subject', semantic: 'numeric' },
  // Named as a unit of time: an hour of each day counted out the same.
  { file: panel('hours.csv', 40, 2, 0, 'hour'), column: 'hour', semantic: 'numeric' },
  // Uneven repeats (one subject short of a period): values a measure may take as well.
  { file: short(panel('uneven.csv', 20, 3)), column: 'subject', semantic: 'numeric' },
];

/** The file without its last row. */
function short(path: string): string {
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  writeFileSync(path, `${lines.slice(0, -1).join('\n')}\n`);
  return path;
}

void test('numbers counting entities out, each on as many rows, are an identifier in both profiles', async () => {
  for (const { file, column, semantic } of CASES) {
    const duck = await duckProfile(file);
    const found = duck.column_profiles.find((c) => c.name === column);
    assert.equal(found?.semantic, semantic, `${file}: DuckDB`);
    assert.equal(pandasSemantic(file, column), semantic, `${file}: pandas`);
  }
});

void test('a panel without dates never averages its subject numbers, in either engine', () => {
  const file = panel('trial.csv', 40, 4);
  for (const engine of ['duckdb', 'pandas']) {
    const json = analyzeJson<{
      columns: { name: string; role: string; evidence: string }[];
      charts: { title: string }[];
    }>(file, engine, join(dir, `${engine}.html`));
    const subject = json.columns.find((c) => c.name === 'subject');
    assert.equal(subject?.role, 'identifier', engine);
    assert.match(subject?.evidence ?? '', /40 distinct values, each on at most 4 rows/);
    assert.ok(
      json.charts.every((c) => !/subject/i.test(c.title)),
      json.charts.map((c) => c.title).join('\n'),
    );
  }
});
