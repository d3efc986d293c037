/**
 * The deterministic planner: the rules a good analyst applies to a profile.
 * A time column and a measure → a line at a sensible frequency; category ×
 * measure → a sorted bar, top 10 with the rest as "Other"; numeric
 * distributions → histogram and box; strongly correlated pairs → scatter;
 * several measures → a correlation heatmap; a pie only for ≤ 6 slices;
 * identifiers and free text are never charted; quality problems are flagged.
 * With a question, the analysis that answers it comes first.
 */
import { infiniteLeftOutWhy, infiniteSummaryWhy, infiniteWhy } from './infinities.js';
import type { Analysis, Plan } from './plan.js';
import { MAX_FILTERS } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { listed } from '../util/sentence.js';
import { rateAnalyses } from './planner-rates.js';
import { ANSWERS, questionAnalysis, unanswerable } from './question-analysis.js';
import { aggWord, rankingAnalysis } from './planner-ranking.js';
import {
  aggFor,
  measureFrequency,
  ownFrequency,
  partialPeriods,
  PERIOD_ORDER,
  PERIOD_WORD,
  periodsSpanned,
  roleAggFor,
  roles,
  spansTime,
} from './roles.js';
import type { Period, Roles } from './roles.js';
import { repeatedProblem, roleOf } from './semantics.js';
import { flowsOf } from './semantics-balances.js';
import { integral, isNumberColumn, yearValued } from './semantics-evidence.js';
import {
  byCurrency,
  byFacet,
  byQuantity,
  derivedFrom,
  entityTop,
  placeAnalyses,
  compassAnalyses,
  qualityNotes,
  scatterColor,
  seasonAnalyses,
  TOP_ENTITIES,
  withoutTotals,
} from './planner-rules.js';
import { atLatest, withinReported } from './planner-latest.js';
import { overGaps, totalAsked } from './planner-gaps.js';
import { answerScale, sortFor, topFor } from './semantics-ordinal.js';

const MAX_ANALYSES = 10;

const AGG_WORD: Record<string, string> = {
  sum: 'summed',
  mean: 'averaged',
  median: 'its median',
  max: 'the last (largest) value of the running total',
  count: 'counted',
};

/** The most lines of several measures one chart draws. */
const SIDE_BY_SIDE = 6;
/** Lines share an axis only when their largest values are within this factor of each other. */
const SAME_SCALE = 20;

/** The largest magnitude a measure reaches (its range's farthest end from 0). */
function reach(c: ColumnProfile): number {
  const s = c.numeric ?? c.numeric_text?.stats;
  return s ? Math.max(Math.abs(s.min), Math.abs(s.max)) : 0;
}

/**
 * The measures a table of one row per period draws as lines of one chart (deaths by wounds,
 * disease and other causes per month): whole, non-negative numbers — counts of things — of one
 * scale (the largest values within SAME_SCALE of the lead's), never a running total, a year or
 * a column with infinities. Fractions are left apart: a temperature and a wind speed share a
 * range but not a unit, and nothing in the data tells them apart. Null when fewer than two.
 */
function sideBySide(
  r: Roles,
  profile: DataProfile,
  date: ColumnProfile,
  freq: Period,
): ColumnProfile[] | null {
  const grain = r.semantics.table.grain;
  if (grain === 'panel' || grain === 'event' || spansTime(date, freq, r)) return null;
  // One row per period: no date repeats (a table of one row per month, not of several).
  if (date.distinct !== profile.rows - date.missing) return null;
  const counts = r.measures.filter((m) => {
    const s = m.numeric ?? m.numeric_text?.stats;
    const role = roleOf(r.semantics, m.name)?.role;
    return (
      s != null &&
      s.min >= 0 &&
      integral(m) &&
      !yearValued(m) &&
      !m.infinite &&
      role !== 'cumulative' &&
      reach(m) > 0
    );
  });
  const lead = counts[0];
  if (!lead) return null;
  const scale = (m: ColumnProfile): boolean =>
    reach(m) <= reach(lead) * SAME_SCALE && reach(lead) <= reach(m) * SAME_SCALE;
  const order = profile.column_profiles.map((c) => c.name);
  const kept = counts
    .filter(scale)
    .slice(0, SIDE_BY_SIDE)
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return kept.length >= 2 ? kept : null;
}

