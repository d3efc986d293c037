/**
 * The deterministic planner: the rules a good analyst applies to a profile.
 * A time column and a measure → a line at a sensible frequency; category ×
 * measure → a sorted bar, top 10 with the rest as "Other"; numeric
 * distributions → histogram and box; strongly correlated pairs → scatter;
 * several measures → a correlation heatmap; a pie only for ≤ 6 slices;
 * identifiers and free text are never charted; quality problems are flagged.
 * With a question, the analysis that answers it comes first.
 */
import type { Analysis, Plan } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { questionAnalysis, unanswerable } from './question-analysis.js';
import { aggFor, frequencyFor, roles } from './roles.js';
import type { Roles } from './roles.js';

const MAX_ANALYSES = 10;

const FREQ_WORD: Record<string, string> = {
  H: 'hour',
  D: 'day',
  W: 'week',
  M: 'month',
  Q: 'quarter',
  Y: 'year',
};

function timeAnalyses(r: Roles): Analysis[] {
  const date = r.dates[0];
  const measure = r.measures[0];
  if (!date) return [];
  const freq = frequencyFor(date.datetime?.span_days ?? 0, date.datetime?.frequency ?? null);
  const what = measure ? measure.name : 'rows';
  const out: Analysis[] = [
    {
      title: cap(`${aggWord(measure)}${what} per ${FREQ_WORD[freq]}`),
      chart: 'line',
      why: `How ${what} moves over time, ${aggFor(measure) === 'mean' ? 'averaged' : 'summed'} per ${FREQ_WORD[freq]}.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: measure?.name ?? null,
        agg: aggFor(measure),
        freq,
      },
    },
  ];
  const series = r.categories.find((c) => c.distinct <= 6);
  if (series && measure) {
    out.push({
      title: `${cap(measure.name)} per ${FREQ_WORD[freq]} by ${series.name}`,
      chart: 'line',
      why: `Whether the ${series.name} groups move together or apart.`,
      transform: {
        type: 'resample',
        date: date.name,
        measure: measure.name,
        agg: aggFor(measure),
        freq,
        series: series.name,
      },
    });
  }
  return out;
}

function categoryAnalyses(r: Roles): Analysis[] {
  const measure = r.measures[0];
  const out: Analysis[] = [];
  for (const category of r.categories.slice(0, 2)) {
    const what = measure
      ? `${aggWord(measure)}${measure.name} by ${category.name}`
      : `rows by ${category.name}`;
    out.push({
      title: cap(what),
      chart: 'bar',
      why: `Which ${category.name} values contribute most${measure ? ` to ${measure.name}` : ''}.`,
      transform: {
        type: 'group',
        by: category.name,
        measure: measure?.name ?? null,
        agg: aggFor(measure),
        top_n: 10,
      },
      options: {
        sort: 'descending',
        ...(category.distinct > 8 ? { orientation: 'h' as const } : {}),
      },
    });
  }
  const pieCategory = r.categories.find((c) => c.distinct >= 2 && c.distinct <= 6);
  const nonNegative =
    !measure || ((measure.numeric ?? measure.numeric_text?.stats)?.min ?? -1) >= 0;
  if (pieCategory && nonNegative && aggFor(measure) !== 'mean') {
    out.push({
      title: `Share of ${measure?.name ?? 'rows'} by ${pieCategory.name}`,
      chart: 'pie',
      why: `Each ${pieCategory.name}'s share of the total.`,
      transform: {
        type: 'group',
        by: pieCategory.name,
        measure: measure?.name ?? null,
        agg: aggFor(measure),
        top_n: 6,
      },
    });
  }
  return out;
}

function distributionAnalyses(r: Roles, profile: DataProfile): Analysis[] {
  const out: Analysis[] = r.measures.slice(0, 2).map((m) => {
    const skewed = Math.abs(m.numeric?.skew ?? 0) > 2;
    return {
      title: `Distribution of ${m.name}`,
      chart: 'histogram' as const,
      why: `The typical ${m.name} and how spread out it is${skewed ? ' (strongly skewed: log scale)' : ''}.`,
      transform: { type: 'distribution' as const, column: m.name },
      ...(skewed ? { options: { log_y: true } } : {}),
    };
  });
  const measure = r.measures[0];
  const by = r.categories.find((c) => c.distinct <= 30);
  if (measure && by) {
    out.push({
      title: `${cap(measure.name)} by ${by.name}`,
      chart: 'box',
      why: `How ${measure.name} varies within and between ${by.name} groups.`,
      transform: { type: 'distribution', column: measure.name, by: by.name },
    });
  }
  const measureNames = new Set(r.measures.map((m) => m.name));
  for (const pair of profile.correlations
    .filter((c) => Math.abs(c.r) >= 0.5 && measureNames.has(c.a) && measureNames.has(c.b))
    .slice(0, 2)) {
    out.push({
      title: `${cap(pair.b)} vs ${pair.a}`,
      chart: 'scatter',
      why: `A ${Math.abs(pair.r) >= 0.7 ? 'strong' : 'moderate'} ${pair.r > 0 ? 'positive' : 'negative'} relationship (r = ${pair.r.toFixed(2)}).`,
      transform: { type: 'relationship', x: pair.a, y: pair.b },
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
      why: 'Count, mean, spread and range of each measure.',
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

/** Data-quality flags for the plan's notes. */
function qualityNotes(profile: DataProfile): string[] {
  const notes: string[] = [...profile.warnings];
  const skipped = profile.column_profiles
    .filter((c) => c.semantic === 'identifier' || c.semantic === 'text')
    .map((c) => c.name);
  if (skipped.length)
    notes.push(
      `not charted (identifiers or free text): ${skipped.slice(0, 8).join(', ')}${skipped.length > 8 ? ', …' : ''}`,
    );
  if (profile.omitted_columns.count)
    notes.push(
      `${profile.omitted_columns.count} columns beyond the first ${profile.column_profiles.length} were not profiled in detail`,
    );
  return notes.slice(0, 10);
}

function aggWord(measure: ColumnProfile | undefined): string {
  return aggFor(measure) === 'mean' ? 'average ' : '';
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function key(a: Analysis): string {
  return `${a.chart}:${JSON.stringify(a.transform)}`;
}

/** The heuristic plan for a profile (and an optional question, answered first). */
export function heuristicPlan(profile: DataProfile, question?: string): Plan {
  const r = roles(profile);
  const candidates = [
    ...(question ? questionAnalysis(question, profile, r) : []),
    ...timeAnalyses(r),
    ...categoryAnalyses(r),
    ...distributionAnalyses(r, profile),
    ...qualityAnalyses(profile, r),
  ];
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
  const analyses = candidates
    .filter((a) => !seen.has(key(a)) && seen.add(key(a)))
    .slice(0, MAX_ANALYSES);
  const unanswered =
    question && unanswerable(question, profile)
      ? [
          `No column of ${profile.source.name} answers "${question.length > 120 ? `${question.slice(0, 117)}…` : question}": the report shows the standard analyses of the data instead.`,
        ]
      : [];
  return { analyses, notes: [...unanswered, ...qualityNotes(profile)].slice(0, 10) };
}
