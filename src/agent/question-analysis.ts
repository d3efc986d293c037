/**
 * The heuristic planner's reading of a question: which columns it names, and
 * whether it asks about a trend, a ranking, a share, a distribution or a
 * relationship. The analysis that answers it goes first in the plan.
 */
import { balanceLine } from './semantics-balances.js';
import { aggFor, measureFrequency, PERIOD_WORD, spansTime, timeFrequencyOf } from './roles.js';
import { PERIOD_DAYS, PERIOD_ORDER, type Period } from './periods.js';
import type { Roles } from './roles.js';
import { ENTITY_LINES, entityTop, scatterColor } from './planner-rules.js';
import { MAX_FILTERS, type Analysis } from './plan.js';
import { discreteGroups, rateQuestion } from './planner-rates.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { namedColumns, namedFamily, withFamily } from './question-columns.js';
import { filtersSaid, valueFilters } from './question-values.js';
import { alignedTo, narrowed, timeReading } from './question-times.js';
import { cycleAnswer, cycleAsked, cycleFits, cycleWorded } from './question-cycles.js';
import { shareAnswer, shareCategory, shareFilters, sharedRows } from './question-shares.js';
import { rankingAnalysis } from './planner-ranking.js';
import { sortFor } from './semantics-ordinal.js';

const WORDS = {
  trend:
    /\b(trend|over time|hourly|daily|weekly|monthly|quarterly|yearly|annual|(per|by|each) (hour|day|week|month|quarter|year)\b|growth|gr[eo]w|grown|season|evolv|change[sd]? over|verlauf|entwicklung|(pro|je) (stunde|tag|woche|monat|quartal|jahr)\b|täglich|wöchentlich|monatlich|quartalsweise|jährlich)/i,
  distribution: /\b(distribution|spread|histogram|typical|range of|outlier)/i,
  relationship:
    /\b(correlat\w*|relationships?|relat(e|es|ed)|vs\.?|versus|affect\w*|impact\w*|depend\w*|against)\b/i,
  share: /\b(shares?|proportions?|percentages?|breakdowns?|split|composition)\b/i,
  ranking: /\b(top|best|worst|largest|highest|lowest|most|least|biggest|rank|leading)\b/i,
  growth:
    /\b(gr[eo]w|growth|growing|return|returns|perform|outperform|rebase|rebased|index(ed)?)\b/i,
};

/** Words that ask for a line's period ("monthly", "per week", "by year"), the coarsest last. */
const PERIOD_ASKED: readonly [Period, RegExp][] = [
  ['H', /\b(hourly|(per|by|each) hour|stündlich\w*|(pro|je) stunde)\b/i],
  ['D', /\b(daily|(per|by|each) day|täglich\w*|(pro|je) tag)\b/i],
  ['W', /\b(weekly|(per|by|each) week|wöchentlich\w*|(pro|je) woche)\b/i],
  ['M', /\b(monthly|(per|by|each) month|monatlich\w*|(pro|je) monat)\b/i],
  ['Q', /\b(quarterly|(per|by|each) quarter|quartalsweise|(pro|je) quartal)\b/i],
  ['Y', /\b(yearly|annual(ly)?|(per|by|each) year|jährlich\w*|(pro|je) jahr)\b/i],
];

/** Words that name two columns measured against each other, not two sets of rows compared. */
const PAIRED = /\b(correlat\w*|relationships?|relat(e|es|ed)|affect\w*|impact\w*|depend\w*)\b/i;

/**
 * The period a question asks its line in, if the data can give it: never finer than the data's
 * own spacing, never more than PERIOD_POINTS points; null for the planner's own.
 */
function askedPeriod(question: string, date: ColumnProfile, r: Roles): Period | null {
  const asked = periodWords(question);
  if (!asked) return null;
  const own = timeFrequencyOf(date, r);
  if (own !== null && PERIOD_ORDER.indexOf(asked) < PERIOD_ORDER.indexOf(own)) return null;
  const span = date.datetime?.span_days ?? 0;
  return span / PERIOD_DAYS[asked] <= PERIOD_POINTS ? asked : null;
}

/** The period a question's words ask ("monthly", "per week", "pro Monat"), if any. */
function periodWords(question: string): Period | undefined {
  return PERIOD_ASKED.find(([, words]) => words.test(question))?.[0];
}

/**
 * What a line's note says when the question asks a finer period than the line has ("by hour" of
 * a table of days): the data holds none finer.
 */
