/**
 * What the data is, before anything is planned: what one row is (the table's grain), which column
 * is time and which names the entity, and a role for every column — decided from evidence in the
 * profile and, when the engine can look (DuckDB), from a few facts measured over all rows
 * (`TableFacts`). A column's name only breaks ties. The aggregation of every chart follows the
 * role (`aggregationFor`), and `semanticProblems` turns a plan that breaks the rules into errors
 * a model can act on.
 */
import type { ColumnProfile, DataProfile } from './profile.js';
import { aliasesOf } from './semantics-aliases.js';
import { derivedColumns, groupEffects } from './semantics-derived.js';
import { isNumberColumn } from './semantics-evidence.js';
import { quotientRoles, quotientsOf } from './semantics-quotients.js';
import { balanceProblem, balanceRoles, balancesOf } from './semantics-balances.js';
import { decideGrain, keyLabel, timeColumn } from './semantics-grain.js';
import { numberRole, otherRole, perUnitLevels, skipReason } from './semantics-roles.js';
import { rowReferences } from './semantics-references.js';
import { facetOf, quantityOf, withoutFacet } from './semantics-facets.js';
import type { Facet, Quantity } from './semantics-facets.js';
import { groupsText, subtotalGroups, tableAggregates } from './semantics-aggregates.js';
import { tableTotals } from './semantics-totals.js';
import { currencyOf } from './semantics-currency.js';
import type { ColumnRole, Role, Semantics, TableFacts } from './semantics-types.js';

export * from './semantics-types.js';
export { aliasCandidates } from './semantics-aliases.js';
export { candidateKeys, keyLabel } from './semantics-grain.js';
export { LOOSE_SHARE, splitCandidates, TOTAL_LABEL } from './semantics-totals.js';
export {
  attributeEntities,
  binCategories,
  headerEntities,
  headerMeasures,
  headerWithin,
  DERIVED_MEASURES,
  derivedMeasures,
  REPEATED_GROUPS,
  disjointRanges,
  groupCategory,
  measurePairs,
  qualityFlags,
  sumTriples,
  withinCandidates,
} from './semantics-derived.js';

/** pandas offset aliases for the data's own spacing. */
const FREQ_ALIAS: Record<string, string> = {
  min: 'min',
  H: 'h',
  D: 'D',
  W: 'W',
  M: 'MS',
  Q: 'QS',
  Y: 'YS',
};

/** The table's grain, each column's role and what is not charted, from the profile and the facts. */
export function describeData(profile: DataProfile, facts: TableFacts = {}): Semantics {
  const time = timeColumn(profile);
  const timeName = time?.column.name ?? null;
  const keyed = decideGrain(profile, time, facts);
  const facet = facetOf(profile, keyed, facts, timeName);
  const grained = facet ? withoutFacet(keyed, facet, profile) : keyed;
  const quantity = facet ? null : quantityOf(profile, grained.keys, timeName);
  const judged = profile.column_profiles.map((c): ColumnRole => {
    const decided =
      c.name === timeName && time?.kind === 'date'
        ? { role: 'date' as const, evidence: time.evidence, settled: true }
        : isNumberColumn(c) && !grained.keys.includes(c.name)
          ? numberRole(c, grained.grain, facts, timeName, profile.rows)
          : grained.keys.includes(c.name)
            ? grained.grain === 'cross_section'
              ? {
                  role: 'identifier' as const,
                  evidence: `unique on every row: names each entity`,
                  settled: true,
                }
              : {
                  role: 'category' as const,
                  evidence: `names the entity: ${c.distinct} distinct values`,
                  settled: true,
                }
            : otherRole(c);
    return { name: c.name, ...decided };
  });
  const attributed = rowReferences(
    judged.map((c) => facetRole(c, facet) ?? perEntity(c, facts)),
    profile,
  );
  const [quotients, balances] = [quotientsOf(facts, profile), balancesOf(facts)];
  const levels =
    grained.grain === 'cross_section'
      ? perUnitLevels(attributed, profile.correlations)
      : attributed;
  const columns = balanceRoles(quotientRoles(levels, quotients), balances);
  const aliases = aliasesOf(facts, profile);
  const office = tableAggregates(facts.names);
  const groups = [
    ...office,
    ...subtotalGroups(facts.names).filter((g) => !office.some((o) => o.column === g.column)),
  ];
  const skipped = profile.column_profiles.flatMap((c, i) => {
    const alias = aliases.find((a) => a.column === c.name);
    const reason =
      skipReason(columns[i] as ColumnRole, c, grained) ??
      (alias
        ? `the same groups as ${alias.as} (one value of each for every value of the other): charted as ${alias.as}`
        : null);
    return reason ? [{ column: c.name, reason }] : [];
  });
  const currency = currencyOf(profile, columns, facts);
  const freq =
    time?.kind === 'year' ? 'YS' : (FREQ_ALIAS[time?.column.datetime?.frequency ?? ''] ?? 'none');
  return {
    table: {
      grain: grained.grain,
      entity: grained.keys[0] ?? null,
      keys: grained.keys,
      time: time ? { column: time.column.name, freq, kind: time.kind } : null,
      evidence: [...grained.evidence, ...quantityEvidence(quantity), ...aggregateEvidence(groups)],
    },
    columns,
    skipped,
    ...(facts.repeated?.length ? { repeated: facts.repeated } : {}),
    totals: facts.totals?.length ? facts.totals : tableTotals(facts.splits ?? []),
    // The naming column is not "made of ranges" of the measure: it says what the measure is.
    // Nor is a panel's entity (one row per entity and period): accounts on scales of their own
    // (rent beside payroll, month by month) are no bins of the amounts.
    derived: derivedColumns(facts, profile).filter(
      (d) =>
        !(facet && d.column === facet.column && d.from.includes(facet.measure)) &&
        !(d.how === 'bins' && grained.grain === 'panel' && grained.keys.includes(d.column)),
    ),
    ...(quotients.length ? { quotients } : {}),
    ...(balances.length ? { balances } : {}),
    ...(facet ? { facets: [facet] } : {}),
    ...(quantity ? { quantity } : {}),
    ...(currency ? { currency } : {}),
    ...(aliases.length ? { aliases } : {}),
    ...(groups.length ? { aggregates: groups } : {}),
    ...valuesOf(facts.names),
    ...latestOf(grained, facts, profile, time?.column ?? null),
    groupEffects: groupEffects(facts),
  };
}