function timeAnalyses(r: Roles, profile: DataProfile): Analysis[] {
  const date = r.dates[0];
  const measure = r.measures[0];
  if (!date) return [];
  const freq = measureFrequency(date, measure, r);
  const spans = spansTime(date, freq, r);
  const agg = aggFor(measure, r, spans);
  const table = r.semantics.table;
  // A code naming the entity is drawn as its name, when a column names the same groups.
  const shown = r.semantics.aliases?.find((a) => a.column === table.entity)?.as ?? table.entity;
  const entity =
    table.grain === 'panel'
      ? profile.column_profiles.find((c) => c.name === shown && c.distinct >= 2)
      : undefined;
  const what = measure ? measure.name : 'rows';
  const out: Analysis[] = [];
  // Several counts of one scale, one row per period: one line each, on one chart.
  const lines = sideBySide(r, profile, date, freq);
  if (lines) {
    const names = lines.map((m) => m.name);
    const linesAgg = lines.every((m) => aggFor(m, r, false) === 'sum') ? 'sum' : 'mean';
    out.push({
      title: cap(`${listed(names)} per ${PERIOD_WORD[freq]}`),
      chart: 'line',
      why: `${cap(listed(names))} side by side, one line each: the table has one row per ${PERIOD_WORD[freq]}, so each point is that ${PERIOD_WORD[freq]}'s value as recorded.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: null,
        measures: names,
        agg: linesAgg,
        freq,
      },
    });
  }
  // A panel's level (a price per symbol) averaged across entities mixes them: only per entity.
  const mixes = Boolean(entity && measure && agg !== 'sum' && agg !== 'count');
  // The lead measure's own line, unless it is one of the lines above.
  const drawn = Boolean(lines && measure && lines.includes(measure));
  // One row per period at the chart's own spacing: each point is a value, no average of any.
  const single = !spans && table.grain === 'series' && measure !== undefined;
  if (!mixes && !drawn)
    out.push({
      title: cap(`${single ? '' : aggWord(agg)}${what} per ${PERIOD_WORD[freq]}`),
      chart: 'line',
      why: single
        ? `How ${what} moves over time, one value per ${PERIOD_WORD[freq]}.${infiniteWhy(measure)}`
        : `How ${what} moves over time, ${AGG_WORD[agg] ?? agg} per ${PERIOD_WORD[freq]}${entity ? ` over every ${entity.name}` : ''}.${infiniteWhy(measure)}`,
      transform: { type: 'resample', date: date.name, measure: measure?.name ?? null, agg, freq },
    });
  // A panel of many entities: the largest few as lines (the rest of a sum as one "Other" line;
  // the rest of a level left out, since averaging them together would mix them).
  const additive = agg === 'sum' || agg === 'count';
  // undefined: every entity fits; null: too many, and no way to draw the largest of them.
  const entityCut = entity ? entityTop(entity, additive) : null;
  const series =
    entity && entityCut !== null
      ? entity
      : r.categories.find(
          (c) => c.distinct <= 6 && !repeatedProblem(r.semantics, measure?.name, c.name),
        );
  if (series && measure) {
    const top = series === entity ? (entityCut ?? undefined) : undefined;
    const rest = series.distinct - TOP_ENTITIES;
    // A panel's entity at its own spacing: one row per entity per period, each point its value.
    const word = series === entity && !spans ? '' : aggWord(agg);
    out.push({
      title: top
        ? `${cap(`${word}${measure.name}`)} per ${PERIOD_WORD[freq]}: the top ${top} ${series.name}`
        : `${cap(`${word}${measure.name}`)} per ${PERIOD_WORD[freq]} by ${series.name}`,
      chart: 'line',
      why: top
        ? `One line for each of the ${top} ${series.name} with the ${additive ? 'largest total' : 'highest average'} ${measure.name}; ${additive ? `the other ${rest} are summed as one "Other" line` : `the other ${rest} are left out (averaging them together would mix them)`}.`
        : series === entity
          ? `One line per ${series.name}: the table has one row per ${series.name} per period, so they are never mixed.`
          : `Whether the ${series.name} groups move together or apart.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: measure.name,
        agg,
        freq,
        series: series.name,
        ...(top ? { top } : {}),
      },
    });
  }
  // Events: how many happen per period, beside what they add up to.
  if (table.grain === 'event' && measure)
    out.push({
      title: `Rows per ${PERIOD_WORD[freq]}`,
      chart: 'line',
      why: `How many events each ${PERIOD_WORD[freq]} holds (a period without rows is a gap).`,
      transform: { type: 'resample', date: date.name, measure: null, agg: 'count', freq },
    });
  return out;
}

