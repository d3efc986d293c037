/**
 * The analysis plan: a list of analyses, each a chart or table kind plus an
 * explicit transform. The heuristic planner and the LLM planner both produce
 * it; `checkPlan` validates it against the dataset profile with errors a
 * model can act on, and the compiler turns it into pandas code.
 */
import { z } from 'zod';
import { KINDS, RENDERERS } from '../../renderers/index.js';
import { AggSchema } from '../../renderers/params.js';
import { didYouMean, nearest } from '../spec/suggest.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { PERIOD_ORDER, PERIOD_WORD, periodsSpanned, spansTime, timeFrequencyOf } from './roles.js';
import { infiniteAggProblem } from './infinities.js';
import { compassProblems } from './plan-compass.js';
import { repeatedProblem, roleOf, semanticsOf, sumProblem } from './semantics.js';
import type { Semantics } from './semantics.js';
import { statsOf } from './semantics-evidence.js';
import { currencyProblem } from './semantics-currency.js';
import { sectionProblem } from './semantics-balances.js';

const Column = z.string().min(1).describe('an exact column name from the profile');

/** The cycles a seasonal profile follows. */
export const CYCLES = ['month', 'weekday', 'hour', 'weekday_hour'] as const;
export type Cycle = (typeof CYCLES)[number];
/** The period each cycle's totals are taken over (a plan frequency), and the data must be at least as fine. */
export const CYCLE_PERIOD: Readonly<Record<Cycle, 'M' | 'D' | 'H'>> = {
  month: 'M',
  weekday: 'D',
  hour: 'H',
  weekday_hour: 'H',
};
const Agg = AggSchema;
/**
 * A resample's aggregates: the others, and "last", each period's closing value (the latest row's,
 * in time and then in the rows' own order): the balance or stock a period ends with.
 */
export const ResampleAggSchema = z
  .enum([...AggSchema.options, 'last'])
  .describe(
    '"last": the value of each period\'s latest row, its closing value (a running balance, a stock held); the others over all its rows',
  );
/** The most columns a resample draws side by side as lines (`measures`). */
export const MAX_MEASURES = 8;

/** A transform: how the charted data is derived from the dataset. */
export const TransformSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('group'),
      by: Column,
      measure: Column.nullable().describe('null counts rows'),
      agg: Agg,
      top_n: z.number().int().min(2).max(50).optional(),
      series: Column.optional(),
      equals: z
        .union([z.string(), z.number(), z.boolean()])
        .optional()
        .describe(
          'a rate: with agg "mean", the share (%) of rows per group whose measure equals this value (Survived = 1, Churn = "Yes"); rows without a measure are left out',
        ),
      min_rows: z
        .number()
        .int()
        .min(2)
        .max(10_000)
        .optional()
        .describe(
          'groups with fewer values of the measure (rows, when counting) are left out: a mean of a few rows ranks by chance',
        ),
      named: z
        .union([z.string(), z.number()])
        .optional()
        .describe(
          'with a sum or count: a value of `by` the question asks about ("what share is renewables"), whose share of the total is said first',
        ),
    })
    .describe('one row per category of `by` (and `series`): agg of measure; bar, pie or table'),
  z
    .object({
      type: z.literal('resample'),
      date: Column,
      measure: Column.nullable(),
      measures: z
        .array(Column)
        .min(2)
        .max(MAX_MEASURES)
        .optional()
        .describe(
          'several numeric columns in one unit (deaths by cause, sales by channel), one line each named by its column, all with agg; measure null, no series, top or equals',
        ),
      agg: ResampleAggSchema,
      freq: z.enum(['H', 'D', 'W', 'M', 'Q', 'Y']),
      series: Column.optional(),
      top: z
        .number()
        .int()
        .min(2)
        .max(12)
        .optional()
        .describe(
          'with series: keep the series with the largest total (sum, count) or mean (other aggs); the rest of a sum or count becomes one "Other" series, the rest of a mean is left out',
        ),
      rebase: z
        .boolean()
        .optional()
        .describe(
          'with series: each series as an index, 100 at the first period in which every series has a value (compares growth, not levels)',
        ),
      equals: z
        .union([z.string(), z.number(), z.boolean()])
        .optional()
        .describe(
          'a rate: with agg "mean", the share (%) of rows per period whose measure equals this value; rows without a measure are left out',
        ),
      share: z
        .boolean()
        .optional()
        .describe(
          "with series and agg sum or count: each series as its share (%) of the period's total over every series (what part of each year's generation is renewables)",
        ),
    })
    .describe('a time series at a frequency; line, area, bar or table'),
  z
    .object({
      type: z.literal('season'),
      date: Column,
      measure: Column.nullable().describe('null counts rows'),
      agg: Agg,
      cycle: z.enum(CYCLES),
    })
    .describe(
      'a seasonal profile by month of year, weekday or hour (weekday_hour: a heatmap); sum and count total each month (day, hour) first and average those totals; other aggs go over rows; bar, line, heatmap or table',
    ),
  z
    .object({ type: z.literal('distribution'), column: Column, by: Column.optional() })
    .describe("a numeric column's distribution; histogram, or box (optionally per category `by`)"),
  z
    .object({ type: z.literal('relationship'), x: Column, y: Column, color: Column.optional() })
    .describe('two numeric columns against each other; scatter'),
  z
    .object({ type: z.literal('correlation'), columns: z.array(Column).min(2).max(30) })
    .describe('pairwise Pearson correlations; heatmap or table'),
  z
    .object({ type: z.literal('summary'), columns: z.array(Column).max(40).optional() })
    .describe('descriptive statistics; table'),
  z.object({ type: z.literal('missing') }).describe('missing values per column; table'),
  z
    .object({
      type: z.literal('top_rows'),
      sort_by: Column,
      n: z.number().int().min(1).max(100),
      ascending: z.boolean(),
    })
    .describe('the rows with the largest (or smallest) values; table'),
]);
/** A transform. */
export type Transform = z.infer<typeof TransformSchema>;

