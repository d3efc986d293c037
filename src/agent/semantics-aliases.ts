/**
 * Categories that name the same groups: a code beside its name (country_code and country, item_id
 * and common_name), one value of each for every value of the other. Charted by each, they draw the
 * same chart twice under two labels; the rows only can tell (TableFacts.aliases), and the most
 * readable of them (words over codes: a name over its code) is the one charted.
 */
import type { DataProfile } from './profile.js';
import type { Semantics, TableFacts } from './semantics-types.js';

/** At most this many pairs are measured (each a pass over the rows). */
const ALIAS_PAIRS = 12;

/**
 * The pairs of category columns that may be aliases, in column order: as many distinct values as
 * each other (2 or more) and the same number missing; or, second in the pair, a code that only
 * some of the first column's groups have (Our World in Data's `Code`, empty for its regions):
 * fewer values, some missing, where the first has none missing.
 */
export function aliasCandidates(profile: DataProfile): [string, string][] {
  const categories = profile.column_profiles.filter(
    (c) => c.semantic === 'category' && c.distinct >= 2,
  );
  const partial = (a: (typeof categories)[number], b: (typeof categories)[number]): boolean =>
    a.missing === 0 && b.missing > 0 && b.distinct < a.distinct;
  return categories
    .flatMap((a, i) =>
      categories.slice(i + 1).flatMap((b): [string, string][] => {
        if (b.distinct === a.distinct && b.missing === a.missing) return [[a.name, b.name]];
        if (partial(a, b)) return [[a.name, b.name]];
        return partial(b, a) ? [[b.name, a.name]] : [];
      }),
    )
    .slice(0, ALIAS_PAIRS);
}

/**
 * How much a column's most frequent values read as words: letters count for, digits against
 * (58fa3f0be4b0b7ea… is long but a code), and each space between words more ("American
 * Bullfrog" over "aAMBUx", "United States" over "USA").
 */
function readability(profile: DataProfile, name: string): number {
  const top = profile.column_profiles.find((c) => c.name === name)?.top ?? [];
  const score = (text: string): number =>
    (text.match(/\p{L}/gu)?.length ?? 0) -
    (text.match(/\p{N}/gu)?.length ?? 0) +
    4 * (text.trim().match(/\s+/g)?.length ?? 0);
  return top.length ? top.reduce((sum, t) => sum + score(t.value), 0) / top.length : 0;
}

/** Each alias (measured one to one) and the column it is charted as: the most readable of its group. */
export function aliasesOf(
  facts: TableFacts,
  profile: DataProfile,
): NonNullable<Semantics['aliases']> {
  const order = new Map(profile.column_profiles.map((c, i) => [c.name, i]));
  const group = new Map<string, Set<string>>();
  for (const [a, b] of facts.aliases ?? []) {
    const joined = new Set([...(group.get(a) ?? [a]), ...(group.get(b) ?? [b])]);
    for (const name of joined) group.set(name, joined);
  }
  const out: NonNullable<Semantics['aliases']> = [];
  for (const members of new Set(group.values())) {
    const [as] = [...members].sort(
      (x, y) =>
        readability(profile, y) - readability(profile, x) ||
        (order.get(x) ?? 0) - (order.get(y) ?? 0),
    );
    if (as === undefined) continue;
    for (const column of members) if (column !== as) out.push({ column, as });
  }
  return out.sort((x, y) => (order.get(x.column) ?? 0) - (order.get(y.column) ?? 0));
}
