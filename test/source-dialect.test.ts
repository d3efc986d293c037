/**
 * The dialect rules ported from preamble/opsmind_data.py: the delimiter is the one whose field
 * counts are most consistent, counted as Python's csv.reader splits records (the oracle here).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fieldCounts, parseRows, sniffDelimiter } from '../src/engine/source-dialect.js';
import { preamblePython, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const DELIMITERS = [',', ';', '\t', '|'];

/** Texts that exercise every branch: quotes, doubled quotes, line ends in quotes, CR, CRLF, blank lines, a delimiter at the end. */
const AWKWARD = [
  'a,b,c\n1,2,3\n',
  'a,b\r\n1,"x, y"\r\n2,"line\nbreak"\r\n',
  'a;b\r1;2\r\r3;4',
  '"q""uote",b\n"",\n,,\n',
  'x|y\n\n\n1|2|\n',
  'one\ttwo\n"tab\tin"\tz\n"unclosed,\n',
  'a,b"c,d\n1,2,3,4\n',
  '\n\r\n"a"b,c\n',
];

/** The field count of every non-empty record, as Python's csv.reader (newline="") gives it. */
function pythonCounts(texts: string[], delimiter: string): number[][] {
  const program =
    'import csv, io, json, sys\n' +
    'texts, d = json.load(sys.stdin)\n' +
    'print(json.dumps([[len(r) for r in csv.reader(io.StringIO(t, newline=""), delimiter=d) if r] for t in texts]))';
  const r = spawnSync('/usr/bin/python3', ['-c', program], {
    input: JSON.stringify([texts, delimiter]),
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as number[][];
}

void test("fieldCounts counts each record's fields as Python's csv.reader splits them", () => {
  for (const delimiter of DELIMITERS) {
    const ours = AWKWARD.map((t) => fieldCounts(t, delimiter).filter((n) => n > 0));
    assert.deepEqual(ours, pythonCounts(AWKWARD, delimiter), JSON.stringify(delimiter));
  }
});

void test('fieldCounts agrees with parseRows, blank lines included, on 20,000 random texts', () => {
  const pieces = ['a', 'b', ',', ';', '\t', '|', '"', '"', '\n', '\r', '\r\n', ' ', 'x,y'];
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 20_000; i++) {
    const text = Array.from(
      { length: Math.floor(next() * 40) },
      () => pieces[Math.floor(next() * pieces.length)],
    ).join('');
    for (const delimiter of DELIMITERS)
      assert.deepEqual(
        fieldCounts(text, delimiter),
        parseRows(text, delimiter).map((row) => row.fields.length),
        JSON.stringify([text, delimiter]),
      );
  }
});

void test('sniffDelimiter: the most consistent split wins, the preferred one breaks ties', () => {
  assert.equal(sniffDelimiter('a;b;c\n1;2,5;3\n4;5;6\n', ','), ';');
  assert.equal(sniffDelimiter('name,"city; state"\nA,"X; Y"\nB,"Z; W"\n', ','), ',');
  assert.equal(sniffDelimiter('a\tb\n1\t2\n', ','), '\t');
  assert.equal(sniffDelimiter('a|b,c\n1|2,3\n', '|'), '|');
});

void test('sniffDelimiter: a single space when nothing else splits every line alike, as the Python does', () => {
  const cases: [string, string][] = [
    ["'OBS' 'GPA' 'TUCE'\n1 2.66 20\n2 2.89 22\n3 3.28 24\n", ' '],
    ['Chins Situps Jumps\n5 162 60\n2 110 60\n', ' '],
    // Words of varying counts, a one-word header: one column (runs of spaces: source-whitespace.test.ts).
    ['name\nAda Lovelace\nAlan Turing\nGrace Hopper\n', ','],
    ['note\nsold out early\nrain all day\nfine\n', ','],
    ['full name\nAda Lovelace\nAlan Turing\nGrace Hopper\n', ','],
    // A comma splits them: never the spaces inside its fields.
    ['city,note\nParis,rain all day\nRome,sun\n', ','],
  ];
  for (const [sample, expected] of cases)
    assert.equal(sniffDelimiter(sample, ','), expected, sample);
  const python = preamblePython<string[]>(
    'import json, sys, opsmind_data as d\nprint(json.dumps([d.sniff_delimiter(s) for s in json.load(sys.stdin)]))',
    cases.map(([sample]) => sample),
  );
  assert.deepEqual(
    python,
    cases.map(([, expected]) => expected),
  );
});

void test('a file of fields split by single spaces is read as columns by both engines', () => {
  const dir = tempDir('opsmind-spaces-');
  const file = join(dir, 'spector.txt');
  const rows = Array.from(
    { length: 32 },
    (_, i) =>
      `${i + 1} ${(2 + (i % 7) * 0.25).toFixed(2)} ${18 + (i % 9)} ${i % 2} ${i % 3 === 0 ? 1 : 0}`,
  );
  writeFileSync(file, ["'OBS' 'GPA' 'TUCE' 'PSI' 'GRADE'", ...rows].join('\n') + '\n');
  const { duck, pandas } = bothEngines(file, dir);
  assert.deepEqual(pandas, duck);
  assert.ok(duck.charts.length >= 2, duck.charts.join('\n'));
  assert.ok(
    duck.charts.some((t) => t.includes("'GPA'")),
    duck.charts.join('\n'),
  );
});
