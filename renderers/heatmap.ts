/** Heatmap: a value per (x, y) cell, from long data (x, y, z) or a matrix such as `df.corr()`. */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { baseParams, column } from './params.js';
import { cellText, columnValues } from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  x: column('any').optional(),
  y: column('any').optional(),
  z: column('numeric').optional(),
  colorscale: z.enum(['RdBu', 'Viridis', 'Blues', 'Reds', 'YlOrRd', 'Greens', 'Cividis']).optional(),
  show_values: z.boolean().optional(),
  zmid: z.number().optional(),
});

/** Frame columns the preamble writes for a heatmap (long form, one row per cell). */
export const HEATMAP_COLUMNS = ['x', 'y', 'z'] as const;

function distinct(values: readonly unknown[]): string[] {
  return [...new Set(values.map(cellText))];
}

/** Renders a cell grid; a matrix (no x/y/z) uses its first column as row labels. */
export const heatmap = defineRenderer({
  kind: 'heatmap',
  summary: 'heatmap(x=column, y=column, z=numeric column, agg) from long data, or no x/y/z for a matrix like df.corr(); colorscale, show_values, zmid',
  schema,
  ignores: ['color', 'log_y'],
  check(params) {
    const given = [params.x, params.y, params.z].filter((v) => v !== undefined).length;
    return given === 0 || given === 3 ? [] : ['give all of "x", "y" and "z" (long data) or none of them (a matrix such as df.corr())'];
  },
  build(frame, params) {
    const xs = columnValues(frame, 'x').map(cellText);
    const ys = columnValues(frame, 'y').map(cellText);
    const zs = columnValues(frame, 'z');
    const xCats = distinct(xs);
    const yCats = distinct(ys);
    const grid: (number | null)[][] = yCats.map(() => xCats.map(() => null));
    zs.forEach((value, i) => {
      const row = grid[yCats.indexOf(ys[i] ?? '')];
      if (row) row[xCats.indexOf(xs[i] ?? '')] = typeof value === 'number' ? value : null;
    });
    const finite = zs.filter((v): v is number => typeof v === 'number');
    const diverging = params.zmid !== undefined || (finite.some((v) => v < 0) && finite.some((v) => v > 0));
    const trace: Record<string, unknown> = {
      type: 'heatmap', x: xCats, y: yCats, z: grid,
      colorscale: params.colorscale ?? (diverging ? 'RdBu' : 'Viridis'),
      hoverongaps: false,
    };
    if (diverging) trace.zmid = params.zmid ?? 0;
    if (params.show_values ?? xCats.length * yCats.length <= 400) {
      trace.texttemplate = finite.every((v) => Math.abs(v) <= 1) ? '%{z:.2f}' : '%{z:.3~s}';
    }
    const layout = baseLayout(params, { x: params.x ?? '', y: params.y ?? '', showLegend: false });
    layout.xaxis = { ...(layout.xaxis as object), type: 'category' };
    layout.yaxis = { ...(layout.yaxis as object), type: 'category', autorange: 'reversed' };
    return { type: 'plotly', figure: { data: [trace], layout } };
  },
});
