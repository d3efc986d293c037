/** Table: the first rows of a data frame as an HTML table (numbers right-aligned and grouped). */
import { z } from 'zod';
import { baseParams } from './params.js';
import { defineRenderer } from './types.js';

const schema = baseParams.extend({
  max_rows: z.number().int().min(1).max(1000).optional(),
});

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const significant = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Formats one cell for display: numbers grouped, missing values marked. */
export function formatCell(value: unknown): { text: string; numeric: boolean } {
  if (value === null || value === undefined) return { text: '—', numeric: false };
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    const text = Number.isInteger(value) || abs >= 1e5 ? grouped.format(value) : significant.format(value);
    return { text, numeric: true };
  }
  if (typeof value === 'boolean') return { text: String(value), numeric: false };
  if (typeof value === 'string') return { text: value, numeric: false };
  return { text: JSON.stringify(value), numeric: false };
}

/** Renders the frame's rows as a `<table>`; the preamble has already cut it to `max_rows`. */
export const table = defineRenderer({
  kind: 'table',
  summary: 'table(max_rows=1..1000, default 50); the index is kept as a column when it carries labels',
  schema,
  ignores: ['x_label', 'y_label', 'color', 'agg', 'top_n', 'log_y', 'height'],
  build(frame) {
    const head = frame.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
    const body = frame.data
      .map((row) => {
        const cells = frame.columns.map((_, i) => {
          const { text, numeric } = formatCell(row[i]);
          return `<td${numeric ? ' class="num"' : ''}>${escapeHtml(text)}</td>`;
        });
        return `<tr>${cells.join('')}</tr>`;
      })
      .join('\n');
    return { type: 'html', html: `<table class="data-table">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>` };
  },
});
