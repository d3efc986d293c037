/** The spec boundary (DESIGN.md 2): validation before rendering, with precise, model-readable errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BASE_PARAM_NAMES, KINDS } from '../renderers/index.js';
import type { ColumnInfo, Declaration } from '../src/spec/schema.js';
import { validateDeclaration } from '../src/spec/validate.js';

const COLUMNS: ColumnInfo[] = [
  { name: 'region', dtype: 'string' },
  { name: 'revenue', dtype: 'number' },
  { name: 'units', dtype: 'number' },
  { name: 'date', dtype: 'string' },
];

/** Minimal valid parameters per kind, over COLUMNS. */
const REQUIRED: Record<string, Record<string, unknown>> = {
  bar: { x: 'region', y: 'revenue' },
  line: { x: 'date', y: 'revenue' },
  area: { x: 'date', y: ['revenue', 'units'] },
  scatter: { x: 'units', y: 'revenue' },
  histogram: { x: 'revenue' },
  box: { y: 'revenue', x: 'region' },
  pie: { names: 'region', values: 'revenue' },
  heatmap: { x: 'region', y: 'date', z: 'revenue' },
  table: {},
};

function decl(kind: string, params: Record<string, unknown>, id = 'c2'): Declaration {
  return {
    id,
    seq: 2,
    kind,
    params,
    inferred: [],
    data: {
      file: 'artifacts/x.json',
      columns: COLUMNS,
      source_columns: COLUMNS,
      rows: 10,
      source_rows: 10,
      sampled: false,
      reductions: ['none'],
      cap: null,
      error: null,
    },
  };
}

void test('every kind has a minimal parameter set in this test', () => {
  assert.deepEqual(Object.keys(REQUIRED).sort(), [...KINDS].sort());
});

for (const kind of KINDS) {
  void test(`${kind} accepts every shared base parameter, including title`, () => {
    const base = {
      title: 'T',
      subtitle: 'S',
      x_label: 'X',
      y_label: 'Y',
      color: 'region',
      sort: 'descending',
      top_n: 5,
      agg: 'sum',
      height: 400,
      note: 'n',
      log_y: false,
      order: ['West', 'East'],
    };
    assert.deepEqual(
      Object.keys(base).sort(),
      [...BASE_PARAM_NAMES].sort(),
      'the test covers every base parameter',
    );
    const check = validateDeclaration(decl(kind, { ...REQUIRED[kind], ...base }));
    assert.deepEqual(check.issues, []);
    assert.ok(check.params);
  });
}

void test('an unknown parameter names the nearest valid one', () => {
  const check = validateDeclaration(decl('bar', { x: 'region', y: 'revenue', titel: 'Revenue' }));
  assert.equal(check.issues.length, 1);
  assert.equal(
    check.issues[0]?.message,
    'chart 2 (bar): unknown parameter "titel"; did you mean "title"?',
  );
  assert.equal(check.issues[0]?.code, 'unknown_param');
  assert.deepEqual(check.issues[0]?.suggestions, ['title']);
});

void test('a missing required parameter is named', () => {
  const check = validateDeclaration(decl('scatter', { x: 'units' }));
  assert.equal(check.issues[0]?.message, 'chart 2 (scatter): missing required parameter "y"');
});

void test('a column not in the data suggests the nearest column names', () => {
  const check = validateDeclaration(decl('bar', { x: 'Region', y: 'revenue' }));
  assert.equal(check.issues[0]?.code, 'unknown_column');
  assert.match(
    check.issues[0]?.message ?? '',
    /^chart 2 \(bar\): column "Region" \(parameter "x"\) is not in the data; did you mean "region"\?$/,
  );
});

void test('a column far from every name lists the columns instead', () => {
  const check = validateDeclaration(decl('line', { x: 'date', y: 'profit_margin_pct' }));
  assert.match(check.issues[0]?.message ?? '', /columns are: "region", "revenue", "units", "date"/);
});

void test('a non-numeric column where a number is needed is a wrong-type error naming numeric columns', () => {
  const check = validateDeclaration(decl('histogram', { x: 'region' }));
  assert.equal(check.issues[0]?.code, 'wrong_column_type');
  assert.equal(
    check.issues[0]?.message,
    'chart 2 (histogram): parameter "x" needs a numeric column, but "region" is string; numeric columns: "revenue", "units"',
  );
});

void test('a wrongly typed parameter value says what was expected and what came', () => {
  const check = validateDeclaration(decl('histogram', { x: 'revenue', bins: 'ten' }));
  assert.equal(check.issues[0]?.code, 'invalid_param');
  assert.match(
    check.issues[0]?.message ?? '',
    /parameter "bins" is invalid \(expected number, received string\); got "ten"/,
  );
});

void test('an unknown kind suggests the nearest kind', () => {
  const check = validateDeclaration(decl('barr', { x: 'region' }));
  assert.equal(check.issues[0]?.code, 'unknown_kind');
  assert.match(
    check.issues[0]?.message ?? '',
    /^chart 2 \(barr\): unknown kind "barr"; did you mean "bar"\?/,
  );
});

void test('heatmap needs all of x, y, z or none', () => {
  assert.match(
    validateDeclaration(decl('heatmap', { x: 'region' })).issues[0]?.message ?? '',
    /all of "x", "y" and "z"/,
  );
  assert.deepEqual(validateDeclaration(decl('heatmap', {})).issues, []);
});

void test('a base parameter with no meaning for a kind is accepted with a warning', () => {
  const check = validateDeclaration(decl('pie', { names: 'region', x_label: 'Region' }));
  assert.deepEqual(check.issues, []);
  assert.match(check.warnings[0] ?? '', /"x_label" has no effect on a pie/);
});

void test('inferred parameters are not checked against the declared columns', () => {
  const d = decl('bar', { x: 'region', y: 'count' });
  d.inferred = ['y'];
  assert.deepEqual(validateDeclaration(d).issues, []);
});

void test('a data error from the preamble is reported on its declaration', () => {
  const d = decl('pie', { names: 'region', values: 'revenue' });
  d.data.error = 'ValueError: pie values must not be negative';
  assert.equal(
    validateDeclaration(d).issues[0]?.message,
    'chart 2 (pie): ValueError: pie values must not be negative',
  );
});

void test('tables are labelled by their number', () => {
  const check = validateDeclaration(decl('table', { max_rows: 'all' }, 't1'));
  assert.match(check.issues[0]?.message ?? '', /^table 1: parameter "max_rows" is invalid/);
});
