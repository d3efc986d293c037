/**
 * The contract of agent/semantics.ts: grains, roles, the semantics a profile carries, and the
 * facts an engine measures for them.
 */
import { z } from 'zod';

/** A year of a yearly panel, or a period of a dated one as written in filters ("2024-08-01 00:00:00"). */
const PeriodSchema = z.union([z.number(), z.string()]);
/** The years (periods) a panel's measure is reported in (engine/profile-latest.ts). */
export const ReportedSchema = z.object({
  from: PeriodSchema,
  to: PeriodSchema,
  latest: PeriodSchema,
  /**
   * Rows inside from..to without the measure, where some period misses it on more than GAP_SHARE
   * of its rows (a store's blank month): `cells` of them in all, over `periods` such periods, and
   * the period missing the largest share (`at`: `missing` of its `rows`). A total across the
   * entities dips wherever one is missing.
   */
  gaps: z
    .object({
      cells: z.number().int(),
      periods: z.number().int(),
      at: PeriodSchema,
      missing: z.number().int(),
      rows: z.number().int(),
    })
    .optional(),
});
/** The years (periods) a panel's measure is reported in. */
export type Reported = z.infer<typeof ReportedSchema>;

/** What one row of the table is. */
export const GRAINS = ['event', 'series', 'panel', 'cross_section'] as const;
export type Grain = (typeof GRAINS)[number];

/** What a column is to an analyst. */
export const ROLES = [
  'amount', // additive per row: revenue, deaths, generation — summed
  'count', // a whole number of things per row — summed
  'level', // price, rate, temperature, size, score — averaged, never summed
  'stock', // headcount, population: summable across entities within one period, never across time
  'cumulative', // a running total: the last value per entity
  'ratio', // a share or percentage — averaged
  'identifier', // a key
  'code', // numbers that are labels: zip, FIPS, cluster ids, 0/1 flags
  'year', // whole years
  'latitude',
  'longitude',
  'direction', // a compass bearing in degrees: 360° meets 0°, so never summed or plainly averaged
  'category',
  'text',
  'date',
  'empty', // every value missing, or one value throughout
] as const;
export type Role = (typeof ROLES)[number];

export const ColumnRoleSchema = z.object({
  name: z.string(),
  role: z.enum(ROLES),
  /** Why, in a sentence a reader can check against the data. */
  evidence: z.string(),
  /** False when the evidence could not settle it and the safe choice was taken. */
  settled: z.boolean(),
});
export type ColumnRole = z.infer<typeof ColumnRoleSchema>;

/** A measure with one value per entity, repeated on each of its rows (TableFacts.repeated). */
export const RepeatedSchema = z.object({
  measure: z.string(),
  entity: z.string(),
  rows: z.number(),
  within: z.array(z.string()),
  /**
   * Written once per entity, on its first row, its other rows blank (an order's total above its
   * line items): a sum over rows counts it once, but a category varying within the entity would
   * give it to the first row's value alone.
   */
  once: z.boolean().optional(),
});
export type Repeated = z.infer<typeof RepeatedSchema>;

/**
 * A running balance (semantics-balances.ts): `balance` changes by `amount` from each row to the
 * next on (nearly) every row, the rows oldest first ("ascending") or newest first ("descending").
 * Both engines' facts and the semantics hold it alike.
 */
export const BalanceSchema = z.object({
  balance: z.string(),
  amount: z.string(),
  order: z.enum(['ascending', 'descending']),
  /** A statement of two columns: the balance rises by `amount` and falls by `debit`. */
  debit: z.string().optional(),
  /** Sections of the rows (a report's accounts, each listed together): one balance each. */
  by: z.string().optional(),
});
export type Balance = z.infer<typeof BalanceSchema>;

/** A quotient column (semantics-quotients.ts): column = numerator ÷ denominator × scale on every row. */
export const QuotientSchema = z.object({
  column: z.string(),
  numerator: z.string(),
  denominator: z.string(),
  scale: z.number(),
});

