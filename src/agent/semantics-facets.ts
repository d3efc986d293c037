/**
 * A long table (country, year, indicator, value): one column names what the measure holds —
 * population in some rows, life expectancy in others — so the measure's values cannot be pooled,
 * summed or compared across that column's values. Found from the rows: the naming column is part
 * of the table's key (one row per entity, period and indicator), the measure's values live
 * on scales of their own per indicator (disjoint ranges, or 20× apart), and they are different
 * kinds of number (whole for some values, fractional for others) or the column is called so
 * (indicator, variable, metric…). The plan then charts one indicator at a time.
 */
import type { DataProfile } from './profile.js';
import { disjointRanges } from './semantics-derived.js';
import type { Grained } from './semantics-grain.js';
import { isNumberColumn } from './semantics-evidence.js';
import type { Semantics, TableFacts } from './semantics-types.js';

/** At most this many values of the naming column are charted. */
export const FACET_VALUES = 3;
/** The naming column has at most this many values. */
const FACET_DISTINCT = 12;
/** Ranges that overlap still mean different quantities when their tops are this far apart. */
const SCALE_APART = 20;

export type Facet = NonNullable<Semantics['facets']>[number];

/** Names of a column that says what is measured (with the data's evidence, never alone). */
const NAMES_QUANTITY =
  /^(indicator|variable|measure|metric|series|item|element|statistic|kpi|parameter|quantity|concept|indicator[ _]?name|series[ _]?name)s?$/i;

/** Whether some values' ranges end on whole numbers and others' do not: different kinds of number. */
function mixedKinds(ranges: readonly [number, number][]): boolean {
  const whole = ranges.map(([lo, hi]) => Number.isInteger(lo) && Number.isInteger(hi));
  return whole.some(Boolean) && whole.some((w) => !w);
}

/** Whether per-value [min, max] ranges put the measure on scales of their own. */
function ownScales(ranges: readonly [number, number][]): boolean {
  if (ranges.length < 2) return false;
  if (disjointRanges(ranges)) return true;
  const tops = ranges.map(([lo, hi]) => Math.max(Math.abs(lo), Math.abs(hi)));
  const least = Math.min(...tops);
  return least > 0 && Math.max(...tops) / least >= SCALE_APART;
}

/** The column naming what the measure holds, in a panel keyed by it and an entity; or null. */
export function facetOf(
  profile: DataProfile,
  grained: Grained,
  facts: TableFacts,
  time: string | null,
): Facet | null {
  if (grained.grain !== 'panel' || grained.keys.length < 2) return null;
  for (const column of grained.keys) {
    const c = profile.column_profiles.find((x) => x.name === column);
    if (!c || c.distinct > FACET_DISTINCT || !/^(object|string)/.test(c.dtype)) continue;
    const measures = Object.entries(facts.ranges?.[column] ?? {}).filter(([m]) => m !== time);
    const own = measures.filter(([, ranges]) => ownScales(ranges));
    // One measure whose meaning changes with the column: a second one that does not says the
    // column is an ordinary key (sex, region) of commensurable measures.
    if (own.length !== 1 || measures.length !== own.length) continue;
    const [measure, ranges] = own[0] as [string, [number, number][]];
    // An entity's values can be on scales of their own too (the populations of China and of
    // Iceland): a column names a quantity when its values are also different kinds of number,
    // or when it is called so.
    if (!mixedKinds(ranges) && !NAMES_QUANTITY.test(column.trim())) continue;
    const values = c.top.map((t) => t.value).slice(0, FACET_VALUES);
    if (values.length < 2) continue;
    return { column, measure, values };
  }
  return null;
}

/** The grain with the naming column out of the key (the entity is what remains), and why. */
export function withoutFacet(grained: Grained, facet: Facet, profile: DataProfile): Grained {
  const distinct = profile.column_profiles.find((c) => c.name === facet.column)?.distinct ?? 0;
  return {
    ...grained,
    keys: grained.keys.filter((k) => k !== facet.column),
    evidence: [
      ...grained.evidence,
      `${facet.column} names what ${facet.measure} holds (${distinct} values on scales of their own, e.g. ${facet.values.map((v) => JSON.stringify(v)).join(', ')}): charted one ${facet.column} at a time, never pooled`,
    ],
  };
}

export type Quantity = NonNullable<Semantics['quantity']>;

/**
 * What the table's one measure holds, when a column of one text throughout says so by its name
 * (NAMES_QUANTITY): a World Bank file of one indicator, melted into year and value, holds
 * "Population, total" in every row of "Indicator Name". Null with two measures or more (which
 * one it names is not known), or no such column.
 */
export function quantityOf(
  profile: DataProfile,
  keys: readonly string[],
  time: string | null,
): Quantity | null {
  const present = (c: DataProfile['column_profiles'][number]) => c.missing < profile.rows;
  const measures = profile.column_profiles.filter(
    (c) => present(c) && isNumberColumn(c) && c.name !== time && !keys.includes(c.name),
  );
  const naming = profile.column_profiles.filter(
    (c) =>
      c.distinct === 1 &&
      c.missing === 0 &&
      /^(object|string)/.test(c.dtype) &&
      NAMES_QUANTITY.test(c.name.trim()),
  );
  const [measure, column] = [measures[0], naming[0]];
  const value = column?.top[0]?.value;
  if (measures.length !== 1 || naming.length !== 1 || !measure || !column) return null;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 80) return null;
  return { column: column.name, measure: measure.name, value: value.trim() };
}
