/** Box plot: quartiles, whiskers and mean of numeric columns, optionally per category; exact over all rows. */
import { baseLayout } from './layout.js';
import { asList, baseParams, column, columnList } from './params.js';
import { categoryLabels, categoryOrder, columnValues, groupRows, pick } from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  y: columnList('numeric'),
  x: column('any').optional(),
});

/** Frame columns the preamble writes for a box plot (one row per series and group). */
export const BOX_COLUMNS = [
  'series',
  'group',
  'q1',
  'median',
  'q3',
  'lowerfence',
  'upperfence',
  'mean',
  'n',
] as const;

/** Renders precomputed box statistics (Tukey fences at 1.5 IQR, clipped to the data). */
export const box = defineRenderer({
  kind: 'box',
  summary:
    'quartiles, whiskers and mean of numeric column(s), per category of x to compare groups; exact over all rows',
  schema,
  caps: { categories: 30, series: 10 },
  frame: BOX_COLUMNS,
  ignores: ['agg', 'color'],
  build(frame, params) {
    const stats = Object.fromEntries(BOX_COLUMNS.map((c) => [c, columnValues(frame, c)]));
    const groups = categoryLabels(stats.group ?? []);
    const traces: Record<string, unknown>[] = [];
    for (const [series, rows] of groupRows(frame, 'series')) {
      const at = (c: (typeof BOX_COLUMNS)[number]) => pick(stats[c] ?? [], rows);
      traces.push({
        type: 'box',
        name: series,
        x: pick(groups, rows),
        q1: at('q1'),
        median: at('median'),
        q3: at('q3'),
        lowerfence: at('lowerfence'),
        upperfence: at('upperfence'),
        mean: at('mean'),
        boxmean: true,
      });
    }
    const ys = asList(params.y);
    const layout = baseLayout(params, {
      x: params.x ?? '',
      y: ys.join(', '),
      showLegend: traces.length > 1,
    });
    layout.boxmode = 'group';
    layout.xaxis = {
      ...(layout.xaxis as object),
      type: 'category',
      ...categoryOrder(params.order),
    };
    return { type: 'plotly', figure: { data: traces, layout } };
  },
});
