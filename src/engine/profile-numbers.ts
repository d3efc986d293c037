/**
 * Number statistics in two scans, as opsmind_profile.number_stats computes them: the first scan
 * gives count, extremes, mean, zeros and negatives (quartiles are added by profile-quartiles.ts,
 * or by the detail scan for numbers stored as text); the second, given the mean and quartiles,
 * gives the centred moments (sample std, pandas' adjusted skew) and the count beyond 1.5 IQR.
 * Centred sums keep the moments exact where raw power sums would cancel.
 */
import type { ColumnProfile } from '../agent/profile.js';
import { sqlDouble } from './profile-columns.js';

/** The statistics of a number column, as the profile contract holds them. */
export type NumberStats = NonNullable<ColumnProfile['numeric']>;

/** What the first scan gives of a column's finite values. */
export interface NumberScan {
  count: number;
  min: number;
  max: number;
  mean: number;
  q1: number;
  median: number;
  q3: number;
  zeros: number;
  negatives: number;
}

/** What the second scan gives. */
export interface MomentScan {
  m2: number;
  m3: number;
  outliers: number;
}

/** The quartiles of a finite DOUBLE expression, aliased `<prefix>_q` (a list of three). */
export function quartileAggregate(finite: string, prefix: string, approximate: boolean): string {
  const name = approximate ? 'approx_quantile' : 'quantile_cont';
  return `${name}(${finite}, [0.25, 0.5, 0.75]) AS ${prefix}_q`;
}

/** First-scan aggregates of a finite DOUBLE expression (no quartiles), aliased `<prefix>_…`. */
export function numberAggregates(finite: string, prefix: string): string[] {
  return [
    `count(${finite}) AS ${prefix}_nf`,
    `min(${finite}) AS ${prefix}_min`,
    `max(${finite}) AS ${prefix}_max`,
    `favg(${finite}) AS ${prefix}_mean`,
    `count_if(${finite} = 0) AS ${prefix}_zeros`,
    `count_if(${finite} < 0) AS ${prefix}_neg`,
  ];
}

/** The quartiles read back from a `quartileAggregate` alias, into a scan that lacked them. */
export function withQuartiles(
  scan: NumberScan,
  row: Record<string, unknown>,
  prefix: string,
): NumberScan {
  const [q1, median, q3] = readQuartiles(row, prefix);
  return { ...scan, q1, median, q3 };
}

function readQuartiles(row: Record<string, unknown>, prefix: string): [number, number, number] {
  const list = row[`${prefix}_q`];
  const quartiles = Array.isArray(list) ? list : [];
  return [num(quartiles[0]), num(quartiles[1]), num(quartiles[2])];
}

function num(value: unknown): number {
  return value === null || value === undefined ? Number.NaN : Number(value);
}

/** A first scan read back from its aliases (quartiles too, if present); null without finite values. */
export function readNumberScan(row: Record<string, unknown>, prefix: string): NumberScan | null {
  const count = num(row[`${prefix}_nf`]);
  if (!(count > 0)) return null;
  const [q1, median, q3] = readQuartiles(row, prefix);
  return {
    count,
    min: num(row[`${prefix}_min`]),
    max: num(row[`${prefix}_max`]),
    mean: num(row[`${prefix}_mean`]),
    q1,
    median,
    q3,
    zeros: num(row[`${prefix}_zeros`]),
    negatives: num(row[`${prefix}_neg`]),
  };
}

/** The outlier fences: values below the first or above the second are beyond 1.5 IQR. */
export function fences(scan: NumberScan): [number, number] {
  const iqr = scan.q3 - scan.q1;
  return [scan.q1 - 1.5 * iqr, scan.q3 + 1.5 * iqr];
}

/** Second-scan aggregates of the same expression; null when the first scan is unusable. */
export function momentAggregates(finite: string, prefix: string, scan: NumberScan): string[] {
  const [low, high] = fences(scan);
  if (![scan.mean, low, high].every(Number.isFinite)) return [];
  const centred = `(${finite} - ${sqlDouble(scan.mean)})`;
  return [
    `fsum(${centred} * ${centred}) AS ${prefix}_m2`,
    `fsum(${centred} * ${centred} * ${centred}) AS ${prefix}_m3`,
    `count_if(NOT (${finite} >= ${sqlDouble(low)} AND ${finite} <= ${sqlDouble(high)})) AS ${prefix}_out`,
  ];
}

/** The second scan read back; NaN moments when it did not run. */
export function readMomentScan(row: Record<string, unknown>, prefix: string): MomentScan {
  return {
    m2: num(row[`${prefix}_m2`]),
    m3: num(row[`${prefix}_m3`]),
    outliers: num(row[`${prefix}_out`]),
  };
}

/**
 * A mean within the rounding error of summing its values (n × ε × the largest |value|) of zero is
 * zero: centred data (a model's residuals, a standardised score) otherwise shows a mean of
 * 1.6e-16 in one engine and 2.8e-16 in the other, said in words ("around a mean of 1.619e-16")
 * and ordering columns by it. As opsmind_profile.settled_mean.
 */
export function settledMean(mean: number, n: number, min: number, max: number): number {
  return Math.abs(mean) <= n * Number.EPSILON * Math.max(Math.abs(min), Math.abs(max)) ? 0 : mean;
}

/** The NumberStats of both scans; null when a location statistic is not finite (as in Python). */
export function numberStats(scan: NumberScan, moments: MomentScan): NumberStats | null {
  const n = scan.count;
  const m2 = moments.m2;
  const m3 = Math.abs(moments.m3) >= 1e-14 ? moments.m3 : 0;
  let std = n > 1 && Number.isFinite(m2) ? Math.sqrt(m2 / (n - 1)) : null;
  let skew =
    n > 2 && m2 >= 1e-14 && m2 < Infinity
      ? ((n * (n - 1) ** 0.5) / (n - 2)) * (m3 / m2 ** 1.5)
      : null;
  if (std !== null && !Number.isFinite(std)) std = null;
  if (skew !== null && !Number.isFinite(skew)) skew = null;
  const location = [scan.min, scan.max, scan.mean, scan.median, scan.q1, scan.q3];
  if (!location.every(Number.isFinite)) return null;
  const outliers = Number.isFinite(moments.outliers) ? moments.outliers : 0;
  return {
    min: scan.min,
    max: scan.max,
    mean: settledMean(scan.mean, n, scan.min, scan.max),
    std,
    median: scan.median,
    q1: scan.q1,
    q3: scan.q3,
    zeros: scan.zeros,
    negatives: scan.negatives,
    outliers,
    skew,
  };
}
