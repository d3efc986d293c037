/**
 * Categories with an order of their own: a survey's answers (Strongly disagree … Strongly agree),
 * bands of a number (18-24, 25-34, 65+; Under $25,000 … $100,000 or more), sizes (XS … XXL),
 * priorities (Low, Medium, High, Critical), months and weekdays written as words. Read from a
 * column's every value (ColumnProfile.levels), never from its name. A chart of such a column
 * keeps that order (bars, boxes) and shows every level, where a plain category is ranked by value:
 * "Very satisfied" between "Satisfied" and "Very dissatisfied" says nothing.
 */
import type { ColumnProfile, DataProfile } from './profile.js';

/** Answers that stand outside a scale ("Don't know", "N/A"): listed after it, in their own order. */
const OUTSIDE = new Set([
  'n/a',
  'na',
  'not applicable',
  "don't know",
  'dont know',
  'do not know',
  'not sure',
  'unsure',
  'prefer not to say',
  'prefer not to answer',
  'no answer',
  'no response',
  'declined',
  'refused',
  'unknown',
  'other',
  'none of the above',
]);

/** Pairs of words at the two ends of a bipolar scale: [negative, positive]. */
const POLES: readonly (readonly [string, string])[] = [
  ['disagree', 'agree'],
  ['dissatisfied', 'satisfied'],
  ['unsatisfied', 'satisfied'],
  ['unlikely', 'likely'],
  ['unimportant', 'important'],
  ['unfavorable', 'favorable'],
  ['unfavourable', 'favourable'],
  ['negative', 'positive'],
  ['unhelpful', 'helpful'],
  ['difficult', 'easy'],
  ['unhappy', 'happy'],
  ['disapprove', 'approve'],
  ['oppose', 'support'],
  ['worse', 'better'],
  ['unsafe', 'safe'],
  ['useless', 'useful'],
  ['bad', 'good'],
];

/** How strongly a modifier says its pole ("not at all" turns a positive word to the far negative end). */
const INTENSITY: Readonly<Record<string, number>> = {
  'a little': 1,
  'a bit': 1,
  slightly: 1,
  mildly: 1,
  somewhat: 1.5,
  fairly: 1.5,
  moderately: 1.5,
  partly: 1.5,
  partially: 1.5,
  mostly: 1.5,
  rather: 1.5,
  '': 2,
  quite: 2.5,
  very: 3,
  strongly: 3,
  highly: 3,
  extremely: 3.5,
  completely: 3.5,
  totally: 3.5,
  absolutely: 3.5,
  entirely: 3.5,
};

/** The middle of a bipolar scale. */
const NEUTRAL =
  /^(neutral|neither\b.*|undecided|indifferent|no opinion|mixed|about the same|the same|same|no change|unchanged|ok|okay|average)$/;

/** Scales that are no pair of poles: each a list of ranks, each rank its words. */
const LADDERS: readonly (readonly string[])[][] = [
  // How often.
  [
    ['never'],
    ['almost never', 'hardly ever', 'very rarely', 'seldom'],
    ['rarely'],
    ['sometimes', 'occasionally'],
    ['often', 'frequently'],
    ['very often', 'very frequently', 'usually', 'most of the time'],
    ['almost always'],
    ['always'],
  ],
  // How good.
  [
    ['very poor', 'terrible', 'awful', 'very bad'],
    ['poor', 'bad'],
    ['fair', 'average', 'ok', 'okay', 'mediocre', 'acceptable', 'satisfactory'],
    ['good'],
    ['very good', 'great'],
    ['excellent', 'outstanding', 'exceptional'],
  ],
  // How much, how urgent (levels, priorities, severities).
  [
    ['none'],
    ['very low', 'lowest', 'trivial', 'minimal'],
    ['low', 'minor'],
    ['medium', 'moderate', 'mid', 'normal', 'average'],
    ['high', 'major'],
    ['very high', 'highest'],
    ['critical', 'urgent', 'severe', 'extreme'],
    ['blocker'],
  ],
  // Sizes.
  [
    ['xxxs', '3xs'],
    ['xxs', '2xs'],
    ['xs', 'extra small', 'x-small'],
    ['s', 'small'],
    ['m', 'medium'],
    ['l', 'large'],
    ['xl', 'extra large', 'x-large'],
    ['xxl', '2xl', 'xx-large'],
    ['xxxl', '3xl', 'xxx-large'],
    ['xxxxl', '4xl'],
    ['5xl'],
  ],
  [['tiny', 'very small'], ['small'], ['medium'], ['large', 'big'], ['very large', 'huge']],
  // Skill and seniority.
  [['beginner', 'novice', 'basic'], ['intermediate'], ['advanced'], ['expert']],
  [['intern'], ['junior', 'entry level', 'entry'], ['mid level', 'mid'], ['senior'], ['lead']],
  // The calendar written in words.
  monthLadder(),
  [
    ['monday', 'mon'],
    ['tuesday', 'tue', 'tues'],
    ['wednesday', 'wed'],
    ['thursday', 'thu', 'thur', 'thurs'],
    ['friday', 'fri'],
    ['saturday', 'sat'],
    ['sunday', 'sun'],
  ],
  [
    ['first', '1st'],
    ['second', '2nd'],
    ['third', '3rd'],
    ['fourth', '4th'],
    ['fifth', '5th'],
  ],
];