/** A row filter applied before the transform. */
export const FilterSchema = z.object({
  column: Column,
  op: z.enum(['==', '!=', '>', '>=', '<', '<=', 'in', 'not in', 'notna']),
  value: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number()]))])
    .optional(),
});

/**
 * At most this many filters on an analysis: a question's values and year, the partial periods left
 * out and the total rows (withoutTotals puts its own first, so they never give way).
 */
export const MAX_FILTERS = 8;

/** One analysis of the plan. */
export const AnalysisSchema = z.object({
  title: z.string().min(1).max(120),
  why: z.string().max(300).describe('one sentence: what this shows and why it matters'),
  /** A kind of the renderer registry. */
  chart: z.enum(KINDS),
  transform: TransformSchema,
  filters: z.array(FilterSchema).max(MAX_FILTERS).optional(),
  options: z
    .object({
      sort: z.enum(['ascending', 'descending', 'none']),
      orientation: z.enum(['v', 'h']),
      log_y: z.boolean(),
      bins: z.number().int().min(2).max(200),
      trendline: z.boolean(),
      /** Scatter: sample at most this many points (default the renderer's cap). */
      max_points: z.number().int().min(100).max(5000),
      /** Scatter: false leaves out the correlation finding (coordinates: a place, not an association). */
      correlation: z.boolean(),
    })
    .partial()
    .optional(),
});
/** An analysis. */
export type Analysis = z.infer<typeof AnalysisSchema>;

/** A whole plan. */
export const PlanSchema = z.object({
  analyses: z.array(AnalysisSchema).min(1).max(12),
  notes: z
    .array(z.string().max(300))
    .max(10)
    .describe('data-quality flags and caveats for the reader'),
});
/** A plan. */
export type Plan = z.infer<typeof PlanSchema>;

/** Which charts each transform can feed. */
export const CHARTS_FOR: Readonly<Record<Transform['type'], readonly Analysis['chart'][]>> = {
  group: ['bar', 'pie', 'table'],
  resample: ['line', 'area', 'bar', 'table'],
  season: ['bar', 'line', 'heatmap', 'table'],
  distribution: ['histogram', 'box'],
  relationship: ['scatter'],
  correlation: ['heatmap', 'table'],
  summary: ['table'],
  missing: ['table'],
  top_rows: ['table'],
};

const MEASURE_TYPES = new Set(['numeric', 'numeric_text', 'boolean']);

