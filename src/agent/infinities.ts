/**
 * Measures that hold infinities (±inf, the profile's `infinite` count): a sum, mean, min or max of
 * one is infinite (or NaN, +inf beside -inf) in every group or period an infinity falls in, and no
 * chart can draw it. The heuristic planner draws their median (roles.ts aggFor) and says why; a
 * model's plan that aggregates one otherwise is sent back (plan.ts).
 */
import type { ColumnProfile } from './profile.js';

/**
 * The sentence a chart's why ends with when its measure is given its median for infinities
 * (aggFor): '' when it is not.
 */
export function infiniteWhy(measure: ColumnProfile | undefined): string {
  const n = measure?.infinite;
  if (!measure || !n) return '';
  const values = n === 1 ? 'an infinite value' : `${n.toLocaleString('en-US')} infinite values`;
  return ` Medians: ${measure.name} holds ${values}, and a sum or mean of it is infinite wherever one falls.`;
}

/** Aggregates that are infinite (or NaN) in any group or period an infinite value falls in. */
const INFINITE_AGGS = new Set(['sum', 'mean', 'min', 'max']);

/** What is wrong with aggregating `measure` by `agg` when it holds infinities; null when nothing. */
export function infiniteAggProblem(measure: ColumnProfile | undefined, agg: string): string | null {
  const n = measure?.infinite;
  if (!measure || !n || !INFINITE_AGGS.has(agg)) return null;
  return `"${measure.name}" holds ${n.toLocaleString('en-US')} infinite value${n === 1 ? '' : 's'}: its ${agg} is infinite wherever one falls and cannot be drawn; use agg "median" (or "count")`;
}
