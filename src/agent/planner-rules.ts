/**
 * Rules the heuristic planner applies to a whole plan: the notes a reader needs (totals left out,
 * derived columns, what was not charted, roles assumed, quality flags), no derived column against
 * its sources, a total row filtered out of every analysis; and where the rows are, when they have
 * coordinates.
 */
import type { z } from 'zod';
import { usedColumns } from './compile-plan.js';
import type { Analysis, FilterSchema } from './plan.js';
import { MAX_FILTERS } from './plan.js';
import { groupsText } from './semantics-aggregates.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { infiniteWhy } from './infinities.js';
import { aggFor, roleAggFor, timeFrequencyOf } from './roles.js';
import type { Roles } from './roles.js';
import { qualityFlags, repeatedProblem } from './semantics.js';
import { currencyNote } from './semantics-currency.js';

type Filter = z.infer<typeof FilterSchema>;

/** The notes saying which total rows and groups every chart leaves out (withoutTotals). */
export function totalNotes(sem: Roles['semantics']): string[] {
  const totals = sem.totals.map(
    (total) =>
      `"${total.value}" in ${total.column} is the total of the other ${total.column} values (its ${total.measure} equals their sum ${total.within === 'table' ? 'over the table' : 'in nearly every period'}): left out of every chart, so nothing is counted twice`,
  );
  const groups = (sem.aggregates ?? []).map(
    ({ column, values }) =>
      `${column} lists groups of its other values beside them (${groupsText(values)}): ${values.length === 1 ? 'it is' : `these ${values.length} are`} left out of every chart, so no ${column} is counted twice or ranked against a group of itself`,
  );
  return [...totals, ...groups].map((note) => note.slice(0, 300));
}

/** Data-quality flags for the plan's notes: what is not charted and why, and the roles assumed. */
export function qualityNotes(profile: DataProfile, r: Roles): string[] {
  const sem = r.semantics;
  const notes: string[] = [...profile.warnings, ...qualityFlags(profile, sem)];
  notes.push(...totalNotes(sem));
  if (sem.currency) notes.push(currencyNote(sem.currency));
  for (const f of sem.facets ?? [])
    notes.push(
      `${f.column} names what ${f.measure} holds (its values live on scales of their own): each chart shows one ${f.column} (${f.values.join(', ')}), and ${f.measure} is averaged, the safe statistic`,
    );
  for (const d of sem.derived)
    notes.push(
      d.how === 'sum'
        ? `${d.column} is computed from ${d.from.join(' and ')} (${d.evidence}): not charted against them`
        : `${d.column} is made of ranges of ${d.from[0] ?? ''} (${d.evidence}): not charted against it`,
    );
  if (sem.skipped.length) {
    const shown = sem.skipped.slice(0, 6).map((s) => `${s.column} (${s.reason})`);
    notes.push(`not charted: ${shown.join('; ')}${sem.skipped.length > 6 ? '; …' : ''}`);
  }
  const unsettled = sem.columns.filter(
    (c) => !c.settled && r.measures.some((m) => m.name === c.name),
  );
  const listed = (cs: typeof unsettled): string =>
    `${cs
      .slice(0, 6)
      .map((c) => c.name)
      .join(', ')}${cs.length > 6 ? ', …' : ''}`;
  const assumed = unsettled.filter((c) => c.role !== 'stock');
  if (assumed.length)
    notes.push(
      `averaged, not summed, because the data does not show whether they add up (the safe choice): ${listed(assumed)}`,
    );
  // A count that may stand (people unemployed) rather than flow: summed only within a period.
  const standing = unsettled.filter((c) => c.role === 'stock');
  if (standing.length)
    notes.push(
      `summed across entities within each period but averaged over periods, because the data does not show whether they flow or stand (the safe choice: a standing number summed over months counts the same things again): ${listed(standing)}`,
    );
  if (profile.omitted_columns.count)
    notes.push(
      `${profile.omitted_columns.count} columns were not profiled in detail (${Object.entries(
        profile.omitted_columns.by_dtype,
      )
        .map(([dtype, n]) => `${n} ${dtype}`)
        .join(', ')}); the profile lists those that were`,
    );
  return notes.slice(0, 10);
}

