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

const BY_KIND = { bar, line, area, scatter, histogram, box, pie, heatmap, table };

/** A chart or table kind the registry draws. */
export type ChartKind = keyof typeof BY_KIND;

/**
 * Every renderer by kind. Adding a kind means adding its module here and its
 * preparer preamble/opsmind_chart_<kind>.py; `npm run build` writes the kind into
 * preamble/opsmind_contract.json, from which the preamble, the plan schema and
 * the deep prompt take it.
 */
export const RENDERERS: Readonly<Record<string, Renderer>> = Object.freeze(
  BY_KIND as unknown as Record<string, Renderer>,
);

/** The kinds, in the order shown to people and models (a non-empty tuple, so `z.enum(KINDS)` works). */
export const KINDS = Object.freeze(Object.keys(BY_KIND)) as readonly [ChartKind, ...ChartKind[]];

/** The renderer of a kind, or undefined for an unknown kind. */
export function rendererFor(kind: string): Renderer | undefined {
  return Object.hasOwn(RENDERERS, kind) ? RENDERERS[kind] : undefined;
}

export type { Caps, Renderer, Built, PlotlyFigure } from './types.js';
export { BASE_PARAM_NAMES } from './params.js';
