/**
 * What a correlation matrix shows, as matrix_insights in preamble/opsmind_insights.py says it:
 * its strongest pairs, or that none is strong. Association, never cause.
 */
import { displayFixed } from './insights-format.js';
import { insight, neverThrows, pyStr } from './insights-values.js';
import type { Insight } from './insights-values.js';

/** A pair is named from this |r| on (the profile's correlations start there too). */
export const STRONG_R = 0.3;
/** At most this many pairs are named. */
const NAMED_PAIRS = 3;

interface Pair {
  i: number;
  j: number;
  r: number;
}

/**
 * |r| at 12 significant digits, so that two engines whose r differ in the last bits of a double
 * order a tie alike (then by position in the matrix).
 */
const strength = (r: number): number => Number(Math.abs(r).toPrecision(12));

/**
 * The strongest pairs of a correlation matrix (`names` in order; `r(i, j)`, symmetric): those of
 * |r| ≥ 0.3, strongest first, up to three named with r, and how many there are when more; else
 * that no pair reaches 0.3, with the strongest there is. Pairs without an r (a constant column)
 * are left out; nothing is said of fewer than two columns.
 */
export const matrixInsights = neverThrows(
  (names: readonly unknown[], r: (i: number, j: number) => unknown): Insight[] => {
    const pairs: Pair[] = [];
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) {
        const value = r(i, j);
        if (typeof value === 'number' && Number.isFinite(value)) pairs.push({ i, j, r: value });
      }
    if (pairs.length === 0) return [];
    pairs.sort((a, b) => strength(b.r) - strength(a.r) || a.i - b.i || a.j - b.j);
    const pair = (p: Pair): string => `${pyStr(names[p.i])} and ${pyStr(names[p.j])}`;
    const strong = pairs.filter((p) => Math.abs(p.r) >= STRONG_R);
    const total = (names.length * (names.length - 1)) / 2;
    const [first] = pairs as [Pair];
    if (strong.length === 0)
      return [
        insight(
          `No pair of the ${names.length} numeric columns has |r| of ${STRONG_R} or more (the strongest: ${pair(first)}, r = ${displayFixed(first.r, 2)}).`,
          'correlation',
          { r: first.r, strong_pairs: 0, pairs: total },
        ),
      ];
    const named = strong.slice(0, NAMED_PAIRS);
    const listed = named
      .map((p, k) => `${pair(p)} (${k === 0 ? 'r = ' : ''}${displayFixed(p.r, 2)})`)
      .join(', ');
    const more =
      strong.length > named.length
        ? `; ${strong.length} of the ${total} pairs have |r| of ${STRONG_R} or more`
        : '';
    const head = named.length === 1 ? 'The strongest correlation' : 'The strongest correlations';
    return [
      insight(`${head}: ${listed}${more}.`, 'correlation', {
        r: first.r,
        strong_pairs: strong.length,
        pairs: total,
      }),
    ];
  },
);