/**
 * A running balance beside its flow (semantics-balances.ts): where the money stood, each
 * period's average at the lead measure's period; never split by a category.
 */
function balanceAnalyses(r: Roles): Analysis[] {
  const [date, balance] = [r.dates[0], r.semantics.balances?.[0]];
  if (!date || !balance) return [];
  const freq = measureFrequency(date, r.measures[0], r);
  const per = PERIOD_WORD[freq];
  // Money in and out in two columns: both drawn, each month's totals (a blank is 0) when the
  // statement spans four months or more: income comes monthly, most weeks have none.
  const months = periodsSpanned(date, 'M', 4) ?? 0;
  const sideFreq =
    PERIOD_ORDER.indexOf(freq) < PERIOD_ORDER.indexOf('M') && months >= 4 ? 'M' : freq;
  const sides: Analysis[] = balance.debit
    ? [
        {
          title: `${balance.amount} and ${balance.debit} per ${PERIOD_WORD[sideFreq]}`,
          chart: 'line',
          why: `The money in (${balance.amount}) and out (${balance.debit}) each ${PERIOD_WORD[sideFreq]}: what moved ${balance.balance}.`,
          transform: {
            type: 'resample',
            date: date.name,
            measure: null,
            measures: [balance.amount, balance.debit],
            agg: 'sum',
            freq: sideFreq,
          },
        },
      ]
    : [];
  // A report of several accounts: each account's balance its own line (the largest few of many).
  const by = balance.by ? { series: balance.by, ...(sectionTop(r, balance.by) ?? {}) } : {};
  return [
    ...sides,
    {
      title: `${balance.balance} at the end of each ${per}${balance.by ? ` by ${balance.by}` : ''}`,
      chart: 'line',
      why: `Where ${balance.balance}, the running balance of ${flowsOf(balance)}, stood at the end of each ${per}: the value of its latest row${balance.by ? `, each ${balance.by}'s own` : ''}.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: balance.balance,
        agg: 'last',
        freq,
        ...by,
      },
    },
  ];
}

/** The most lines a balance per section draws; past it, the sections with the highest balances. */
const SECTION_LINES = 8;

function sectionTop(r: Roles, by: string): { top: number } | null {
  const column = r.categories.find((c) => c.name === by);
  return column && column.distinct > SECTION_LINES ? { top: SECTION_LINES } : null;
}

/**
 * A series (one row per period) whose lead measure adds up draws its first level over time too —
 * a share's price beside its volume — each point its own value when the span allows (else
 * averaged per period). Of a price's Open, High, Low and Close, the Close is the one drawn.
 */