/** At most this many values of a column are kept for the questions that name them. */
const QUESTION_VALUES = 300;

/** The columns' values a question may name (Semantics.values): those of few enough values. */
function valuesOf(names: TableFacts['names']): Pick<Semantics, 'values'> {
  // Sorted: each engine lists them in an order of its own.
  const kept = Object.entries(names ?? {})
    .filter(([, v]) => v.length <= QUESTION_VALUES)
    .map(([column, v]) => [column, [...v].sort()] as const);
  return kept.length ? { values: Object.fromEntries(kept) } : {};
}

/**
 * A yearly (or dated) panel's reported years (periods; TableFacts.reported), where entity × year
 * is unique on every row: in one year, each entity's value is one row, not a mean.
 */
function latestOf(
  grained: { grain: string; keys: string[] },
  facts: TableFacts,
  profile: DataProfile,
  year: ColumnProfile | null,
): Pick<Semantics, 'latest'> {
  const [entity, ...more] = grained.keys;
  if (grained.grain !== 'panel' || !entity || more.length || !year || !facts.reported) return {};
  if (Object.keys(facts.reported).length === 0) return {};
  const unique = facts.keyDistinct?.[keyLabel([entity])] === profile.rows - year.missing;
  return unique ? { latest: { column: year.name, entity, years: facts.reported } } : {};
}

/** What says which values are groups of the others (semantics-aggregates.ts). */
function aggregateEvidence(groups: NonNullable<Semantics['aggregates']>): string[] {
  return groups.map(
    ({ column, values }) =>
      `${column} lists ${values.length} ${values.length === 1 ? 'group' : 'groups'} of its other values (${groupsText(values)}): left out of every chart, which compares the others`,
  );
}

/** What says which quantity the table's one measure holds (semantics-facets' quantityOf). */
function quantityEvidence(quantity: Quantity | null): string[] {
  if (!quantity) return [];
  const { column, value, measure } = quantity;
  return [`${column} is ${JSON.stringify(value)} on every row: ${measure} holds ${value}`];
}

/** A long table's measure: a level, unsettled (each indicator is averaged, the safe statistic). */
function facetRole(c: ColumnRole, facet: Facet | null): ColumnRole | null {
  if (!facet || c.name !== facet.measure) return null;
  return {
    name: c.name,
    role: 'level',
    evidence: `holds a different quantity per ${facet.column}: averaged, the safe statistic (whether one adds up is not known from a column holding all of them)`,
    settled: false,
  };
}

/**
 * A measure summed per row (an amount or a count) that holds one value per entity, repeated on
 * each of its rows, is that entity's level: a sum over rows would count each value once per row.
 */
