/**
 * Which columns a question names, read word by word: "average height by name" names height and
 * name, not age (which "average" holds as letters); "median latency per product" names
 * latency_ms and product; "total cost by phase" names "Cost Total $". A name is matched as its
 * words, in order (best); as the same words in the plural or singular; by its words left once
 * units and qualifiers ("ms", "$", "total") are set aside; or by the starts of longer words
 * ("life_expect" of "life expectancy"). The columns come back in that order of certainty, then
 * in the order the question names them, so "the highest unit price" is about price (named as
 * written) before units (named in the singular).
 */
import type { Analysis } from './plan.js';
import { MAX_MEASURES } from './plan.js';
import type { ColumnProfile } from './profile.js';
import { listed } from '../util/sentence.js';

/** Words a column name carries beside what it measures: units, currencies, qualifiers. */
const ASIDE = new Set([
  ...['ms', 's', 'sec', 'secs', 'h', 'hr', 'hrs', 'kg', 'g', 'mg', 'lb', 'lbs', 'mm', 'cm', 'km'],
  ...['m', 'mi', 'ft', 'usd', 'eur', 'gbp', 'pct', 'kwh', 'mwh', 'k', 'mn', 'bn', 'c', 'f'],
  ...['of', 'the', 'in', 'per', 'and', 'a', 'an', 'total', 'amount', 'value', 'num', 'number'],
]);

