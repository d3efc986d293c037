/**
 * The role of each column, from its values and the table's grain; the name's words only break
 * ties. A role the data cannot settle is the safe one (averaged), marked `settled: false`.
 */
import type { ColumnProfile } from './profile.js';
import {
  ADDITIVE_WORDS,
  CODE_WORDS,
  integral,
  isNumberColumn,
  LAT_WORDS,
  LEVEL_WORDS,
  LON_WORDS,
  MONEY_WORDS,
  named,
  number,
  RATIO_WORDS,
  statsOf,
  YEAR_WORDS,
  yearEvidence,
} from './semantics-evidence.js';
import { calendarRole } from './semantics-calendar.js';
import { compassRole } from './semantics-compass.js';
import { crossSectionRole, eventRole, overTimeRole } from './semantics-roles-grain.js';
import type { Grained } from './semantics-grain.js';
import type { ColumnRole, Grain, TableFacts } from './semantics-types.js';

export type Decided = Omit<ColumnRole, 'name'>;
type Stats = NonNullable<ReturnType<typeof statsOf>>;

/** What a number column's figures and name say, computed once for the rules below. */
export interface Seen {
  c: ColumnProfile;
  s: Stats;
  whole: boolean;
  range: string;
  heavy: boolean;
  signed: boolean;
  spread: number;
  levelName: boolean;
  additiveName: boolean;
  /** At or above zero, or an amount by name whose lowest quarter is too: returns, refunds. */
  positive: boolean;
}

function seen(c: ColumnProfile, s: Stats): Seen {
  const levelName = named(c.name, LEVEL_WORDS);
  const additiveName = named(c.name, ADDITIVE_WORDS) && !levelName;
  return {
    c,
    s,
    whole: integral(c),
    range: `values ${number(s.min)} to ${number(s.max)}`,
    heavy: s.min >= 0 && ((s.skew ?? 0) > 2 || (s.median > 0 && s.max / s.median > 20)),
    signed: s.min < 0 && s.max > 0 && s.std !== null && Math.abs(s.mean) < s.std,
    spread: s.std !== null && s.mean !== 0 ? Math.abs(s.std / s.mean) : 0,
    levelName,
    additiveName,
    positive: s.min >= 0 || (additiveName && s.q1 >= 0 && s.mean > 0),
  };
}

/** Numbers that are not quantities: the time, coordinates, years, flags and codes, shares. */
function labelRole(x: Seen, timeName: string | null): Decided | null {
  const { c, s, whole, range } = x;
  if (c.name === timeName)
    return { role: 'year', evidence: `the table's time: ${range}`, settled: true };
  if (s.min >= -90 && s.max <= 90 && named(c.name, LAT_WORDS) && !whole)
    return {
      role: 'latitude',
      evidence: `${range}, within ±90°, named as a latitude`,
      settled: true,
    };
  if (s.min >= -180 && s.max <= 180 && named(c.name, LON_WORDS) && !whole)
    return {
      role: 'longitude',
      evidence: `${range}, within ±180°, named as a longitude`,
      settled: true,
    };
  if (yearEvidence(c) && named(c.name, YEAR_WORDS))
    return { role: 'year', evidence: yearEvidence(c) ?? range, settled: true };
  const calendar = calendarRole(x.c, x.s, x.whole, x.range);
  if (calendar) return calendar;
  const compass = compassRole(x.c, x.s, x.range);
  if (compass) return compass;
  if (whole && c.distinct <= 2 && s.min >= 0 && s.max <= 1)
    return { role: 'code', evidence: 'only the values 0 and 1: a flag', settled: true };
  if (whole && named(c.name, CODE_WORDS))
    return {
      role: 'code',
      evidence: `whole numbers named as a code or label (${range})`,
      settled: true,
    };
  const share = c.numeric_text?.style === 'percent';
  if (share || (!whole && s.min >= 0 && s.max <= 1 && c.distinct > 2))
    return {
      role: 'ratio',
      evidence: share ? 'written as percentages' : `${range}: a share between 0 and 1`,
      settled: true,
    };
  if (named(c.name, RATIO_WORDS) && s.min >= 0 && s.max <= 100)
    return { role: 'ratio', evidence: `${range}, named as a share or rate`, settled: true };
  return null;
}

