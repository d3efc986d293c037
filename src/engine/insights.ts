/**
 * Number-backed sentences about the exact frame a chart shows: the host-side
 * port of preamble/opsmind_insights.py for the DuckDB engine, which computes
 * statistics in SQL over all rows and passes small frames or precomputed
 * statistics here. Same sentences, same numbers as the Python for the same
 * input. Every function is deterministic and returns [] (never throws) on
 * empty, single-row, all-equal or unusable input. Correlation sentences
 * describe association, never cause.
 */
import {
  capital,
  fmtNumber,
  fmtPct,
  fmtMoney,
  fmtYear,
  groupThousands,
  displayFixed,
} from './insights-format.js';
import { groupEffect } from '../agent/group-effect.js';
import type { GroupCorrelation } from '../agent/group-effect.js';
import { insight, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';

export { displayFixed, fmtDate, fmtNumber, fmtPct, fmtRatio, fmtYear } from './insights-format.js';
export { asDatetime, inferFrequency } from './insights-dates.js';
export { averageRanks, numberStats, pearson, spearman } from './insights-stats.js';
export type { NumberStats } from './insights-stats.js';
export { trendInsights } from './insights-trend.js';
export { seriesTrendInsights } from './insights-series.js';
export { rankingInsights } from './insights-ranking.js';
export { scaleInsights, shareInsights } from './insights-share.js';
export type { RowCounts } from './insights-share.js';
export { studentTwoSided, welch } from './insights-welch.js';
export type { Spread } from './insights-welch.js';
export { groupName, isOther } from './insights-values.js';
export type { TrendHow } from './insights-trend.js';
export type { Insight } from './insights-values.js';

/** A category and its value, one row of a charted frame. */
export interface CategoryValue {
  category: unknown;
  value: unknown;
}

/** What distributionInsights needs of a column: numberStats' fields (n = finite values). */
export interface DistributionStats {
  n: number;
  min: number;
  max: number;
  q1: number;
  median: number;
  q3: number;
  mean: number;
  skew: number | null;
  outliers: number;
  /** How many of the values were ±inf, left out of every figure above (absent: none). */
  infinite?: number;
}

/** What correlationInsights needs: Pearson r, Spearman rho, complete pairs, and whether a side is constant. */
export interface CorrelationStats {
  r: number;
  rho: number;
  n: number;
  xConstant?: boolean;
  yConstant?: boolean;
}

/**
 * "0.00" for a "-0.00": a skew that rounds to zero is summation noise whose sign changes with the
 * order rows are added in, so it is printed without one (opsmind_insights does the same).
 */
export function unsignedZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** How a distribution's values are written: calendar years without a thousands separator. */
type ValueFormat = (x: number) => string;

function skewSentence(
  stats: DistributionStats,
  label: string,
  skew: number,
  value: ValueFormat,
): Insight {
  const shape =
    skew >= 0.5
      ? 'right-skewed: a long tail of large values'
      : skew <= -0.5
        ? 'left-skewed: a long tail of small values'
        : 'roughly symmetric';
  const subject = stats.infinite ? `${capital(label)}'s finite values are` : `${capital(label)} is`;
  const skewText = unsignedZero(displayFixed(skew, 2));
  const figures = `${value(stats.mean)} vs ${value(stats.median)}`;
  // A tail one way and the bulk the other (sp500's volume: skew 0.68, the mean below the median):
  // "a long tail of large values … mean below median" would contradict itself.
  const twoWays =
    (skew >= 0.5 && stats.mean < stats.median) || (skew <= -0.5 && stats.mean > stats.median);
  const text = twoWays
    ? `${subject} skewed two ways: ${stats.infinite ? 'their' : 'its'} skew is ${skewText} (a tail of ` +
      `${skew > 0 ? 'large' : 'small'} values), but ${stats.infinite ? 'their' : 'its'} mean lies ` +
      `${skew > 0 ? 'below' : 'above'} ${stats.infinite ? 'their' : 'its'} median (${figures}).`
    : `${subject} ${shape} (skew ${skewText}; mean ${value(stats.mean)} vs median ${value(stats.median)}).`;
  return insight(text, 'skew', { skew, mean: stats.mean, median: stats.median });
}

function outlierSentence(stats: DistributionStats, label: string, value: ValueFormat): Insight {
  const { outliers, n } = stats;
  const iqr = stats.q3 - stats.q1;
  const [low, high] = [stats.q1 - 1.5 * iqr, stats.q3 + 1.5 * iqr];
  const finite = stats.infinite ? 'finite ' : '';
  const values = `${groupThousands(String(outliers))} ${finite}value${outliers !== 1 ? 's' : ''} (${fmtPct(outliers / n)}) of ${label}`;
  // A fence beyond the data's own range (e.g. below zero for amounts) has no values past it: leave it out.
  const fences = [
    low > stats.min ? `below ${value(low)}` : '',
    high < stats.max ? `above ${value(high)}` : '',
  ];
  const where = fences.filter((f) => f).join(' or ');
  const text =
    iqr === 0
      ? flatOutliers(values, outliers, value(stats.q1), fences)
      : `${values} ${outliers !== 1 ? 'lie' : 'lies'} beyond 1.5 IQR of the quartiles${where ? ` (${where})` : ''}.`;
  return insight(text, 'outliers', { outliers, share_pct: (outliers / n) * 100, low, high });
}

/**
 * The outliers of a column whose middle half is one value (IQR 0, birdstrikes.csv's costs: 0 in
 * 98% of rows): every other value lies past the fences, which sit on that value, so the sentence
 * says what they are — the values that differ from it — and why each counts.
 */
function flatOutliers(values: string, count: number, at: string, fences: string[]): string {
  const [below, above] = fences.map(Boolean);
  const side =
    below && above ? '' : ` (${count === 1 ? '' : 'all '}${below ? 'below' : 'above'} it)`;
  return `${values} ${count === 1 ? 'differs' : 'differ'} from ${at}${side}: with an IQR of 0, each lies beyond 1.5 IQR of the quartiles.`;
}

/**
 * What the figures leave out when the column holds infinities: ", over its 197 finite values (3
 * infinite values left out)" — a median or quartile that counted them would differ (pandas'
 * describe() does), so a reader comparing the two is told why.
 */
function leftOut({ n, infinite }: DistributionStats): string {
  if (!infinite) return '';
  const values =
    infinite === 1 ? '1 infinite value' : `${groupThousands(String(infinite))} infinite values`;
  return `, over its ${groupThousands(String(n))} finite values (${values} left out)`;
}

/**
 * Median and IQR, skew direction in words, and outliers beyond 1.5 IQR
 * (distribution_insights), from a column's statistics (numberStats' fields,
 * computed in SQL or by numberStats); [] below two values or with no spread.
 * `years`: the values are calendar years (Scales.years), written 1687 and their
 * IQR as a number of years; `points`: percentages (Scales.percents), written 17.4% and
 * their IQR in percentage points; `money`: amounts in a currency (Scales.currencies), "$1,234".
 */
export const distributionInsights = neverThrows(
  (
    stats: DistributionStats | null,
    label: string,
    years = false,
    points = false,
    money?: string | null,
  ): Insight[] => {
    if (!stats || !(stats.n >= 2) || stats.min === stats.max) return [];
    const { min, max, q1, median, q3, mean } = stats;
    if (![min, max, q1, median, q3, mean].every((v) => Number.isFinite(v))) return [];
    const iqr = q3 - q1;
    const value = years
      ? fmtYear
      : points
        ? (x: number) => `${fmtNumber(x)}%`
        : (x: number) => fmtMoney(x, money);
    const unit = years ? ' years' : points ? ' percentage points' : '';
    const spread =
      iqr === 0
        ? `${capital(label)} is ${value(median)} across its middle half: the median and both quartiles ` +
          `are ${value(median)} (IQR 0${unit})${leftOut(stats)}.`
        : `The median ${label} is ${value(median)}; the middle half lies between ${value(q1)} ` +
          `and ${value(q3)} (IQR ${years || points ? fmtNumber(iqr) : value(iqr)}${unit})${leftOut(stats)}.`;
    const out = [insight(spread, 'spread', { median, q1, q3, iqr })];
    if (stats.skew !== null) out.push(skewSentence(stats, label, stats.skew, value));
    if (stats.outliers) out.push(outlierSentence(stats, label, value));
    return out;
  },
);

const strength = (r: number): string =>
  Math.abs(r) < 0.3 ? 'weak' : Math.abs(r) < 0.6 ? 'moderate' : 'strong';
const clip = (r: number): number => Math.min(1, Math.max(-1, r));

/**
 * Pearson r and Spearman rho of two columns over their complete pairs, in
 * words, and whether the two disagree (correlation_insights); an association,
 * not a cause. [] below three pairs, for a constant side, or non-finite r/rho.
 */
/** Below this many pairs, a correlation finding says chance alone could give it (as in Python). */
export const FEW_PAIRS = 10;

export const correlationInsights = neverThrows(
  (stats: CorrelationStats, a: string, b: string): Insight[] => {
    const { n } = stats;
    if (!(n >= 3) || stats.xConstant || stats.yConstant) return [];
    const [r, rho] = [clip(stats.r), clip(stats.rho)];
    if (!Number.isFinite(r) || !Number.isFinite(rho)) return [];
    const direction = r > 0 ? 'positive' : r < 0 ? 'negative' : 'no';
    const [rText, rhoText] = [displayFixed(r, 2), displayFixed(rho, 2)];
    const out = [
      insight(
        `There is a ${strength(r)} ${direction} correlation between ${a} and ${b} (Pearson r = ${rText}, ` +
          `Spearman ρ = ${rhoText}, n = ${groupThousands(String(n))} pairs); this is an association, ` +
          'not evidence that one causes the other.' +
          (n < FEW_PAIRS ? ` With only ${n} pairs, chance alone could give it.` : ''),
        'correlation',
        { r, rho, n },
      ),
    ];
    if (Math.abs(rho) - Math.abs(r) >= 0.2) {
      const text =
        `The rank correlation (ρ = ${rhoText}) is stronger than the linear one (r = ${rText}): ` +
        `${a} and ${b} move together consistently but not along a straight line.`;
      out.push(insight(text, 'correlation_shape', { r, rho }));
    } else if (Math.abs(r) - Math.abs(rho) >= 0.2) {
      const text =
        `The linear correlation (r = ${rText}) is stronger than the rank correlation (ρ = ${rhoText}): ` +
        'a few extreme values may drive it.';
      out.push(insight(text, 'correlation_shape', { r, rho }));
    }
    return out;
  },
);

/**
 * What pooling the groups of a scatter hides (group_correlation_insights), by the rule of
 * agent/group-effect.ts: a reversal, or a relation stronger within every group than pooled.
 */
export const groupCorrelationInsights = neverThrows(
  (
    overall: number,
    groups: readonly GroupCorrelation[],
    a: string,
    b: string,
    by: string,
  ): Insight[] => {
    const effect = groupEffect(overall, groups);
    if (!effect) return [];
    const { overall: r0, lo, hi } = effect;
    const range = `r from ${displayFixed(lo, 2)} to ${displayFixed(hi, 2)} in ${effect.groups} groups`;
    const numbers = { overall: r0, r_min: lo, r_max: hi, groups: effect.groups };
    if (effect.kind === 'reversal') {
      const pooled = Math.abs(r0) < 0.1 ? 'close to none' : r0 > 0 ? 'positive' : 'negative';
      return [
        insight(
          `Within each ${by} the correlation between ${a} and ${b} is ${lo > 0 ? 'positive' : 'negative'} (${range}), ` +
            `while over all rows it is ${pooled} (r = ${displayFixed(r0, 2)}): the ${by} groups differ in both, ` +
            'and pooling them hides the relation within each.',
          'group_correlation',
          numbers,
        ),
      ];
    }
    return [
      insight(
        `Within each ${by} the correlation between ${a} and ${b} is stronger (${range}) than over all rows ` +
          `(r = ${displayFixed(r0, 2)}): the ${by} groups differ, and pooling them weakens the relation.`,
        'group_correlation',
        numbers,
      ),
    ];
  },
);
