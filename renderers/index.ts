/** The registry of renderers: one per chart/table kind. */
import { area } from './area.js';
import { bar } from './bar.js';
import { box } from './box.js';
import { heatmap } from './heatmap.js';
import { histogram } from './histogram.js';
import { line } from './line.js';
import { pie } from './pie.js';
import { scatter } from './scatter.js';
import { table } from './table.js';
import type { Renderer } from './types.js';

/** Every renderer by kind. Adding a kind means adding a module here and its preamble transform. */
export const RENDERERS: Readonly<Record<string, Renderer>> = Object.freeze({
  bar, line, area, scatter, histogram, box, pie, heatmap, table,
} as unknown as Record<string, Renderer>);

/** The kinds, in the order shown to people and models. */
export const KINDS = Object.keys(RENDERERS);

/** The renderer of a kind, or undefined for an unknown kind. */
export function rendererFor(kind: string): Renderer | undefined {
  return Object.hasOwn(RENDERERS, kind) ? RENDERERS[kind] : undefined;
}

export type { Renderer, Built, PlotlyFigure } from './types.js';
export { BASE_PARAM_NAMES } from './params.js';
