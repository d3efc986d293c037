/** Table: the first rows of a data frame as an HTML table (numbers right-aligned and grouped). */
import { z } from 'zod';
import type { Frame } from '../src/spec/schema.js';
import {
  TABLE_CELL_CHARS,
  TABLE_HTML_CHARS,
  TABLE_MAX_COLUMNS,
  TABLE_MAX_ROWS,
} from '../src/spec/host-limits.js';
import { baseParams } from './params.js';
import { defineRenderer } from './types.js';
import { numberFormat } from '../src/util/number-format.js';

const schema = baseParams.extend({
  max_rows: z.number().int().min(1).max(1000).optional(),
});

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ENTITY[c] ?? c) : text;
}

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const ENTITY: Readonly<Record<string, string>> = {
  '&': '&#38;',
  '<': '&#60;',
  '>': '&#62;',
  '"': '&#34;',
  "'": '&#39;',
};

const SIGNIFICANT = { maximumSignificantDigits: 6 } as const;
const GROUPED = { maximumFractionDigits: 2 } as const;

/** Formats one cell for display: numbers grouped, missing values marked. */
export function formatCell(value: unknown): { text: string; numeric: boolean } {
  if (value === null || value === undefined) return { text: '—', numeric: false };
  if (typeof value === 'number') {
    const abs = Math.abs(value);
    const text =
      Number.isInteger(value) || abs >= 1e5
        ? numberFormat(GROUPED).format(value)
        : numberFormat(SIGNIFICANT).format(value);
    return { text, numeric: true };
  }
  if (typeof value === 'boolean') return { text: String(value), numeric: false };
  // An infinite number, as frames write it (JSON has no infinity): a number still, right-aligned.
  if (value === '∞' || value === '-∞') return { text: value === '∞' ? '∞' : '−∞', numeric: true };
  if (typeof value === 'string') return { text: value, numeric: false };
  return { text: JSON.stringify(value), numeric: false };
}

function cutCell(text: string): string {
  if (text.length <= TABLE_CELL_CHARS) return text;
  return `${text.slice(0, TABLE_CELL_CHARS)}… [${(text.length - TABLE_CELL_CHARS).toLocaleString('en-US')} more characters cut]`;
}

function rowHtml(row: readonly unknown[], columns: number): string {
  const cells: string[] = [];
  for (let i = 0; i < columns; i += 1) {
    const { text, numeric } = formatCell(row[i]);
    cells.push(`<td${numeric ? ' class="num"' : ''}>${escapeHtml(cutCell(text))}</td>`);
  }
  return `<tr>${cells.join('')}</tr>`;
}

function cutRow(text: string, columns: number): string {
  return `<tr class="cut"><td colspan="${columns}">… ${text}</td></tr>`;
}

/**
 * The frame as table HTML, bounded whatever the frame holds (a program may write its own):
 * at most TABLE_MAX_ROWS rows and TABLE_MAX_COLUMNS columns, cells cut at TABLE_CELL_CHARS,
 * rows left out past TABLE_HTML_CHARS; each cut is marked in the table.
 */
export function tableHtml(frame: Frame): string {
  const columns = Math.min(frame.columns.length, TABLE_MAX_COLUMNS);
  const hidden = frame.columns.length - columns;
  const head =
    frame.columns
      .slice(0, columns)
      .map((c) => `<th scope="col">${escapeHtml(cutCell(c))}</th>`)
      .join('') +
    (hidden
      ? `<th scope="col">… ${hidden.toLocaleString('en-US')} more columns not shown</th>`
      : '');
  const span = columns + (hidden ? 1 : 0);
  const rows: string[] = [];
  let length = head.length;
  const shown = Math.min(frame.data.length, TABLE_MAX_ROWS);
  for (let r = 0; r < shown; r += 1) {
    const html = rowHtml(frame.data[r] ?? [], columns);
    if (length + html.length > TABLE_HTML_CHARS) break;
    rows.push(html);
    length += html.length;
  }
  const left = frame.data.length - rows.length;
  if (left > 0) {
    const why =
      rows.length < shown
        ? `the table reached ${(TABLE_HTML_CHARS / 1e6).toFixed(0)} million characters`
        : `a table shows at most ${TABLE_MAX_ROWS.toLocaleString('en-US')} rows`;
    rows.push(cutRow(`${left.toLocaleString('en-US')} more rows not shown (${why})`, span));
  }
  return `<table class="data-table">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

/** Renders the frame's rows as a `<table>`; the preamble has already cut it to `max_rows`, and the host bounds it again. */
export const table = defineRenderer({
  kind: 'table',
  summary:
    'the first max_rows rows of the data; the index is kept as a column when it carries labels',
  schema,
  caps: { rows: 50, columns: 100 },
  ignores: ['x_label', 'y_label', 'color', 'agg', 'top_n', 'log_y', 'height', 'order'],
  build: (frame) => ({ type: 'html', html: tableHtml(frame) }),
});
