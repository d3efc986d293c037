/**
 * The facts the pandas engine's program writes (pandas-facts.ts), as the host checks them: the
 * TableFacts profile-facts.ts measures in SQL, in JSON.
 */
import { z } from 'zod';
import { RepeatedSchema, ReportedSchema } from '../agent/semantics.js';
import { BalanceSchema, QuotientSchema } from '../agent/semantics-types.js';

/** A range's end: a number, or an infinity the program spells as text (JSON has none). */
const Bound = z.union([
  z.number(),
  z.literal('inf').transform(() => Infinity),
  z.literal('-inf').transform(() => -Infinity),
]);

/** facts.json of the pandas engine's facts program. */
export const FactsSchema = z.object({
  timeDistinct: z.number().int().nonnegative().optional(),
  keyDistinct: z.record(z.string(), z.number().int().nonnegative()).optional(),
  sums: z.array(z.object({ total: z.string(), parts: z.tuple([z.string(), z.string()]) })),
  repeated: z.array(RepeatedSchema),
  ranges: z.record(z.string(), z.record(z.string(), z.array(z.tuple([Bound, Bound])))),
  nonDecreasing: z.record(z.string(), z.number()).optional(),
  typicalStep: z.record(z.string(), z.number()).optional(),
  totals: z
    .array(z.object({ column: z.string(), value: z.string(), measure: z.string() }))
    .optional(),
  names: z.record(z.string(), z.array(z.string())).optional(),
  reported: z.record(z.string(), ReportedSchema).optional(),
  splits: z
    .array(
      z.object({
        column: z.string(),
        value: z.string(),
        measure: z.string(),
        part: z.number(),
        whole: z.number(),
      }),
    )
    .optional(),
  aliases: z.array(z.tuple([z.string(), z.string()])),
  balances: z.array(BalanceSchema).optional(),
  quotients: z.array(QuotientSchema.extend({ decimals: z.number().int().nullable() })).optional(),
  groupPairs: z
    .object({
      by: z.string(),
      pairs: z.array(
        z.object({
          a: z.string(),
          b: z.string(),
          overall: z.number().nullable(),
          groups: z.array(z.object({ n: z.number().int(), r: z.number().nullable() })),
        }),
      ),
    })
    .optional(),
});
