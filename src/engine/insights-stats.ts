/**
 * The statistics behind insight sentences, computed as numpy and pandas
 * compute them so the numbers match the pandas path: numpy's pairwise
 * summation for sums and means, np.percentile's linear quantiles, pandas'
 * adjusted Fisher-Pearson skew, np.corrcoef and pandas' average ranks.
 */

/** numpy's pairwise sum (np.add.reduce of float64): 8 running sums in blocks of at most 128 values. */
export function pairwiseSum(
  values: ArrayLike<number>,
  start = 0,
  n = values.length - start,
): number {
  if (n < 8) {
    let sum = 0;
    for (let i = start; i < start + n; i++) sum += values[i] ?? 0;
    return sum;
  }
  if (n <= 128) {
    const r = Array.from({ length: 8 }, (_, j) => values[start + j] ?? 0);
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (let j = 0; j < 8; j++) r[j] = (r[j] ?? 0) + (values[start + i + j] ?? 0);
    }
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0, h = 0] = r;
    let sum = a + b + (c + d) + (e + f + (g + h));
    for (; i < n; i++) sum += values[start + i] ?? 0;
    return sum;
  }
  let half = Math.floor(n / 2);
  half -= half % 8;
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, n - half);
}

/**
 * Quantiles of sorted values, as np.percentile's default linear method (sorted_quantiles) — but
 * the value itself at an exact position and an infinity beside a number, where numpy's gives NaN;
 * NaN only between −∞ and ∞ (DuckDB's quantile_cont).
 */
export function sortedQuantiles(sorted: ArrayLike<number>, qs: readonly number[]): number[] {
  const last = sorted.length - 1;
  return qs.map((q) => {
    const position = q * last;
    const low = Math.floor(position);
    const a = sorted[low] ?? NaN;
    const b = sorted[Math.min(low + 1, last)] ?? NaN;
    const t = position - low;
    if (t === 0 || a === b) return a;
    const [infA, infB] = [Math.abs(a) === Infinity, Math.abs(b) === Infinity];
    if (infA || infB) return infA && infB ? NaN : infA ? a : b;
    return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
  });
}

/** Statistics of the finite values of a numeric column (the profile's NumberStats, plus their count). */
export interface NumberStats {
  n: number;
  min: number;
  max: number;
  mean: number;
  /** Sample standard deviation; null for a single value. */
  std: number | null;
  median: number;
  q1: number;
  q3: number;
  zeros: number;
  negatives: number;
  /** Values beyond 1.5 IQR from the quartiles. */
  outliers: number;
  /** pandas' adjusted Fisher-Pearson skew; null below three values or with no spread. */
  skew: number | null;
}

function moments(data: readonly number[], mean: number): { m2: number; m3: number } {
  const centred = data.map((v) => v - mean);
  const squared = centred.map((c) => c * c);
  return {
    m2: pairwiseSum(squared),
    m3: pairwiseSum(squared.map((s, i) => s * (centred[i] ?? 0))),
  };
}

function skewOf(n: number, m2: number, m3: number): number | null {
  if (!(n > 2 && m2 >= 1e-14 && m2 < Infinity)) return null;
  const skew = ((n * Math.sqrt(n - 1)) / (n - 2)) * ((Math.abs(m3) >= 1e-14 ? m3 : 0) / m2 ** 1.5);
  return Number.isFinite(skew) ? skew : null;
}

/**
 * number_stats of the finite values (NaN and infinity are left out, as
 * distribution_insights does); null when there are none or they overflow.
 */
export function numberStats(values: readonly number[]): NumberStats | null {
  const data = values.filter((v) => Number.isFinite(v));
  const n = data.length;
  if (n === 0) return null;
  const sorted = Float64Array.from(data).sort();
  const [q1 = NaN, median = NaN, q3 = NaN] = sortedQuantiles(sorted, [0.25, 0.5, 0.75]);
  const mean = pairwiseSum(data) / n;
  const iqr = q3 - q1;
  const { m2, m3 } = moments(data, mean);
  const std = n > 1 && Number.isFinite(m2) ? Math.sqrt(m2 / (n - 1)) : null;
  const [low, high] = [q1 - 1.5 * iqr, q3 + 1.5 * iqr];
  const stats: NumberStats = {
    n,
    min: sorted[0] ?? NaN,
    max: sorted[n - 1] ?? NaN,
    mean,
    std: std !== null && Number.isFinite(std) ? std : null,
    median,
    q1,
    q3,
    zeros: data.filter((v) => v === 0).length,
    negatives: data.filter((v) => v < 0).length,
    outliers: n - data.filter((v) => v >= low && v <= high).length,
    skew: skewOf(n, m2, m3),
  };
  const required = [stats.min, stats.max, stats.mean, stats.median, stats.q1, stats.q3];
  return required.every((v) => Number.isFinite(v)) ? stats : null;
}

/** The pairs where both values are finite numbers. */
function completePairs(x: readonly number[], y: readonly number[]): [number[], number[]] {
  const [a, b]: [number[], number[]] = [[], []];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [u, v] = [x[i] ?? NaN, y[i] ?? NaN];
    if (Number.isFinite(u) && Number.isFinite(v)) [a[a.length], b[b.length]] = [u, v];
  }
  return [a, b];
}

/** np.corrcoef(x, y)[0, 1], clipped to [-1, 1]: centred cross products scaled by 1/(n-1), then divided by each deviation. */
function corrcoef(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2) return NaN;
  const [mx, my] = [pairwiseSum(x) / n, pairwiseSum(y) / n];
  const dx = x.map((v) => v - mx);
  const dy = y.map((v) => v - my);
  const scale = 1 / (n - 1);
  const cxy = pairwiseSum(dx.map((v, i) => v * (dy[i] ?? 0))) * scale;
  const sx = Math.sqrt(pairwiseSum(dx.map((v) => v * v)) * scale);
  const sy = Math.sqrt(pairwiseSum(dy.map((v) => v * v)) * scale);
  const r = cxy / sx / sy;
  return Number.isNaN(r) ? NaN : Math.min(1, Math.max(-1, r));
}

/** Pearson r over the pairs where both values are finite; NaN below two pairs or when one side is constant. */
export function pearson(x: readonly number[], y: readonly number[]): number {
  const [a, b] = completePairs(x, y);
  return corrcoef(a, b);
}

/** Ranks 1..n, ties given their average rank (pandas rank(method="average")). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((i, j) => (values[i] ?? 0) - (values[j] ?? 0));
  const ranks = new Array<number>(values.length).fill(0);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1] ?? 0] === values[order[start] ?? 0])
      end++;
    let sum = 0;
    for (let k = start; k <= end; k++) sum += k + 1;
    for (let k = start; k <= end; k++) ranks[order[k] ?? 0] = sum / (end - start + 1);
    start = end + 1;
  }
  return ranks;
}

/** Spearman rho (Pearson r of average ranks) over the pairs where both values are finite. */
export function spearman(x: readonly number[], y: readonly number[]): number {
  const [a, b] = completePairs(x, y);
  return corrcoef(averageRanks(a), averageRanks(b));
}