function levelLine(r: Roles, lines: readonly Analysis[]): Analysis[] {
  const [date, lead] = [r.dates[0], r.measures[0]];
  if (!date || !lead || r.semantics.table.grain !== 'series') return [];
  // Measures of one scale side by side (deaths by cause) are the series' lines already.
  if (lines.some((a) => a.transform.type === 'resample' && a.transform.measures)) return [];
  if (aggFor(lead, r, false) !== 'sum') return [];
  const levels = r.measures.filter(
    (m) => roleOf(r.semantics, m.name)?.role === 'level' && !yearValued(m),
  );
  const level = levels.find((m) => /^close$/i.test(m.name.trim())) ?? levels[0];
  if (!level) return [];
  const freq = ownFrequency(date, r);
  const spans = spansTime(date, freq, r);
  const agg = aggFor(level, r, spans);
  const per = PERIOD_WORD[freq];
  return [
    {
      title: cap(`${spans ? aggWord(agg) : ''}${level.name} per ${per}`),
      chart: 'line',
      why: spans
        ? `How ${level.name} moves over time, ${AGG_WORD[agg] ?? agg} per ${per}.`
        : `How ${level.name} moves over time, one value per ${per}.`,
      transform: { type: 'resample', date: date.name, measure: level.name, agg, freq },
    },
  ];
}

/** A correlation this close to ±1 is one measure written twice, no relation worth a scatter. */
const SAME_MEASURE = 0.999;

/** A cross-section of named entities (one row each) is ranked by its entities up to this size. */
const RANKED_ENTITIES = 100_000;

/**
 * The entities of a cross-section ranked by the lead measure (the largest states by population;
 * the rest summed as "Other" for a sum), and by the first level or ratio beside it (the best
 * converting campaigns): with one row per entity, these are the charts an analyst draws first.
 */
/** Whether an entity's values are names or codes a person uses (Alabama, C07), not numbers (17). */
function namedValues(c: DataProfile['column_profiles'][number] | undefined): boolean {
  const values = c?.top.map((t) => t.value) ?? [];
  return (
    c !== undefined &&
    !isNumberColumn(c) &&
    values.length > 0 &&
    values.every((v) => /\p{L}/u.test(v))
  );
}

/**
 * The measures a bar may show, in the roles' order: bars compare lengths from zero, and a year (a
 * reign's start) is no length — no entity is ranked, no category averaged, by one.
 */
const barMeasures = (r: Roles): Roles['measures'] => r.measures.filter((m) => !yearValued(m));

function entityRankings(r: Roles, profile: DataProfile): Analysis[] {
  const { grain, entity } = r.semantics.table;
  const barred = barMeasures(r);
  const lead = barred[0];
  if (grain !== 'cross_section' || !entity || !lead || profile.rows > RANKED_ENTITIES) return [];
  if (roleOf(r.semantics, entity)?.role !== 'identifier') return [];
  // Who adds most (customers by revenue) ranks any entities; who scores highest (a level) only
  // named ones: respondent 12's score of 10 says nothing, Alabama's life expectancy does.
  const named = namedValues(profile.column_profiles.find((c) => c.name === entity));
  const beside = named ? barred.slice(1, 4).filter((m) => roleAggFor(m, r, false) === 'mean') : [];
  // A ratio (conversion rate) says more of an entity than a level beside it.
  const level = beside.find((m) => roleOf(r.semantics, m.name)?.role === 'ratio') ?? beside[0];
  const leadAgg = roleAggFor(lead, r, false);
  const ranked = leadAgg !== 'mean' ? [lead, ...(level ? [level] : [])] : named ? [lead] : [];
  return ranked.map((m) => {
    const agg = aggFor(m, r, false);
    return {
      title: `Top 10 ${entity} by ${m.name}`,
      chart: 'bar' as const,
      why: `The ${entity} values with the highest ${m.name} (one row each).${infiniteWhy(m)}`,
      transform: { type: 'group' as const, by: entity, measure: m.name, agg, top_n: 10 },
      options: { sort: 'descending' as const, orientation: 'h' as const },
    };
  });
}

/** The other end of `c`'s link in an edge list (both noted as its node codes by the profile). */
function linkPartner(c: ColumnProfile, rankings: readonly ColumnProfile[]): ColumnProfile[] {
  const link = c.notes.find((n) => n.startsWith('node codes of the links '));
  const other = link ? rankings.find((x) => x !== c && x.notes.includes(link)) : undefined;
  return other ? [other] : [];
}

