/**
 * A yearly panel's entities ranked by their latest year (semantics' latest): "Population, total
 * by Country Name in 2020", not an average of 2000 to 2020, which ranks a country by its past as
 * much as by its present, and mixes years where countries report different ones. The year is the
 * latest the measure is reported for nearly every entity; entity × year is unique, so each bar is
 * one row's value.
 */
import type { Analysis } from './plan.js';
import { MAX_FILTERS } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import type { Roles } from './roles.js';
import { statsOf } from './semantics-evidence.js';
import { REPORTED_SHARE } from './semantics-types.js';
import type { Reported } from './semantics-types.js';
import { MONTH_NAMES } from './periods.js';

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
  // A dated panel's entities are ranked over every period (a month is no year of a country's life).
  if (typeof found !== 'number' || (a.filters ?? []).some((f) => f.column === latest.column))
    return a;
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
 * `a` drawing a panel's measure over the years (periods), or totalling it over them by a
 * category, kept to the years the measure is reported for nearly every entity: a World Bank
 * file's last year, with three countries reporting early, would say the world's population fell
 * 94%, and so would the "Other" line of the largest countries' lines; a month in which three
 * stores of eight have their revenue yet would say revenue fell by half, and the three would lead
 * a ranking of the stores' totals by a month more than the others.
 */
export function withinReported(a: Analysis, r: Roles, profile: DataProfile): Analysis {
  const latest = r.semantics.latest;
  const t = a.transform;
  if (!latest || (a.filters ?? []).some((f) => f.column === latest.column)) return a;
  const summed = t.type === 'group' && t.agg === 'sum' && t.by !== latest.column;
  if (!(t.type === 'resample' && t.date === latest.column) && !summed) return a;
  const measures = t.type === 'resample' && t.measures ? t.measures : t.measure ? [t.measure] : [];
  const spans = measures.map((m) => latest.years[m]);
  const column = profile.column_profiles.find((c) => c.name === latest.column);
  if (!column || spans.length === 0 || spans.some((s) => s === undefined)) return a;
  const span = reportedSpan(
    spans.flatMap((s) => (s ? [s] : [])),
    column,
  );
  if (!span) return a;
  const filters = [
    ...(span.cutFirst ? [{ column: latest.column, op: '>=' as const, value: span.first }] : []),
    ...(span.cutLast ? [{ column: latest.column, op: '<=' as const, value: span.last }] : []),
  ];
  if (filters.length === 0) return a;
  const unit = typeof span.first === 'number' ? 'years' : periodsWord(r.semantics.table.time?.freq);
  const [from, to] = [periodText(span.first, unit), periodText(span.last, unit)];
  const what = measures.length === 1 ? measures[0] : 'these measures';
  const most = `in the other ${unit} fewer than ${REPORTED_SHARE * 100}% of ${latest.entity} values have ${what}`;
  const why = summed
    ? `${a.why} Totals of ${from} to ${to} only: ${most}, and a total of them all would favour those that have it.`
    : `${a.why} Only ${from} to ${to}: ${most}, and ${t.type === 'resample' && t.agg === 'sum' ? 'a total of some is no total' : 'an average of a few is no average of them all'}.`;
  return {
    ...a,
    why: why.slice(0, 300),
    filters: [...filters, ...(a.filters ?? [])].slice(0, MAX_FILTERS),
  };
}

/**
 * The years (periods) reported for every one of `spans`, and whether they leave out the column's
 * first or last: null when they share none.
 */
function reportedSpan(
  spans: readonly Reported[],
  column: ColumnProfile,
): { first: number | string; last: number | string; cutFirst: boolean; cutLast: boolean } | null {
  const [from, to] = [spans.map((s) => s.from), spans.map((s) => s.to)];
  if (from.every((v) => typeof v === 'number') && to.every((v) => typeof v === 'number')) {
    const stats = statsOf(column);
    const [first, last] = [Math.max(...from), Math.min(...to)];
    if (!stats || first > last) return null;
    return { first, last, cutFirst: first > stats.min, cutLast: last < stats.max };
  }
  const dates = column.datetime;
  if (!dates || from.some((v) => typeof v !== 'string') || to.some((v) => typeof v !== 'string'))
    return null;
  // Times as written in filters ("2024-08-01 00:00:00") compare in order as text.
  const [first, last] = [[...from].sort().at(-1), [...to].sort()[0]].map(String) as [
    string,
    string,
  ];
  const [min, max] = [dates.min, dates.max].map((d) => d.replace('T', ' ').slice(0, 19));
  if (first > last || min === undefined || max === undefined) return null;
  return { first, last, cutFirst: first > min, cutLast: last < max };
}

/** A dated panel's periods in words, by its own spacing (pandas' alias): "months". */
export function periodsWord(freq: string | undefined): string {
  const word: Record<string, string> = { MS: 'months', QS: 'quarters', YS: 'years', D: 'days' };
  return word[freq ?? ''] ?? (freq?.startsWith('W') ? 'weeks' : 'periods');
}

/** A year as said ("2020"), or a period's time as its spacing says it ("Aug 2024", "2024-08-05"). */
export function periodText(value: number | string, unit: string): string {
  if (typeof value === 'number') return yearOf(value).text;
  const [year, month] = [value.slice(0, 4), Number(value.slice(5, 7))];
  if (unit === 'years') return year;
  if (unit === 'quarters') return `Q${Math.floor((month - 1) / 3) + 1} ${year}`;
  if (unit === 'months') return `${MONTH_NAMES[month - 1] ?? ''} ${year}`;
  return value.endsWith(' 00:00:00') ? value.slice(0, 10) : value.slice(0, 16);
}
