/** Heatmap: a value per (x, y) cell, from long data (x, y, z) or a matrix such as `df.corr()`. */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { baseParams, column } from './params.js';
import { categoryLabels, columnValues } from './frame.js';
import { defineRenderer } from './types.js';
import { MAX_HEATMAP_CELLS } from '../src/spec/host-limits.js';

/** Sequential scales for a light page: the highest value gets the darkest colour. */
const SEQUENTIAL = ['Blues', 'Greens', 'Greys', 'Reds', 'YlGnBu', 'YlOrRd'] as const;
/** Of those, the Plotly built-ins that already run light→dark; the others run dark→light and are reversed. */
const LIGHT_TO_DARK: ReadonlySet<string> = new Set(['Reds']);
/** Perceptual scales keep their usual direction: the highest value is the bright (yellow) end. */
const PERCEPTUAL = ['Viridis', 'Cividis'] as const;
/** Diverging scales, centred on `zmid` (0 when the data has both signs); the highest value is red. */
const DIVERGING = ['RdBu', 'RdYlBu', 'Picnic', 'Portland'] as const;
/** Every colour scale a heatmap accepts. */
export const COLORSCALES = [...SEQUENTIAL, ...PERCEPTUAL, ...DIVERGING] as const;
type Colorscale = (typeof COLORSCALES)[number];

/** ColorBrewer RdYlBu (not a Plotly built-in), oriented like Plotly's RdBu: blue low, red high. */
const RD_YL_BU = [
  '#313695',
  '#4575b4',
  '#74add1',
  '#abd9e9',
  '#e0f3f8',
  '#ffffbf',
  '#fee090',
  '#fdae61',
  '#f46d43',
  '#d73027',
  '#a50026',
].map((color, i, all) => [i / (all.length - 1), color]);

function reversed(name: Colorscale): boolean {
  return (SEQUENTIAL as readonly string[]).includes(name) && !LIGHT_TO_DARK.has(name);
}

/** The colour attributes of the trace: the scale, its direction, and the centre of a diverging scale. */
function colorAttributes(
  name: Colorscale,
  zmid: number | undefined,
  spansZero: boolean,
): Record<string, unknown> {
  const attrs: Record<string, unknown> = {
    colorscale: name === 'RdYlBu' ? RD_YL_BU : name,
    reversescale: reversed(name),
  };
  if (zmid !== undefined) attrs.zmid = zmid;
  else if ((DIVERGING as readonly string[]).includes(name) && spansZero) attrs.zmid = 0;
  return attrs;
}

const schema = baseParams.extend({
  x: column('any').optional(),
  y: column('any').optional(),
  z: column('numeric').optional(),
  colorscale: z.enum(COLORSCALES).optional(),
  show_values: z.boolean().optional(),
  zmid: z.number().optional(),
});

/** Frame columns the preamble writes for a heatmap (long form, one row per cell). */
export const HEATMAP_COLUMNS = ['x', 'y', 'z'] as const;

function distinct(labels: readonly string[]): string[] {
  return [...new Set(labels)];
}

/** Renders a cell grid; a matrix (no x/y/z) uses its first column as row labels. */
export const heatmap = defineRenderer({
  kind: 'heatmap',
  summary:
    'a value per (x, y) cell from long data (all of x, y, z), or none of them for a matrix such as df.corr()',
  schema,
  caps: { categories: 60 },
  frame: HEATMAP_COLUMNS,
  ignores: ['color', 'log_y', 'order'],
  check(params) {
    const given = [params.x, params.y, params.z].filter((v) => v !== undefined).length;
    return given === 0 || given === 3
      ? []
      : ['give all of "x", "y" and "z" (long data) or none of them (a matrix such as df.corr())'];
  },
  build(frame, params) {
    // Each distinct value its own label (categoryLabels): two that read the same are two rows.
    const xs = categoryLabels(columnValues(frame, 'x'));
    const ys = categoryLabels(columnValues(frame, 'y'));
    const zs = columnValues(frame, 'z');
    const xCats = distinct(xs);
    const yCats = distinct(ys);
    if (xCats.length * yCats.length > MAX_HEATMAP_CELLS) {
      throw new Error(
        `the grid would have ${xCats.length.toLocaleString('en-US')} × ${yCats.length.toLocaleString('en-US')} cells, over the ${MAX_HEATMAP_CELLS.toLocaleString('en-US')} a heatmap may draw`,
      );
    }
    const grid: (number | null)[][] = yCats.map(() => xCats.map(() => null));
    const xAt = new Map(xCats.map((c, i) => [c, i]));
    const yAt = new Map(yCats.map((c, i) => [c, i]));
    zs.forEach((value, i) => {
      const row = grid[yAt.get(ys[i] ?? '') ?? grid.length];
      const col = xAt.get(xs[i] ?? '');
      if (row && col !== undefined) row[col] = typeof value === 'number' ? value : null;
    });
    const finite = zs.filter((v): v is number => typeof v === 'number');
    const spansZero = finite.some((v) => v < 0) && finite.some((v) => v > 0);
    const name = params.colorscale ?? (params.zmid !== undefined || spansZero ? 'RdBu' : 'Viridis');
    const trace: Record<string, unknown> = {
      type: 'heatmap',
      x: xCats,
      y: yCats,
      z: grid,
      ...colorAttributes(name, params.zmid, spansZero),
      hoverongaps: false,
    };
    if (params.show_values ?? xCats.length * yCats.length <= 400) {
      // Correlations (a float's 1.0000000000000002 included) with two decimals; other values to
      // three significant digits, with SI prefixes only for large ones (never "426m" for 0.426).
      const largest = Math.max(0, ...finite.map(Math.abs));
      trace.texttemplate =
        largest <= 1 + 1e-9 ? '%{z:.2f}' : largest < 1e4 ? '%{z:,.3~r}' : '%{z:.3~s}';
    }
    const layout = baseLayout(params, { x: params.x ?? '', y: params.y ?? '', showLegend: false });
    layout.xaxis = { ...(layout.xaxis as object), type: 'category' };
    layout.yaxis = { ...(layout.yaxis as object), type: 'category', autorange: 'reversed' };
    return { type: 'plotly', figure: { data: [trace], layout } };
  },
});
