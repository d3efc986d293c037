/** Histogram: the distribution of one numeric column, binned exactly by the preamble over all rows. */
import { z } from 'zod';
import { baseLayout } from './layout.js';
import { baseParams, column } from './params.js';
import { columnValues, groupRows, pick } from './frame.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  x: column('numeric'),
  bins: z.number().int().min(2).max(200).optional(),
});

/** Frame columns the preamble writes for a histogram. */
export const HISTOGRAM_COLUMNS = ['bin_start', 'bin_end', 'count'] as const;

/** Renders pre-binned counts (exact, whatever the row count) as touching bars. */
export const histogram = defineRenderer({
  kind: 'histogram',
  summary:
    'the distribution of one numeric column, counted exactly over all rows; color overlays the largest groups',
  schema,
  caps: { bins: 60, groups: 8 },
  frame: HISTOGRAM_COLUMNS,
  ignores: ['agg', 'top_n', 'sort', 'order'],
  build(frame, params) {
    const starts = columnValues(frame, 'bin_start');
    const ends = columnValues(frame, 'bin_end');
    const counts = columnValues(frame, 'count');
    const grouped = frame.columns.includes('group');
    const traces: Record<string, unknown>[] = [];
    for (const [group, rows] of groupRows(frame, grouped ? 'group' : undefined)) {
      const lo = pick(starts, rows) as number[];
      const hi = pick(ends, rows) as number[];
      traces.push({
        type: 'bar',
        name: group || params.x,
        x: lo.map((s, i) => (s + (hi[i] ?? s)) / 2),
        width: lo.map((s, i) => (hi[i] ?? s) - s),
        y: pick(counts, rows),
        customdata: lo.map((s, i) => [s, hi[i] ?? s]),
        hovertemplate:
          '[%{customdata[0]:.4~g}, %{customdata[1]:.4~g}): %{y}<extra>%{fullData.name}</extra>',
        opacity: grouped ? 0.6 : 1,
        marker: { line: { width: 0.5, color: '#fff' } },
      });
    }
    const layout = baseLayout(params, { x: params.x, y: 'count', showLegend: grouped });
    layout.barmode = 'overlay';
    layout.bargap = 0;
    return { type: 'plotly', figure: { data: traces, layout } };
  },
});