function monthLadder(): string[][] {
  const months = [
    'january',
    'february',
    'march',
    'april',
    'may',
    'june',
    'july',
    'august',
    'september',
    'october',
    'november',
    'december',
  ];
  return months.map((m) => (m === 'september' ? [m, 'sep', 'sept'] : [m, m.slice(0, 3)]));
}

/** A level as words: lower case, one space between words, letters joined by "-" or "_" apart. */
function plain(level: string): string {
  return level
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/(?<=\p{L})[-_](?=\p{L})/gu, ' ')
    .replace(/\s+/g, ' ')
    .replace(/[.!]+$/, '')
    .trim();
}

/** A level's place on a bipolar scale, with the pair it names (null for the neutral middle). */
function polarRank(text: string): { rank: number; pair: number | null } | null {
  if (NEUTRAL.test(text)) return { rank: 0, pair: null };
  const negated = /^not at all (.+)$/.exec(text) ?? /^not (.+)$/.exec(text);
  const rest = negated?.[1] ?? text;
  for (const [pair, [negative, positive]] of POLES.entries()) {
    for (const [word, sign] of [
      [negative, -1],
      [positive, 1],
    ] as const) {
      if (!rest.endsWith(word)) continue;
      const modifier = rest.slice(0, rest.length - word.length).trim();
      const intensity = INTENSITY[modifier];
      if (intensity === undefined) continue;
      if (!negated) return { rank: sign * intensity, pair };
      // "Not at all important" is the far end; "not satisfied" the plain negative.
      if (sign < 0 || modifier) return null;
      return { rank: text.startsWith('not at all') ? -3.5 : -2, pair };
    }
  }
  return null;
}

/** The levels in their place on one bipolar scale, or null when they are not all on one. */
function polarOrder(levels: readonly string[]): number[] | null {
  const ranks = levels.map((l) => polarRank(plain(l)));
  const pairs = new Set(ranks.map((r) => r?.pair).filter((p) => p !== null && p !== undefined));
  if (ranks.some((r) => r === null) || pairs.size !== 1) return null;
  return ranks.map((r) => r?.rank ?? 0);
}

/** The levels' ranks on the first ladder that holds every one of them, or null. */
function ladderOrder(levels: readonly string[]): number[] | null {
  const texts = levels.map(plain);
  for (const ladder of LADDERS) {
    const ranks = texts.map((t) => ladder.findIndex((words) => words.includes(t)));
    if (ranks.every((r) => r >= 0)) return ranks;
  }
  return null;
}

/** A number in a band's label: digits with thousands commas, a decimal part, and k/m/bn. */
const NUMBER = String.raw`(\d[\d,]*(?:\.\d+)?)\s*(k|m|mm|bn|b)?\b`;
const SCALE: Readonly<Record<string, number>> = { k: 1e3, m: 1e6, mm: 1e6, b: 1e9, bn: 1e9 };
/** What may follow a band: a unit in words ("years", "employees", "%"), never another number. */
const TAIL = String.raw`(?:\s*[^\d\s][^\d]*)?`;
const BANDS: readonly { re: RegExp; key: (n: number) => number; band: boolean }[] = [
  {
    re: new RegExp(
      String.raw`^(?:under|less than|below|fewer than|up to|younger than|<=?|≤)\s*${NUMBER}${TAIL}$`,
    ),
    key: (n) => n - 0.5,
    band: true,
  },
  {
    re: new RegExp(String.raw`^${NUMBER}\s*(?:-|–|—|to|through|thru)\s*${NUMBER}${TAIL}$`),
    key: (n) => n,
    band: true,
  },
  {
    re: new RegExp(
      String.raw`^(?:over|more than|above|greater than|older than|at least|>=?|≥)\s*${NUMBER}${TAIL}$`,
    ),
    key: (n) => n + 0.5,
    band: true,
  },
  {
    re: new RegExp(
      String.raw`^${NUMBER}\s*(?:\+|or more|and more|and over|and above|or over|or above|or older|and older|plus)${TAIL}$`,
    ),
    key: (n) => n + 0.25,
    band: true,
  },
  {
    re: new RegExp(
      String.raw`^${NUMBER}\s*(?:or less|or fewer|or younger|and under|and below|or below|or under)${TAIL}$`,
    ),
    key: (n) => n - 0.25,
    band: true,
  },
  { re: new RegExp(String.raw`^${NUMBER}${TAIL}$`), key: (n) => n, band: false },
];

