/**
 * Columns computed from others (a total of two columns; a category made of ranges of a measure),
 * found from the facts both engines measure, and the quality flags an analyst raises first.
 */
import { groupEffect } from './group-effect.js';
import type { DataProfile } from './profile.js';
import { isNumberColumn, number, statsOf } from './semantics-evidence.js';
import { entityCandidates, timeColumn } from './semantics-grain.js';
import type { Semantics, TableFacts } from './semantics-types.js';

/** At most this many number columns are tried as totals and parts (pairs of them: 28). */
export const DERIVED_MEASURES = 8;

/** The number columns tried as totals of two others: numeric dtype, first in column order. */
export function derivedMeasures(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter((c) => c.semantic === 'numeric' && /^(u?int|float)/i.test(c.dtype) && c.distinct > 2)
    .slice(0, DERIVED_MEASURES)
    .map((c) => c.name);
}

/**
 * The (total, a, b) triples worth trying, in a fixed order both engines follow. Where all three
 * are nearly complete, total = a + b on every row implies mean(total) ≈ mean(a) + mean(b): the
 * triples whose means cannot add up are not tried (most of them, in most tables).
 */
export function sumTriples(
  measures: readonly string[],
  profile?: DataProfile,
): [string, string, string][] {
  const stats = (name: string) => {
    const c = profile?.column_profiles.find((x) => x.name === name);
    return c && c.missing_share < 0.05 ? statsOf(c) : null;
  };
  const possible = (total: string, a: string, b: string): boolean => {
    const [t, x, y] = [stats(total), stats(a), stats(b)];
    if (!t || !x || !y) return true;
    return Math.abs(t.mean - (x.mean + y.mean)) <= 0.05 * Math.max(Math.abs(t.mean), 1e-9);
  };
  const out: [string, string, string][] = [];
  for (const total of measures)
    for (let i = 0; i < measures.length; i += 1)
      for (let j = i + 1; j < measures.length; j += 1) {
        const [a, b] = [measures[i] ?? '', measures[j] ?? ''];
        if (a !== total && b !== total && possible(total, a, b)) out.push([total, a, b]);
      }
  return out;
}

/**
 * The columns whose measures may be one value per entity, repeated on its rows (a state's total
 * on each of its income brackets): the two finest non-number entity candidates, coarser first
 * (of two as fine, a name before an identifier).
 */
export function attributeEntities(profile: DataProfile): string[] {
  return entityCandidates(profile, timeColumn(profile)?.column.name ?? null)
    .filter((c) => !isNumberColumn(c))
    .sort((a, b) => b.distinct - a.distinct)
    .slice(0, 2)
    .sort(
      (a, b) =>
        a.distinct - b.distinct ||
        Number(a.semantic === 'identifier') - Number(b.semantic === 'identifier'),
    )
    .map((c) => c.name);
}

/** The categories checked for one value per entity beside a repeated measure (its `within`). */
export function withinCandidates(profile: DataProfile, entity: string): string[] {
  return [...new Set([...binCategories(profile), ...attributeEntities(profile)])].filter(
    (c) => c !== entity,
  );
}

/**
 * The columns that may key a header-and-lines layout — an order's fields on its first row, its
 * line items on the rows below with those fields blank, as Shopify exports orders: text keys on
 * nearly every row, repeated on some of them; the two finest. Keys need not repeat three times
 * each (attributeEntities): most orders have one or two lines.
 */
export function headerEntities(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter(
      (c) =>
        (c.semantic === 'category' ||
          c.semantic === 'identifier' ||
          (c.semantic === 'text' && (c.text?.mean_length ?? 99) < 40)) &&
        !isNumberColumn(c) &&
        c.missing_share < 0.05 &&
        c.distinct >= REPEATED_GROUPS &&
        c.distinct < profile.rows,
    )
    .sort((a, b) => b.distinct - a.distinct)
    .slice(0, 2)
    .map((c) => c.name);
}

/**
 * The measures that may be a header's fields of `entity` (derivedMeasures): blank on some rows,
 * and on no more rows than the entity has values (once per value at most) — so a measure of
 * nearly every row costs no scan.
 */
