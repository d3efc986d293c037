/** Scatter plot: one point per row, optionally coloured by a column and sized by another. */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { baseParams, column } from './params.js';
import { columnValues, groupRows, pick } from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  x: column('numeric'),
  y: column('numeric'),
  size: column('numeric').optional(),
  trendline: z.boolean().optional(),
  opacity: z.number().min(0.05).max(1).optional(),
  /** Fewer points than the cap (a lighter report); the sample stays reproducible. */
  max_points: z.number().int().min(100).max(5000).optional(),
});

/** Plotly's default colour sequence (its `colorway`), in order. */
const COLORWAY = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
];

/** Least-squares fit of y on x over the finite pairs; undefined when it is not defined. */
export function leastSquares(
  xs: readonly unknown[],
  ys: readonly unknown[],
): { slope: number; intercept: number; r: number } | undefined {
  let n = 0,
    sx = 0,
    sy = 0,
    sxx = 0,
    syy = 0,
    sxy = 0;
  xs.forEach((xv, i) => {
    const yv = ys[i];
    if (typeof xv !== 'number' || typeof yv !== 'number') return;
    n += 1;
    sx += xv;
    sy += yv;
    sxx += xv * xv;
    syy += yv * yv;
    sxy += xv * yv;
  });
  const vx = n * sxx - sx * sx;
  const vy = n * syy - sy * sy;
  if (n < 2 || vx === 0) return undefined;
  const slope = (n * sxy - sx * sy) / vx;
  const r = vy === 0 ? 0 : (n * sxy - sx * sy) / Math.sqrt(vx * vy);
  return { slope, intercept: (sy - slope * sx) / n, r };
}

/** Renders x against y; the preamble has sampled large data to the point cap. */
export const scatter = defineRenderer({
  kind: 'scatter',
  summary:
    'one point per row; trendline=true adds a least-squares line with its r; large data is sampled reproducibly',
  schema,
  caps: { points: 5000 },
  ignores: ['order'],
  build(frame, params) {
    const xs = columnValues(frame, params.x);
    const ys = columnValues(frame, params.y);
    const sizes = params.size ? columnValues(frame, params.size) : undefined;
    const traces: Record<string, unknown>[] = [];
    const lines: Record<string, unknown>[] = [];
    const span = (values: readonly unknown[]): [number, number] => {
      const finite = values.filter((v): v is number => typeof v === 'number');
      return [Math.min(...finite), Math.max(...finite)];
    };
    const groups = [...groupRows(frame, params.color)];
    groups.forEach(([group, rows], k) => {
      // Plotly's own colours, set here so each group's trend line wears its group's colour.
      const color = params.color ? COLORWAY[k % COLORWAY.length] : undefined;
      const marker: Record<string, unknown> = {
        opacity: params.opacity ?? (rows.length > 2000 ? 0.5 : 0.8),
        ...(color ? { color } : {}),
      };
      if (sizes) {
        const sv = pick(sizes, rows).map((v) => (typeof v === 'number' ? v : 0));
        const max = Math.max(1e-9, ...sv.map(Math.abs));
        marker.size = sv.map((v) => 4 + 20 * Math.sqrt(Math.abs(v) / max));
      }
      const [gx, gy] = [pick(xs, rows), pick(ys, rows)];
      traces.push({
        type: rows.length > 5000 ? 'scattergl' : 'scatter',
        mode: 'markers',
        name: group || params.y,
        x: gx,
        y: gy,
        marker,
        ...(params.color ? { legendgroup: group } : {}),
      });
      // Coloured by a category, each group gets its own line: pooling groups can hide or even
      // reverse the relation within them (the findings say when it does).
      const fit =
        params.trendline && params.color && groups.length > 1 ? leastSquares(gx, gy) : undefined;
      if (fit) {
        const [lo, hi] = span(gx);
        lines.push({
          type: 'scatter',
          mode: 'lines',
          name: `${group} trend`,
          legendgroup: group,
          showlegend: false,
          x: [lo, hi],
          y: [fit.intercept + fit.slope * lo, fit.intercept + fit.slope * hi],
          line: { color, width: 2 },
        });
      }
    });
    // No r in the legend: the points may be a sample, and the finding gives r over all rows.
    const fit = params.trendline ? leastSquares(xs, ys) : undefined;
    if (fit) {
      const [lo, hi] = span(xs);
      lines.push({
        type: 'scatter',
        mode: 'lines',
        name: lines.length ? 'trend, all rows pooled' : 'trend (least squares)',
        x: [lo, hi],
        y: [fit.intercept + fit.slope * lo, fit.intercept + fit.slope * hi],
        line: { dash: 'dash', color: '#444' },
      });
    }
    traces.push(...lines);
    const layout = baseLayout(params, { x: params.x, y: params.y, showLegend: traces.length > 1 });
    return { type: 'plotly', figure: { data: traces, layout } };
  },
});
