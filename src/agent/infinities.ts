/**
 * Measures that hold infinities (±inf, the profile's `infinite` count): a sum, mean, min or max of
 * one is infinite (or NaN, +inf beside -inf) in every group or period an infinity falls in, and no
 * chart can draw it. The heuristic planner draws their median (roles.ts aggFor) and says why; a
 * model's plan that aggregates one otherwise is sent back (plan.ts).
 */
import type { ColumnProfile } from './profile.js';

/** "3 infinite values" (or "an infinite value"). */
function infiniteValues(n: number): string {
  return n === 1 ? 'an infinite value' : `${n.toLocaleString('en-US')} infinite values`;
}

/**
 * The sentence a chart's why ends with when its measure is given its median for infinities
 * (aggFor): '' when it is not.
 */
export function infiniteWhy(measure: ColumnProfile | undefined): string {
  const n = measure?.infinite;
  if (!measure || !n) return '';
  return ` Medians: ${measure.name} holds ${infiniteValues(n)}, and a sum or mean of it is infinite wherever one falls.`;
}

/** Aggregates that are infinite (or NaN) in any group or period an infinite value falls in. */
const INFINITE_AGGS = new Set(['sum', 'mean', 'min', 'max']);

/** What is wrong with aggregating `measure` by `agg` when it holds infinities; null when nothing. */
export function infiniteAggProblem(measure: ColumnProfile | undefined, agg: string): string | null {
  const n = measure?.infinite;
  if (!measure || !n || !INFINITE_AGGS.has(agg)) return null;
  return `"${measure.name}" holds ${infiniteValues(n)}: its ${agg} is infinite wherever one falls and cannot be drawn; use agg "median" (or "count")`;
}

/**
 * The sentence a histogram's or box's why ends with when its measure holds infinities: no bin or
 * box can hold them, so they are left out of the chart (and of its findings' figures); '' when
 * there are none.
 */
export function infiniteLeftOutWhy(measure: ColumnProfile | undefined): string {
  const n = measure?.infinite;
  if (!measure || !n) return '';
  return ` ${measure.name} holds ${infiniteValues(n)}, which no bin or box can hold: ${n === 1 ? 'it is' : 'they are'} left out.`;
}

/**
 * The sentence the summary table's why ends with when some of its measures hold infinities: their
 * mean, std, min and max are not finite (shown as —), and their quartiles count them, as pandas'
 * describe() does; '' when none does.
 */
export function infiniteSummaryWhy(measures: readonly ColumnProfile[]): string {
  const held = measures.filter((m) => m.infinite);
  if (held.length === 0) return '';
  const names = held.map((m) => `${m.name} (${infiniteValues(m.infinite ?? 0)})`).join(', ');
  const them = held.length === 1 ? 'its' : 'their';
  return ` Infinities in ${names}: ${them} mean, std, min and max are not finite numbers and show as —, and ${them} quartiles count them, as pandas' describe() does.`;
}
