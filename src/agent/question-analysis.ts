/**
 * The heuristic planner's reading of a question: which columns it names, and
 * whether it asks about a trend, a ranking, a share, a distribution or a
 * relationship. The analysis that answers it goes first in the plan.
 */
import { aggFor, measureFrequency, PERIOD_WORD, spansTime } from './roles.js';
import type { Roles } from './roles.js';
import { ENTITY_LINES, entityTop, scatterColor } from './planner-rules.js';
import type { Analysis } from './plan.js';
import { MAX_FILTERS } from './plan.js';
import { discreteGroups, rateQuestion } from './planner-rates.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { namedColumns } from './question-columns.js';
import { filtersSaid, valueFilters, yearFilters } from './question-values.js';
import { rankingAnalysis } from './planner-ranking.js';

const WORDS = {
  trend:
    /\b(trend|over time|monthly|weekly|daily|yearly|per (day|week|month|year)|growth|gr[eo]w|grown|season|evolv|change[sd]? over)/i,
  distribution: /\b(distribution|spread|histogram|typical|range of|outlier)/i,
  relationship: /\b(correlat|relationship|relate|vs\.?|versus|affect|impact|depend|against)\b/i,
  share: /\b(share|proportion|percentage|breakdown|split|composition)\b/i,
  ranking: /\b(top|best|worst|largest|highest|lowest|most|least|biggest|rank|leading)\b/i,
  growth:
    /\b(gr[eo]w|growth|growing|return|returns|perform|outperform|rebase|rebased|index(ed)?)\b/i,
};

function aggOf(
  question: string,
  measure: ColumnProfile | undefined,
  r: Roles,
  spans: boolean,
): 'sum' | 'mean' | 'median' | 'count' | 'min' | 'max' {
  if (/\b(average|mean|avg)\b/i.test(question)) return 'mean';
  if (/\bmedian\b/i.test(question)) return 'median';
  if (/\b(how many|number of|count)\b/i.test(question)) return 'count';
  if (/\b(max|maximum|peak)\b/i.test(question)) return 'max';
  if (/\b(min|minimum)\b/i.test(question)) return 'min';
  return aggFor(measure, r, spans);
}

/** At most this many characters in an analysis' why (AnalysisSchema). */
const WHY_CHARS = 300;

/**
 * Zero or one analysis that answers the question, from the columns it names, the values it names
 * (filters: the rows it asks about) and the words it uses.
 */
export function questionAnalysis(question: string, profile: DataProfile, r: Roles): Analysis[] {
  const named = namedColumns(question, profile.column_profiles);
  const time = named.find((c) => r.dates.includes(c));
  const filters = [
    ...valueFilters(question, profile),
    ...yearFilters(question, time ?? r.dates[0]),
  ];
  return answerOf(question, profile, r, { named, filters }).map((a) => {
    const why = `${a.why}${filtersSaid(filters)}`;
    return {
      ...a,
      why: why.length > WHY_CHARS ? `${why.slice(0, WHY_CHARS - 1)}…` : why,
      ...(filters.length
        ? { filters: [...filters, ...(a.filters ?? [])].slice(0, MAX_FILTERS) }
        : {}),
    };
  });
}

function answerOf(
  question: string,
  profile: DataProfile,
  r: Roles,
  reading: { named: ColumnProfile[]; filters: readonly { column: string; op: string }[] },
): Analysis[] {
  const { named, filters } = reading;
  // A column the question sets to one value ("in the West") is no grouping of its answer.
  const open = (c: ColumnProfile): boolean =>
    !filters.some((f) => f.column === c.name && f.op === '==');
  const measure = named.find((c) => r.measures.includes(c)) ?? r.measures[0];
  const second =
    named.filter((c) => r.measures.includes(c))[1] ?? r.measures.find((m) => m !== measure);
  const category =
    named.find((c) => r.categories.includes(c) && open(c)) ??
    // A handful of whole numbers it names as groups ("by cluster", "by class").
    named.find((c) => c !== measure && discreteGroups(c) && open(c)) ??
    (WORDS.ranking.test(question) || WORDS.share.test(question)
      ? r.categories.find(open)
      : undefined);
  // Rows it names and nothing else ("How is the West doing?"): their trend.
  const only = filters.length > 0 && named.length === 0;
  const date =
    named.find((c) => r.dates.includes(c)) ??
    (WORDS.trend.test(question) || only ? r.dates[0] : undefined);
  const agg = measure
    ? aggOf(question, measure, r, r.semantics.table.grain !== 'cross_section')
    : 'count';
  const title = question.length > 110 ? `${question.slice(0, 107)}…` : question;
  const asked = `Answers the question: "${title}"`;
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
  if (WORDS.relationship.test(question) && measure && second) {
    return [
      {
        title,
        why,
        chart: 'scatter',
        transform: {
          type: 'relationship',
          x: measure.name,
          y: second.name,
          ...(scatterColor(r) ? { color: scatterColor(r) } : {}),
        },
        options: { trendline: true },
      },
    ];
  }
  if (date) {
    const freq = measureFrequency(date, measure, r);
    const entity = r.semantics.table.grain === 'panel' ? r.semantics.table.entity : null;
    const agg = measure ? aggOf(question, measure, r, spansTime(date, freq, r)) : 'count';
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
    const series = category && category.distinct <= 8 ? category : byEntity;
    return [
      {
        title,
        why: counted(agg),
        chart: 'line',
        transform: {
          type: 'resample',
          date: date.name,
          measure: measure?.name ?? null,
          agg,
          freq,
          ...(series ? { series: series.name } : {}),
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
    const pie =
      WORDS.share.test(question) && category.distinct <= 6 && (agg === 'sum' || agg === 'count');
    return [
      {
        title,
        why: counted(agg),
        chart: pie ? 'pie' : 'bar',
        transform: {
          type: 'group',
          by: category.name,
          measure: measure?.name ?? null,
          agg,
          top_n: Math.max(2, Math.min(50, top)),
        },
        ...(pie ? {} : { options: { sort: 'descending' as const } }),
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
  return (
    namedColumns(question, profile.column_profiles).length === 0 &&
    valueFilters(question, profile).length === 0 &&
    yearFilters(
      question,
      profile.column_profiles.find((c) => c.semantic === 'datetime'),
    ).length === 0 &&
    !Object.values(WORDS).some((words) => words.test(question))
  );
}
