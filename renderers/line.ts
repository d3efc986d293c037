/** Line chart: one line per `y` column and per `color` group, x in order (dates become a time axis). */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { asList, baseParams, column, columnList } from './params.js';
import { columnValues, groupRows, pick } from './frame.js';
import type { Frame } from '../src/spec/schema.js';
import type { PlotlyFigure } from './types.js';
import { defineRenderer } from './types.js';
import { periodAxis } from './time-axis.js';

const schema = baseParams.extend({
  x: column('any'),
  y: columnList('numeric'),
  markers: z.boolean().optional(),
  /** The y axis starts at zero when no value is below it (totals and counts, never levels). */
  from_zero: z.boolean().optional(),
});

/** Parameters shared by line and area charts. */
export type LineParams = z.infer<typeof schema>;

/** The series in their own order (params.order: bands, a scale), the rest after them as they come. */
function inOrder(
  groups: Map<string, number[]>,
  order: readonly string[] | undefined,
): [string, number[]][] {
  const entries = [...groups];
  if (!order?.length) return entries;
  const place = (name: string): number => {
    const at = order.indexOf(name);
    return at < 0 ? order.length : at;
  };
  return entries.sort(([a], [b]) => place(a) - place(b));
}

/** Builds line-like traces; `fill` turns them into stacked areas. */
export function lineFigure(frame: Frame, params: LineParams, fill: boolean): PlotlyFigure {
  const ys = asList(params.y);
  const xs = columnValues(frame, params.x);
  const traces: Record<string, unknown>[] = [];
  for (const y of ys) {
    const values = columnValues(frame, y);
    for (const [group, rows] of inOrder(groupRows(frame, params.color), params.order)) {
      const name = [ys.length > 1 ? y : '', group].filter(Boolean).join(' · ');
      const points = pick(values, rows);
      // A value between two gaps draws no line: it gets a dot of its own, the others none.
      const alone = points.map(
        (v, i) =>
          typeof v === 'number' &&
          typeof points[i - 1] !== 'number' &&
          typeof points[i + 1] !== 'number',
      );
      const dots = !fill && params.markers === undefined && alone.some(Boolean);
      traces.push({
        type: 'scatter',
        mode: params.markers || dots ? 'lines+markers' : 'lines',
        name: name || y,
        x: pick(xs, rows),
        y: points,
        connectgaps: false,
        ...(dots ? { marker: { size: alone.map((a) => (a ? 6 : 0)) } } : {}),
        ...(fill ? { stackgroup: 'one' } : {}),
      });
    }
  }
  const layout = baseLayout(params, {
    x: params.x,
    y: ys.join(', '),
    showLegend: traces.length > 1,
  });
  layout.hovermode = 'x unified';
  // Totals and counts of nothing below zero rise from zero (from_zero): an axis from 38 to 39 draws
  // one row less as a fall to the floor. Levels (means, prices) keep the range of their values.
  const numbers = traces.flatMap((t) => (t.y as unknown[]).filter((v) => typeof v === 'number'));
  if (params.from_zero && !params.log_y && numbers.every((v) => v >= 0))
    layout.yaxis = { ...(layout.yaxis as Record<string, unknown>), rangemode: 'tozero' };
  const periods = periodAxis(xs);
  if (periods) layout.xaxis = { ...(layout.xaxis as Record<string, unknown>), ...periods };
  return { data: traces, layout };
}

/** Renders values over an ordered x; the preamble has sorted, aggregated and downsampled the rows. */
export const line = defineRenderer({
  kind: 'line',
  summary:
    'a line per y column and color group over an ordered x (dates make a time axis); many points are downsampled keeping peaks and troughs',
  schema,
  caps: { points: 5000, series: 10 },
  build: (frame, params) => ({ type: 'plotly', figure: lineFigure(frame, params, false) }),
});

/** The line parameter schema, reused by the area renderer. */
export const lineSchema = schema;