export const SemanticsSchema = z.object({
  table: z.object({
    grain: z.enum(GRAINS),
    /** The column(s) naming the entity of a panel or cross-section, most significant first. */
    entity: z.string().nullable(),
    keys: z.array(z.string()),
    time: z
      .object({
        column: z.string(),
        /** pandas offset alias of the data's own spacing, or "none" when irregular. */
        freq: z.string(),
        kind: z.enum(['date', 'year']),
      })
      .nullable(),
    evidence: z.array(z.string()),
  }),
  columns: z.array(ColumnRoleSchema),
  skipped: z.array(z.object({ column: z.string(), reason: z.string() })),
  /** Measures with one value per entity, repeated on its rows (TableFacts.repeated). */
  repeated: z.array(RepeatedSchema).optional(),
  /** Category values that are the total of the others (left out of charts of their parts). */
  totals: z.array(
    z.object({
      column: z.string(),
      value: z.string(),
      measure: z.string(),
      /** Where it adds up the rest: in each period (a panel's total entity), or over the table. */
      within: z.enum(['period', 'table']).optional(),
    }),
  ),
  /** Columns computed from others: a total of two parts, or a category made of ranges of a measure. */
  derived: z.array(
    z.object({
      column: z.string(),
      from: z.array(z.string()),
      how: z.enum(['sum', 'bins']),
      evidence: z.string(),
    }),
  ),
  /** Running balances (BalanceSchema): each changes by its flow from row to row. */
  balances: z.array(BalanceSchema).optional(),
  /**
   * Columns that are one column divided by another on every row (CTR = Clicks ÷ Impr. × 100): a
   * group's value is the quotient of its totals (semantics-quotients.ts).
   */
  quotients: z.array(QuotientSchema).optional(),
  /**
   * A column naming what a measure holds (indicator = "Population", "Life expectancy"): the
   * measure is charted for one of its first values at a time (semantics-facets.ts).
   */
  facets: z
    .array(z.object({ column: z.string(), measure: z.string(), values: z.array(z.string()) }))
    .optional(),
  /**
   * The one quantity a table's only measure holds, named by a column of one text throughout
   * ("Indicator Name": "Population, total"): titles and findings say it for the measure
   * (semantics-facets.ts quantityOf).
   */
  quantity: z.object({ column: z.string(), measure: z.string(), value: z.string() }).optional(),
  /**
   * A column of currency codes beside money measures (Stripe's Currency: usd, eur, jpy): every
   * chart of them keeps `main`, the currency of most rows (`share` of them), never adding or
   * comparing amounts in different currencies (semantics-currency.ts).
   */
  currency: z
    .object({
      column: z.string(),
      measures: z.array(z.string()),
      main: z.string(),
      share: z.number(),
      values: z.array(z.string()),
    })
    .optional(),
  /**
   * A yearly panel unique on entity × year: per measure, the first and the last year it is
   * reported for nearly every entity (TableFacts.reported). Its entities are ranked by the last
   * year's values; its totals over the entities cover those years only. A dated panel (entity ×
   * date) the same, its periods as dates: its totals keep to them, its ranking is of every period.
   */
  latest: z
    .object({ column: z.string(), entity: z.string(), years: z.record(z.string(), ReportedSchema) })
    .optional(),
  /**
   * Values of a category that are groups of its other values ("World", "High income" beside the
   * countries): left out of every chart, which compares the members (semantics-aggregates.ts).
   */
  aggregates: z.array(z.object({ column: z.string(), values: z.array(z.string()) })).optional(),
  /**
   * Every value of a text column of a few hundred values at most (TableFacts.names), for a
   * question that names one ("revenue of P27": question-values.ts); not in the text for models.
   */
  values: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * Categories naming the same groups as another (a code beside its name): charted as `as` only
   * (semantics-aliases.ts).
   */
  aliases: z.array(z.object({ column: z.string(), as: z.string() })).optional(),
  /** Pairs of measures whose relation pooling the groups of `by` hides (group-effect.ts). */
  groupEffects: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        by: z.string(),
        kind: z.enum(['reversal', 'stronger']),
        overall: z.number(),
        lo: z.number(),
        hi: z.number(),
      }),
    )
    .optional(),
});
export type Semantics = z.infer<typeof SemanticsSchema>;

