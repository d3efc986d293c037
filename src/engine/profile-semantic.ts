/**
 * Semantic detection rules, ported from preamble/opsmind_semantic.py and the classifiers of
 * opsmind_profile.py: identifier-like names, numbers and dates stored as text, boolean pairs.
 * Pure functions over names, counts and sampled strings; the SQL lives elsewhere.
 */

/** The share of sampled values a pattern must match for a column to be called by it. */
export const PARSE_SHARE = 0.9;
/** Fewer non-missing values than this never make an identifier. */
export const MIN_ID_ROWS = 20;

/** How numbers stored as text are written. */
export type NumberTextStyle = 'thousands' | 'currency' | 'percent' | 'plain';

const BOOLEAN_PAIRS = [
  ['yes', 'no'],
  ['true', 'false'],
  ['y', 'n'],
  ['t', 'f'],
  ['0', '1'],
  ['on', 'off'],
];
const CODE_TOKENS = new Set([
  'id',
  'identifier',
  'uuid',
  'guid',
  'zip',
  'zipcode',
  'postcode',
  'postal',
  'phone',
  'fips',
  'sku',
  'isbn',
]);
const KEY_LAST_TOKENS = new Set(['key', 'code', 'number', 'no', 'num', 'nr']);
/** Currency codes NUMBER_TEXT accepts before or after a number. */
export const CURRENCY_CODES = 'USD|EUR|GBP|JPY|CHF|CAD|AUD|INR|CNY|SEK|NOK|DKK';
const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?';

// Python's `$` also matches before a final newline; `\n?$` keeps that.
const UUID = /^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?\n?$/i;
const EMAIL = /^[^@\s]+@[^@\s]+\.[a-z]{2,}\n?$/i;
// Python's \w is Unicode: letters, numbers and the underscore.
const ID_TOKEN = /^(?=.*\p{Nd})[\p{L}\p{N}_\-./#:+]{1,40}\n?$/u;
const NUMBER_TEXT = new RegExp(
  `^\\s*(?<neg>[-+\\u2212(])?\\s*(?<cur>[$€£¥₹]|(?:${CURRENCY_CODES})\\s?)?\\s*(?<neg2>[-(])?` +
    '(?<num>\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d*)?(?:[eE][-+]?\\d+)?|\\.\\d+)' +
    `\\s*(?<pct>%)?\\s*(?<cur2>[$€£¥₹]|(?:${CURRENCY_CODES}))?\\s*\\)?\\s*\\n?$`,
  'i',
);
// Separators or month names around digits, or a year's quarter (1974Q1, as pandas reads it);
// never a bare number such as 2023.
const DATE_LIKE = new RegExp(
  '^\\s*(?:[a-z]{3,9},?\\s+)?(?:\\d{4}[-/.]\\d{1,2}(?:[-/.]\\d{1,2})?(?!\\d)|' +
    '\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}(?!\\d)|\\d{1,2}:\\d{2}|\\d{4}-?q[1-4](?!\\d)|' +
    `${MONTH}[\\s,-]+\\d|\\d{1,2}[\\s/-]+${MONTH})`,
  'i',
);
const ROW_NAME = /^(unnamed: \d+|index)\n?$/i;

/** Lower-case words of a column name: "CustomerID" and "customer_id" both give [customer, id]. */
export function nameTokens(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token.length > 0);
}

/** Whether a name says "code, not a measure": id, zip, phone, sku… */
export function codeLike(name: string): boolean {
  return nameTokens(name).some((token) => CODE_TOKENS.has(token));
}

/** Whether a name hints at a key: a code-like word, or ending in key/code/number/no. */
export function idHint(name: string): boolean {
  const last = nameTokens(name).at(-1);
  return codeLike(name) || (last !== undefined && KEY_LAST_TOKENS.has(last));
}

/** Whether a name is a written-out row index ("Unnamed: 0", "index"). */
export function rowName(name: string): boolean {
  return ROW_NAME.test(name);
}

