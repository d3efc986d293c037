/**
 * A yearly panel's entities ranked by their latest year (semantics' latest): "Population, total
 * by Country Name in 2020", not an average of 2000 to 2020, which ranks a country by its past as
 * much as by its present, and mixes years where countries report different ones. The year is the
 * latest the measure is reported for nearly every entity; entity × year is unique, so each bar is
 * one row's value.
 */
import type { Analysis } from './plan.js';
import { MAX_FILTERS } from './plan.js';
import type { DataProfile } from './profile.js';
import type { Roles } from './roles.js';
import { statsOf } from './semantics-evidence.js';
import { REPORTED_SHARE } from './semantics-types.js';

/** The year as a filter's value and as said ("2020"). */
function yearOf(value: number): { value: number; text: string } {
  return { value, text: Number.isInteger(value) ? String(value) : value.toLocaleString('en-US') };
}

/** `a` ranking the panel's entities by a level, as of the measure's latest year; else `a`. */
export function atLatest(a: Analysis, r: Roles): Analysis {
  const latest = r.semantics.latest;
  const t = a.transform;
  if (!latest || t.type !== 'group' || t.by !== latest.entity || t.series || !t.measure) return a;
  if ((t.agg !== 'mean' && t.agg !== 'median') || t.equals !== undefined) return a;
  const found = latest.years[t.measure]?.latest;
  if (found === undefined || (a.filters ?? []).some((f) => f.column === latest.column)) return a;
  const year = yearOf(found);
  // One value per entity that year: nothing to average, no group too thin to rank.
  const { min_rows: _fewest, ...rest } = t;
  const ranked = `${t.measure} by ${t.by} in ${year.text}`;
  return {
    ...a,
    title: (a.title.startsWith('Top ')
      ? `Top ${t.top_n ?? 10} ${t.by} by ${t.measure} in ${year.text}`
      : `${ranked.charAt(0).toUpperCase()}${ranked.slice(1)}`
    ).slice(0, 120),
    why: `Each ${t.by}'s ${t.measure} in ${year.text}, the latest year nearly every ${t.by} has one: an average over the years would rank each by its past as much as its present.`.slice(
      0,
      300,
    ),
    transform: { ...rest, agg: 'mean' },
    filters: [
      { column: latest.column, op: '==' as const, value: year.value },
      ...(a.filters ?? []),
    ].slice(0, MAX_FILTERS),
  };
}

/**
 * `a` drawing a yearly panel's measure over the years, kept to the years the measure is reported
 * for nearly every entity: a World Bank file's last year, with three countries reporting early,
 * would say the world's population fell 94%, and so would the "Other" line of the largest
 * countries' lines.
 */
export function withinReported(a: Analysis, r: Roles, profile: DataProfile): Analysis {
  const latest = r.semantics.latest;
  const t = a.transform;
  if (!latest || t.type !== 'resample' || t.date !== latest.column) return a;
  const measures = t.measures ?? (t.measure ? [t.measure] : []);
  const spans = measures.map((m) => latest.years[m]);
  if (spans.length === 0 || spans.some((s) => s === undefined)) return a;
  const first = Math.max(...spans.map((s) => s?.from ?? -Infinity));
  const last = Math.min(...spans.map((s) => s?.to ?? Infinity));
  const column = profile.column_profiles.find((c) => c.name === latest.column);
  const stats = column ? statsOf(column) : null;
  if (!stats || first > last || (a.filters ?? []).some((f) => f.column === latest.column)) return a;
  const filters = [
    ...(first > stats.min ? [{ column: latest.column, op: '>=' as const, value: first }] : []),
    ...(last < stats.max ? [{ column: latest.column, op: '<=' as const, value: last }] : []),
  ];
  if (filters.length === 0) return a;
  const [from, to] = [yearOf(first).text, yearOf(last).text];
  const what = measures.length === 1 ? measures[0] : 'these measures';
  const why = `${a.why} Only ${from} to ${to}: in the other years fewer than ${REPORTED_SHARE * 100}% of ${latest.entity} values have ${what}, and a total of some is no total.`;
  return {
    ...a,
    why: why.slice(0, 300),
    filters: [...filters, ...(a.filters ?? [])].slice(0, MAX_FILTERS),
  };
}