function columnsOf(t: Transform): { name: string; role: 'any' | 'measure' | 'date' }[] {
  switch (t.type) {
    case 'group':
      return [
        { name: t.by, role: 'any' },
        // A rate counts a value of any column (a Yes/No text); other aggregates need numbers.
        ...(t.measure
          ? [
              {
                name: t.measure,
                role: t.equals === undefined ? ('measure' as const) : ('any' as const),
              },
            ]
          : []),
        ...(t.series ? [{ name: t.series, role: 'any' as const }] : []),
      ];
    case 'resample':
      return [
        { name: t.date, role: 'date' },
        ...(t.measure
          ? [
              {
                name: t.measure,
                role: t.equals === undefined ? ('measure' as const) : ('any' as const),
              },
            ]
          : []),
        ...(t.measures ?? []).map((name) => ({ name, role: 'measure' as const })),
        ...(t.series ? [{ name: t.series, role: 'any' as const }] : []),
      ];
    case 'season':
      return [
        { name: t.date, role: 'date' },
        ...(t.measure ? [{ name: t.measure, role: 'measure' as const }] : []),
      ];
    case 'distribution':
      return [
        { name: t.column, role: 'measure' },
        ...(t.by ? [{ name: t.by, role: 'any' as const }] : []),
      ];
    case 'relationship':
      return [
        { name: t.x, role: 'measure' },
        { name: t.y, role: 'measure' },
        ...(t.color ? [{ name: t.color, role: 'any' as const }] : []),
      ];
    case 'correlation':
      return t.columns.map((name) => ({ name, role: 'measure' as const }));
    case 'summary':
      return (t.columns ?? []).map((name) => ({ name, role: 'any' as const }));
    case 'missing':
      return [];
    case 'top_rows':
      return [{ name: t.sort_by, role: 'measure' }];
  }
}

function columnProblem(
  name: string,
  role: 'any' | 'measure' | 'date',
  profile: DataProfile,
): string | null {
  const col: ColumnProfile | undefined = profile.column_profiles.find((c) => c.name === name);
  if (!col)
    return `column "${name}" is not in the data${didYouMean(
      nearest(
        name,
        profile.column_profiles.map((c) => c.name),
      ),
    )}`;
  if (role === 'measure' && !MEASURE_TYPES.has(col.semantic))
    return `column "${name}" is ${col.semantic}, not a number to measure`;
  const yearTime = semanticsOf(profile).table.time;
  const isYear = yearTime?.kind === 'year' && yearTime.column === name;
  if (role === 'date' && col.semantic !== 'datetime' && !isYear)
    return `column "${name}" is ${col.semantic}, not a date/time column`;
  return null;
}

/** Checks a plan against the data: chart fits transform, columns exist and have the right type. Returns model-readable problems. */
export function checkPlan(
  plan: Plan,
  profile: DataProfile,
  options: { semantics?: boolean } = {},
): string[] {
  const problems: string[] = [];
  plan.analyses.forEach((analysis, i) => {
    const label = `analysis ${i + 1} ("${analysis.title}")`;
    const before = problems.length;
    const allowed = CHARTS_FOR[analysis.transform.type];
    if (!allowed.includes(analysis.chart))
      problems.push(
        `${label}: a ${analysis.transform.type} transform cannot be drawn as ${analysis.chart}; use ${allowed.join(' or ')}`,
      );
    for (const { name, role } of columnsOf(analysis.transform)) {
      const problem = columnProblem(name, role, profile);
      if (problem) problems.push(`${label}: ${problem}`);
    }
    for (const filter of analysis.filters ?? []) {
      const problem = columnProblem(filter.column, 'any', profile);
      if (problem) problems.push(`${label}: filter ${problem}`);
    }
    // The meaning of the columns is checked once their names and types are right.
    if (options.semantics !== false && problems.length === before)
      problems.push(...semanticProblems(analysis, profile).map((p) => `${label}: ${p}`));
  });
  return problems;
}

/** A problem that settles the analysis alone: a facet mixed, an infinity, a compass bearing averaged. */
function wholeProblem(a: Analysis, profile: DataProfile, sem: Semantics): string | null {
  return (
    facetProblem(a, sem.facets?.[0]) ??
    currencyProblem(
      columnsOf(a.transform).map((c) => c.name),
      a.filters ?? [],
      sem.currency,
      a.chart === 'table' &&
        a.transform.type === 'group' &&
        a.transform.by === sem.currency?.column &&
        !a.transform.series,
    ) ??
    infiniteProblem(a.transform, profile) ??
    compassProblems(a, sem)[0] ??
    null
  );
}

/**
 * A measure split by a category that varies within the entity it holds one value of
 * (repeatedProblem): bars and boxes by it, a line per value; and points coloured by it when the
 * measure is written on the entity's first row alone (each point is then the entity, not a row).
 */