function share(strings: readonly string[], pattern: RegExp): number {
  if (strings.length === 0) return 0;
  let hits = 0;
  for (const text of strings) if (pattern.test(text)) hits += 1;
  return hits / strings.length;
}

/** What a text column's sample says before any full-column parsing. */
export interface TextSampleVerdict {
  /** Most values are UUIDs or e-mail addresses. */
  keyLike: boolean;
  /** Most values look like dates (they still have to parse). */
  dateLike: boolean;
  /** How the values read as numbers, or null when they are not numbers stored as text. */
  style: NumberTextStyle | null;
  /** Most values are code-like tokens ("ORD-00001"). */
  tokenLike: boolean;
  /** The currencies the numbers are written in (currenciesOf): one, several, or none. */
  currencies?: string[];
}

/** Judges a text column on its sampled values, as opsmind_profile._classify_text does. */
export function judgeSample(name: string, sample: readonly string[]): TextSampleVerdict {
  return {
    keyLike: share(sample, UUID) >= PARSE_SHARE || share(sample, EMAIL) >= PARSE_SHARE,
    dateLike: share(sample, DATE_LIKE) >= PARSE_SHARE,
    style: numberTextStyle(sample, name),
    tokenLike: share(sample, ID_TOKEN) >= PARSE_SHARE,
    currencies: currenciesOf(sample),
  };
}

/**
 * The currencies sampled numbers are written in, as written ("$", "€") or as upper-case codes
 * ("EUR"), in order of appearance, a code and its sign one currency (the first written kept:
 * opsmind_semantic._currencies_of). One is the column's currency;
 * several mean its sums and means add dollars to euros, an amount of neither.
 */
export function currenciesOf(strings: readonly string[]): string[] {
  const seen = new Map<string, string>();
  for (const text of strings) {
    const groups = NUMBER_TEXT.exec(text)?.groups;
    const sign = (groups?.cur || groups?.cur2 || '').trim().toUpperCase();
    const same = SAME_CURRENCY[sign] ?? sign;
    if (sign && !seen.has(same)) seen.set(same, sign);
  }
  return [...seen.values()];
}

/** Codes written for the one currency a sign stands for ("12 EUR" beside "€5" is one currency). */
const SAME_CURRENCY: Readonly<Record<string, string>> = {
  EUR: '€',
  GBP: '£',
  INR: '₹',
  USD: '$',
};

/**
 * A dash standing in for a number ("-", "–", "--"): Excel's accounting format writes zero so, and
 * reports write one for none. Not counted for or against a column of numbers; it parses as none.
 */
const PLACEHOLDER = /^\s*[-–—]{1,2}\s*\n?$/;

/** The numeric_text style of sampled strings, or null when they are not numbers stored as text. */
export function numberTextStyle(sampled: readonly string[], name: string): NumberTextStyle | null {
  const strings = sampled.filter((text) => !PLACEHOLDER.test(text));
  const found: Record<string, string | undefined>[] = [];
  for (const text of strings) {
    const groups = NUMBER_TEXT.exec(text)?.groups;
    if (groups) found.push(groups);
  }
  if (strings.length === 0 || found.length < PARSE_SHARE * strings.length) return null;
  if (found.filter((m) => m.cur || m.cur2).length >= found.length / 2) return 'currency';
  if (found.filter((m) => m.pct).length >= found.length / 2) return 'percent';
  if (found.some((m) => m.num?.includes(','))) return 'thousands';
  if (codeLike(name) || found.some((m) => /^0\d/.test(m.num ?? ''))) return null;
  return 'plain';
}

/** Whether a text column's distinct values (all of them, at most six) are a pair like yes/no. */
export function booleanPair(values: readonly string[]): boolean {
  if (values.length > 6) return false;
  const set = new Set(values.map((value) => value.trim().toLowerCase()));
  return BOOLEAN_PAIRS.some((pair) => set.size === 2 && pair.every((word) => set.has(word)));
}