/**
 * The first category the lead measure cannot be split by because the lead is an order's field
 * written on its first row (a line item's product varies within the order), compared by a
 * measure of its own rows that adds up: the units of each product, where the orders' totals
 * cannot say it.
 */
function lineItemAnalysis(
  r: Roles,
  lead: ColumnProfile | undefined,
  usable: readonly ColumnProfile[],
  spansAll: boolean,
): Analysis[] {
  if (!lead || !r.semantics.repeated?.some((x) => x.measure === lead.name && x.once)) return [];
  const line = r.categories.find((c) => !usable.includes(c));
  const own = line
    ? barMeasures(r).find(
        (m) =>
          m !== lead &&
          !repeatedProblem(r.semantics, m.name, line.name) &&
          aggFor(m, r, spansAll) === 'sum',
      )
    : undefined;
  if (!line || !own) return [];
  return [
    {
      title: cap(`${own.name} by ${line.name}`),
      chart: 'bar',
      why: `Which ${line.name} values contribute most to ${own.name}, from their own rows (${lead.name} is one value per ${r.semantics.repeated?.find((x) => x.measure === lead.name)?.entity ?? 'entity'}, on its first row).`,
      transform: { type: 'group', by: line.name, measure: own.name, agg: 'sum', top_n: 10 },
      options: {
        sort: 'descending',
        ...(line.distinct > 8 ? { orientation: 'h' as const } : {}),
      },
    },
  ];
}

/**
 * A survey's answers (Strongly disagree … Strongly agree): how many rows give each, in the
 * scale's order, for the first two such questions not compared already (`charted`).
 */
function answerAnalyses(r: Roles, charted: readonly ColumnProfile[]): Analysis[] {
  return r.categories
    .filter((c) => answerScale(c) && !charted.includes(c))
    .slice(0, 2)
    .map((c) => ({
      title: `Rows by ${c.name}`,
      chart: 'bar',
      why: `How the answers to ${c.name} spread over its scale, in the scale's order.`,
      transform: { type: 'group', by: c.name, measure: null, agg: 'count' },
      options: { sort: 'none' },
    }));
}