/** Facts only the rows can tell, measured by the engine (all optional: absent means unknown). */
export interface TableFacts {
  /** Distinct values of the time column. */
  timeDistinct?: number;
  /** For each candidate key (entity columns joined with " × "): distinct (key…, time) combinations. */
  keyDistinct?: Record<string, number>;
  /** Per number column: the share of steps, per entity in time order, that do not decrease. */
  nonDecreasing?: Record<string, number>;
  /**
   * Per number column: its median step from one period to the next (per entity, in time order),
   * as a share of the larger of the two values (0.05: it moves by 5%). A price or an index moves
   * in small steps; a flow (rain, deaths a month) jumps.
   */
  typicalStep?: Record<string, number>;
  /** nonDecreasing was measured over the steps between an even sample of the rows (large tables). */
  stepsSampled?: boolean;
  /**
   * For the small category scatters are coloured by (groupCategory): Pearson r of each pair of
   * measures over all complete pairs, and per category value (group-effect.ts decides from it).
   * DuckDB measures them over the profile's even sample past 200,000 rows: they only choose which
   * scatter to draw; its finding is measured over all rows.
   */
  groupPairs?: {
    by: string;
    pairs: {
      a: string;
      b: string;
      overall: number | null;
      groups: { n: number; r: number | null }[];
    }[];
  };
  /** Category values whose measure equals the sum of the other values' in (nearly) every period. */
  totals?: { column: string; value: string; measure: string }[];
  /**
   * For the text columns and measures of splitCandidates: each value whose sum of a measure
   * (`part`) is within LOOSE_SHARE of the rest's (`whole` − `part`, the whole column's sum less
   * it), as semantics-totals.ts decides from.
   */
  splits?: { column: string; value: string; measure: string; part: number; whole: number }[];
  /** Number columns equal to the sum of two others on (nearly) every complete row: total = a + b. */
  sums?: { total: string; parts: [string, string] }[];
  /**
   * Running balances (semantics-balances.ts): `balance` changes by `amount` from each row to the
   * next on (nearly) every row, in the file's order (`ascending`) or the reverse (`descending`).
   */
  balances?: Balance[];
  /**
   * Number columns equal to numerator ÷ denominator × scale on (nearly) every row with both parts
   * (semantics-quotients.ts): the decimals the column is written with (null: more than 6).
   */
  quotients?: {
    column: string;
    numerator: string;
    denominator: string;
    scale: number;
    decimals: number | null;
  }[];
  /**
   * Measures with one value per entity (attributeEntities), repeated on each of its rows: the
   * entity, its rows on average (a sum over rows counts each entity's value that many times), and
   * the categories with one value per entity too (grouping by one of them compares entities).
   */
  repeated?: Repeated[];
  /** Per candidate category, per measure: the [min, max] of the measure in each category value. */
  ranges?: Record<string, Record<string, [number, number][]>>;
  /**
   * For the text columns of splitCandidates with NAMES_MIN to NAMES_DISTINCT values: every value
   * (semantics-aggregates.ts finds the groups among them).
   */
  names?: Record<string, string[]>;
  /**
   * A yearly panel's measures, each with the first and the last year holding at least
   * REPORTED_SHARE of the values of its fullest year (engine/profile-latest.ts).
   */
  reported?: Record<string, Reported>;
  /** Pairs of aliasCandidates with one value of each for every value of the other (one to one). */
  aliases?: [string, string][];
}

/** A panel's year is reported for a measure with at least this share of its fullest year's values. */
export const REPORTED_SHARE = 0.9;
/** A panel's period misses its measure (Reported.gaps) on more than this share of its rows. */
export const GAP_SHARE = 0.01;
/**
 * A dated panel's periods are read for the ones its measures are reported in up to this many
 * (months and days of years; a sensor's minutes are no periods a measure is reported late in).
 */
export const REPORTED_PERIODS = 5000;