function splitProblems(t: Transform, sem: Semantics): string[] {
  const once = (m: string): string | null =>
    sem.repeated?.some((r) => r.measure === m && r.once) ? m : null;
  const splits: [string | null | undefined, string | null | undefined][] =
    t.type === 'group'
      ? [
          [t.measure, t.by],
          [t.measure, t.series],
        ]
      : t.type === 'distribution'
        ? [[t.column, t.by]]
        : t.type === 'resample'
          ? [[t.measure, t.series]]
          : t.type === 'relationship'
            ? [
                [once(t.y), t.color],
                [once(t.x), t.color],
              ]
            : [];
  return splits.flatMap(([measure, by]) => repeatedProblem(sem, measure, by) ?? []);
}

/**
 * What an analysis gets wrong about the data's meaning (agent/semantics.ts): a sum of a level, a
 * ratio, a running total or (across periods) a stock; a period finer than the data's own; a line
 * of a panel that averages its entities together.
 */
export function semanticProblems(a: Analysis, profile: DataProfile): string[] {
  const sem = semanticsOf(profile);
  const t = a.transform;
  const first = wholeProblem(a, profile, sem);
  if (first) return [first];
  if (t.type === 'season') return seasonProblems(a, t, profile);
  const within = splitProblems(t, sem);
  if (within.length) return within;
  if (t.type === 'group' && t.equals !== undefined) return rateProblems(t, profile);
  if (t.type === 'resample' && t.measures) return measuresProblems(a, t, profile);
  if (t.type !== 'group' && t.type !== 'resample') return [];
  const problems: string[] = [];
  const rate = t.type === 'resample' && t.equals !== undefined;
  if (rate) problems.push(...rateProblems(t, profile));
  if (rate && t.rebase) problems.push('rebase compares levels or amounts: not a rate');
  const measure = roleOf(sem, t.measure);
  const date =
    t.type === 'resample' ? profile.column_profiles.find((c) => c.name === t.date) : undefined;
  const spans =
    date && t.type === 'resample'
      ? spansTime(date, t.freq, { semantics: sem })
      : sem.table.grain !== 'cross_section';
  if (measure && t.agg === 'sum' && !rate) {
    const problem = sumProblem(measure, spans);
    if (problem) problems.push(problem);
  }
  if (t.type === 'resample') problems.push(...seriesProblems(t, profile));
  if (t.type === 'resample' && t.agg === 'last') problems.push(...closingProblems(t, measure));
  const sections = t.type === 'resample' ? sectionProblem(sem, t.measure, t.series) : null;
  if (sections) problems.push(sections);
  if (t.type === 'resample' && date) {
    const own = timeFrequencyOf(date, { semantics: sem });
    if (own && PERIOD_ORDER.indexOf(t.freq) < PERIOD_ORDER.indexOf(own))
      problems.push(
        `"${t.date}" has one value per ${PERIOD_WORD[own]}; a period finer than that (per ${PERIOD_WORD[t.freq]}) shows empty periods: use freq "${own}" or coarser`,
      );
    const most = RENDERERS.bar?.caps.categories ?? 50;
    const periods = a.chart === 'bar' ? periodsSpanned(date, t.freq, most) : null;
    const narrowed = (a.filters ?? []).some((f) => f.column === t.date);
    if (periods !== null && periods > most && !narrowed)
      problems.push(
        `a bar holds at most ${most} periods and "${t.date}" spans more than ${most} ${PERIOD_WORD[t.freq]}s: draw a line, or use a coarser freq`,
      );
    const entity = sem.table.grain === 'panel' ? sem.table.entity : null;
    // A rate pools the entities' rows on purpose: the share of all rows, per period.
    const mixing = entity && measure && t.agg !== 'sum' && t.agg !== 'count' && !t.series && !rate;
    const filtered = (a.filters ?? []).some((f) => f.column === entity && f.op === '==');
    if (mixing && !filtered)
      problems.push(
        `the table is a panel (one row per ${sem.table.keys.join(' × ')} per period): a ${t.agg} of "${t.measure}" over every ${entity} mixes them; add series: "${entity}", or filter one ${entity}`,
      );
  }
  return problems;
}

/**
 * A closing value (agg "last"): the latest row's value of a level, a stock or a running total; of
 * what flows (an amount, a count) one row is not the period's.
 */
