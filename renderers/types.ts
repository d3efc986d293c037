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

/** One renderer: the kind it draws, its parameters, and how to draw. */
export interface Renderer<S extends z.ZodObject = z.ZodObject> {
  kind: string;
  /** One line for people and models: what the chart shows and its key parameters. */
  summary: string;
  schema: S;
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
