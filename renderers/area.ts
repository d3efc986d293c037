/** Area chart: like a line chart, with the series stacked so the top edge is their total. */
import { lineFigure, lineSchema } from './line.js';
import { defineRenderer } from './types.js';

/** Renders stacked areas over an ordered x. */
export const area = defineRenderer({
  kind: 'area',
  summary: 'area(x=date or ordered column, y=numeric column(s), color=series column, agg); series are stacked',
  schema: lineSchema,
  build: (frame, params) => ({ type: 'plotly', figure: lineFigure(frame, params, true) }),
});