/** What a number column tells about itself, for `classifyNumeric`. */
export interface NumberColumnFacts {
  name: string;
  distinct: number;
  nonmissing: number;
  /** Finite values counted in statistics. */
  finite: number;
  integral: boolean;
  min: number;
  max: number;
  /** How many rows its most frequent value is on (0 when not counted). */
  mostRepeated?: number;
}

/** Fewest entities a numbering counts out (numbering): fewer could be a scale's points. */
const NUMBERING_MIN = 10;
/**
 * A numbering's rows per number are at most a tenth of its numbers: entities over a few periods
 * (epil.csv: 59 subjects × 4, modechoice.csv: 210 travellers × 4 modes), never a measure's values
 * cycled evenly (1,000 sizes on 250 rows each) or a cycle over many days.
 */
const NUMBERING_SHARE = 10;
/** Units of the clock and the calendar: an hour 0–23 on every day is a time of day, not an entity. */
const CLOCK_TOKENS: ReadonlySet<string> = new Set([
  ...['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year', 'period', 'time'],
  ...['date', 'weekday', 'dow', 'doy', 'hr', 'min', 'sec', 'wk', 'mo', 'yr', 'qtr'],
]);

/**
 * Whether whole numbers count entities out: every number from 0 or 1 to k (k ≥ NUMBERING_MIN) on
 * the same number of rows, two or more and at most k / NUMBERING_SHARE — epil.csv's subject, 1 to 59, four
 * periods each (a panel without dates: "Average subject by trt" averaged the numbers) — unless
 * the name is a unit of time (an hour of each day counted out the same).
 */
function numbering(facts: NumberColumnFacts): boolean {
  const { distinct, nonmissing, min, max } = facts;
  const repeats = facts.mostRepeated ?? 0;
  return (
    facts.integral &&
    facts.finite === nonmissing &&
    distinct >= NUMBERING_MIN &&
    (min === 0 || min === 1) &&
    max - min + 1 === distinct &&
    repeats >= 2 &&
    repeats * NUMBERING_SHARE <= distinct &&
    repeats * distinct === nonmissing &&
    !nameTokens(facts.name).some((token) => CLOCK_TOKENS.has(token))
  );
}

/**
 * numeric, identifier, or category for codes (zip, store id) that are numbers only in form. A
 * version (1.1, 2.0, 15: debian.csv's, an app's) names a release, whole or not: a category, or an
 * identifier when nearly every row has its own (never "Mean version grew 1,264%"). Numbers that
 * count entities out, each on as many rows (numbering), are an identifier unless named as time.
 */
export function classifyNumeric(facts: NumberColumnFacts): 'numeric' | 'identifier' | 'category' {
  const { name, distinct, nonmissing, integral } = facts;
  if (numbering(facts)) return 'identifier';
  if (nameTokens(name).includes('version') && facts.finite > 0)
    return nonmissing >= MIN_ID_ROWS && distinct >= 0.9 * nonmissing ? 'identifier' : 'category';
  const hinted = idHint(name);
  const indexName = rowName(name);
  if (!(hinted || indexName) || facts.finite === 0) return 'numeric';
  const unique = distinct === nonmissing;
  const span = facts.max - facts.min + 1 === nonmissing;
  if (
    integral &&
    nonmissing >= MIN_ID_ROWS &&
    ((hinted && distinct >= 0.9 * nonmissing) || (unique && indexName && span))
  )
    return 'identifier';
  return integral && codeLike(name) ? 'category' : 'numeric';
}

/** What a text column's counts and parses tell, for `classifyText`. */
export interface TextColumnFacts {
  name: string;
  distinct: number;
  nonmissing: number;
  meanLength: number;
  verdict: TextSampleVerdict;
  /** The share of non-missing values that parse as dates, or null when not tried. */
  dateShare: number | null;
}

