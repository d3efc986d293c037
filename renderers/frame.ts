/** Read helpers over the preamble's row-major frames, shared by renderers. */
import type { Frame } from '../src/spec/schema.js';
import { blankLabel } from '../src/util/blank-label.js';

/** The values of one column; throws if the frame has no such column (validation should have caught it). */
export function columnValues(frame: Frame, name: string): unknown[] {
  const index = frame.columns.indexOf(name);
  if (index < 0)
    throw new Error(`frame has no column "${name}" (has: ${frame.columns.join(', ')})`);
  return frame.data.map((row) => row[index] ?? null);
}

/** A cell as a label: missing values say so, text that shows nothing is named (blankLabel), objects become JSON. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '(missing)';
  if (typeof value === 'string') return blankLabel(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return value.toString();
  return JSON.stringify(value) ?? '';
}

/** A value's identity as a group: its type and its value, so "3" and 3, or "" and "(empty)", stay apart. */
function identity(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return typeof value === 'string' ? `string:${value}` : `${typeof value}:${cellText(value)}`;
}

/**
 * The label of each value of a category column (cellText), each distinct value its own: a later
 * value whose label is taken ("" beside a value "(empty)", 3 beside "3") gets " (2)", " (3)"…,
 * so a bar, a box or a slice never shares its slot on the axis with another value's.
 */
export function categoryLabels(values: readonly unknown[]): string[] {
  const labels = new Map<string, string>();
  const taken = new Set<string>();
  return values.map((value) => {
    const id = identity(value);
    let label = labels.get(id);
    if (label === undefined) {
      const text = cellText(value);
      label = text;
      for (let n = 2; taken.has(label); n += 1) label = `${text} (${n})`;
      labels.set(id, label);
      taken.add(label);
    }
    return label;
  });
}

/**
 * A category axis in a given order (params.order): the listed categories first, in it, then the
 * rest as they come (Plotly's categoryorder "array").
 */
export function categoryOrder(order: readonly string[] | undefined): Record<string, unknown> {
  return order?.length ? { categoryorder: 'array', categoryarray: [...order] } : {};
}

/**
 * Row indexes grouped by the value of a column, in first-seen order, keyed by each group's label
 * (cellText). Two values that read the same ("" and a value "(empty)", 3 and "3") stay two groups:
 * the later one's label gets " (2)", " (3)"…, so no trace holds the rows of two.
 */
export function groupRows(frame: Frame, name: string | undefined): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  if (name === undefined) {
    groups.set(
      '',
      frame.data.map((_, i) => i),
    );
    return groups;
  }
  categoryLabels(columnValues(frame, name)).forEach((label, i) => {
    const rows = groups.get(label);
    if (rows) rows.push(i);
    else groups.set(label, [i]);
  });
  return groups;
}

/** Picks the given rows of a column. */
export function pick(values: readonly unknown[], rows: readonly number[]): unknown[] {
  return rows.map((i) => values[i] ?? null);
}

/** The label the preamble gives the sum of the categories beyond `top_n`. */
export const OTHER = 'Other';

/**
 * Row order for sorting by a numeric column; `none`/undefined keeps frame
 * order. Rows whose `labels` value is "Other" stay last, whatever their size.
 */
export function sortedRows(
  values: readonly unknown[],
  sort: 'ascending' | 'descending' | 'none' | undefined,
  labels?: readonly unknown[],
): number[] {
  const rows = values.map((_, i) => i);
  if (sort === undefined || sort === 'none') return rows;
  const sign = sort === 'ascending' ? 1 : -1;
  const num = (v: unknown) => (typeof v === 'number' ? v : Number.NEGATIVE_INFINITY);
  const last = (i: number) => (labels?.[i] === OTHER ? 1 : 0);
  return rows.sort((a, b) => last(a) - last(b) || sign * (num(values[a]) - num(values[b])));
}
