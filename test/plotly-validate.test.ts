import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  plotlyBundleSource,
  plotlyVersion,
  validateFigure,
  type PlotlyFigure,
} from '../src/report/plotly-validate.js';

const bar = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'bar',
  x: ['a', 'b', 'c'],
  y: [1, 2, 3],
  ...extra,
});

void test('a valid bar figure returns []', async () => {
  const fig: PlotlyFigure = {
    data: [bar({ marker: { color: '#1f77b4' }, name: 'count' })],
    layout: {},
  };
  assert.deepEqual(await validateFigure(fig), []);
});

void test('an unknown trace attribute is reported with a readable path', async () => {
  const issues = await validateFigure({ data: [bar({ marker: { colr: 'red' } })], layout: {} });
  assert.equal(issues.length, 1);
  assert.deepEqual(issues[0], {
    path: 'data[0].marker.colr',
    code: 'schema',
    message: 'unknown attribute',
  });
});

void test('an invalid trace type is reported', async () => {
  const issues = await validateFigure({ data: [{ type: 'barz', x: [1], y: [1] }], layout: {} });
  const typeIssue = issues.find((i) => i.path === 'data[0].type');
  assert.ok(typeIssue, JSON.stringify(issues));
  assert.equal(typeIssue.code, 'value');
  assert.match(typeIssue.message, /barz/);
});

void test('a valid layout with titles, axes, legend and margins passes', async () => {
  const fig: PlotlyFigure = {
    data: [bar({ hovertemplate: '%{x}: %{y}<extra></extra>' }), bar({ name: 'second' })],
    layout: {
      title: { text: 'Revenue by region' },
      xaxis: { title: { text: 'Region' }, type: 'category' },
      yaxis: { title: { text: 'Revenue' }, tickformat: ',.0f' },
      barmode: 'group',
      legend: { orientation: 'h' },
      margin: { t: 48, r: 16, b: 48, l: 64 },
      template: { layout: { font: { family: 'system-ui' } } },
    },
  };
  assert.deepEqual(await validateFigure(fig), []);
});

void test('layout problems: string titles, unknown keys and bad values are reported', async () => {
  const issues = await validateFigure({
    data: [bar()],
    layout: { title: 'T', xaxis: { title: 'x', colr: 1 }, font: { size: 'big' } },
  });
  const byPath = new Map(issues.map((i) => [i.path, i]));
  assert.equal(byPath.get('layout.title')?.code, 'object');
  assert.equal(byPath.get('layout.xaxis.title')?.code, 'object');
  assert.equal(byPath.get('layout.xaxis.colr')?.code, 'schema');
  assert.equal(byPath.get('layout.font.size')?.message, 'invalid value (big)');
});

void test('trace-specific layout attributes do not leak between calls (memoised schema)', async () => {
  assert.deepEqual(await validateFigure({ data: [bar()], layout: { barmode: 'stack' } }), []);
  const scatter = { type: 'scatter', mode: 'lines', x: [1, 2], y: [3, 4] };
  const issues = await validateFigure({ data: [scatter], layout: { barmode: 'stack' } });
  assert.deepEqual(issues, [
    { path: 'layout.barmode', code: 'schema', message: 'unknown attribute' },
  ]);
});

void test('the figure is not mutated and malformed input is reported, not thrown', async () => {
  const fig: PlotlyFigure = {
    data: [bar({ marker: { colr: 'red' } })],
    layout: { title: { text: 'x' } },
  };
  const before = structuredClone(fig);
  await validateFigure(fig);
  assert.deepEqual(fig, before);
  const bad = await validateFigure({ data: 'nope', layout: {} } as unknown as PlotlyFigure);
  assert.deepEqual(
    bad.map((i) => [i.path, i.code]),
    [['data', 'array']],
  );
});

void test('plotlyVersion() and plotlyBundleSource()', () => {
  assert.match(plotlyVersion(), /^\d+\.\d+/);
  const src = plotlyBundleSource();
  assert.ok(src.length > 1_000_000);
  assert.equal(plotlyBundleSource(), src);
  assert.ok(!src.includes('</script'), 'bundle must be inlinable in a <script> element');
});
