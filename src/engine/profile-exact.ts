/**
 * What the profile already knows that a chart would ask again: the statistics of a number
 * column's finite values over all rows — count, range, mean, quartiles, adjusted skew and the
 * count beyond 1.5 IQR — exactly as sql-stats.ts computes them (the same finite values, favg,
 * quantile_cont's linear quartiles, the same fences). A histogram or box of the whole column takes
 * them from here instead of scanning it again; only figures that are exact are kept.
 */
import { infiniteCount } from './profile-classify.js';
import type { ColumnFacts, Decision } from './profile-classify.js';
import type { MomentScan } from './profile-numbers.js';
import type { ColumnStats } from './sql-stats.js';
import { adjustedSkew } from './sql-stats.js';

/** Statistics by column name (columns of `data`, as read). */
export type ExactStats = ReadonlyMap<string, ColumnStats>;

/**
 * The exact statistics of every number column of the profile whose numbers are its own (not text
 * parsed). A column is left out when its quartiles were approximated (`approximate`: the rows were
 * past EXACT_ROWS and they were not picked from its value counts) or its moments were not taken.
 */
export function exactStats(
  facts: readonly ColumnFacts[],
  decisions: readonly Decision[],
  moments: ReadonlyMap<number, MomentScan>,
  rows: number,
  approximate: boolean,
): ExactStats {
  const known = new Map<string, ColumnStats>();
  for (const [i, fact] of facts.entries()) {
    const { column, scan, top } = fact;
    if (column.kind !== 'int' && column.kind !== 'float') continue;
    const numbers = scan.numbers;
    const moment = moments.get(column.index);
    if (decisions[i]?.numbers !== 'own' || !numbers || !moment) continue;
    if (approximate && !top?.picks) continue;
    if (![numbers.q1, numbers.median, numbers.q3, moment.m2].every(Number.isFinite)) continue;
    const infinite = infiniteCount(fact);
    known.set(column.name, {
      n: numbers.count,
      min: numbers.min,
      max: numbers.max,
      q1: numbers.q1,
      median: numbers.median,
      q3: numbers.q3,
      mean: numbers.mean,
      skew: adjustedSkew(numbers.count, moment.m2, moment.m3),
      outliers: Number.isFinite(moment.outliers) ? moment.outliers : 0,
      rows,
      ...(infinite ? { infinite } : {}),
    });
  }
  return known;
}