export function headerMeasures(profile: DataProfile, entity?: string): string[] {
  const values = entity
    ? (profile.column_profiles.find((c) => c.name === entity)?.distinct ?? 0)
    : profile.rows;
  return derivedMeasures(profile).filter((m) => {
    const c = profile.column_profiles.find((x) => x.name === m);
    return c !== undefined && c.missing > 0 && profile.rows - c.missing <= values;
  });
}

/** The categories checked for one value per entity beside a header's field: every small one, 12 at most. */
export function headerWithin(profile: DataProfile, entity: string): string[] {
  return profile.column_profiles
    .filter(
      (c) =>
        (c.semantic === 'category' || c.semantic === 'boolean') &&
        c.name !== entity &&
        c.distinct <= 1000,
    )
    .slice(0, 12)
    .map((c) => c.name);
}

/**
 * A measure is one value per entity when at least REPEATED_GROUPS of the entity's values hold two
 * or more of its values, and in every such group they are all equal.
 */
export const REPEATED_GROUPS = 3;

/** Categories tried as bins of a measure: 3 to 20 values. */
export function binCategories(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter((c) => c.semantic === 'category' && c.distinct >= 3 && c.distinct <= 20)
    .slice(0, 6)
    .map((c) => c.name);
}

/** The category scatters are coloured by, when its groups may hide a relation: the first small one (3–8 values). */
export function groupCategory(profile: DataProfile): string | null {
  const name = binCategories(profile).find(
    (n) => (profile.column_profiles.find((c) => c.name === n)?.distinct ?? 99) <= 8,
  );
  return name ?? null;
}

/** The pairs of measures (in the order both engines follow) whose group correlations are measured. */
export function measurePairs(measures: readonly string[]): [string, string][] {
  return measures.flatMap((a, i) => measures.slice(i + 1).map((b): [string, string] => [a, b]));
}

/**
 * Whether two of the ranges overlap (or touch). Ranges measured on some of the rows only widen on
 * all of them, so an overlap seen on a sample of rows holds for every row.
 */
export function rangesOverlap(ranges: readonly [number, number][]): boolean {
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  return sorted.some((r, i) => i > 0 && (sorted[i - 1]?.[1] ?? Infinity) >= r[0]);
}

/** Whether the categories' ranges of a measure never overlap: the category is computed from it. */
export function disjointRanges(ranges: readonly [number, number][]): boolean {
  // A value seen once spans a point: points never overlap, so they show nothing (one campaign
  // per row is not "made of ranges" of its visits). Most values must span a range.
  const spanned = ranges.filter(([lo, hi]) => lo < hi).length;
  return ranges.length >= 3 && spanned * 2 >= ranges.length && !rangesOverlap(ranges);
}

/** The pairs whose relation the groups hide, from the facts (group-effect.ts's rule). */
export function groupEffects(facts: TableFacts): NonNullable<Semantics['groupEffects']> {
  const gp = facts.groupPairs;
  if (!gp) return [];
  return gp.pairs.flatMap((p) => {
    const effect = groupEffect(
      p.overall ?? NaN,
      p.groups.map((g) => ({ n: g.n, r: g.r ?? NaN })),
    );
    return effect
      ? [
          {
            a: p.a,
            b: p.b,
            by: gp.by,
            kind: effect.kind,
            overall: effect.overall,
            lo: effect.lo,
            hi: effect.hi,
          },
        ]
      : [];
  });
}

export function derivedColumns(facts: TableFacts, profile: DataProfile): Semantics['derived'] {
  // Where parts are often 0, a = b + c and b = a + c both hold; the total has the largest mean.
  const size = (name: string): number => {
    const c = profile.column_profiles.find((x) => x.name === name);
    return (c && statsOf(c)?.mean) ?? -Infinity;
  };
  const triples = (facts.sums ?? []).filter((s) => s.parts.every((p) => size(p) <= size(s.total)));
  const sums = triples.map((s) => ({
    column: s.total,
    from: [...s.parts],
    how: 'sum' as const,
    evidence: `${s.total} = ${s.parts[0]} + ${s.parts[1]} on every complete row`,
  }));
  const bins = Object.entries(facts.ranges ?? {}).flatMap(([category, byMeasure]) =>
    Object.entries(byMeasure)
      .filter(([, ranges]) => disjointRanges(ranges))
      .map(([measure, ranges]) => ({
        column: category,
        from: [measure],
        how: 'bins' as const,
        evidence: `each of the ${ranges.length} ${category} values covers its own range of ${measure}, none overlapping`,
      })),
  );
  return [...sums, ...bins];
}

