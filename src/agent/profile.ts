/**
 * The dataset profile get_data_info returns: computed in the sandbox by
 * preamble/opsmind_profile.py (written as profile.json), parsed here with
 * zod. Its text form is what a model sees, bounded to a prompt budget.
 */
import { z } from 'zod';
import { SemanticsSchema } from './semantics-types.js';

/** What a column holds, beyond its pandas dtype. */
const SemanticTypeSchema = z.enum([
  'numeric', // a number column (int or float)
  'numeric_text', // numbers stored as text: thousands separators, currency or percent signs
  'datetime', // a datetime dtype, or text that parses as dates/times
  'boolean', // bool dtype, or two values like yes/no, true/false, 0/1, y/n
  'category', // few distinct values, repeated
  'text', // free text: long or mostly unique strings
  'identifier', // unique (or nearly) keys: ids, codes, emails, uuids
  'constant', // a single distinct value
  'empty', // every value missing
]);

const NumberStats = z.object({
  min: z.number(),
  max: z.number(),
  mean: z.number(),
  std: z.number().nullable(),
  median: z.number(),
  q1: z.number(),
  q3: z.number(),
  zeros: z.number().int(),
  negatives: z.number().int(),
  /** Values beyond 1.5 IQR from the quartiles. */
  outliers: z.number().int(),
  skew: z.number().nullable(),
});

const DateStats = z.object({
  min: z.string(),
  max: z.string(),
  span_days: z.number(),
  /** pandas offset alias of the typical spacing: 'H', 'D', 'W', 'M', 'Q', 'Y', or null when irregular. */
  frequency: z.string().nullable(),
  /** Share of non-missing values that parse as dates (1 for a datetime dtype). */
  parse_share: z.number(),
});

/** The profile of one column. */
const ColumnProfileSchema = z.object({
  name: z.string(),
  dtype: z.string(),
  semantic: SemanticTypeSchema,
  missing: z.number().int().nonnegative(),
  missing_share: z.number().min(0).max(1),
  distinct: z.number().int().nonnegative(),
  top: z.array(z.object({ value: z.string(), count: z.number().int() })).max(5),
  numeric: NumberStats.nullable(),
  datetime: DateStats.nullable(),
  /** For numeric_text: how the text parses ('thousands', 'currency', 'percent'), the share that parses, and stats of the parsed numbers. */
  numeric_text: z
    .object({
      style: z.enum(['thousands', 'currency', 'percent', 'plain']),
      parse_share: z.number(),
      stats: NumberStats.nullable(),
      /** For style 'currency': the one currency the values are written in ("$", "€", "EUR"); absent when they mix several. */
      symbol: z.string().max(8).optional(),
    })
    .nullable(),
  text: z.object({ mean_length: z.number(), max_length: z.number().int() }).nullable(),
  /**
   * How many values of a number column are infinite (±inf), when any is: left out of its
   * statistics, and a sum or mean of the column is infinite wherever one falls (agent/plan.ts).
   */
  infinite: z.number().int().positive().optional(),
  /**
   * Every value of a text column of categories with 3 to 24 of them (none longer than 60
   * characters), in code-point order: what a scale's order (Low < Medium < High, 18-24 < 25-34)
   * is read from (semantics-ordinal.ts).
   */
  levels: z.array(z.string()).min(3).max(24).optional(),
  /** Short data-quality notes, e.g. "62% missing", "constant". */
  notes: z.array(z.string()),
});
/** A column profile. */
export type ColumnProfile = z.infer<typeof ColumnProfileSchema>;

/** The profile of a dataset. */
export const DataProfileSchema = z.object({
  rows: z.number().int().nonnegative(),
  columns: z.number().int().nonnegative(),
  duplicate_rows: z.number().int().nonnegative(),
  source: z.object({
    name: z.string(),
    format: z.string(),
    encoding: z.string().nullable(),
    delimiter: z.string().nullable(),
  }),
  /**
   * Columns profiled in detail, in the file's order: all of them, or of a very wide file every
   * column that holds no numbers and then the first number columns, 200 in all.
   */
  column_profiles: z.array(ColumnProfileSchema),
  /** Columns beyond the detailed limit, counted by dtype. */
  omitted_columns: z.object({
    count: z.number().int().nonnegative(),
    by_dtype: z.record(z.string(), z.number().int()),
  }),
  /** The strongest pairwise correlations among numeric columns (|r| ≥ 0.3), strongest first, at most 10. */
  correlations: z.array(z.object({ a: z.string(), b: z.string(), r: z.number() })),
  /** Data-quality warnings about the whole dataset. */
  warnings: z.array(z.string()),
  /** Set for very large inputs profiled in SQL: which figures are approximate. */
  approximate: z
    .object({
      distinct: z.boolean(),
      quantiles: z.boolean(),
      /** The correlations come from an even sample of the rows (200,000 of them). */
      correlations: z.boolean().optional(),
    })
    .optional(),
  /** What a row is and each column's role (agent/semantics.ts), measured by the engine when it can. */
  semantics: SemanticsSchema.optional(),
});
/** A dataset profile. */
export type DataProfile = z.infer<typeof DataProfileSchema>;
