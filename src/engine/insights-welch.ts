/**
 * Whether the gap between the highest and the lowest group of a ranking is one that chance alone
 * gives: Welch's t-test of two groups' means (from their counts, means and variances), Fisher's
 * exact test of two rates of few rows. The same arithmetic as _welch and fisher_two_sided in
 * preamble/opsmind_insights.py (both are checked against scipy).
 */

/** A group's values, summarised: how many, their mean and their sample variance (ddof 1). */
export interface Spread {
  n: number;
  mean: number;
  variance: number;
}

/** Γ(1/2) = √π, as a logarithm. */
const LOG_GAMMA_HALF = 0.5 * Math.log(Math.PI);

/** ln Γ(z), z > 0 (Lanczos, g = 7, 9 terms: about 15 digits). */
function logGamma(z: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const x = z - 1;
  let a = c[0] ?? 1;
  for (let i = 1; i < c.length; i++) a += (c[i] ?? 0) / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The tail of Stirling's series for ln Γ(z) past its leading terms (z ≥ 20: error below 1e-16). */
const stirlingTail = (z: number): number =>
  1 / (12 * z) - 1 / (360 * z ** 3) + 1 / (1260 * z ** 5) - 1 / (1680 * z ** 7);

/**
 * ln B(a, 1/2). For large a, ln Γ(a + 1/2) − ln Γ(a) is taken from Stirling's series as one
 * difference: two logarithms of Γ near 6 million (a t-test over a million rows) subtracted would
 * keep only 9 digits.
 */
function logBetaHalf(a: number): number {
  if (a < 20) return logGamma(a) + LOG_GAMMA_HALF - logGamma(a + 0.5);
  const rise = 0.5 * Math.log(a) + a * Math.log1p(0.5 / a) - 0.5 + stirlingTail(a + 0.5);
  return LOG_GAMMA_HALF - (rise - stirlingTail(a));
}

/** The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 100_000; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / (Math.abs(1 + even * d) < tiny ? tiny : 1 + even * d);
    c = Math.abs(1 + even / c) < tiny ? tiny : 1 + even / c;
    h *= d * c;
    const odd = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / (Math.abs(1 + odd * d) < tiny ? tiny : 1 + odd * d);
    c = Math.abs(1 + odd / c) < tiny ? tiny : 1 + odd / c;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return h;
}

/**
 * The two-sided p-value of Student's t with `df` degrees of freedom: I_x(df/2, 1/2) at
 * x = df / (df + t²), the regularized incomplete beta function.
 */
export function studentTwoSided(t: number, df: number): number {
  if (!Number.isFinite(t) || !(df > 0)) return Number.NaN;
  if (t === 0) return 1;
  const [a, b] = [df / 2, 0.5];
  const x = df / (df + t * t);
  // ln x and ln(1 − x) without the cancellation of 1 − x near 1 (a small t over many rows).
  const logX = -Math.log1p((t * t) / df);
  const log1mX = Math.log((t * t) / (df + t * t));
  const front = Math.exp(a * logX + b * log1mX - logBetaHalf(a));
  if (x < (a + 1) / (a + b + 2)) return Math.min(1, (front * betaFraction(a, b, x)) / a);
  return Math.max(0, 1 - (front * betaFraction(b, a, (t * t) / (df + t * t))) / b);
}

/** ln B(a, b). */
const logBeta = (a: number, b: number): number => logGamma(a) + logGamma(b) - logGamma(a + b);

/** I_x(a, b), the regularized incomplete beta function (0 < x < 1; `y` = 1 − x, given exactly). */
function incompleteBeta(a: number, b: number, x: number, y: number): number {
  const front = Math.exp(a * Math.log(x) + b * Math.log(y) - logBeta(a, b));
  if (x < (a + 1) / (a + b + 2)) return Math.min(1, (front * betaFraction(a, b, x)) / a);
  return Math.max(0, 1 - (front * betaFraction(b, a, y)) / b);
}

/** P(F > f) for Fisher's F with `d1` and `d2` degrees of freedom. */
export function fSurvival(f: number, d1: number, d2: number): number {
  if (!(f >= 0) || !(d1 > 0) || !(d2 > 0)) return Number.NaN;
  if (f === 0) return 1;
  if (!Number.isFinite(f)) return 0;
  return incompleteBeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * f), (d1 * f) / (d2 + d1 * f));
}