/**
 * What an analyst would flag before trusting a chart: dates after today, negative counts, and a
 * level whose zeros stand apart from its other values (a 0 that may mean "missing" or "never").
 */
/** Values data systems write for "missing" or "not applicable" in a number column. */
const LOW_PLACEHOLDERS: ReadonlySet<number> = new Set([-1, -9, -99, -999, -9999, -99999]);
const HIGH_PLACEHOLDERS: ReadonlySet<number> = new Set([99, 999, 9999, 99999, 999999, 9999999]);
const MEASURE_ROLES: ReadonlySet<string> = new Set(['amount', 'count', 'level', 'stock', 'ratio']);

/**
 * A placeholder at either end of a measure: -1 (or -9, -99…) below values that are otherwise 0 or
 * more; 99, 999, 9999… repeated at the top, three times the upper quartile or more.
 */
function placeholderFlag(
  c: DataProfile['column_profiles'][number],
  present: number,
): string | null {
  const s = statsOf(c);
  if (!s || present === 0) return null;
  const countOf = (v: number): number =>
    c.top.find((t) => Number(t.value) === v && t.value.trim() !== '')?.count ?? 0;
  const share = (n: number): string =>
    `${n.toLocaleString('en-US')} value${n === 1 ? '' : 's'} (${Math.max(1, Math.round((n / present) * 100))}%)`;
  if (LOW_PLACEHOLDERS.has(s.min) && s.q1 >= 0 && s.negatives >= 2) {
    const n = countOf(s.min) || s.negatives;
    return `"${c.name}" has ${share(n)} of ${number(s.min)} while its other values are 0 or more: most likely a placeholder for "missing" or "not applicable"; it pulls the mean down`;
  }
  // Repeated (among the most frequent values) or, when the top values do not say, ten times the
  // upper quartile: a real extreme is rarely a run of 9s.
  const top = countOf(s.max);
  const apart = s.q3 > 0 && (top >= 2 ? s.max >= 3 * s.q3 : s.max >= 10 * s.q3);
  if (HIGH_PLACEHOLDERS.has(s.max) && apart)
    return `"${c.name}" has ${top >= 2 ? share(top) : 'values'} of exactly ${number(s.max)}, far above its other values (upper quartile ${number(s.q3)}): most likely a placeholder for "missing"; it pulls the mean up`;
  return null;
}

export function qualityFlags(profile: DataProfile, sem: Semantics, now = new Date()): string[] {
  const flags: string[] = [];
  const today = now.toISOString().slice(0, 10);
  for (const c of profile.column_profiles) {
    const role = sem.columns.find((x) => x.name === c.name)?.role;
    const max = c.datetime?.max;
    if (max && max.slice(0, 10) > today)
      flags.push(
        `"${c.name}" has dates after today (up to ${max.slice(0, 10)}): planned dates or placeholders, not history`,
      );
    const s = statsOf(c);
    if (!s) continue;
    const present = profile.rows - c.missing;
    const placeholder = role && MEASURE_ROLES.has(role) ? placeholderFlag(c, present) : null;
    if (placeholder) {
      flags.push(placeholder);
      continue;
    }
    if (role === 'count' && s.negatives > 0)
      flags.push(
        `"${c.name}" counts things but has ${s.negatives.toLocaleString('en-US')} negative value${s.negatives === 1 ? '' : 's'}: impossible as a count`,
      );
    if (
      (role === 'level' || role === 'ratio') &&
      s.min === 0 &&
      s.q1 > 0 &&
      present > 0 &&
      s.zeros / present >= 0.02
    )
      flags.push(
        `${Math.round((s.zeros / present) * 100)}% of "${c.name}" are 0 while its other values start at ${number(s.q1)} (lower quartile): a 0 may mean missing or never, and it pulls the mean down`,
      );
  }
  return flags;
}
