/**
 * The contract of `opsmind batch`: what is measured of each file (its snapshot), what changed
 * against an earlier one, and the index entry of each file — the same objects in the session
 * store, in index.json, and in the merge of sharded runs.
 */
import { z } from 'zod';

/** What a file holds, measured once over all its rows: what "what changed" compares. */
export const SnapshotSchema = z.object({
  rows: z.number().int().nonnegative(),
  columns: z.array(z.object({ name: z.string(), type: z.string() })),
  /** Each key measure: summed when it is an amount or a count, else averaged (`stat`). */
  measures: z.array(
    z.object({
      column: z.string(),
      role: z.string(),
      stat: z.enum(['sum', 'mean']),
      sum: z.number().nullable(),
      mean: z.number().nullable(),
      count: z.number().int().nonnegative(),
    }),
  ),
  /** The values of each category column with at most MAX_CATEGORY_VALUES of them. */
  categories: z.array(z.object({ column: z.string(), values: z.array(z.string()) })),
  /** 101 percentiles (0, 1, …, 100) of each measure: the distribution PSI is computed from. */
  quantiles: z.array(z.object({ column: z.string(), q: z.array(z.number()) })),
});
export type Snapshot = z.infer<typeof SnapshotSchema>;

/** The most values a category may have for its appeared/vanished values to be tracked. */
export const MAX_CATEGORY_VALUES = 200;

/** PSI below this: no meaningful shift; from it to SIGNIFICANT: moderate; above: significant. */
export const PSI_MODERATE = 0.1;
export const PSI_SIGNIFICANT = 0.25;

/** What changed between an earlier snapshot and this one, with the numbers. */
export const ChangesSchema = z.object({
  /** What this file is compared with. */
  against: z.object({
    kind: z.enum(['previous_run', 'series']),
    name: z.string(),
    sha256: z.string(),
    /** When that file was reported (previous run) or its date in the series. */
    when: z.string().nullable(),
  }),
  /** The same content as what it is compared with. */
  same_content: z.boolean(),
  columns_added: z.array(z.string()),
  columns_removed: z.array(z.string()),
  type_changes: z.array(z.object({ column: z.string(), from: z.string(), to: z.string() })),
  rows: z.object({
    before: z.number(),
    after: z.number(),
    change: z.number(),
    pct: z.number().nullable(),
  }),
  measures: z.array(
    z.object({
      column: z.string(),
      stat: z.enum(['sum', 'mean']),
      before: z.number(),
      after: z.number(),
      change: z.number(),
      pct: z.number().nullable(),
    }),
  ),
  categories: z.array(
    z.object({ column: z.string(), appeared: z.array(z.string()), vanished: z.array(z.string()) }),
  ),
  /** Population stability index of each shared measure, over the earlier file's deciles. */
  shifts: z.array(
    z.object({
      column: z.string(),
      psi: z.number(),
      level: z.enum(['stable', 'moderate', 'significant']),
    }),
  ),
});
export type Changes = z.infer<typeof ChangesSchema>;

/** One file of a batch, as index.json lists it. */
export const EntrySchema = z.object({
  /** The output name (unique in the batch): the report is `<name>.html`. */
  name: z.string(),
  /** The input path as resolved when the batch ran. */
  file: z.string(),
  sha256: z.string(),
  bytes: z.number().int().nonnegative(),
  /** A hash of the settings the report was made with (mode, question, script, OpsMind's version). */
  settings_hash: z.string(),
  status: z.enum(['done', 'failed']),
  error: z.string().nullable(),
  /** The report's file name in the output folder, when one was written. */
  report: z.string().nullable(),
  session: z.string().nullable(),
  rows: z.number().int().nullable(),
  columns: z.number().int().nullable(),
  /** The first findings of the report (all of them are in it). */
  findings: z.array(z.string()),
  seconds: z.number().nullable(),
  /** True when the file was unchanged since a run with the same settings, and its report kept. */
  reused: z.boolean(),
  /** The run that wrote the report (an earlier one when reused). */
  run: z.string(),
  snapshot: SnapshotSchema.nullable(),
  changes: z.object({
    previous_run: ChangesSchema.nullable(),
    series: ChangesSchema.nullable(),
  }),
});
export type Entry = z.infer<typeof EntrySchema>;

/** index.json: the batch, for machines. */
export const IndexSchema = z.object({
  tool: z.string(),
  generated_at: z.string(),
  /** The settings every file ran with (mode, question or script, limits). */
  settings: z.record(z.string(), z.unknown()),
  shard: z.object({ index: z.number().int(), count: z.number().int() }).nullable(),
  totals: z.object({
    files: z.number().int(),
    done: z.number().int(),
    failed: z.number().int(),
    reused: z.number().int(),
  }),
  entries: z.array(EntrySchema),
});
export type BatchIndex = z.infer<typeof IndexSchema>;