/**
 * Whether an analysis sets a derived column against what it was computed from: a total against
 * one of its parts (r = 1 by construction), or a category made of ranges of a measure against that
 * measure (each group's mean only restates its range).
 */
export function derivedFrom(a: Analysis, r: Roles): boolean {
  const t = a.transform;
  const pairs: [string, string][] =
    t.type === 'relationship'
      ? [[t.x, t.y]]
      : t.type === 'group' && t.measure
        ? [[t.by, t.measure], ...(t.series ? [[t.series, t.measure] as [string, string]] : [])]
        : t.type === 'distribution' && t.by
          ? [[t.by, t.column]]
          : t.type === 'resample' && t.series && t.measure
            ? [[t.series, t.measure]]
            : [];
  return r.semantics.derived.some((d) =>
    pairs.some(
      ([x, y]) => (d.column === x && d.from.includes(y)) || (d.column === y && d.from.includes(x)),
    ),
  );
}

/**
 * A long table's analyses of its measure, one per value of the column naming what it holds
 * (semantics-facets.ts): "Population per year by country", then "Life expectancy …", each
 * filtered to its value; an analysis grouping the measure by that column (which compares
 * different quantities) is left out. In place, so the plan's order is kept.
 */
export function byFacet(analyses: readonly Analysis[], r: Roles): Analysis[] {
  const facet = r.semantics.facets?.[0];
  if (!facet) return [...analyses];
  return analyses.flatMap((a) => {
    const used = usedColumns(a.transform);
    if (!used.includes(facet.measure)) return [a];
    if (used.includes(facet.column)) return [];
    return facet.values.map((value) => {
      const at = a.title.toLowerCase().indexOf(facet.measure.toLowerCase());
      const title =
        at >= 0
          ? `${a.title.slice(0, at)}${value}${a.title.slice(at + facet.measure.length)}`
          : `${a.title} (${value})`;
      return {
        ...a,
        title: title.slice(0, 120),
        filters: [{ column: facet.column, op: '==' as const, value }, ...(a.filters ?? [])].slice(
          0,
          5,
        ),
      };
    });
  });
}

/**
 * A money measure in several currencies (semantics-currency.ts), charted in the currency of most
 * rows: each analysis of it keeps that currency (a filter, and the currency in its title). Its
 * totals by the currency column, as bars, are a table (each in its own currency; no bar sets
 * dollars beside yen, no share of their sum is said); any other analysis split by currency (a pie of
 * their shares) is left out.
 */
export function byCurrency(analyses: readonly Analysis[], r: Roles): Analysis[] {
  const c = r.semantics.currency;
  if (!c) return [...analyses];
  return analyses.flatMap((a) => {
    const used = usedColumns(a.transform);
    if (!c.measures.some((m) => used.includes(m))) return [a];
    const table = a.chart === 'bar' || a.chart === 'table';
    if (table && a.transform.type === 'group' && a.transform.by === c.column && !a.transform.series)
      return [
        { ...a, chart: 'table' as const, why: `${a.why} Each in its own currency.`.slice(0, 300) },
      ];
    if (used.includes(c.column)) return [];
    if ((a.filters ?? []).some((f) => f.column === c.column && f.op === '==')) return [a];
    return [
      {
        ...a,
        title: `${a.title} (${c.main})`.slice(0, 120),
        filters: [
          { column: c.column, op: '==' as const, value: c.main },
          ...(a.filters ?? []),
        ].slice(0, MAX_FILTERS),
      },
    ];
  });
}

/**
 * Titles and notes that name the quantity the table's one measure holds (semantics' quantity):
 * "Population, total per year by Country Name", not "Value per year …". The findings say it too
 * (namedAs).
 */
