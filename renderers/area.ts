/** Area chart: like a line chart, with the series stacked so the top edge is their total. */
import { lineFigure, lineSchema } from './line.js';
import { defineRenderer } from './types.js';

/** Renders stacked areas over an ordered x. */
export const area = defineRenderer({
  kind: 'area',
  summary: 'like line, with the series stacked so the top edge is their total',
  schema: lineSchema,
  caps: { points: 5000, series: 10 },
  build: (frame, params) => ({ type: 'plotly', figure: lineFigure(frame, params, true) }),
});