function categoryAnalyses(r: Roles, rows: number): Analysis[] {
  const barred = barMeasures(r);
  const measure = barred[0];
  // Groups over all rows hold several periods unless the table has no time (a cross-section):
  // a stock (population) adds up across the countries of a region, not across years.
  const spansAll = r.semantics.table.grain !== 'cross_section';
  const agg = aggFor(measure, r, spansAll);
  const out: Analysis[] = [];
  // A measure with one value per entity is compared across groups of entities only.
  const usable = r.categories.filter((c) => !repeatedProblem(r.semantics, measure?.name, c.name));
  for (const category of usable.slice(0, 2)) {
    const what = measure
      ? `${aggWord(agg)}${measure.name} by ${category.name}`
      : `rows by ${category.name}`;
    out.push({
      title: cap(what),
      chart: 'bar',
      why: `Which ${category.name} values ${agg === 'sum' || agg === 'count' ? 'contribute most' : 'rank highest'}${measure ? ` ${agg === 'sum' ? 'to' : 'in'} ${measure.name}` : ''}.${infiniteWhy(measure)}`,
      transform: {
        type: 'group',
        by: category.name,
        measure: measure?.name ?? null,
        agg,
        ...topFor(category, 10),
      },
      options: {
        sort: sortFor(category),
        ...(category.distinct > 8 ? { orientation: 'h' as const } : {}),
      },
    });
  }
  out.push(...lineItemAnalysis(r, measure, usable, spansAll));
  out.push(...answerAnalyses(r, usable.slice(0, 2)));
  // A lead measure that adds up (population; a stock, within each period) says nothing of the
  // levels beside it (income per person): the first of them gets its own comparison, averaged.
  // A quotient of two columns (CTR = Clicks ÷ Impr.) is the level an analyst compares first.
  const quotients = r.semantics.quotients ?? [];
  const quotient = barred.find(
    (m) => m.name !== measure?.name && quotients.some((q) => q.column === m.name),
  );
  const level =
    quotient ??
    barred
      .slice(1, 3)
      .find((m) => roleAggFor(m, r, spansAll) === 'mean' && m.name !== measure?.name);
  const first = r.categories.find((c) => !repeatedProblem(r.semantics, level?.name, c.name));
  const stock = measure && roleOf(r.semantics, measure.name)?.role === 'stock';
  const leadAdds = agg === 'sum' || agg === 'count' || roleAggFor(measure, r, spansAll) === 'sum';
  const levelAgg = aggFor(level, r, spansAll);
  if (measure && (leadAdds || stock) && level && first)
    out.push({
      title: cap(`${quotient ? '' : aggWord(levelAgg)}${level.name} by ${first.name}`),
      chart: 'bar',
      why: quotient
        ? `Which ${first.name} values rank highest in ${level.name}.`
        : `Which ${first.name} values rank highest in ${level.name} (a level: ${levelAgg === 'median' ? 'its median' : 'averaged'}, never summed).${infiniteWhy(level)}`,
      transform: {
        type: 'group',
        by: first.name,
        measure: level.name,
        agg: quotient ? 'mean' : levelAgg,
        ...topFor(first, 10),
      },
      options: {
        sort: sortFor(first),
        ...(first.distinct > 8 ? { orientation: 'h' as const } : {}),
      },
    });
  // A category with many members is ranked: its top 10 (the rest as "Other" for sums and counts).
  // Averaged, only members with at least half a typical member's rows (2 to 30): the highest
  // means of many members are those of a single row (one flight from BGR, delayed 123 minutes).
  // Half, so that a panel's member missing a year or two stays.
  const ranked = r.rankings[0];
  // An edge list ranks both ends: the nodes most links leave and those most links reach.
  for (const c of ranked ? [ranked, ...linkPartner(ranked, r.rankings)] : [])
    out.push(rankingAnalysis(c, measure, agg, rows));
  const pieCategory = r.categories.find((c) => c.distinct >= 2 && c.distinct <= 6);
  const nonNegative =
    !measure || ((measure.numeric ?? measure.numeric_text?.stats)?.min ?? -1) >= 0;
  // A share is a part of a sum: only amounts and counts make a pie.
  if (pieCategory && nonNegative && (agg === 'sum' || agg === 'count')) {
    out.push({
      title: `Share of ${measure?.name ?? 'rows'} by ${pieCategory.name}`,
      chart: 'pie',
      why: `Each ${pieCategory.name}'s share of the total.`,
      transform: {
        type: 'group',
        by: pieCategory.name,
        measure: measure?.name ?? null,
        agg,
        top_n: 6,
      },
    });
  }
  return out;
}