export function byQuantity(analyses: readonly Analysis[], r: Roles): Analysis[] {
  const quantity = r.semantics.quantity;
  if (!quantity) return [...analyses];
  const escaped = quantity.measure.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const word = new RegExp(`(^|[^\\p{L}\\p{N}_])${escaped}(?=$|[^\\p{L}\\p{N}_])`, 'giu');
  // Every mention: a note may name the measure twice (planner-latest's years).
  const said = (text: string): string =>
    text.replace(word, (_, before: string) => `${before}${quantity.value}`);
  return analyses.map((a) => {
    const [title, why] = [said(a.title), said(a.why).slice(0, 300)];
    if (title === a.title && why === a.why) return a;
    return { ...a, title: `${title.charAt(0).toUpperCase()}${title.slice(1)}`.slice(0, 120), why };
  });
}

/**
 * Total rows (a category value that is the sum of the others) and groups (semantics-aggregates)
 * left out of an analysis.
 */
export function withoutTotals(a: Analysis, r: Roles): Analysis {
  const { totals, aggregates = [] } = r.semantics;
  if (totals.length + aggregates.length === 0 || a.transform.type === 'missing') return a;
  const own = a.filters ?? [];
  const same = (f: Filter, o: Filter): boolean =>
    o.column === f.column && o.op === f.op && JSON.stringify(o.value) === JSON.stringify(f.value);
  const filters: Filter[] = [
    ...aggregates.map((g) => ({ column: g.column, op: 'not in' as const, value: g.values })),
    // A total that is also a group ("World") is left out by the group's filter already.
    ...totals
      .filter((t) => !aggregates.some((g) => g.column === t.column && g.values.includes(t.value)))
      .map((t) => ({ column: t.column, op: '!=' as const, value: t.value })),
  ].filter((f) => !own.some((o) => same(f, o)));
  // The totals' filters first: past the plan's five, another filter gives way, never them.
  return filters.length ? { ...a, filters: [...filters, ...own].slice(0, MAX_FILTERS) } : a;
}

/** A panel's entities get one line each up to this many; past it, only the largest few. */
export const ENTITY_LINES = 12;
/** How many of a big panel's entities are drawn (a resample's `top`). */
export const TOP_ENTITIES = 8;

/**
 * The `top` of a line per entity: none while every entity fits, else TOP_ENTITIES. The rest of a
 * sum becomes an "Other" series, which needs text entity names; a level's rest is only left out.
 */
export function entityTop(entity: ColumnProfile, additive: boolean): number | null | undefined {
  if (entity.distinct <= ENTITY_LINES) return undefined;
  return !additive || /^(object|string)/.test(entity.dtype) ? TOP_ENTITIES : null;
}

/**
 * The category a scatter of `measures` is coloured by: a small one (at most 8 values), so a group
 * effect the pooled trend hides stays visible (and its finding is computed per group). None for
 * a panel, whose entities repeat over time; nor one varying within the entity of a measure
 * written on the entity's first row alone (an order's total coloured by its first line's product).
 */
export function scatterColor(r: Roles, measures: readonly string[]): string | undefined {
  if (r.semantics.table.grain === 'panel') return undefined;
  const once = measures.filter((m) => r.semantics.repeated?.some((x) => x.measure === m && x.once));
  return r.categories.find(
    (c) => c.distinct <= 8 && once.every((m) => !repeatedProblem(r.semantics, m, c.name)),
  )?.name;
}

/** Where the rows are: longitude against latitude, coloured by a small category (offline, no map tiles). */
export function placeAnalyses(r: Roles): Analysis[] {
  const lat = r.semantics.columns.find((c) => c.role === 'latitude');
  const lon = r.semantics.columns.find((c) => c.role === 'longitude');
  if (!lat || !lon) return [];
  const color = r.categories.find((c) => c.distinct <= 8);
  return [
    {
      title: `Where the rows are: ${lat.name} by ${lon.name}`,
      chart: 'scatter',
      why: `Each row placed by its coordinates (${lon.name} across, ${lat.name} up)${color ? `, coloured by ${color.name}` : ''}.`,
      transform: {
        type: 'relationship',
        x: lon.name,
        y: lat.name,
        ...(color ? { color: color.name } : {}),
      },
      // Longitude against latitude is a place, not an association: no r, no trend line.
      options: { trendline: false, correlation: false },
    },
  ];
}