/**
 * Welch's one-way ANOVA of k ≥ 3 groups (their means compared without assuming equal variances):
 * F, its degrees of freedom and p; null when undefined (a group of one value, or of no spread).
 * The same arithmetic as _welch_anova in preamble/opsmind_insights.py (checked against scipy).
 */
export function welchAnova(
  groups: readonly Spread[],
): { f: number; df1: number; df2: number; p: number } | null {
  const k = groups.length;
  if (k < 3 || groups.some((g) => g.n < 2 || !(g.variance > 0) || !Number.isFinite(g.variance)))
    return null;
  const w = groups.map((g) => g.n / g.variance);
  const total = w.reduce((a, b) => a + b, 0);
  const mean = groups.reduce((a, g, i) => a + (w[i] ?? 0) * g.mean, 0) / total;
  const between = groups.reduce((a, g, i) => a + (w[i] ?? 0) * (g.mean - mean) ** 2, 0) / (k - 1);
  const lambda = groups.reduce((a, g, i) => a + (1 - (w[i] ?? 0) / total) ** 2 / (g.n - 1), 0);
  const f = between / (1 + ((2 * (k - 2)) / (k * k - 1)) * lambda);
  const df2 = (k * k - 1) / (3 * lambda);
  const p = fSurvival(f, k - 1, df2);
  return Number.isFinite(p) ? { f, df1: k - 1, df2, p } : null;
}

/** Welch's t-test of two groups: t, its degrees of freedom and the two-sided p; null when undefined. */
export function welch(one: Spread, two: Spread): { t: number; df: number; p: number } | null {
  if (one.n < 2 || two.n < 2) return null;
  const [u, v] = [one.variance / one.n, two.variance / two.n];
  if (!Number.isFinite(u + v) || u + v <= 0) return null;
  const t = (one.mean - two.mean) / Math.sqrt(u + v);
  const df = (u + v) ** 2 / (u ** 2 / (one.n - 1) + v ** 2 / (two.n - 1));
  const p = studentTwoSided(t, df);
  return Number.isFinite(p) ? { t, df, p } : null;
}

/**
 * Whether a rate's group (its values 0 or 100) has at least 10 rows of each outcome, as the
 * t-test's normal approximation of a proportion needs: 4 of 5 rows is no case for it.
 */
function counted(group: Spread): boolean {
  const hits = Math.round((group.n * group.mean) / 100);
  return Math.min(hits, group.n - hits) >= 10;
}

/** ln C(n, k). */
const logChoose = (n: number, k: number): number =>
  logGamma(n + 1) - logGamma(k + 1) - logGamma(n - k + 1);

/** Past this many tables, Fisher's test is not summed (a rate's groups are then counted anyway). */
const FISHER_TABLES = 1_000_000;

/**
 * The two-sided p of Fisher's exact test of two groups' rates: `hits` of `n` rows each. The sum
 * of the probabilities of every table with the same margins no likelier than the one observed
 * (scipy's fisher_exact, with its relative tolerance of 1e-7); null past FISHER_TABLES tables.
 */
export function fisherTwoSided(one: { hits: number; n: number }, two: { hits: number; n: number }) {
  const [n1, total] = [one.n, one.n + two.n];
  const hits = one.hits + two.hits;
  const [low, high] = [Math.max(0, n1 - (total - hits)), Math.min(hits, n1)];
  if (high - low + 1 > FISHER_TABLES) return null;
  const base = logChoose(total, n1);
  const logP = (k: number): number => logChoose(hits, k) + logChoose(total - hits, n1 - k) - base;
  const observed = logP(one.hits) + Math.log1p(1e-7);
  let p = 0;
  for (let k = low; k <= high; k++) {
    const lp = logP(k);
    if (lp <= observed) p += Math.exp(lp);
  }
  return Math.min(1, p);
}

/** A rate's group as a count: its hits (values at 100) of its rows. */
const countOf = (group: Spread): { hits: number; n: number } => ({
  hits: Math.round((group.n * group.mean) / 100),
  n: group.n,
});

/**
 * How many pairs of groups the highest and the lowest of `groups` were picked from: the number of
 * tests the picked pair stands for, by which Bonferroni's correction multiplies its p.
 */
export function pairsOf(groups: number): number {
  return groups > 2 ? (groups * (groups - 1)) / 2 : 1;
}

