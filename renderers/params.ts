/**
 * Parameter building blocks shared by every renderer: the base parameters all
 * kinds accept, and column-typed fields whose role the validator can read.
 */
import { z } from 'zod';

/** What a column named by a parameter must hold. */
export type ColumnRole = 'any' | 'numeric';

/** Marks schema fields that name columns, so validation can check them against the data. */
export const columnRoles = z.registry<{ role: ColumnRole; multiple: boolean }>();

/** A parameter naming one column of the declared data. */
export function column(role: ColumnRole = 'any') {
  const schema = z.string().min(1);
  columnRoles.add(schema, { role, multiple: false });
  return schema;
}

/** A parameter naming one column or a non-empty list of columns. */
export function columnList(role: ColumnRole = 'any') {
  const schema = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);
  columnRoles.add(schema, { role, multiple: true });
  return schema;
}

/** Aggregations the preamble applies when several rows share a category. */
export const AggSchema = z.enum(['sum', 'mean', 'median', 'count', 'min', 'max']);

/**
 * Parameters every renderer accepts, so a field valid for one kind is never a
 * crash in another. Kinds where one has no meaning say so as a warning.
 */
export const baseParams = z.strictObject({
  title: z.string().optional(),
  subtitle: z.string().optional(),
  x_label: z.string().optional(),
  y_label: z.string().optional(),
  /** Column whose values split the data into coloured series. */
  color: column('any').optional(),
  sort: z.enum(['ascending', 'descending', 'none']).optional(),
  /** Keep the N largest categories; the rest are summed into "Other". */
  top_n: z.number().int().min(1).max(500).optional(),
  agg: AggSchema.optional(),
  height: z.number().int().min(150).max(3000).optional(),
  /** A sentence shown under the chart. */
  note: z.string().optional(),
  log_y: z.boolean().optional(),
  /**
   * The categories' own order (a scale: Low, Medium, High; bands: 18-24, 25-34, 65+), drawn in it
   * before any category it does not list; `sort` is then not applied.
   */
  order: z.array(z.string()).max(100).optional(),
});

/** The base parameter names, for docs and the "accepted by every kind" contract. */
export const BASE_PARAM_NAMES = Object.keys(baseParams.shape);

/** Base parameters as a TypeScript type. */
export type BaseParams = z.infer<typeof baseParams>;

/** Normalises a one-or-many column parameter to a list. */
export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