function perEntity(c: ColumnRole, facts: TableFacts): ColumnRole {
  const found = facts.repeated?.find((r) => r.measure === c.name && !r.once);
  if (!found || (c.role !== 'amount' && c.role !== 'count')) return c;
  const times = Number(found.rows.toPrecision(2));
  return {
    name: c.name,
    role: 'level',
    evidence: `one value per ${found.entity}, repeated on each of its rows (${times} on average): summed over rows it would count each ${found.entity}'s value ${times} times, so it is averaged`,
    settled: true,
  };
}

/**
 * Why grouping `measure` by `by` compares nothing, or null: the measure holds one value per
 * entity, repeated on its rows, and `by` varies within an entity, so every `by` value would hold
 * the same entities (a state's total by income bracket); or it is written once per entity, on its
 * first row (an order's total above its line items), and `by` would give it to that row's value
 * alone (a product's share of the orders' totals).
 */
export function repeatedProblem(
  sem: Semantics,
  measure: string | null | undefined,
  by: string | null | undefined,
): string | null {
  const balance = balanceProblem(sem, measure, by);
  if (balance) return balance;
  const entries = sem.repeated?.filter((r) => r.measure === measure) ?? [];
  const found = entries[0];
  if (!found || !by || entries.some((r) => by === r.entity || r.within.includes(by))) return null;
  const groupings = [found.entity, ...found.within].map((c) => `"${c}"`).join(' or ');
  if (found.once)
    return `"${measure ?? ''}" is one value per ${found.entity}, on the first of its rows (the others blank), and "${by}" varies within each ${found.entity}: each ${found.entity}'s value would go to its first row's ${by} alone; group it by ${groupings}`;
  return `"${measure ?? ''}" is one value per ${found.entity}, repeated on each of its rows, and "${by}" varies within each ${found.entity}: every ${by} would hold the same ${found.entity}s; group it by ${groupings}`;
}

/** Semantics described from a profile alone, once per profile object (checkPlan asks per column). */
const described = new WeakMap<DataProfile, Semantics>();

/** The semantics of a profile: the engine's, else described from the profile alone. */
export function semanticsOf(profile: DataProfile): Semantics {
  if (profile.semantics) return profile.semantics;
  let semantics = described.get(profile);
  if (!semantics) described.set(profile, (semantics = describeData(profile)));
  return semantics;
}

/** The role of a column, if the profile has it. */
export function roleOf(
  semantics: Semantics,
  name: string | null | undefined,
): ColumnRole | undefined {
  return name ? semantics.columns.find((c) => c.name === name) : undefined;
}

const ADDITIVE: ReadonlySet<Role> = new Set(['amount', 'count']);

/**
 * How a measure is aggregated per group or period: sum for amounts and counts (and stocks within
 * one period), mean for levels, ratios and stocks over time, max (the last value of a running
 * total) for cumulative columns; count when there is no measure.
 */
export function aggregationFor(
  role: ColumnRole | undefined,
  spansTime: boolean,
): 'sum' | 'mean' | 'max' | 'count' {
  if (!role) return 'count';
  if (ADDITIVE.has(role.role)) return 'sum';
  if (role.role === 'stock') return spansTime ? 'mean' : 'sum';
  if (role.role === 'cumulative') return 'max';
  return 'mean';
}

/**
 * Why no aggregate of a compass bearing but a count of its rows is right: the mean of 350° and
 * 10° is 180°, and its median, minimum and maximum depend on where the circle is cut.
 */
export function directionProblem(role: ColumnRole): string {
  return `"${role.name}" is a compass bearing (${role.evidence}); a sum, mean, median, minimum or maximum of it is wrong (the mean of 350° and 10° is 180°): chart its distribution as a histogram, whose findings give its circular mean, or count rows by it`;
}

/** Whether summing this role is wrong (and why, for the model). */
export function sumProblem(role: ColumnRole, spansTime: boolean): string | null {
  switch (role.role) {
    case 'level':
    case 'ratio':
      return `"${role.name}" is a ${role.role} (${role.evidence}); use mean or median, not sum`;
    case 'cumulative':
      return `"${role.name}" is a running total (${role.evidence}); use max (its last value), not sum`;
    case 'stock':
      return spansTime
        ? `"${role.name}" is a stock (${role.evidence}); summing it across periods counts the same things again: use mean, or a resample at the data's own frequency`
        : null;
    case 'year':
    case 'code':
    case 'identifier':
    case 'latitude':
    case 'longitude':
      return `"${role.name}" is a ${role.role} (${role.evidence}); it is not a quantity to sum`;
    case 'direction':
      return directionProblem(role);
    case 'amount':
    case 'count':
    case 'category':
    case 'date':
    case 'empty':
    case 'text':
      return null;
  }
}