/**
 * A ranking's test of the gap between its highest and lowest group, when chance alone could give
 * it (p ≥ 0.05), else null (a real gap, or no test: a group unknown or of one value). Means by
 * Welch's t-test; a rate's groups too when each has 10 rows of each outcome, else by Fisher's
 * exact test (4 of 5 rows is no case for a t-test). The two were picked as the extremes of
 * `groups` groups, not named in advance: the extremes of many groups of one population are
 * further apart than two groups chosen blind, so p is multiplied by the number of pairs they
 * were picked from (Bonferroni's correction, `pairs`; at most 1), a bound that holds whatever
 * the groups' sizes and spreads.
 */
export function gapByChance(
  one: Spread | null | undefined,
  two: Spread | null | undefined,
  percent: boolean,
  groups = 2,
): { p: number; test: string; pairs: number } | null {
  if (!one || !two) return null;
  const pairs = pairsOf(groups);
  const corrected = (p: number): number => Math.min(1, p * pairs);
  if (percent && !(counted(one) && counted(two))) {
    const p = fisherTwoSided(countOf(one), countOf(two));
    return p !== null && corrected(p) >= 0.05
      ? { p: corrected(p), test: "Fisher's exact test", pairs }
      : null;
  }
  const test = welch(one, two);
  return test && corrected(test.p) >= 0.05
    ? { p: corrected(test.p), test: "Welch's t-test", pairs }
    : null;
}

/** One cell of a cycle within its block: a month of a year, and the mean of its values there. */
export interface Cell {
  block: string;
  key: string;
  value: number;
}

/** Two-way ANOVA of a cycle's groups within blocks: F, degrees of freedom, p, and the blocks used. */
export interface BlockedTest {
  f: number;
  df1: number;
  df2: number;
  p: number;
  blocks: number;
}

/** Σ by Shewchuk's exact partials, rounded once (Python's math.fsum), so both engines add alike. */
function fsum(values: readonly number[]): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let hi = 0;
  let lo = 0;
  let n = partials.length;
  if (n > 0) {
    hi = partials[--n] ?? 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n] ?? 0;
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    const next = partials[n - 1];
    if (n > 0 && next !== undefined && ((lo < 0 && next < 0) || (lo > 0 && next > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
  }
  return hi;
}

/**
 * Two-way ANOVA without replication of a cycle's groups within blocks (months within years): the
 * cells' means over the blocks that hold every group, so a level that moves from block to block
 * (a trend across the years) is no noise between the groups. F = (SS between groups / (k − 1)) /
 * (SS residual / ((k − 1)(b − 1))); null below 3 groups or 2 complete blocks, or with no residual
 * spread. As _blocked_anova in preamble/opsmind_insights.py.
 */
export function blockedAnova(cells: readonly Cell[]): BlockedTest | null {
  const finite = cells.filter((c) => Number.isFinite(c.value));
  const keys = [...new Set(finite.map((c) => c.key))];
  const byBlock = new Map<string, Map<string, number>>();
  for (const c of finite) {
    const row = byBlock.get(c.block) ?? new Map<string, number>();
    row.set(c.key, c.value);
    byBlock.set(c.block, row);
  }
  const k = keys.length;
  const x = [...byBlock.values()]
    .filter((row) => keys.every((key) => row.has(key)))
    .map((row) => keys.map((key) => row.get(key) ?? NaN));
  const b = x.length;
  if (k < 3 || b < 2) return null;
  const grand = fsum(x.flat()) / (b * k);
  const blockMeans = x.map((row) => fsum(row) / k);
  const keyMeans = keys.map((_, j) => fsum(x.map((row) => row[j] ?? NaN)) / b);
  const between = b * fsum(keyMeans.map((m) => (m - grand) ** 2));
  const residual = fsum(
    x.flatMap((row, i) =>
      row.map((v, j) => (v - (blockMeans[i] ?? NaN) - (keyMeans[j] ?? NaN) + grand) ** 2),
    ),
  );
  const [df1, df2] = [k - 1, (k - 1) * (b - 1)];
  if (!(residual > 0) || !Number.isFinite(between)) return null;
  const f = between / df1 / (residual / df2);
  const p = fSurvival(f, df1, df2);
  return Number.isFinite(p) ? { f, df1, df2, p, blocks: b } : null;
}
