/** Bar chart: one bar per category; several `y` columns or a `color` column make grouped or stacked bars. */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { asList, baseParams, column, columnList } from './params.js';
import {
  categoryLabels,
  categoryOrder,
  columnValues,
  groupRows,
  pick,
  sortedRows,
} from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  x: column('any'),
  y: columnList('numeric').optional(),
  orientation: z.enum(['v', 'h']).optional(),
  barmode: z.enum(['group', 'stack', 'relative']).optional(),
});

/** Renders categories against values; the preamble has already aggregated and capped the categories. */
export const bar = defineRenderer({
  kind: 'bar',
  summary:
    'one bar per category; y omitted counts rows; several y columns or a color column make grouped or stacked bars',
  schema,
  caps: { categories: 50 },
  build(frame, params) {
    const ys = asList(params.y);
    const xs = columnValues(frame, params.x);
    const labels = categoryLabels(xs);
    const horizontal = params.orientation === 'h';
    const order = sortedRows(columnValues(frame, ys[0] ?? params.x), params.sort, xs);
    const traces: Record<string, unknown>[] = [];
    for (const y of ys) {
      const values = columnValues(frame, y);
      for (const [group, rows] of groupRows(frame, params.color)) {
        const inGroup = new Set(rows);
        const ordered = order.filter((i) => inGroup.has(i));
        const cat = pick(labels, ordered);
        const val = pick(values, ordered);
        const name = [ys.length > 1 ? y : '', group].filter(Boolean).join(' · ');
        traces.push({
          type: 'bar',
          name: name || y,
          x: horizontal ? val : cat,
          y: horizontal ? cat : val,
          orientation: horizontal ? 'h' : 'v',
        });
      }
    }
    const layout = baseLayout(params, {
      x: horizontal ? ys.join(', ') : params.x,
      y: horizontal ? params.x : ys.join(', '),
      showLegend: traces.length > 1,
    });
    layout.barmode = params.barmode ?? 'group';
    const catAxis = horizontal ? 'yaxis' : 'xaxis';
    layout[catAxis] = {
      ...(layout[catAxis] as object),
      type: 'category',
      ...(horizontal ? { autorange: 'reversed' } : {}),
      ...categoryOrder(params.order),
    };
    return { type: 'plotly', figure: { data: traces, layout } };
  },
});
