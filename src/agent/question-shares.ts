/**
 * A question asking for a share over time ("share of renewables by year", "what percentage of
 * revenue comes from each region per month"): each member's part (%) of every period's total, a
 * line each, not the member's own total called a share. The member it names (Renewables) is a
 * line among the others, not the only rows: kept to its rows, its share would be 100%.
 */
import type { Analysis } from './plan.js';
import type { ColumnProfile } from './profile.js';
import { PERIOD_WORD } from './roles.js';
import type { Period, Roles } from './roles.js';

/** Words asking for a part of a whole. */
const SHARE = /\b(shares?|proportions?|percentages?|percent|fractions?|composition|mix)\b/i;
/** The most members drawn as lines of their own; the rest is one "Other" line. */
const SHARE_LINES = 8;

type Filter = NonNullable<Analysis['filters']>[number];

/**
 * The category whose members' shares a question asks: the grouping it asks (`grouped`: "by
 * cluster", a handful of whole numbers too), one it names, or the one of a value it names.
 */
export function shareCategory(
  question: string,
  r: Roles,
  named: readonly ColumnProfile[],
  filters: readonly Filter[],
  grouped?: ColumnProfile,
): ColumnProfile | undefined {
  if (!SHARE.test(question)) return undefined;
  return (
    grouped ??
    named.find((c) => r.categories.includes(c)) ??
    r.categories.find((c) => filters.some((f) => f.column === c.name && f.op !== 'notna'))
  );
}

/** What a question asks the share of: "share of customers" → "customers". */
const SHARE_OF =
  /\b(?:shares?|proportions?|percentages?|percent|fractions?)\s+of\s+(?:the\s+|all\s+)?([\p{L}\d_-]+)/iu;

/**
 * Whether a question asks the share of its rows: "share of customers by contract" (customers are
 * the rows; its first measure, support tickets, is not asked), not of a value it names ("share of
 * renewables": of the measure's total). The caller has found no measure named.
 */
export function sharedRows(question: string, filters: readonly Filter[]): boolean {
  const word = SHARE_OF.exec(question)?.[1]?.toLowerCase();
  if (!word) return false;
  const values = filters.flatMap((f) => (Array.isArray(f.value) ? f.value : [f.value]));
  return !values.some(
    (v) => typeof v === 'string' && v.toLowerCase().startsWith(word.replace(/s$/, '')),
  );
}

/**
 * The line of each member's share of `category` per period (`freq`) of `date`: of the measure's
 * total, or of the rows when the measure is no amount to total (a sum it is not asked as).
 */
export function shareAnswer(
  a: { title: string; why: string },
  parts: {
    date: ColumnProfile;
    category: ColumnProfile;
    measure: ColumnProfile | undefined;
    agg: string;
    freq: Period;
  },
): Analysis {
  const { date, category, freq } = parts;
  const measure = parts.agg === 'sum' ? parts.measure : undefined;
  const of = measure ? `total of ${measure.name}` : 'rows';
  const top = category.distinct > SHARE_LINES ? SHARE_LINES : undefined;
  return {
    title: a.title,
    why: `${a.why} Each ${category.name} value's share (%) of each ${PERIOD_WORD[freq]}'s ${of}${top ? `, the ${top} largest and the rest as "Other"` : ''}.`,
    chart: 'line',
    transform: {
      type: 'resample',
      date: date.name,
      measure: measure?.name ?? null,
      agg: measure ? 'sum' : 'count',
      freq,
      series: category.name,
      share: true,
      ...(top ? { top } : {}),
    },
  };
}

/**
 * The filters an answer keeps: none setting its shares' category to one value (the value is a
 * line or a slice among the others), nor its groups' (one group is no grouping).
 */
export function shareFilters(a: Analysis, filters: readonly Filter[]): Filter[] {
  const t = a.transform;
  const column =
    t.type === 'resample' && t.share ? t.series : t.type === 'group' ? t.by : undefined;
  return filters.filter((f) => column === undefined || f.column !== column || f.op !== '==');
}