function distributionAnalyses(r: Roles, profile: DataProfile): Analysis[] {
  // A running total's values are sums of the earlier ones: their spread says how long each line
  // ran, and two of them rise together with time. Neither is drawn as a distribution or a pair.
  const spread = r.measures.filter((m) => roleOf(r.semantics, m.name)?.role !== 'cumulative');
  const out: Analysis[] = spread.slice(0, 2).map((m) => {
    const skewed = Math.abs(m.numeric?.skew ?? 0) > 2;
    return {
      title: `Distribution of ${m.name}`,
      chart: 'histogram' as const,
      why: `The typical ${m.name} and how spread out it is${skewed ? ' (strongly skewed: log scale)' : ''}.${infiniteLeftOutWhy(m)}`,
      transform: { type: 'distribution' as const, column: m.name },
      ...(skewed ? { options: { log_y: true } } : {}),
    };
  });
  const measure = spread[0];
  const by = r.categories.find(
    (c) => c.distinct <= 30 && !repeatedProblem(r.semantics, measure?.name, c.name),
  );
  if (measure && by) {
    out.push({
      title: `Spread of ${measure.name} within each ${by.name}`,
      chart: 'box',
      why: `How ${measure.name} varies within and between ${by.name} groups.${infiniteLeftOutWhy(measure)}`,
      transform: { type: 'distribution', column: measure.name, by: by.name },
    });
  }
  const measureNames = new Set(spread.map((m) => m.name));
  // First a pair whose relation the groups of a small category hide (the table facts measured it
  // per group): pooled, penguins' beak length and depth fall together; within each species they rise.
  const hidden = (r.semantics.groupEffects ?? []).find(
    (g) => measureNames.has(g.a) && measureNames.has(g.b),
  );
  // A handful of whole numbers, each repeated (cylinders 3–8 over 400 cars), against a measure
  // is a strip of columns, not a cloud: the box of the measure by it says more, so it is no
  // scatter's axis. (In a table of ten rows every column has a handful of values.)
  const discrete = (name: string): boolean => {
    const c = profile.column_profiles.find((x) => x.name === name);
    return c !== undefined && c.distinct <= 8 && c.distinct * 4 <= profile.rows && integral(c);
  };
  const pairs = [
    ...(hidden ? [{ a: hidden.a, b: hidden.b, color: hidden.by, hidden: true }] : []),
    // Two columns that move as one (r of 0.999 or more: a share's Close and Adj Close, a length in
    // inches and in cm) are one measure twice: their scatter is a line and says nothing.
    ...profile.correlations
      .filter((c) => Math.abs(c.r) >= 0.5 && Math.abs(c.r) < SAME_MEASURE)
      .filter((c) => measureNames.has(c.a) && measureNames.has(c.b))
      .filter((c) => !discrete(c.a) && !discrete(c.b))
      .filter(
        (c) => !hidden || !(new Set([c.a, c.b]).has(hidden.a) && new Set([c.a, c.b]).has(hidden.b)),
      )
      .map((c) => ({ a: c.a, b: c.b, color: scatterColor(r, [c.a, c.b]), hidden: false })),
  ].slice(0, 2);
  for (const pair of pairs) {
    // No r here: the profile may have sampled it; the finding gives r and ρ over all rows, once.
    // Coloured by a small category, so a group effect the overall trend hides stays visible.
    const color = pair.color;
    out.push({
      title: `${cap(pair.b)} vs ${pair.a}${pair.hidden ? ` within each ${color}` : ''}`,
      chart: 'scatter',
      why: pair.hidden
        ? `Pooled, ${pair.b} and ${pair.a} seem to move ${hidden?.kind === 'reversal' ? 'apart' : 'loosely'}; within each ${color} the relation is ${hidden?.kind === 'reversal' ? 'the other way' : 'stronger'}. Coloured by ${color}; the findings give both.`
        : `How ${pair.b} moves with ${pair.a}${color ? `, coloured by ${color}, a trend line per group` : ''}; the finding gives the correlation over all rows${color ? `, and says so when it differs within each ${color}` : ''}.`,
      transform: {
        type: 'relationship',
        x: pair.a,
        y: pair.b,
        ...(color ? { color } : {}),
      },
      options: { trendline: true },
    });
  }
  if (r.measures.length >= 3) {
    out.push({
      title: 'Correlations between numeric columns',
      chart: 'heatmap',
      why: 'Which measures rise and fall together.',
      transform: { type: 'correlation', columns: r.measures.slice(0, 15).map((m) => m.name) },
    });
  }
  return out;
}