/**
 * A running total: it never decreases from one period to the next (per entity). A level that
 * only rose over the table's years (wages, a price index) never decreases either: where the
 * name says level, the name breaks the tie. A total of what adds up never falls below zero: a
 * series that rose through it (danish_data's lpy, a log price level from -0.62 to 0.47) is a level.
 */
function cumulativeRole(x: Seen, grain: Grain, facts: TableFacts): Decided | null {
  const monotone = facts.nonDecreasing?.[x.c.name];
  if (monotone === undefined || monotone < 0.99 || x.s.min < 0) return null;
  if (x.levelName && !x.additiveName) return null;
  if ((grain !== 'panel' && grain !== 'series') || !(x.s.max > x.s.min)) return null;
  return {
    role: 'cumulative',
    evidence: `never decreases from one period to the next${grain === 'panel' ? ' within an entity' : ''} (${Math.round(monotone * 100)}% of steps${facts.stepsSampled ? ' between sampled rows' : ''}): a running total`,
    settled: true,
  };
}

/** Codes of brackets: at most this many, each used by this many values on average. */
const BRACKETS = { fewest: 5, most: 30, perCode: 10 } as const;

/**
 * Codes of brackets: a column named as money (income, cost) whose values are the whole numbers 0
 * or 1 to k, every one of them used, each by many rows (anes96.csv's income, 1 to 24 over 944
 * people). Money is not written that way; its brackets, or a scale, are, and their sum means
 * nothing. Averaged, the safe choice (said so): a mean code still ranks the groups, and were they
 * amounts in large units, their mean would still be right.
 */
function bracketRole(x: Seen, rows: number): Decided | null {
  const { c, s, whole } = x;
  const values = Math.max(0, rows - c.missing);
  if (!whole || (s.min !== 0 && s.min !== 1) || !named(c.name, MONEY_WORDS)) return null;
  if (c.distinct !== s.max - s.min + 1 || c.distinct < BRACKETS.fewest) return null;
  if (c.distinct > BRACKETS.most || values < BRACKETS.perCode * c.distinct) return null;
  return {
    role: 'level',
    evidence: `named as money, but its values are the whole numbers ${number(s.min)} to ${number(s.max)}, every one used (${number(values)} values): codes of brackets or a scale, averaged rather than summed (the safe choice)`,
    settled: false,
  };
}

/** Levels whatever the grain: values on both sides of zero, level names, a handful of whole numbers. */
function levelRole(x: Seen): Decided | null {
  const { c, s, range, whole, levelName, additiveName } = x;
  if (x.signed && !additiveName)
    return {
      role: 'level',
      evidence: `${range} on both sides of zero around a mean of ${number(s.mean)}: a level or an anomaly, not an amount`,
      settled: true,
    };
  // A heavy tail does not make a price an amount: across entities it only says they differ.
  if (levelName && !additiveName)
    return {
      role: 'level',
      evidence: `${range}, named as a level (a value per unit or per thing, not an amount)`,
      settled: true,
    };
  if (whole && c.distinct <= 8 && !additiveName)
    return {
      role: 'level',
      evidence: `only ${c.distinct} distinct whole numbers (${range}): a discrete attribute, averaged rather than summed`,
      settled: false,
    };
  return null;
}

/**
 * A running number: every row a different whole number from 0 or 1 up to the row count (the index
 * pandas wrote out), in 10 rows or more (five ratings 1–5 may be anything). It measures nothing.
 */
function rowNumberRole(x: Seen, rows: number): Decided | null {
  const { c, s, whole } = x;
  if (!whole || c.missing > 0 || c.distinct !== rows || rows < 10) return null;
  if ((s.min !== 0 && s.min !== 1) || s.max - s.min + 1 !== rows) return null;
  return {
    role: 'identifier',
    evidence: `${number(s.min)} to ${number(s.max)}, a different whole number on every row: a running number, not a measurement`,
    settled: true,
  };
}

/** The role of a number column, from its values, the table's grain, and (to break ties) its name. */
export function numberRole(
  c: ColumnProfile,
  grain: Grain,
  facts: TableFacts,
  timeName: string | null,
  rows: number,
): Decided {
  const s = statsOf(c);
  if (!s) return { role: 'level', evidence: 'no statistics', settled: false };
  const x = seen(c, s);
  const decided =
    labelRole(x, timeName) ??
    rowNumberRole(x, rows) ??
    bracketRole(x, rows) ??
    cumulativeRole(x, grain, facts) ??
    levelRole(x);
  if (decided) return decided;
  if (grain === 'cross_section') return crossSectionRole(x);
  return grain === 'event' ? eventRole(x) : overTimeRole(x, grain, facts.typicalStep?.[c.name]);
}

