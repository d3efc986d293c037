/** Pie (or donut) chart: shares of a total across a few categories. */
import { z } from 'zod';
import { baseParams, column } from './params.js';
import { baseLayout } from './layout.js';
import { categoryLabels, columnValues } from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  names: column('any'),
  values: column('numeric').optional(),
  hole: z.number().min(0).max(0.9).optional(),
});

/** Renders shares; the preamble has summed values per name and folded small slices into "Other". */
export const pie = defineRenderer({
  kind: 'pie',
  summary:
    'shares of a total over a few categories (hole for a donut); values omitted counts rows; slices beyond top_n are summed into "Other"',
  schema,
  caps: { categories: 5 },
  ignores: ['x_label', 'y_label', 'color', 'log_y', 'order'],
  build(frame, params) {
    const values = params.values ?? 'count';
    const layout = baseLayout(params, { showLegend: true });
    delete layout.xaxis;
    delete layout.yaxis;
    delete layout.plot_bgcolor;
    const trace = {
      type: 'pie',
      labels: categoryLabels(columnValues(frame, params.names)),
      values: columnValues(frame, values),
      hole: params.hole ?? 0,
      sort: params.sort !== 'none',
      textinfo: 'label+percent',
      // Labels inside their slice, hidden when a sliver cannot hold them (the legend names it),
      // rather than pushed outside and cut off at the top of the chart.
      textposition: 'inside',
      direction: 'clockwise',
    };
    layout.uniformtext = { minsize: 10, mode: 'hide' };
    return { type: 'plotly', figure: { data: [trace], layout } };
  },
});