function qualityAnalyses(profile: DataProfile, r: Roles): Analysis[] {
  const out: Analysis[] = [];
  if (r.measures.length)
    out.push({
      title: 'Summary statistics',
      chart: 'table',
      why: `Count, mean, spread and range of each measure.${infiniteSummaryWhy(r.measures.slice(0, 20))}`,
      transform: { type: 'summary', columns: r.measures.slice(0, 20).map((m) => m.name) },
    });
  if (profile.column_profiles.some((c) => c.missing > 0))
    out.push({
      title: 'Missing values',
      chart: 'table',
      why: 'Columns with missing values, and how many.',
      transform: { type: 'missing' },
    });
  return out;
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function key(a: Analysis): string {
  return `${a.chart}:${JSON.stringify(a.transform)}:${JSON.stringify(a.filters ?? [])}`;
}

/** A histogram after the plan's first one. */
function secondHistogram(a: Analysis, all: readonly Analysis[]): boolean {
  return a.chart === 'histogram' && all.find((x) => x.chart === 'histogram') !== a;
}

/** Every analysis the data calls for, in the plan's order, one facet at a time, named by its quantity. */
function candidatesOf(profile: DataProfile, r: Roles, question?: string): Analysis[] {
  const lines = timeAnalyses(r, profile);
  const all = [
    ...(question ? questionAnalysis(question, profile, r) : []),
    ...lines,
    ...balanceAnalyses(r),
    ...levelLine(r, lines),
    ...placeAnalyses(r),
    ...compassAnalyses(r, profile),
    ...rateAnalyses(r, profile),
    ...categoryAnalyses(r, profile.rows),
    ...entityRankings(r, profile),
    ...seasonAnalyses(r),
    ...distributionAnalyses(r, profile),
    ...qualityAnalyses(profile, r),
  ];
  const total = totalAsked(question);
  return byQuantity(
    byCurrency(byFacet(all, r), r).map((a) =>
      overGaps(withinReported(atLatest(a, r), r, profile), r, total && a.why.startsWith(ANSWERS)),
    ),
    r,
  );
}

/** The heuristic plan for a profile (and an optional question, answered first). */
export function heuristicPlan(profile: DataProfile, question?: string): Plan {
  const r = roles(profile);
  const candidates = candidatesOf(profile, r, question);
  if (candidates.length === 0) {
    const first = profile.column_profiles.find((c) => c.semantic !== 'empty');
    if (first)
      candidates.push({
        title: `Summary of ${first.name}`,
        chart: 'table',
        why: 'Nothing here can be charted meaningfully (identifiers or free text); its summary is shown instead.',
        transform: { type: 'summary', columns: [first.name] },
      });
  }
  const seen = new Set<string>();
  const kept = candidates.filter(
    (a) => !derivedFrom(a, r) && !seen.has(key(a)) && seen.add(key(a)),
  );
  // Over the limit, what repeats another chart goes first, from the end: a second histogram (the
  // lead measure has its own), then a pie of the bar's sums; then the plan is cut in order.
  // Never the question's answer (a pie of shares it asks for).
  const spare = kept.filter(
    (a) => !a.why.startsWith(ANSWERS) && (a.chart === 'pie' || secondHistogram(a, kept)),
  );
  spare.sort((a, b) => Number(a.chart === 'pie') - Number(b.chart === 'pie'));
  while (kept.length > MAX_ANALYSES && spare.length) {
    const drop = spare.pop() as Analysis;
    kept.splice(kept.indexOf(drop), 1);
  }
  const analyses = kept.slice(0, MAX_ANALYSES);
  const unanswered =
    question && unanswerable(question, profile)
      ? [
          `No column of ${profile.source.name} answers "${question.length > 120 ? `${question.slice(0, 117)}…` : question}": the report shows the standard analyses of the data instead.`,
        ]
      : [];
  const partial = new Set<string>();
  const full = analyses.map((a) => {
    const t = a.transform;
    const date =
      t.type === 'resample' ? profile.column_profiles.find((c) => c.name === t.date) : undefined;
    // A closing value is the period's latest row, as true of a short period as of a full one.
    const edges =
      date && t.type === 'resample' && t.agg !== 'last'
        ? partialPeriods(date, t.freq, r, profile.rows)
        : null;
    if (!edges) return a;
    partial.add(edges.note);
    return { ...a, filters: [...(a.filters ?? []), ...edges.filters].slice(0, MAX_FILTERS) };
  });
  return {
    analyses: full.map((a) => withoutTotals(a, r)),
    notes: [...unanswered, ...partial, ...qualityNotes(profile, r)].slice(0, 10),
  };
}
