/**
 * The render_spec.json contract between the Python preamble and the host.
 *
 * The preamble (preamble/opsmind_preamble.py) writes this file when a program
 * ends; the host parses it with `RenderSpecSchema` before anything is shown.
 * Bump `SPEC_VERSION` on any change a reader of an older spec would misread.
 */
import { z } from 'zod';

/** The version this host writes and reads. */
export const SPEC_VERSION = 1;

/** Coarse column types the preamble reports and the validator checks against. */
export const ColumnDtypeSchema = z.enum([
  'number',
  'string',
  'datetime',
  'boolean',
  'category',
  'other',
]);
/** A coarse column type. */
export type ColumnDtype = z.infer<typeof ColumnDtypeSchema>;

/** One column of a data frame: its name as pandas has it, and its coarse type. */
const ColumnInfoSchema = z.object({ name: z.string(), dtype: ColumnDtypeSchema });
/** A named, typed column. */
export type ColumnInfo = z.infer<typeof ColumnInfoSchema>;

/** How the preamble reduced the declared data before writing it. */
export const ReductionSchema = z.enum([
  'none',
  'aggregated',
  'top_n',
  'downsampled',
  'sampled',
  'binned',
  'summarized',
  'truncated',
]);

/** Where a declaration's data lives and how it relates to the declared data. */
const DeclaredDataSchema = z.object({
  /** Path relative to the work dir of a `{columns, data}` JSON frame; null when the preamble wrote none. */
  file: z.string().nullable(),
  /** Columns of the written frame. */
  columns: z.array(ColumnInfoSchema),
  /** Columns of the data the program declared (what parameters may name). */
  source_columns: z.array(ColumnInfoSchema),
  rows: z.number().int().nonnegative(),
  source_rows: z.number().int().nonnegative(),
  /** True when rows were dropped or sampled so the chart is not exact. */
  sampled: z.boolean(),
  reductions: z.array(ReductionSchema),
  cap: z.number().int().positive().nullable(),
  /** Why the preamble could not prepare the data, in words a model can act on. */
  error: z.string().nullable(),
});

/** One `declare_chart` or `declare_table` call. */
const DeclarationSchema = z.object({
  id: z.string().min(1),
  /** Position among all declarations of the program, from 1: the report order. */
  seq: z.number().int().positive(),
  kind: z.string(),
  /** Parameters as declared, plus those the preamble inferred (named in `inferred`). */
  params: z.record(z.string(), z.unknown()),
  inferred: z.array(z.string()),
  data: DeclaredDataSchema,
});
/** A chart or table declaration. */
export type Declaration = z.infer<typeof DeclarationSchema>;

/** The dataset the program ran against and how it was read. */
const SourceSchema = z.object({
  path: z.string(),
  name: z.string(),
  format: z.string(),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  rows: z.number().int().nonnegative(),
  columns: z.number().int().nonnegative(),
  size_bytes: z.number().int().nonnegative(),
});
/** Source provenance. */
export type Source = z.infer<typeof SourceSchema>;

/** The exception that ended the program, if any. */
const ProgramErrorSchema = z.object({
  type: z.string(),
  message: z.string(),
  traceback: z.string(),
  line: z.number().int().nullable(),
  /** How many declarations were made before the error (all of them are kept). */
  declarations_before: z.number().int().nonnegative(),
});
/** A program error. */
export type ProgramError = z.infer<typeof ProgramErrorSchema>;

/** How a figure was captured: `plt.show()`/`fig.show()`, a `savefig` call, or still open when the program ended. */
const ImageSourceSchema = z.enum(['show', 'savefig', 'open_at_exit']);

/** One matplotlib figure the preamble captured as a PNG (preamble/opsmind_figures.py). */
const ImageSchema = z.object({
  id: z.string().min(1),
  /** Position among all declarations and images of the program, from 1 (shared with charts and tables). */
  seq: z.number().int().positive(),
  title: z.string().nullable(),
  /** Path relative to the work dir of the PNG; null when the figure was not captured (`error` says why). */
  file: z.string().nullable(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  source: ImageSourceSchema,
  /** Why the figure is not in the report (a cap, a drawing error), in words. */
  error: z.string().nullable(),
});
/** A captured figure. */
export type Image = z.infer<typeof ImageSchema>;

/** The whole render_spec.json. */
export const RenderSpecSchema = z.object({
  version: z.literal(SPEC_VERSION),
  source: SourceSchema.nullable(),
  charts: z.array(DeclarationSchema),
  tables: z.array(DeclarationSchema),
  /** Captured figures; specs written before figure capture have none. */
  images: z.array(ImageSchema).default([]),
  warnings: z.array(z.string()),
  error: ProgramErrorSchema.nullable(),
});
/** A parsed render_spec.json. */
export type RenderSpec = z.infer<typeof RenderSpecSchema>;

/** A data frame file as the preamble writes it (pandas `orient="split"`, no index). */
export const FrameSchema = z.object({
  columns: z.array(z.string()),
  data: z.array(z.array(z.unknown())),
});
/** A row-major frame. */
export type Frame = z.infer<typeof FrameSchema>;

/** Declarations of a spec in report order (charts and tables interleaved by `seq`). */
export function declarationsInOrder(spec: RenderSpec): Declaration[] {
  return [...spec.charts, ...spec.tables].sort((a, b) => a.seq - b.seq);
}