function closingProblems(
  t: Extract<Transform, { type: 'resample' }>,
  measure: ReturnType<typeof roleOf>,
): string[] {
  if (!t.measure && !t.measures)
    return ['"last" is the value of each period\'s latest row: it needs a measure'];
  if (measure?.role !== 'amount' && measure?.role !== 'count') return [];
  return [
    `"${measure.name}" is ${measure.role === 'amount' ? 'an amount' : 'a count'} (${measure.evidence}): its latest row is one of the period's, not its total; use sum`,
  ];
}

/** A resample's series kept to the largest (top), rebased or made shares of their total. */
function seriesProblems(
  t: Extract<Transform, { type: 'resample' }>,
  profile: DataProfile,
): string[] {
  const problems: string[] = [];
  if (t.top && !t.series) problems.push('top keeps the largest of several series: it needs series');
  if (t.rebase && !t.series)
    problems.push('rebase compares series from a common start: it needs series');
  if (t.rebase && t.agg === 'count')
    problems.push('rebase compares levels or amounts: not a count');
  return t.share ? [...problems, ...shareProblems(t, profile)] : problems;
}

/** A resample of shares (%): parts of a whole, each period's total over its series. */
function shareProblems(
  t: Extract<Transform, { type: 'resample' }>,
  profile: DataProfile,
): string[] {
  const problems: string[] = [];
  if (!t.series) problems.push("share is of a series' total per period: it needs series");
  if (t.agg !== 'sum' && t.agg !== 'count')
    problems.push(`share is of a total: agg sum or count, not ${t.agg}`);
  if (t.rebase || t.equals !== undefined)
    problems.push("share is a part of each period's total: not with rebase or equals");
  const measure = profile.column_profiles.find((c) => c.name === t.measure);
  const min = measure ? statsOf(measure)?.min : undefined;
  if (t.agg === 'sum' && min !== undefined && min < 0)
    problems.push(
      `"${t.measure}" has negative values (down to ${min}): a share of a total of them is no part of a whole`,
    );
  return problems;
}

/**
 * A resample of several measures: each line is checked as the resample of its one measure (no
 * sum of a level, no panel mixed), and the lines are one set: no series, top, rate or repeat.
 */
function measuresProblems(
  a: Analysis,
  t: Extract<Transform, { type: 'resample' }>,
  profile: DataProfile,
): string[] {
  const measures = t.measures ?? [];
  const problems: string[] = [];
  if (t.measure !== null)
    problems.push(
      `measures draws each of its columns as a line: set measure to null, not "${t.measure}"`,
    );
  if (t.series) problems.push('measures draws one line per column: it takes no series');
  if (t.top) problems.push('top keeps the largest of several series: not with measures');
  if (t.equals !== undefined)
    problems.push('equals counts a value of one measure: not with measures');
  if (t.share)
    problems.push("share is of a series' total per period: it needs series, not measures");
  if (t.rebase && t.agg === 'count')
    problems.push('rebase compares levels or amounts: not a count');
  const twice = measures.find((m, i) => measures.indexOf(m) !== i);
  if (twice) problems.push(`measures names "${twice}" twice`);
  if (problems.length) return problems;
  for (const m of measures) {
    const one = { ...a, transform: { ...t, measure: m, measures: undefined, rebase: undefined } };
    for (const p of semanticProblems(one, profile)) if (!problems.includes(p)) problems.push(p);
  }
  return problems;
}

/** A sum, mean, min or max of a measure holding ±inf (infinities.ts); a rate counts a value. */
function infiniteProblem(t: Transform, profile: DataProfile): string | null {
  if (t.type !== 'group' && t.type !== 'resample' && t.type !== 'season') return null;
  if (!t.measure || ('equals' in t && t.equals !== undefined)) return null;
  const measure = profile.column_profiles.find((c) => c.name === t.measure);
  return infiniteAggProblem(measure, t.agg);
}

/**
 * A rate (group with `equals`): a share of the measure's rows, so a mean of an indicator, of a
 * value the column holds. The sum, ratio and panel rules do not apply: a share of rows is a level
 * of its group, whatever the measure adds up to.
 */
function rateProblems(
  t: Extract<Transform, { type: 'group' | 'resample' }>,
  profile: DataProfile,
): string[] {
  if (!t.measure) return ['equals counts a value of the measure: it needs a measure'];
  if (t.agg !== 'mean')
    return [`a rate is the mean of "${t.measure}" = ${JSON.stringify(t.equals)}: use agg "mean"`];
  const col = profile.column_profiles.find((c) => c.name === t.measure);
  if (!col) return [];
  const shown = col.top.map((v) => v.value);
  const wanted = String(t.equals);
  // The profile lists a column's values as text (True, 1): all of them when it has few.
  const listed = col.distinct <= col.top.length;
  const same = (v: string): boolean =>
    v.toLowerCase() === wanted.toLowerCase() ||
    (typeof t.equals === 'number' && v.trim() !== '' && Number(v) === t.equals);
  const found = shown.some(same);
  if (listed && !found)
    return [
      `"${t.measure}" never equals ${JSON.stringify(t.equals)}; its values: ${shown.map((v) => JSON.stringify(v)).join(', ')}`,
    ];
  return [];
}