/** A band's place: the number it starts from (just below its bound for "Under 18"). */
function bandKey(level: string): { key: number; band: boolean } | null {
  const text = plain(level).replace(/[$€£¥₹]/g, '');
  for (const { re, key, band } of BANDS) {
    const m = re.exec(text);
    if (!m?.[1]) continue;
    const n = Number(m[1].replace(/,/g, '')) * (SCALE[m[2] ?? ''] ?? 1);
    if (Number.isFinite(n)) return { key: key(n), band: band || /\D/.test(text) };
  }
  return null;
}

/**
 * Bands of a number in order of the number they start from; null unless every level is one and
 * some level is more than a bare number (a column of numbers written as text is no scale).
 */
function bandOrder(levels: readonly string[]): number[] | null {
  const keys = levels.map(bandKey);
  if (keys.some((k) => k === null) || !keys.some((k) => k?.band)) return null;
  return keys.map((k) => k?.key ?? 0);
}

/**
 * The levels on the scale, each with its place, in order (the places all apart; at least three), and
 * the answers outside it ("Don't know"); null when `rank` puts them on no scale.
 */
function onScale(
  levels: readonly string[],
  rank: (onScale: readonly string[]) => number[] | null,
): { ranked: { level: string; rank: number }[]; outside: string[] } | null {
  const outside = levels.filter((l) => OUTSIDE.has(plain(l)));
  const inside = levels.filter((l) => !OUTSIDE.has(plain(l)));
  const ranks = inside.length >= 3 ? rank(inside) : null;
  if (!ranks || new Set(ranks).size !== ranks.length) return null;
  const ranked = inside
    .map((level, i) => ({ level, rank: ranks[i] ?? 0 }))
    .sort((a, b) => a.rank - b.rank);
  return { ranked, outside };
}

/**
 * `levels` in their own order, answers outside the scale ("Don't know") last; null unless at
 * least three levels lie on one scale, each at a place of its own.
 */
export function ordinalOrder(levels: readonly string[]): string[] | null {
  const scale = onScale(levels, (l) => polarOrder(l) ?? ladderOrder(l) ?? bandOrder(l));
  return scale ? [...scale.ranked.map((x) => x.level), ...scale.outside] : null;
}

/** What `read` finds in each column of `profile` that has levels, by column name. */
function byColumn<T>(
  profile: DataProfile,
  read: (c: ColumnProfile) => T | null,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const c of profile.column_profiles) {
    const found = c.levels ? read(c) : null;
    if (found) out[c.name] = found;
  }
  return out;
}

/** The columns of `profile` whose categories have an order of their own, each with its levels in order. */
export const ordinalColumns = (profile: DataProfile): Record<string, string[]> =>
  byColumn(profile, ownOrder);

/**
 * A survey question's levels below and above the middle of its scale, each in the scale's order;
 * null unless its levels are answers on an agreement-like scale (Strongly disagree … Strongly
 * agree; Very dissatisfied … Very satisfied; Negative, Neutral, Positive).
 */
export function answerSides(
  c: ColumnProfile | undefined,
): { low: string[]; high: string[] } | null {
  const scale = onScale(c?.levels ?? [], polarOrder);
  if (!scale) return null;
  return {
    low: scale.ranked.filter((x) => x.rank < 0).map((x) => x.level),
    high: scale.ranked.filter((x) => x.rank > 0).map((x) => x.level),
  };
}

/** Whether a column's levels are a survey question's answers (answerSides). */
export const answerScale = (c: ColumnProfile | undefined): boolean => answerSides(c) !== null;

/** The survey questions of `profile` (answerSides), by column. */
export const answerColumns = (
  profile: DataProfile,
): Record<string, { low: string[]; high: string[] }> => byColumn(profile, answerSides);

/** A column's levels in their own order, or null when it has none. */
export function ownOrder(c: ColumnProfile | undefined): string[] | null {
  return c?.levels ? ordinalOrder(c.levels) : null;
}

/** A bar of groups of `c` keeps its `top` largest, unless `c` has an order: then every level is drawn. */
export const topFor = (c: ColumnProfile | undefined, top: number): { top_n?: number } =>
  ownOrder(c) ? {} : { top_n: top };

/** A bar of groups of `c` is ranked largest first, unless `c` has an order (drawn in it). */
export const sortFor = (c: ColumnProfile | undefined): 'none' | 'descending' =>
  ownOrder(c) ? 'none' : 'descending';
