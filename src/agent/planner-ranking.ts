/** A category of many members ranked by a measure: the heuristic plan's, and a question's. */
import { infiniteWhy } from './infinities.js';
import type { Analysis } from './plan.js';
import type { ColumnProfile } from './profile.js';
import type { aggFor } from './roles.js';

/**
 * A category with many members ranked: its top 10 (the rest as "Other" for sums and counts).
 * Averaged, only members with at least half a typical member's rows (2 to 30): the highest
 * means of many members are those of a single row (one flight from BGR, delayed 123 minutes).
 * Half, so that a panel's member missing a year or two stays.
 */
export function rankingAnalysis(
  ranked: ColumnProfile,
  measure: ColumnProfile | undefined,
  agg: ReturnType<typeof aggFor> | 'min',
  rows: number,
  top = 10,
): Analysis {
  const typical = rows / ranked.distinct;
  const fewest =
    agg !== 'sum' && agg !== 'count' && typical >= 4
      ? Math.min(30, Math.round(typical / 2))
      : undefined;
  return {
    title: `Top ${top} ${ranked.name} by ${measure ? `${aggWord(agg)}${measure.name}` : 'rows'}`,
    chart: 'bar',
    why: `The ${ranked.name} values that ${agg === 'sum' || agg === 'count' ? 'weigh most' : 'rank highest'} among ${ranked.distinct.toLocaleString('en-US')}${fewest ? `, of those with at least ${fewest} ${measure?.name ?? 'rows'} values` : ''}.${infiniteWhy(measure)}`,
    transform: {
      type: 'group',
      by: ranked.name,
      measure: measure?.name ?? null,
      agg,
      top_n: top,
      ...(fewest ? { min_rows: fewest } : {}),
    },
    options: { sort: 'descending', orientation: 'h' },
  };
}

/** The word an aggregate puts before its measure in a title ("average price"). */
export function aggWord(agg: string): string {
  return agg === 'mean'
    ? 'average '
    : agg === 'max'
      ? 'latest '
      : agg === 'median'
        ? 'median '
        : '';
}