/**
 * An analysis of a long table's measure must take one value of the column naming what it holds
 * (semantics-facets.ts): pooled, or grouped by that column, it adds or compares different
 * quantities (population with life expectancy).
 */
function facetProblem(
  a: Analysis,
  facet: { column: string; measure: string; values: string[] } | undefined,
): string | null {
  if (!facet) return null;
  const used = columnsOf(a.transform).map((c) => c.name);
  if (!used.includes(facet.measure)) return null;
  const what = `"${facet.measure}" holds a different quantity per ${facet.column} (${facet.values.map((v) => JSON.stringify(v)).join(', ')}…)`;
  if (used.includes(facet.column))
    return `${what}: grouping it by ${facet.column} compares different quantities; chart one ${facet.column} at a time with a filter`;
  const one = (a.filters ?? []).some(
    (f) =>
      f.column === facet.column &&
      (f.op === '==' || (f.op === 'in' && Array.isArray(f.value) && f.value.length === 1)),
  );
  return one
    ? null
    : `${what}: add the filter {"column": ${JSON.stringify(facet.column)}, "op": "==", "value": ${JSON.stringify(facet.values[0] ?? '')}} (one analysis per ${facet.column})`;
}

/** A seasonal profile: the right chart for its cycle, totals of additive measures only, data fine enough. */
function seasonProblems(
  a: Analysis,
  t: Extract<Transform, { type: 'season' }>,
  profile: DataProfile,
): string[] {
  const sem = semanticsOf(profile);
  const problems: string[] = [];
  if ((t.cycle === 'weekday_hour') !== (a.chart === 'heatmap' || a.chart === 'table'))
    problems.push(
      t.cycle === 'weekday_hour'
        ? 'a weekday × hour profile is drawn as a heatmap (or a table)'
        : `a profile by ${t.cycle} is drawn as a bar, a line or a table, not a ${a.chart}`,
    );
  const measure = roleOf(sem, t.measure);
  if (measure && t.agg === 'sum') {
    const problem = sumProblem(measure, true);
    if (problem) problems.push(problem);
  }
  const date = profile.column_profiles.find((c) => c.name === t.date);
  const own = date ? timeFrequencyOf(date, { semantics: sem }) : null;
  const period = CYCLE_PERIOD[t.cycle];
  if (sem.table.time?.kind === 'year' && sem.table.time.column === t.date)
    problems.push(`"${t.date}" holds whole years: it has no months, weekdays or hours`);
  else if (own && PERIOD_ORDER.indexOf(period) < PERIOD_ORDER.indexOf(own))
    problems.push(
      `"${t.date}" has one value per ${PERIOD_WORD[own]}; a profile by ${t.cycle === 'weekday_hour' ? 'weekday and hour' : t.cycle} needs data per ${PERIOD_WORD[period]} or finer`,
    );
  const entity = sem.table.grain === 'panel' ? sem.table.entity : null;
  const filtered = (a.filters ?? []).some((f) => f.column === entity && f.op === '==');
  if (entity && measure && t.agg !== 'sum' && t.agg !== 'count' && !filtered)
    problems.push(
      `the table is a panel (one row per ${sem.table.keys.join(' × ')} per period): a ${t.agg} of "${t.measure}" over every ${entity} mixes them; filter one ${entity}`,
    );
  return problems;
}

/** Parses and checks a plan from unknown JSON; returns the plan or every problem found. */
export function parsePlan(
  json: unknown,
  profile: DataProfile,
): { ok: true; plan: Plan } | { ok: false; problems: string[] } {
  const parsed = PlanSchema.safeParse(json);
  if (!parsed.success)
    return {
      ok: false,
      problems: parsed.error.issues.map((i) => `${i.path.join('.') || 'plan'}: ${i.message}`),
    };
  const problems = checkPlan(parsed.data, profile);
  return problems.length ? { ok: false, problems } : { ok: true, plan: parsed.data };
}
