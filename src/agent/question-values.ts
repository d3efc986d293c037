/**
 * The values a question names ("top products in the West", "average price of Online orders"):
 * each becomes a filter of its column, so that the chart titled with the question shows the rows
 * it asks about, not every row. Only values the profile lists (a column's most frequent, all of a
 * category of a few), named by their words; a word that questions use for other things ("top",
 * "other", "total", "yes") or that two columns hold is no value.
 */
import type { Analysis } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { phraseAt, singular, words } from './question-columns.js';

type Filter = NonNullable<Analysis['filters']>[number];

/** Words that say how to analyse, not which rows: never read as a value. */
const QUESTION_WORDS = new Set(
  (
    'a an the and or of in on at for by to per vs versus with without from all any other others ' +
    'total totals top most least best worst high higher highest low lower lowest average mean ' +
    'median sum count number trend over time year month week day share rate yes no true false ' +
    'none null unknown na n nan missing more less what which who how is are was were do does'
  ).split(' '),
);

/** How a value is named: its words as a phrase of the question, as written or in the singular. */
function namedAt(asked: readonly string[], plain: readonly string[], value: string): number {
  const said = words(value);
  if (said.length === 0 || said.every((w) => QUESTION_WORDS.has(w) || /^\d+$/.test(w))) return -1;
  if (said.join('').length < 2) return -1;
  const exact = phraseAt(asked, said);
  return exact >= 0 ? exact : phraseAt(plain, said.map(singular));
}

/** The columns whose values are rows to pick: categories and text, not numbers, flags or dates. */
const pickable = (c: ColumnProfile): boolean =>
  c.semantic === 'category' || c.semantic === 'text' || c.semantic === 'identifier';

/**
 * The filters for the values `question` names: `==` for one value of a column, `in` for several
 * ("North and South"); a value two columns hold is left out (which one it means is unclear).
 */
export function valueFilters(question: string, profile: DataProfile): Filter[] {
  const asked = words(question);
  const plain = asked.map(singular);
  const found = new Map<string, string[]>();
  const holders = new Map<string, number>();
  for (const c of profile.column_profiles.filter(pickable))
    for (const { value } of c.top) {
      if (namedAt(asked, plain, value) < 0) continue;
      found.set(c.name, [...(found.get(c.name) ?? []), value]);
      const key = words(value).join(' ');
      holders.set(key, (holders.get(key) ?? 0) + 1);
    }
  const filters: Filter[] = [];
  for (const [column, values] of found) {
    const clear = values.filter((v) => holders.get(words(v).join(' ')) === 1);
    const [one, ...more] = clear;
    if (one !== undefined && more.length === 0) filters.push({ column, op: '==', value: one });
    else if (more.length > 0) filters.push({ column, op: 'in', value: clear });
  }
  return filters.slice(0, 3);
}

/** Filters of values said in words: "region is West and channel is Online or Retail". */
function said(filters: readonly Filter[]): string {
  return filters
    .map((f) =>
      Array.isArray(f.value)
        ? `${f.column} is ${f.value.join(' or ')}`
        : `${f.column} is ${String(f.value)}`,
    )
    .join(' and ');
}

/** The filters said for an analysis' why: " Only rows where region is West." ("" for none). */
export function filtersSaid(filters: readonly Filter[]): string {
  return filters.length ? ` Only rows where ${said(filters)}.` : '';
}

/**
 * The rows an analysis keeps by a category's values ("region is West"), said before each of its
 * findings ("Where region is West: P10 accounts for 3.4% of revenue …"), so that a finding of the
 * West's rows is not read as one of every row. Not a facet's value, which names the measure
 * itself, nor the filters of time, totals and groups of countries (comparisons, `!=`, `not in`).
 */
export function findingScope(
  analysis: Pick<Analysis, 'filters'> | undefined,
  profile: DataProfile,
): string {
  const facets = new Set((profile.semantics?.facets ?? []).map((f) => f.column));
  const kept = (analysis?.filters ?? []).filter(
    (f) =>
      (f.op === '==' && typeof f.value === 'string') ||
      (f.op === 'in' && Array.isArray(f.value) && f.value.every((v) => typeof v === 'string')),
  );
  const scope = kept.filter((f) => !facets.has(f.column));
  return scope.length ? `Where ${said(scope)}: ` : '';
}
