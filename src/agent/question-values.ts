/**
 * The values a question names ("top products in the West", "average price of Online orders"):
 * each becomes a filter of its column, so that the chart titled with the question shows the rows
 * it asks about, not every row. Only values the profile lists (every value of a column of a few
 * hundred, Semantics.values; else its most frequent), named by their words; a word that
 * questions use for other things ("top", "other", "total", "yes") or that two columns hold is no
 * value.
 */
import type { Analysis } from './plan.js';
import type { ColumnProfile, DataProfile } from './profile.js';
import { phraseAt, singular, words } from './question-columns.js';
import { MONTH_NAMES } from './periods.js';

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
  const found = new Map<string, { value: string; at: number }[]>();
  const holders = new Map<string, number>();
  const listed = profile.semantics?.values ?? {};
  for (const c of profile.column_profiles.filter(pickable))
    for (const value of listed[c.name] ?? c.top.map((t) => t.value)) {
      const at = namedAt(asked, plain, value);
      if (at < 0) continue;
      found.set(c.name, [...(found.get(c.name) ?? []), { value, at }]);
      const key = words(value).join(' ');
      holders.set(key, (holders.get(key) ?? 0) + 1);
    }
  const filters: Filter[] = [];
  for (const [column, values] of found) {
    // In the order the question names them ("North and South").
    const clear = values
      .filter((v) => holders.get(words(v.value).join(' ')) === 1)
      .sort((a, b) => a.at - b.at)
      .map((v) => v.value);
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

/**
 * The rows filters keep, said ("in 2024, where region is West"; null for none): the values of
 * categories they keep (`==`, `in`; not a facet's value, which names the measure itself) and one
 * whole year, quarter or month of a date column (with `ranges`, whole years from one to another);
 * not the filters of partial periods, totals and groups of countries (comparisons, `!=`, `not
 * in`), nor a year column's, which the findings name.
 */
function scopeOf(
  filters: readonly Filter[],
  facets: ReadonlySet<string>,
  ranges = false,
): string | null {
  const kept = filters.filter(
    (f) =>
      !facets.has(f.column) &&
      ((f.op === '==' && typeof f.value === 'string' && !yearStart(f.value)) ||
        (f.op === 'in' && Array.isArray(f.value) && f.value.every((v) => typeof v === 'string'))),
  );
  const span = spanSaid(filters, ranges);
  const when = span === null ? null : span.includes(' to ') ? `from ${span}` : `in ${span}`;
  if (!kept.length) return when;
  return `${when ? `${when}, ` : ''}where ${said(kept)}`;
}

/**
 * The filters said for an analysis' why: " Only rows in 2024, where region is West." ("" for
 * none); `time`: how the question's time is said when it is more than one year ("from 2019 to
 * 2021").
 */
export function filtersSaid(filters: readonly Filter[], time: string | null = null): string {
  const scope = scopeOf(filters, new Set());
  if (!time) return scope ? ` Only rows ${scope}.` : '';
  const values = scopeOf(
    filters.filter((f) => f.op === '==' || f.op === 'in'),
    new Set(),
  );
  return ` Only rows ${time}${values ? `, ${values}` : ''}.`;
}

/**
 * The rows an analysis keeps by a category's values ("region is West"), said before each of its
 * findings ("Where region is West: P10 accounts for 3.4% of revenue …"), so that a finding of the
 * West's rows is not read as one of every row. Not a facet's value, which names the measure
 * itself, nor the filters of time, totals and groups of countries (comparisons, `!=`, `not in`).
 */
export function findingScope(
  analysis: (Pick<Analysis, 'filters'> & Partial<Pick<Analysis, 'transform'>>) | undefined,
  profile: DataProfile,
): string {
  const facets = new Set((profile.semantics?.facets ?? []).map((f) => f.column));
  // A line's findings say their own span of years ("from 2019 to 2021"); a bar's do not.
  const ranges = analysis?.transform?.type !== 'resample';
  const scope = scopeOf(analysis?.filters ?? [], facets, ranges);
  return scope ? `${scope.charAt(0).toUpperCase()}${scope.slice(1)}: ` : '';
}

/** A year a question names for its rows: "in 2024", "for 2023", "since 2020", "before 2019". */
const YEAR_SAID = /\b(in|for|of|during|since|from|before)\s+(?:the\s+year\s+)?((?:19|20)\d{2})\b/gi;

/**
 * The time filters for the one year a question names ("revenue by region in 2024": the rows of
 * 2024; "since 2020", "before 2019"), on the table's time: a date column by its first days of the
 * years, a column of years by its values. None when it names several years, or one outside the
 * data's.
 */
export function yearFilters(question: string, time: ColumnProfile | undefined): Filter[] {
  const said = [...question.matchAll(YEAR_SAID)];
  const years = new Set(said.map((m) => Number(m[2])));
  const [match] = said;
  if (!time || years.size !== 1 || !match) return [];
  const year = Number(match[2]);
  const how = (match[1] ?? '').toLowerCase();
  const stamp = (y: number): string => `${y}-01-01 00:00:00`;
  if (time.datetime) {
    const [first, last] = [time.datetime.min, time.datetime.max].map((d) => Number(d.slice(0, 4)));
    if (!(year >= (first ?? NaN) && year <= (last ?? NaN))) return [];
    if (how === 'since' || how === 'from')
      return [{ column: time.name, op: '>=', value: stamp(year) }];
    if (how === 'before') return [{ column: time.name, op: '<', value: stamp(year) }];
    return [
      { column: time.name, op: '>=', value: stamp(year) },
      { column: time.name, op: '<', value: stamp(year + 1) },
    ];
  }
  const range = time.numeric;
  if (!range || year < range.min || year > range.max) return [];
  const op = how === 'since' || how === 'from' ? '>=' : how === 'before' ? '<' : '==';
  return [{ column: time.name, op, value: year }];
}

/** A text that is a year's first moment, as yearFilters writes it. */
const yearStart = (value: string): boolean => /^\d{4}-01-01 00:00:00$/.test(value);

/** A text that is a month's first moment: its year and month (0-11); null for any other. */
function monthStart(value: unknown): { year: number; month: number } | null {
  const m = /^(\d{4})-(\d{2})-01 00:00:00$/.exec(String(value));
  return m ? { year: Number(m[1]), month: Number(m[2]) - 1 } : null;
}

/**
 * The whole year, quarter or month a date column is kept to (>= its first moment, < the next's):
 * "2024", "Q3 2024", "Mar 2024"; with `ranges`, whole years or months too ("2019 to 2021", "Nov
 * 2024 to Dec 2024"). Null if none.
 */
function spanSaid(filters: readonly Filter[], ranges: boolean): string | null {
  const from = filters.find((f) => f.op === '>=' && monthStart(f.value));
  const start = monthStart(from?.value);
  const to = filters.find((f) => f.column === from?.column && f.op === '<' && monthStart(f.value));
  const end = monthStart(to?.value);
  if (!start || !end) return null;
  const months = (end.year - start.year) * 12 + end.month - start.month;
  if (start.month === 0 && months === 12) return String(start.year);
  if (start.month === 0 && months % 12 === 0 && months > 12 && ranges)
    return `${start.year} to ${end.year - 1}`;
  if (start.month % 3 === 0 && months === 3) return `Q${start.month / 3 + 1} ${start.year}`;
  const month = (m: { year: number; month: number }): string =>
    `${MONTH_NAMES[m.month] ?? ''} ${m.year}`;
  if (months === 1) return month(start);
  const last = { year: end.year - (end.month === 0 ? 1 : 0), month: (end.month + 11) % 12 };
  return ranges && months > 1 && months <= 24 ? `${month(start)} to ${month(last)}` : null;
}