/**
 * Seasonality, when the data has the span for it (one profile per plan): hourly data by weekday
 * and hour (a heatmap, two weeks or more); two years or more of data finer than quarters by month
 * of year; daily or irregular data over eight weeks or more by weekday — on dates enough for the
 * cycle (24 for months, 28 for weekdays), not on a handful of days. Sums and counts are each
 * period's total averaged per month (weekday, hour), so a year or week the span holds in part
 * weighs no more than the others; levels are averaged over their rows. A panel's levels are
 * left out (averaging entities together mixes them).
 */
export function seasonAnalyses(r: Roles): Analysis[] {
  const time = r.semantics.table.time;
  const date = r.dates.find((d) => d.name === time?.column && time.kind === 'date');
  if (!date?.datetime) return [];
  const own = timeFrequencyOf(date, r);
  const span = date.datetime.span_days;
  const measure = r.measures[0];
  const agg = aggFor(measure, r, true);
  // A running total has no season; a panel's levels averaged together mix its entities.
  if (roleAggFor(measure, r, true) === 'max') return [];
  if (r.semantics.table.grain === 'panel' && agg !== 'sum' && agg !== 'count') return [];
  // Dates enough for each month of the year (weekday) to be averaged over two (four) of them:
  // orders dated on five days over five months are no weekly pattern.
  const dates = date.distinct;
  const cycle =
    own === 'H' && span >= 14
      ? 'weekday_hour'
      : span >= 730 && own !== 'Q' && own !== 'Y' && dates >= 24
        ? 'month'
        : (own === 'D' || own === null) && span >= 56 && dates >= 28
          ? 'weekday'
          : null;
  if (!cycle) return [];
  const what = measure ? measure.name : 'rows';
  const unit = cycle === 'month' ? 'month' : cycle === 'weekday' ? 'day' : 'hour';
  const every = { month: 'monthly', day: 'daily', hour: 'hourly' }[unit];
  const head =
    measure && agg === 'sum'
      ? `Average ${every} ${measure.name}`
      : !measure || agg === 'count'
        ? `Average rows per ${unit}`
        : `${agg === 'median' ? 'Median' : 'Average'} ${what}`;
  const by = {
    month: 'month of year',
    weekday: 'weekday',
    hour: 'hour of day',
    weekday_hour: 'weekday and hour',
  }[cycle];
  return [
    {
      title: `${head} by ${by}`,
      chart: cycle === 'weekday_hour' ? 'heatmap' : 'bar',
      why:
        agg === 'sum' || agg === 'count' || !measure
          ? `The seasonal pattern: each ${unit}'s total, averaged over the ${unit}s of ${date.name} that fall on each ${by}.`
          : `The seasonal pattern: ${what} ${agg === 'median' ? 'as the median' : 'averaged'} over the rows of each ${by}.${infiniteWhy(measure)}`,
      transform: {
        type: 'season',
        date: date.name,
        measure: measure?.name ?? null,
        agg: measure ? agg : 'count',
        cycle,
      },
    },
  ];
}

/**
 * A compass bearing's histogram (one per plan: the bearing of most values, a wind's direction
 * before its 15° class): how often each direction occurs, in bins of 15° over a full turn. Its
 * findings give the circular mean and the busiest sector; a bearing is no measure, so it gets
 * no box, scatter, correlation or summary (plan-compass.ts).
 */
export function compassAnalyses(r: Roles, profile: DataProfile): Analysis[] {
  const bearing = r.semantics.columns
    .filter((c) => c.role === 'direction')
    .map((c) => profile.column_profiles.find((p) => p.name === c.name))
    .filter((c): c is ColumnProfile => c !== undefined && c.missing_share < 0.95)
    .sort((a, b) => b.distinct - a.distinct)[0];
  const s = bearing?.numeric ?? bearing?.numeric_text?.stats;
  if (!bearing || !s) return [];
  return [
    {
      title: `Directions of ${bearing.name}`,
      chart: 'histogram',
      why: `How often each compass bearing of ${bearing.name} occurs (360° is 0°: north); the findings give its mean on the circle, not a plain average.`,
      transform: { type: 'distribution', column: bearing.name },
      options: { bins: Math.min(24, Math.max(4, Math.round((s.max - s.min) / 15))) },
    },
  ];
}