/**
 * In one row per entity, a size that does not grow with the entities' size is a value per unit
 * of it: GDP per person beside population is a level, though its tail is as heavy as any total's.
 * A heavy-tailed amount is kept only if it moves with a stock of the table (Pearson r ≥ 0.3 over
 * the rows, from the profile's correlations); when it does not, it is averaged and marked
 * unsettled, so the report says the choice was the safe one.
 */
export function perUnitLevels(
  columns: readonly ColumnRole[],
  correlations: readonly { a: string; b: string; r: number }[],
): ColumnRole[] {
  const stocks = columns.filter((c) => c.role === 'stock').map((c) => c.name);
  if (stocks.length === 0) return [...columns];
  const r = (a: string, b: string): number =>
    correlations.find((p) => (p.a === a && p.b === b) || (p.a === b && p.b === a))?.r ?? 0;
  return columns.map((c) => {
    if (c.role !== 'amount') return c;
    const moves = stocks.map((s) => ({ s, r: r(c.name, s) })).sort((x, y) => y.r - x.r)[0];
    if (!moves || moves.r >= 0.3) return c;
    const said = moves.r === 0 ? '|r| < 0.3' : `r = ${moves.r.toFixed(2)}`;
    return {
      ...c,
      role: 'level',
      evidence: `${c.evidence.split(':')[0]}, but it does not grow with "${moves.s}" across entities (${said}): a value per unit of "${moves.s}", averaged rather than summed`,
      settled: false,
    };
  });
}

export function otherRole(c: ColumnProfile): Omit<ColumnRole, 'name'> {
  switch (c.semantic) {
    case 'empty':
      return { role: 'empty', evidence: 'every value is missing', settled: true };
    case 'constant': {
      // One value and gaps (monarchs' commonwealth: True on 1 of 12 rows) is no value "throughout".
      const [top] = c.top;
      const where =
        c.missing && top
          ? `, on ${top.count} of ${top.count + c.missing} rows, the rest missing`
          : ' throughout';
      return { role: 'empty', evidence: `one value${where} (${top?.value ?? ''})`, settled: true };
    }
    case 'datetime':
      return {
        role: 'date',
        evidence: `dates from ${c.datetime?.min ?? '?'} to ${c.datetime?.max ?? '?'}`,
        settled: true,
      };
    case 'identifier': {
      // A value on several rows: whole numbers counting entities out (profile-semantic's numbering).
      const repeats = c.top[0]?.count ?? 1;
      const evidence =
        repeats > 1
          ? `${c.distinct} distinct values, each on at most ${repeats} rows: a key or a numbering of entities, not a measurement`
          : `${c.distinct} distinct values in ${c.distinct + c.missing} rows`;
      return { role: 'identifier', evidence, settled: true };
    }
    case 'text':
      return {
        role: 'text',
        evidence: `free text (mean length ${Math.round(c.text?.mean_length ?? 0)})`,
        settled: true,
      };
    case 'boolean':
      return { role: 'code', evidence: 'two values: a flag', settled: true };
    case 'category':
    case 'numeric':
    case 'numeric_text':
      return {
        role: 'category',
        evidence: `${c.distinct} distinct values, repeated`,
        settled: true,
      };
  }
}

export function skipReason(role: ColumnRole, c: ColumnProfile, grain: Grained): string | null {
  if (role.role === 'empty') return role.evidence;
  if (c.missing_share >= 0.95) return `${Math.round(c.missing_share * 100)}% missing`;
  if (role.role === 'identifier') return 'an identifier: one value per row, nothing to aggregate';
  if (role.role === 'text') return 'free text';
  if (role.role === 'code' && isNumberColumn(c))
    return `a code (${role.evidence}): numbers that are labels, never summed or averaged`;
  if (role.role === 'category' && c.distinct > 50 && !grain.keys.includes(c.name))
    return `${c.distinct} distinct values: too many to chart as groups (at most its top 10 are ranked)`;
  return null;
}