function periodNote(question: string, a: Analysis): string {
  const t = a.transform;
  if (t.type !== 'resample') return '';
  const asked = periodWords(question);
  if (!asked || PERIOD_ORDER.indexOf(asked) >= PERIOD_ORDER.indexOf(t.freq)) return '';
  return ` It asks per ${PERIOD_WORD[asked]}, finer than the data's own times: this is per ${PERIOD_WORD[t.freq]}.`;
}

/** The most points a line in the period a question asks may have. */
const PERIOD_POINTS = 3000;

function aggOf(
  question: string,
  measure: ColumnProfile | undefined,
  r: Roles,
  spans: boolean,
  named = false,
): 'sum' | 'mean' | 'median' | 'count' | 'min' | 'max' {
  if (/\b(average|mean|avg)\b/i.test(question)) return 'mean';
  if (/\bmedian\b/i.test(question)) return 'median';
  // "Return rate by product": returns per row, not their total titled as a rate.
  if (
    /\brates?\b/i.test(question) &&
    !/\b(gr[eo]w\w*|growth)\b/i.test(question) &&
    measure?.numeric
  )
    return 'mean';
  // "How many orders": rows; "how many units" (a measure it names): their total.
  if (/\b(how many|number of|count)\b/i.test(question) && !named) return 'count';
  if (/\b(max|maximum|peak)\b/i.test(question)) return 'max';
  if (/\b(min|minimum)\b/i.test(question)) return 'min';
  return aggFor(measure, r, spans);
}

/** How the why of the analysis answering a question starts (the plan never drops it for room). */
export const ANSWERS = 'Answers the question:';

/** At most this many characters in an analysis' why (AnalysisSchema). */
const WHY_CHARS = 300;

/**
 * Zero or one analysis that answers the question, from the columns it names, the values it names
 * (filters: the rows it asks about) and the words it uses.
 */
export function questionAnalysis(question: string, profile: DataProfile, r: Roles): Analysis[] {
  // "Year to date" names a time, not the column "date".
  const named = namedColumns(
    question.replace(/\b(year|quarter|month)[\s-]to[\s-]date\b/gi, ' '),
    profile.column_profiles,
  );
  const time = named.find((c) => r.dates.includes(c));
  const when = timeReading(question, time ?? r.dates[0]);
  const filters = [...valueFilters(question, profile), ...when.filters];
  const family = namedFamily(question, profile.column_profiles, (c) => r.measures.includes(c));
  return answerOf(question, profile, r, { named, filters }).map((answer) => {
    const a = withFamily(answer, family);
    const own = shareFilters(a, filters);
    const why = `${a.why}${filtersSaid(own, when.said)}${when.note ? ` ${when.note}` : ''}${periodNote(question, a)}`;
    // A line's rows in whole periods of its own (a week from its Monday).
    const t = a.transform;
    const kept = t.type === 'resample' ? alignedTo(own, t.date, t.freq) : own;
    return {
      ...a,
      why: why.length > WHY_CHARS ? `${why.slice(0, WHY_CHARS - 1)}…` : why,
      ...(kept.length ? { filters: [...kept, ...(a.filters ?? [])].slice(0, MAX_FILTERS) } : {}),
    };
  });
}

/** The category a question groups its answer by, if any. */
function askedCategory(
  question: string,
  r: Roles,
  reading: { named: ColumnProfile[]; filters: NonNullable<Analysis['filters']> },
  measure: ColumnProfile | undefined,
): ColumnProfile | undefined {
  const { named, filters } = reading;
  // A column the question sets to one value ("in the West") is no grouping of its answer.
  const open = (c: ColumnProfile): boolean =>
    !filters.some((f) => f.column === c.name && f.op === '==');
  return (
    named.find((c) => r.categories.includes(c) && open(c)) ??
    // A handful of whole numbers it names as groups ("by cluster", "by class").
    named.find((c) => c !== measure && discreteGroups(c) && open(c)) ??
    // Several values of a category it names ("Online vs Retail"): compared side by side.
    r.categories.find((c) => filters.some((f) => f.column === c.name && f.op === 'in')) ??
    // A share of a value it names ("what percentage of revenue comes from Online"): of its column.
    shareCategory(question, r, [], filters) ??
    // Ranking words without a column to rank: the data's first category ("top sellers"); not
    // the ranking of a cycle ("which weekday sells most").
    ((WORDS.ranking.test(question) || WORDS.share.test(question)) &&
    !cycleWorded(question) &&
    !named.some((c) => r.rankings.includes(c) && open(c))
      ? r.categories.find(open)
      : undefined)
  );
}

