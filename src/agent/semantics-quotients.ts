/**
 * Quotient columns: a column that is one number column divided by another on every row, as an ad
 * report's CTR is Clicks ÷ Impressions × 100 and its Avg. CPC is Cost ÷ Clicks. A group's (or a
 * period's) value of such a column is the quotient of its totals — the CTR of all a campaign's
 * impressions — not the mean of its rows' quotients, which weighs a day of 50 impressions as much
 * as a day of 200,000. Found from the values alone, never from the names: both engines measure
 * the candidates (profile-facts.ts, pandas-facts.ts) and this module reads their facts.
 */
import type { ColumnProfile, DataProfile } from './profile.js';
import { integral, isNumberColumn, statsOf } from './semantics-evidence.js';
import type { ColumnRole, TableFacts } from './semantics-types.js';

/** At most this many columns are tried as quotients, and the same ones as their parts. */
export const QUOTIENT_MEASURES = 8;
/** The scales a quotient is written in: a ratio, a percentage, a rate per thousand (CPM). */
export const QUOTIENT_SCALES = [1, 100, 1000] as const;
/** The first rows a candidate is screened on before every row is checked. */
export const QUOTIENT_SCREEN = 2000;
/** Past this factor between a quotient's mean and the quotient of the parts' means, no candidate. */
const MEANS_APART = 20;

/** A candidate: the quotient's column, the numerator, the denominator and the scale. */
export type QuotientCandidate = [string, string, string, number];

/** A quotient column found: column = numerator ÷ denominator × scale on (nearly) every row. */
export interface Quotient {
  column: string;
  numerator: string;
  denominator: string;
  scale: number;
}

/** Number columns, none negative, with more than two values: the first QUOTIENT_MEASURES. */
function quotientMeasures(profile: DataProfile): ColumnProfile[] {
  return profile.column_profiles
    .filter((c) => isNumberColumn(c) && (statsOf(c)?.min ?? -1) >= 0 && c.distinct > 2)
    .slice(0, QUOTIENT_MEASURES);
}

/**
 * The candidates both engines check, in one order: a quotient with ten or more values and two
 * parts (any of them may be numbers stored as text, "8.42%", "1,234.56"), and a scale at which the parts'
 * means give about the quotient's mean. A mean of quotients is no quotient of means, but the two
 * are rarely 20 times apart; most triples of a table's columns are (impressions per click, cost
 * per impression), and are not measured.
 */
export function quotientCandidates(profile: DataProfile): QuotientCandidate[] {
  const measures = quotientMeasures(profile);
  const mean = (c: ColumnProfile): number => statsOf(c)?.mean ?? 0;
  const out: QuotientCandidate[] = [];
  for (const q of measures.filter((c) => c.distinct >= 10 && mean(c) > 0))
    for (const n of measures.filter((c) => c !== q && mean(c) > 0))
      for (const d of measures.filter((c) => c !== q && c !== n && mean(c) > 0))
        for (const scale of QUOTIENT_SCALES) {
          const apart = mean(q) / ((scale * mean(n)) / mean(d));
          if (apart <= MEANS_APART && apart >= 1 / MEANS_APART)
            out.push([q.name, n.name, d.name, scale]);
        }
  return out;
}

/**
 * The quotients the facts confirm, one per column (the first candidate that holds). A quotient
 * whose values span less than 20 units of its last written decimal is no evidence: rounding alone
 * would let nearly anything match it.
 */
export function quotientsOf(facts: TableFacts, profile: DataProfile): Quotient[] {
  const found: Quotient[] = [];
  for (const f of facts.quotients ?? []) {
    if (found.some((q) => q.column === f.column)) continue;
    const c = profile.column_profiles.find((x) => x.name === f.column);
    const s = c && statsOf(c);
    const unit = f.decimals === null ? 0 : 10 ** -f.decimals;
    if (!s || s.max - s.min < 20 * unit) continue;
    found.push({
      column: f.column,
      numerator: f.numerator,
      denominator: f.denominator,
      scale: f.scale,
    });
  }
  return found.filter((q) => !found.some((other) => loses(q, other, profile)));
}

/**
 * Of two quotients that are each other's part (unit_price = revenue ÷ units, and so units =
 * revenue ÷ unit_price), the quotient is the one with fractions; of two alike, the later column
 * (exports write a ratio after its parts: Impr., Clicks, CTR).
 */