/** The words of a text, lower case: letters and digits of any script; camelCase split. */
export function words(text: string, camel = false): string[] {
  const spaced = camel ? text.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2') : text;
  return (spaced.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(Boolean);
}

/** A word in the singular, roughly: "countries" → "country", "units" → "unit" ("status" stays whole enough). */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Where `phrase` first occurs in `text` as consecutive words (-1: nowhere). */
export function phraseAt(text: readonly string[], phrase: readonly string[]): number {
  if (phrase.length === 0) return -1;
  for (let i = 0; i + phrase.length <= text.length; i += 1)
    if (phrase.every((w, j) => text[i + j] === w)) return i;
  return -1;
}

/** Where `word` is in `asked` as the start of a longer word ("expect" of "expectancy"), -1: nowhere. */
function startAt(asked: readonly string[], word: string, names: ReadonlySet<string>): number {
  if (word.length < 4) return -1;
  return asked.findIndex((w) => w.length > word.length && w.startsWith(word) && !names.has(w));
}

/**
 * How, and where, the question names a column; null when it does not. `names` holds every
 * word of every column's name: a word of the question that is one ("country") never names
 * another column by its start ("count").
 */
function naming(
  asked: readonly string[],
  column: string,
  names: ReadonlySet<string>,
): { rank: number; at: number } | null {
  const name = words(column, true);
  const exact = phraseAt(asked, name);
  if (exact >= 0) return { rank: 0, at: exact };
  const plain = asked.map(singular);
  const loose = phraseAt(plain, name.map(singular));
  if (loose >= 0) return { rank: 1, at: loose };
  const core = name.filter((w) => !ASIDE.has(w)).map(singular);
  if (core.length === 0) return null;
  const at = core.map((w) => plain.indexOf(w));
  // Its words in another order too: "max temp" of temp_max, "price per unit" of unit_price.
  if (at.every((i) => i >= 0)) return { rank: 2, at: Math.min(...at) };
  // An abbreviated name: "life_expect" of "life expectancy", "temp" of "temperature".
  const started = core.map((w, i) =>
    (at[i] ?? -1) >= 0 ? (at[i] ?? -1) : startAt(asked, w, names),
  );
  if (started.every((i) => i >= 0)) return { rank: 3, at: Math.min(...started) };
  // Its initials, of three words or more: "mpg" of Miles_per_Gallon, "gdp".
  const initials = name.map((w) => w.charAt(0)).join('');
  const said = name.length >= 3 ? asked.indexOf(initials) : -1;
  if (said >= 0 && !INITIALS_NOT.has(initials)) return { rank: 3, at: said };
  // All but its statistic: "temp" of temp_max and temp_min (FAMILY).
  const kept = core.filter((w) => !STATISTIC.has(w));
  const found = started.filter((i, k) => i >= 0 && !STATISTIC.has(core[k] ?? ''));
  return kept.length > 0 && kept.length < core.length && found.length === kept.length
    ? { rank: FAMILY, at: Math.min(...found) }
    : null;
}

/** Words that are no initials of a column's name, whatever its words: "per", "the". */
const INITIALS_NOT = new Set('the and for per all any are was how who why top not'.split(' '));

/** Words a name carries for which statistic of a quantity it holds: temp_max, price_low. */
const STATISTIC = new Set(
  'min max minimum maximum mean avg average median low high lo hi first last open close'.split(' '),
);

/** The rank of a column named by all its words but its statistic ("temp" of temp_max). */
const FAMILY = 4;

/**
 * The columns a question names by all their words but a statistic, when its best-named column
 * `among` some (the measures) is one of them: "temp" names temp_max and temp_min alike, so an answer shows both (or says which
 * one it shows), never a third column as if none were named. Fewer than two: none.
 */
export function namedFamily(
  question: string,
  columns: readonly ColumnProfile[],
  among: (c: ColumnProfile) => boolean,
): ColumnProfile[] {
  const asked = words(question, true);
  const names = new Set(columns.flatMap((c) => words(c.name, true)));
  const ranked = columns.filter(among).map((c) => ({ c, named: naming(asked, c.name, names) }));
  const best = Math.min(...ranked.map((m) => m.named?.rank ?? Infinity));
  if (best !== FAMILY) return [];
  const family = ranked.filter((m) => m.named?.rank === FAMILY).map((m) => m.c);
  return family.length >= 2 ? family : [];
}

/**
 * The last word of a name of several ("genre" of Major_Genre, "type" of Creative_Type), when it
 * ends no other column's name and the question says it: the column is named by it, last of all.
 */
function headNamed(
  asked: readonly string[],
  columns: readonly ColumnProfile[],
): Map<string, { rank: number; at: number }> {
  const heads = new Map<string, string[]>();
  for (const c of columns) {
    const name = words(c.name, true).filter((w) => !ASIDE.has(w));
    const head = name.length >= 2 ? singular(name[name.length - 1] ?? '') : '';
    if (head.length >= 3) heads.set(head, [...(heads.get(head) ?? []), c.name]);
  }
  const plain = asked.map(singular);
  const found = new Map<string, { rank: number; at: number }>();
  for (const [head, owners] of heads) {
    const at = plain.indexOf(head);
    if (at >= 0 && owners.length === 1 && !STATISTIC.has(head) && !QUESTION_HEADS.has(head))
      found.set(owners[0] ?? '', { rank: FAMILY + 1, at });
  }
  return found;
}

/** Last words of names that questions say for other things: "by type of chart", "over time". */
const QUESTION_HEADS = new Set('time date day week month year total count number rate'.split(' '));

/** The columns `question` names, the surest first, then in the order it names them. */
export function namedColumns(question: string, columns: readonly ColumnProfile[]): ColumnProfile[] {
  const asked = words(question, true);
  const names = new Set(columns.flatMap((c) => words(c.name, true)));
  const heads = headNamed(asked, columns);
  return columns
    .map((c) => ({ c, named: naming(asked, c.name, names) ?? heads.get(c.name) ?? null }))
    .filter((m): m is { c: ColumnProfile; named: { rank: number; at: number } } => !!m.named)
    .sort((a, b) => a.named.rank - b.named.rank || a.named.at - b.named.at)
    .map((m) => m.c);
}

/**
 * `a` answering with the first of a family of measures the question names alike (namedFamily):
 * a line of it becomes a line of each ("average temp by month": temp_max and temp_min), and any
 * other answer says which one it shows.
 */
export function withFamily(a: Analysis, family: readonly ColumnProfile[]): Analysis {
  const [first] = family;
  const t = a.transform;
  if (!first || family.length < 2 || !('measure' in t) || t.measure !== first.name) return a;
  const names = family.map((c) => c.name).slice(0, MAX_MEASURES);
  const alike = `Its words name ${listed(names)} alike`;
  if (t.type === 'resample' && !t.series && !t.rebase && t.equals === undefined)
    return {
      ...a,
      why: `${a.why} ${alike}: a line each.`.slice(0, 300),
      transform: { ...t, measure: null, measures: names },
    };
  return { ...a, why: `${a.why} ${alike}; this shows ${first.name}.`.slice(0, 300) };
}
