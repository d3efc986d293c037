/**
 * A category whose text shows nothing — a JSON file's "" or a value of spaces alone — is named in
 * the findings and on the charts ("(empty)", `(blank "  ")`), the same by both engines, instead of
 * "the top 3 (C, O, )" and a bar without a name (src/util/blank-label.ts, opsmind_insights).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bar } from '../renderers/bar.js';
import { heatmap } from '../renderers/heatmap.js';
import { pie } from '../renderers/pie.js';
import { cellText, groupRows } from '../renderers/frame.js';
import { blankLabel } from '../src/util/blank-label.js';
import { preamblePython, seeded, tempDir } from './helpers/fixtures.js';
import { bothEngines } from './helpers/semantics.js';

const TEXTS = ['', ' ', '  ', '\t', '\n', '\u00a0', '\u3000 ', '\ufeff', 'a ', ' b', 'C'];

void test('blankLabel names text that shows nothing, and nothing else, as the Python does', () => {
  assert.equal(blankLabel(''), '(empty)');
  assert.equal(blankLabel('  '), '(blank "  ")');
  assert.equal(blankLabel('\t'), '(blank "\\t")');
  assert.equal(blankLabel('\u00a0'), '(blank "\\u00a0")');
  assert.equal(blankLabel(' b'), ' b');
  assert.equal(blankLabel('C'), 'C');
  const labels = TEXTS.map(blankLabel);
  assert.equal(new Set(labels).size, TEXTS.length, 'no two values share a label');
  const python = preamblePython<string[]>(
    'import json, sys, opsmind_insights as o\nprint(json.dumps([o._blank_label(t) for t in json.load(sys.stdin)]))',
    TEXTS,
  );
  assert.deepEqual(labels, python);
});

void test('a chart names a blank category on its axis, legend and slices, each value its own', () => {
  assert.equal(cellText(''), '(empty)');
  assert.equal(cellText(null), '(missing)');
  assert.equal(cellText(3), '3');
  const built = bar.build(
    {
      columns: ['status', 'amount'],
      data: [
        ['C', 5],
        ['', 4],
        ['  ', 3],
        ['(empty)', 2],
      ],
    },
    { x: 'status', y: 'amount' },
  );
  assert.equal(built.type, 'plotly');
  const trace = built.type === 'plotly' ? built.figure.data[0] : undefined;
  const slices = pie.build(
    {
      columns: ['status', 'n'],
      data: [
        ['', 1],
        ['(empty)', 2],
        [null, 3],
      ],
    },
    { names: 'status', values: 'n' },
  );
  const labels = slices.type === 'plotly' ? slices.figure.data[0]?.labels : undefined;
  assert.deepEqual(labels, ['(empty)', '(empty) (2)', '(missing)']);
  const cells = heatmap.build(
    {
      columns: ['x', 'y', 'z'],
      data: [
        ['', 'a', 1],
        ['(empty)', 'a', 2],
      ],
    },
    { x: 'x', y: 'y', z: 'z' },
  );
  const grid = cells.type === 'plotly' ? cells.figure.data[0] : undefined;
  assert.deepEqual([grid?.x, grid?.z], [['(empty)', '(empty) (2)'], [[1, 2]]]);
  // A value that reads like another's label keeps a slot of its own.
  assert.deepEqual(trace?.x, ['C', '(empty)', '(blank "  ")', '(empty) (2)']);
});

void test('values that read the same stay apart as groups: no trace holds the rows of two', () => {
  const groups = groupRows(
    {
      columns: ['status', 'v'],
      data: [[''], ['(empty)'], [''], [3], ['3'], [null], ['(missing)']].map(([s], i) => [s, i]),
    },
    'status',
  );
  assert.deepEqual(Object.fromEntries(groups), {
    '(empty)': [0, 2],
    '(empty) (2)': [1],
    '3': [3],
    '3 (2)': [4],
    '(missing)': [5],
    '(missing) (2)': [6],
  });
});

void test('both engines name a JSON file’s blank categories in findings and charts alike', () => {
  const dir = tempDir('opsmind-blank-');
  const random = seeded(7);
  const statuses = ['A', 'B', '', '  ', 'C'];
  const rows = Array.from({ length: 200 }, (_, i) => ({
    status: statuses[Math.floor(random() * statuses.length)],
    date: `2020-${String(1 + (i % 12)).padStart(2, '0')}-01`,
    amount: Math.round(random() * 10_000) / 100,
  }));
  const file = join(dir, 'blank.json');
  writeFileSync(file, JSON.stringify(rows));
  const { duck, pandas } = bothEngines(file, dir);
  // The pandas reader keeps a JSON file's ISO dates as text and says so; DuckDB types them.
  const analysed = (findings: string[]) =>
    findings.filter((f) => !f.startsWith('dates stored as text'));
  assert.deepEqual(analysed(duck.findings), analysed(pandas.findings));
  const said = duck.findings.join('\n');
  assert.match(said, /\(empty\)/);
  assert.match(said, /\(blank " {2}"\)/);
  assert.doesNotMatch(said, /, \)|\(, |, ,/, 'no finding lists a name that shows nothing');
  for (const engine of ['duckdb', 'pandas']) {
    const html = readFileSync(join(dir, `${engine}.html`), 'utf8');
    assert.ok(html.includes('"(empty)"'), `${engine}: a chart names the empty category`);
    assert.ok(!html.includes('"x":["C","",'), `${engine}: no bar without a name`);
  }
});