function loses(q: Quotient, other: Quotient, profile: DataProfile): boolean {
  const parts = (x: Quotient) => [x.numerator, x.denominator];
  if (!parts(other).includes(q.column) || !parts(q).includes(other.column)) return false;
  const at = (name: string) => profile.column_profiles.findIndex((c) => c.name === name);
  const whole = (name: string) => {
    const c = profile.column_profiles[at(name)];
    return c !== undefined && integral(c);
  };
  if (whole(q.column) !== whole(other.column)) return whole(q.column);
  return at(q.column) < at(other.column);
}

/**
 * A quotient's role: one named as an amount or a count (a `Revenue` that is price ÷ units × …)
 * is a level all the same — summed, it adds up values per unit.
 */
export function quotientRoles(columns: ColumnRole[], quotients: readonly Quotient[]): ColumnRole[] {
  return columns.map((c) => {
    const q = quotients.find((x) => x.column === c.name);
    return q && (c.role === 'amount' || c.role === 'count' || c.role === 'stock')
      ? { ...c, role: 'level', evidence: quotientEvidence(q), settled: true }
      : c;
  });
}

/** "Clicks ÷ Impr. × 100": how a quotient is computed, in words. */
export function quotientFormula(q: Omit<Quotient, 'column'>): string {
  return `${q.numerator} ÷ ${q.denominator}${q.scale === 1 ? '' : ` × ${q.scale}`}`;
}

/** The evidence a profile and a report give for a quotient. */
export function quotientEvidence(q: Quotient): string {
  return `${q.column} = ${quotientFormula(q)} on every row: a group's ${q.column} is computed from its totals, never a mean of its rows' values, nor summed`;
}

/** The most decimals a quotient's written precision is read to; past them, rounding is ignored. */
export const QUOTIENT_DECIMALS = 6;

/** The fewest decimals (0 to 6) that write every value; null when none do (opsmind_semantic._decimals). */
export function decimalsOf(values: readonly (number | null)[]): number | null {
  const present = values.filter((v): v is number => v !== null && !Number.isNaN(v));
  for (let d = 0; d <= QUOTIENT_DECIMALS; d++) {
    const scale = 10 ** d;
    if (
      present.every(
        (v) =>
          Math.abs(v * scale - Math.round(v * scale)) <= 1e-9 * Math.max(1, Math.abs(v * scale)),
      )
    )
      return d;
  }
  return null;
}

/**
 * Whether q = scale × n ÷ d within half a unit of q's last decimal, plus 0.1% of the quotient
 * (parts rounded before it was computed): profile-quotients.ts and opsmind_semantic write the same
 * arithmetic.
 */
export function quotientHolds(
  q: number,
  n: number,
  d: number,
  scale: number,
  decimals: number | null,
): boolean {
  const exact = (scale * n) / d;
  const half = decimals === null ? 0 : 0.5 * 10 ** -decimals;
  return Math.abs(q - exact) <= half + 1e-9 + 0.001 * Math.abs(exact);
}

/**
 * The candidates that hold on 90% of the first rows (QUOTIENT_SCREEN of them; `values`: each
 * column's values there, null where missing), with the decimals each quotient is written with.
 */
export function screenQuotients(
  candidates: readonly QuotientCandidate[],
  values: ReadonlyMap<string, readonly (number | null)[]>,
): { kept: QuotientCandidate[]; decimals: Map<string, number | null> } {
  const decimals = new Map<string, number | null>();
  for (const [q] of candidates)
    if (!decimals.has(q)) decimals.set(q, decimalsOf(values.get(q) ?? []));
  const kept = candidates.filter(([q, n, d, scale]) => {
    const [Q, N, D] = [values.get(q) ?? [], values.get(n) ?? [], values.get(d) ?? []];
    let [rows, hits] = [0, 0];
    for (let i = 0; i < Q.length; i++) {
      const [x, y, z] = [Q[i], N[i], D[i]];
      if (
        x === null ||
        y === null ||
        z === null ||
        x === undefined ||
        y === undefined ||
        z === undefined ||
        z === 0 ||
        Number.isNaN(x) ||
        Number.isNaN(y) ||
        Number.isNaN(z)
      )
        continue;
      rows += 1;
      if (quotientHolds(x, y, z, scale, decimals.get(q) ?? null)) hits += 1;
    }
    return rows > 0 && hits >= 0.9 * rows;
  });
  return { kept, decimals };
}
