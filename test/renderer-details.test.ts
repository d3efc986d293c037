/**
 * What an analyst reads off a chart, checked on the built figures: a value between two gaps
 * gets a dot, a scatter coloured by a group draws each group's own trend in its colour (and no r
 * that a sample could contradict), heatmap cells never read "426m" for 0.426, pie labels stay
 * inside their slices, and log axes label 1, 2, 5 of each decade.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heatmap } from '../renderers/heatmap.js';
import { histogram } from '../renderers/histogram.js';
import { line } from '../renderers/line.js';
import { pie } from '../renderers/pie.js';
import { scatter } from '../renderers/scatter.js';
import { formatCell } from '../renderers/table.js';
import { validateFigure } from '../src/report/plotly-validate.js';

type Figure = { data: Record<string, unknown>[]; layout: Record<string, unknown> };

function figure(built: { type: string; figure?: unknown }): Figure {
  assert.equal(built.type, 'plotly');
  return built.figure as Figure;
}

void test('line: a value with gaps on both sides gets a dot of its own; a whole line gets none', () => {
  const frame = {
    columns: ['month', 'kind', 'mm'],
    data: [
      ['2024-01', 'rain', 3],
      ['2024-02', 'rain', 4],
      ['2024-03', 'rain', 5],
      ['2024-01', 'snow', null],
      ['2024-02', 'snow', 7],
      ['2024-03', 'snow', null],
    ],
  };
  const f = figure(line.build(frame, line.schema.parse({ x: 'month', y: 'mm', color: 'kind' })));
  const [rain, snow] = f.data;
  assert.equal(rain?.mode, 'lines');
  assert.equal(snow?.mode, 'lines+markers');
  assert.deepEqual((snow?.marker as { size: number[] }).size, [0, 6, 0]);
  assert.equal(snow?.connectgaps, false);
});

void test('line: totals and counts start their axis at zero (from_zero); levels and values below zero keep their range', () => {
  const frame = (values: number[]) => ({
    columns: ['day', 'count'],
    data: values.map((v, i) => [`2024-03-0${i + 1}`, v]),
  });
  const axis = (values: number[], params: Record<string, unknown>) =>
    figure(line.build(frame(values), line.schema.parse({ x: 'day', y: 'count', ...params }))).layout
      .yaxis as Record<string, unknown>;
  // 39 rows a day, one day 38: on an axis from 38 to 39 the dip fell to the floor.
  assert.equal(axis([39, 39, 38, 39], { from_zero: true }).rangemode, 'tozero');
  assert.equal(axis([39, 39, 38, 39], {}).rangemode, undefined);
  assert.equal(axis([3, -1, 2], { from_zero: true }).rangemode, undefined);
  assert.equal(axis([39, 38], { from_zero: true, log_y: true }).rangemode, undefined);
});

void test('line: series in their own order (params.order), the rest after them as they come', () => {
  const bands = ['Under $25,000', '$25,000 - $49,999', '$100,000 or more'];
  const frame = {
    columns: ['day', 'band', 'n'],
    data: ['$100,000 or more', '$25,000 - $49,999', 'Other', 'Under $25,000'].flatMap((b, i) => [
      ['2024-03-01', b, i],
      ['2024-03-02', b, i + 1],
    ]),
  };
  const names = (order?: string[]) =>
    figure(
      line.build(frame, line.schema.parse({ x: 'day', y: 'n', color: 'band', order })),
    ).data.map((t) => t.name);
  assert.deepEqual(names(bands), [...bands, 'Other']);
  assert.deepEqual(names(), ['$100,000 or more', '$25,000 - $49,999', 'Other', 'Under $25,000']);
});

void test('scatter: coloured by a group, each group gets its own trend in its colour, and the pooled one', () => {
  const data: unknown[][] = [];
  for (let k = 0; k < 2; k++)
    for (let i = 0; i < 20; i++) data.push([i + k * 10, i * 0.5 - k * 20, `g${k}`]);
  const f = figure(
    scatter.build(
      { columns: ['x', 'y', 'g'], data },
      scatter.schema.parse({ x: 'x', y: 'y', color: 'g', trendline: true }),
    ),
  );
  const markers = f.data.filter((t) => t.mode === 'markers');
  const trends = f.data.filter((t) => t.mode === 'lines');
  assert.equal(markers.length, 2);
  assert.deepEqual(
    trends.map((t) => t.name),
    ['g0 trend', 'g1 trend', 'trend, all rows pooled'],
  );
  markers.forEach((m, i) =>
    assert.equal(
      (trends[i]?.line as { color: string }).color,
      (m.marker as { color: string }).color,
    ),
  );
  // Within each group y rises by 0.5 a step; the trend lines say so.
  const slope = (t: Record<string, unknown>): number => {
    const [x0, x1] = t.x as number[];
    const [y0, y1] = t.y as number[];
    return ((y1 ?? 0) - (y0 ?? 0)) / ((x1 ?? 1) - (x0 ?? 0));
  };
  assert.ok(Math.abs(slope(trends[0] ?? {}) - 0.5) < 1e-9);
  assert.ok(slope(trends[2] ?? {}) < 0, 'pooled, the groups slope the other way');
  for (const t of f.data) assert.doesNotMatch(String(t.name), /r =/);
});

void test('heatmap: correlations with two decimals, other values to three digits, SI prefixes only when large', () => {
  const text = (z: number[]): unknown => {
    const frame = { columns: ['x', 'y', 'z'], data: z.map((v, i) => [`x${i}`, 'row', v]) };
    return figure(heatmap.build(frame, heatmap.schema.parse({ x: 'x', y: 'y', z: 'z' }))).data[0]
      ?.texttemplate;
  };
  assert.equal(text([0.426, -0.465, 1.0000000000000002]), '%{z:.2f}');
  assert.equal(text([0.2, 1.5, 3.75]), '%{z:,.3~r}');
  assert.equal(text([12_000, 2_250_000_000]), '%{z:.3~s}');
});

void test('pie: labels inside their slices, hidden when a sliver cannot hold them', () => {
  const frame = {
    columns: ['c', 'n'],
    data: [
      ['USA', 3372],
      ['Palau', 1],
      ['Thailand', 1],
    ],
  };
  const f = figure(pie.build(frame, pie.schema.parse({ names: 'c', values: 'n' })));
  assert.equal(f.data[0]?.textposition, 'inside');
  assert.deepEqual(f.layout.uniformtext, { minsize: 10, mode: 'hide' });
});

void test('a log axis labels 1, 2 and 5 of each decade', () => {
  const frame = {
    columns: ['bin_start', 'bin_end', 'count'],
    data: [
      [0, 1, 1000],
      [1, 2, 3],
    ],
  };
  const params = histogram.schema.parse({ x: 'v', log_y: true });
  const built = histogram.build(frame, params);
  const yaxis = figure(built).layout.yaxis as { type: string; dtick: string };
  assert.deepEqual([yaxis.type, yaxis.dtick], ['log', 'D2']);
});

void test('line: points that each start a month are ticked and hovered by month, a year apart by year', async () => {
  const axis = (x: unknown[]) => {
    const frame = { columns: ['t', 'v'], data: x.map((t, i) => [t, i]) };
    const f = figure(line.build(frame, line.schema.parse({ x: 't', y: 'v' })));
    return f.layout.xaxis as Record<string, unknown>;
  };
  const months = ['2024-03-01T00:00:00.000', '2024-04-01T00:00:00.000', '2024-07-01T00:00:00.000'];
  const monthly = axis(months);
  assert.equal(monthly.dtick, 'M1');
  assert.equal(monthly.tickformat, '%b %Y');
  assert.equal(monthly.hoverformat, '%b %Y');
  assert.equal(monthly.tick0, '2024-03-01');
  // Half a month of room on each side: the first and the last tick are drawn.
  assert.deepEqual(monthly.range, ['2024-02-14 19:12:00', '2024-07-16 04:48:00']);
  // Thirty months: a tick every quarter; a hundred: every year, on Januaries.
  const month = (i: number) =>
    `${2020 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
  assert.equal(axis(Array.from({ length: 30 }, (_, i) => month(i + 2))).dtick, 'M3');
  const long = axis(Array.from({ length: 100 }, (_, i) => month(i + 2)));
  assert.deepEqual([long.dtick, long.tickformat, long.tick0], ['M12', '%Y', '2020-01-01']);
  const quarters = axis(['2023-10-01', '2024-01-01', '2024-04-01', '2024-07-01']);
  assert.deepEqual(
    [quarters.dtick, quarters.tickformat, quarters.hoverformat],
    ['M3', 'Q%q %Y', 'Q%q %Y'],
  );
  const years = axis(['2001-01-01', '2002-01-01', null, '2005-01-01']);
  assert.deepEqual([years.dtick, years.tickformat, years.hoverformat], ['M12', '%Y', '%Y']);
  // Attributes Plotly itself accepts.
  const frame = { columns: ['t', 'v'], data: months.map((t, i) => [t, i]) };
  const built = line.build(frame, line.schema.parse({ x: 't', y: 'v' }));
  assert.deepEqual(await validateFigure(figure(built) as never), []);
  // Days, a mid-month date, or numbers: not ticked by month.
  for (const other of [
    ['2024-03-01', '2024-03-02'],
    ['2024-03-01', '2024-04-15'],
    [1, 2, 3],
  ])
    assert.equal(axis(other).tickformat, undefined, JSON.stringify(other));
});

void test('line: a few weeks of days are ticked on days (not at 00:00 and 12:00) and hovered by day', async () => {
  const axis = (x: unknown[]) => {
    const frame = { columns: ['t', 'v'], data: x.map((t, i) => [t, i]) };
    const f = figure(line.build(frame, line.schema.parse({ x: 't', y: 'v' })));
    return f.layout.xaxis as Record<string, unknown>;
  };
  const day = (d: number) => new Date(Date.UTC(2018, 1, d)).toISOString().replace('Z', '');
  // Six days (earthquakes.json's): a tick on each, from the first.
  const six = axis([1, 2, 3, 4, 5, 6].map(day));
  assert.deepEqual(
    [six.type, six.tick0, six.dtick, six.hoverformat],
    ['date', '2018-02-01', 86_400_000, '%b %-d, %Y'],
  );
  // Three weeks of days: every other day; weekly points, or a month of days: every week.
  assert.equal(axis(Array.from({ length: 21 }, (_, i) => day(i + 1))).dtick, 2 * 86_400_000);
  assert.equal(axis([1, 8, 15, 22].map(day)).dtick, 7 * 86_400_000);
  assert.equal(axis(Array.from({ length: 28 }, (_, i) => day(i + 1))).dtick, 7 * 86_400_000);
  // Text dates as the pandas engine writes them, a missing x among them.
  assert.equal(axis(['2018-02-01', null, '2018-02-02']).dtick, 86_400_000);
  // Longer than six weeks, an hour in a day, one day only, or numbers: Plotly's own ticks.
  for (const other of [
    Array.from({ length: 60 }, (_, i) => day(i + 1)),
    ['2018-02-01T00:00:00', '2018-02-01T12:00:00'],
    ['2018-02-01'],
    [1, 2, 3],
  ])
    assert.equal(axis(other).dtick, undefined, JSON.stringify(other).slice(0, 60));
  const frame = { columns: ['t', 'v'], data: [1, 2, 3].map((d, i) => [day(d), i]) };
  const built = line.build(frame, line.schema.parse({ x: 't', y: 'v' }));
  assert.deepEqual(await validateFigure(figure(built) as never), []);
});

void test('a table cell of an infinite value (frames write "∞" and "-∞") is a right-aligned number, not text', () => {
  assert.deepEqual(formatCell('∞'), { text: '∞', numeric: true });
  assert.deepEqual(formatCell('-∞'), { text: '−∞', numeric: true });
  assert.deepEqual(formatCell(null), { text: '—', numeric: false });
  assert.deepEqual(formatCell('∞ and beyond'), { text: '∞ and beyond', numeric: false });
});
