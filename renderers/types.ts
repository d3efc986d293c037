/** The renderer contract: a zod parameter schema and a pure build function. */
import type { z } from 'zod';
import type { ColumnInfo, Frame } from '../src/spec/schema.js';

/** A Plotly figure: traces and layout, as plain JSON. */
export interface PlotlyFigure {
  data: Record<string, unknown>[];
  layout: Record<string, unknown>;
}

/** What a renderer produces: a Plotly figure or a block of safe HTML. */
export type Built = { type: 'plotly'; figure: PlotlyFigure } | { type: 'html'; html: string };

/**
 * How much of the declared data the preamble keeps for a kind, so a chart never
 * carries millions of points. The preamble reads these through
 * preamble/opsmind_contract.json; nothing else states them.
 */
export interface Caps {
  /** Rows (points) kept; more are downsampled (line, area) or sampled (scatter). */
  points?: number;
  /** Categories kept, largest first; the rest are folded into "Other" or left out. The default of `top_n`. */
  categories?: number;
  /** Most bins an automatic bin count chooses. */
  bins?: number;
  /** Colour groups drawn, most frequent first. */
  groups?: number;
  /** Numeric columns charted when `y` is omitted. */
  series?: number;
  /** Rows a table keeps (the default of `max_rows`). */
  rows?: number;
  /** Columns a table keeps. */
  columns?: number;
}

/** One renderer: the kind it draws, its parameters, its caps, and how to draw. */
export interface Renderer<S extends z.ZodObject = z.ZodObject> {
  kind: string;
  /** One line for people and models: what the chart shows and how its parameters act (their names and types are derived from `schema`). */
  summary: string;
  schema: S;
  /** The preamble's caps for this kind. */
  caps: Caps;
  /** Columns of the frame the preamble writes when the kind fixes them (summaries); otherwise the frame holds the columns the parameters name. */
  frame?: readonly string[];
  /** Base parameters that have no meaning for this kind (accepted, with a warning). */
  ignores?: readonly string[];
  /** Checks that need several parameters at once; returns problems as sentences. */
  check?: (params: z.infer<S>, columns: readonly ColumnInfo[]) => string[];
  /** Pure: from the preamble's frame and validated parameters to a figure. */
  build: (frame: Frame, params: z.infer<S>) => Built;
}

/** Declares a renderer with its parameter type inferred from the schema. */
export function defineRenderer<S extends z.ZodObject>(renderer: Renderer<S>): Renderer<S> {
  return renderer;
}