function answerOf(
  question: string,
  profile: DataProfile,
  r: Roles,
  reading: { named: ColumnProfile[]; filters: NonNullable<Analysis['filters']> },
): Analysis[] {
  const { named, filters } = reading;
  // A column the question sets to one value ("in the West") is no grouping of its answer.
  const open = (c: ColumnProfile): boolean =>
    !filters.some((f) => f.column === c.name && f.op === '==');
  const measure = named.find((c) => r.measures.includes(c)) ?? r.measures[0];
  const second =
    named.filter((c) => r.measures.includes(c))[1] ?? r.measures.find((m) => m !== measure);
  const category = askedCategory(question, r, reading, measure);
  // Rows it names and nothing else ("How is the West doing?"): their trend; so too a span of
  // time it names for a measure alone ("price of AAPL in the last 2 years"), and values it
  // compares of a panel or a series ("life expectancy of Japan vs China"): a line each.
  // A share of the value it names ("what share of movies are comedies") is no trend of its rows.
  const only = filters.length > 0 && named.length === 0 && !shareCategory(question, r, [], filters);
  const grouped = category !== undefined || named.some((c) => r.rankings.includes(c));
  const timed = !grouped && filters.some((f) => r.dates.some((d) => d.name === f.column));
  const grain = r.semantics.table.grain;
  const versus = profile.column_profiles.find((c) =>
    filters.some((f) => f.column === c.name && f.op === 'in'),
  );
  const compared =
    versus && (grain === 'panel' || grain === 'series') && (!grouped || category === versus);
  const date =
    named.find((c) => r.dates.includes(c)) ??
    (WORDS.trend.test(question) || only || timed || compared ? r.dates[0] : undefined);
  const isNamed = !!measure && named.includes(measure);
  // "Share of customers by contract": of the rows, not of the first measure.
  const valued = isNamed || !sharedRows(question, filters) ? measure : undefined;
  const agg = valued
    ? aggOf(question, valued, r, r.semantics.table.grain !== 'cross_section', isNamed)
    : 'count';
  // A count of rows ("how many orders") counts rows, not the values of some measure.
  const counts = (a: string): string | null =>
    a === 'count' && !isNamed ? null : (measure?.name ?? null);
  const title = question.length > 110 ? `${question.slice(0, 107)}…` : question;
  const asked = `${ANSWERS} "${title}".`;
  // A question naming no number column gets the data's first measure, and says so.
  const guessed =
    measure && !named.includes(measure)
      ? ` It names no number column of the data, so this shows ${measure.name}, its first measure.`
      : '';
  const why = asked + guessed;
  const counted = (agg: string): string => (agg === 'count' ? asked : why);
  const rate = rateQuestion(question, profile, r, named, { title, why: asked });
  if (rate) return [rate];
  const top = Number(/\btop\s+(\d{1,2})\b/i.exec(question)?.[1] ?? 10);
  // Two measures against each other: named both ("price vs revenue"), or one with a word of
  // pairing ("what affects revenue?"); "Online vs Retail" compares rows, it pairs no columns.
  const namedMeasures = named.filter((c) => r.measures.includes(c)).length;
  const paired =
    WORDS.relationship.test(question) &&
    (namedMeasures >= 2 || (namedMeasures === 1 && PAIRED.test(question)));
  if (paired && measure && second) {
    return [
      {
        title,
        why,
        chart: 'scatter',
        transform: {
          type: 'relationship',
          x: measure.name,
          y: second.name,
          ...(scatterColor(r, [measure.name, second.name])
            ? { color: scatterColor(r, [measure.name, second.name]) }
            : {}),
        },
        options: { trendline: true },
      },
    ];
  }
  const cycleDate = date ?? r.dates[0];
  const cycle = !grouped && cycleDate ? cycleAsked(question, cycleDate, r) : null;
  const cycleAgg = valued ? aggOf(question, valued, r, true, isNamed) : 'count';
  if (cycle && cycleDate && cycleFits(r, cycleAgg, valued))
    return [
      cycleAnswer({ title, why: counted(cycleAgg) }, cycleDate, cycle, counts(cycleAgg), cycleAgg),
    ];
  if (date) {
    // Periods that suit the span it keeps ("the last 3 months": weeks, not months).
    const span = narrowed(date, filters);
    const freq = askedPeriod(question, span, r) ?? measureFrequency(span, measure, r);
    const entity = r.semantics.table.grain === 'panel' ? r.semantics.table.entity : null;
    const agg = valued ? aggOf(question, valued, r, spansTime(date, freq, r), isNamed) : 'count';
    const parted = shareCategory(question, r, named, filters, category);
    if (parted)
      return [shareAnswer({ title, why }, { date, category: parted, measure, agg, freq })];
    // Growth of a panel's levels (prices per symbol): each entity as an index from the first
    // period they all share, so the comparison is of growth, not of size.
    const ofEntity = profile.column_profiles.find((c) => c.name === entity);
    const growth =
      WORDS.growth.test(question) && ofEntity && measure && agg !== 'sum' && agg !== 'count';
    if (growth) {
      const top = entityTop(ofEntity, false);
      return [
        {
          title,
          why: `${why} Each ${ofEntity.name} as an index, 100 at the first ${PERIOD_WORD[freq]} every ${ofEntity.name} has a value${top ? `; the ${top} with the highest average ${measure.name}` : ''}.`,
          chart: 'line',
          transform: {
            type: 'resample',
            date: date.name,
            measure: measure.name,
            agg,
            freq,
            series: ofEntity.name,
            rebase: true,
            ...(top ? { top } : {}),
          },
        },
      ];
    }
    const byEntity = profile.column_profiles.find(
      (c) => c.name === entity && c.distinct <= ENTITY_LINES && open(c),
    );
    const series = category && category.distinct <= 8 ? category : (versus ?? byEntity);
    return [
      {
        title,
        why: counted(agg),
        chart: 'line',
        transform: {
          type: 'resample',
          date: date.name,
          measure: counts(agg),
          freq,
          ...balanceLine(question, valued?.name, agg, r.semantics, series?.name),
        },
      },
    ];
  }
  if (WORDS.distribution.test(question) && measure) {
    return [
      {
        title,
        why,
        chart: category ? 'box' : 'histogram',
        transform: {
          type: 'distribution',
          column: measure.name,
          ...(category ? { by: category.name } : {}),
        },
      },
    ];
  }
  // A column of many members it names ("delay by origin" of 300 airports): their top ones.
  const ranked = category ? undefined : named.find((c) => r.rankings.includes(c) && open(c));
  if (ranked && measure) {
    // Rows kept by the question's filters: how many a member has among them is unknown (one a
    // year, in a panel kept to a year), so no member is left out for having few.
    const rows = filters.length ? 0 : profile.rows;
    const ranking = rankingAnalysis(ranked, measure, agg, rows, Math.max(2, Math.min(50, top)));
    return [{ ...ranking, title, why: `${counted(agg)} ${ranking.why}` }];
  }
  if (category) {
    const additive = agg === 'sum' || agg === 'count';
    const pie = WORDS.share.test(question) && category.distinct <= 6 && additive;
    // The member a share asks about ("… is renewables"): its share said first.
    const member = filters.find((f) => f.column === category.name && f.op === '==')?.value;
    const asks = additive && (typeof member === 'string' || typeof member === 'number');
    // Bands and scales keep their own order, every level, unless the question ranks them.
    const own = !WORDS.ranking.test(question) && sortFor(category) === 'none';
    return [
      {
        title,
        why: counted(agg),
        chart: pie ? 'pie' : 'bar',
        transform: {
          type: 'group',
          by: category.name,
          measure: counts(agg),
          agg,
          top_n: Math.max(2, Math.min(50, own ? Math.max(top, category.distinct) : top)),
          ...(asks ? { named: member } : {}),
        },
        ...(pie ? {} : { options: { sort: own ? ('none' as const) : ('descending' as const) } }),
      },
    ];
  }
  if (measure && (named.includes(measure) || only))
    return [
      { title, why, chart: 'histogram', transform: { type: 'distribution', column: measure.name } },
    ];
  return [];
}

/**
 * True when the question names no column and asks for no kind of analysis the data can give
 * ("What is the weather like?" of a sales file): the plan then says so instead of titling some
 * chart with it.
 */
export function unanswerable(question: string, profile: DataProfile): boolean {
  const date = profile.column_profiles.find((c) => c.semantic === 'datetime');
  return (
    namedColumns(question, profile.column_profiles).length === 0 &&
    valueFilters(question, profile).length === 0 &&
    timeReading(question, date).filters.length === 0 &&
    !Object.values(WORDS).some((words) => words.test(question))
  );
}