/** The semantic type of a text column, in the order opsmind_profile._classify_text decides it. */
export function classifyText(
  facts: TextColumnFacts,
): 'identifier' | 'datetime' | 'numeric_text' | 'text' | 'category' {
  const { name, distinct, nonmissing, verdict } = facts;
  if (verdict.keyLike) return 'identifier';
  if (verdict.dateLike && facts.dateShare !== null && facts.dateShare >= PARSE_SHARE)
    return 'datetime';
  const enough = nonmissing >= MIN_ID_ROWS;
  const plainish = verdict.style === null || verdict.style === 'plain';
  if (enough && distinct >= 0.9 * nonmissing && idHint(name) && plainish) return 'identifier';
  if (verdict.style) return 'numeric_text';
  if (enough && distinct === nonmissing && verdict.tokenLike) return 'identifier';
  if ((distinct > 0.5 * nonmissing && enough) || facts.meanLength > 40) return 'text';
  return 'category';
}

/**
 * Pairs of words that name the two ends of a link: a row of an edge list joins a source to a
 * target, a sender to a receiver, a parent to its child. From/to also names a range of a measure
 * (from_km, to_km), so its codes must be dense too (`nodeCodes`).
 */
const LINK_ENDS: readonly (readonly [string, string])[] = [
  ['source', 'target'],
  ['src', 'dst'],
  ['src', 'dest'],
  ['sender', 'receiver'],
  ['sender', 'recipient'],
  ['parent', 'child'],
  ['origin', 'destination'],
  ['from', 'to'],
];

/**
 * The link two column names make, its ends in order ([source, target]), when they differ in one
 * word only and those words are a LINK_ENDS pair ("source"/"target", "from_node"/"to_node").
 */
export function linkEnds(
  a: string,
  b: string,
): { ends: readonly [string, string]; words: readonly [string, string] } | null {
  const first = nameTokens(a);
  const second = nameTokens(b);
  if (first.length !== second.length) return null;
  const differ = first.flatMap((token, i) => (token === second[i] ? [] : [i]));
  const at = differ[0];
  if (differ.length !== 1 || at === undefined) return null;
  const words = [first[at], second[at]];
  const pair = LINK_ENDS.find(
    ([x, y]) => (words[0] === x && words[1] === y) || (words[0] === y && words[1] === x),
  );
  if (!pair) return null;
  return { ends: words[0] === pair[0] ? [a, b] : [b, a], words: pair };
}

const LINK_WORDS = new Set(LINK_ENDS.flat());

/** Whether a name holds a word of a link's end (source, to…): its wholeness then matters. */
export function mayLink(name: string): boolean {
  return nameTokens(name).some((token) => LINK_WORDS.has(token));
}

/** What a number column of a possible edge list tells, for `nodeCodes`. */
export interface EndFacts {
  name: string;
  integral: boolean;
  /** Its finite minimum and maximum. */
  min: number;
  max: number;
  distinct: number;
}

/**
 * Whether two number columns are the node codes of an edge list: named as a link's two ends
 * (linkEnds), both whole numbers from 0 up, drawn from one range (each covers at least half of
 * the span of both) — and, for from/to, dense codes (distinct values at least half that span).
 * Such numbers are labels: their median or correlation means nothing.
 */
export function nodeCodes(a: EndFacts, b: EndFacts): readonly [string, string] | null {
  const link = linkEnds(a.name, b.name);
  if (!link || !a.integral || !b.integral || !(a.min >= 0 && b.min >= 0)) return null;
  const span = Math.max(a.max, b.max) - Math.min(a.min, b.min);
  const shared = Math.min(a.max, b.max) - Math.max(a.min, b.min);
  if (!(span > 0) || shared < 0.5 * span) return null;
  const loose = link.words[0] === 'from';
  return !loose || Math.max(a.distinct, b.distinct) >= 0.5 * (span + 1) ? link.ends : null;
}

/** The columns (by position in `ends`) that pair as node codes, each with its link's ends. */
export function nodeColumns(
  ends: readonly (EndFacts | null)[],
): Map<number, readonly [string, string]> {
  const found = new Map<number, readonly [string, string]>();
  ends.forEach((a, i) => {
    ends.forEach((b, j) => {
      if (j <= i || !a || !b || found.has(i) || found.has(j)) return;
      const link = nodeCodes(a, b);
      if (!link) return;
      found.set(i, link);
      found.set(j, link);
    });
  });
  return found;
}
