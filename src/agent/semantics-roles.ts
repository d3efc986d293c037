/**
 * The role of each column, from its values and the table's grain; the name's words only break
 * ties. A role the data cannot settle is the safe one (averaged), marked `settled: false`.
 */
import type { ColumnProfile } from './profile.js';
import {
  ADDITIVE_WORDS,
  CODE_WORDS,
  COUNT_WORDS,
  flowName,
  integral,
  isNumberColumn,
  LAT_WORDS,
  LEVEL_WORDS,
  LON_WORDS,
  named,
  number,
  RATIO_WORDS,
  statsOf,
  STOCK_WORDS,
  YEAR_WORDS,
  yearEvidence,
} from './semantics-evidence.js';
import { calendarRole } from './semantics-calendar.js';
import type { Grained } from './semantics-grain.js';
import type { ColumnRole, Grain, TableFacts } from './semantics-types.js';

type Decided = Omit<ColumnRole, 'name'>;
type Stats = NonNullable<ReturnType<typeof statsOf>>;

/** What a number column's figures and name say, computed once for the rules below. */
interface Seen {
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

/** A running total: it never decreases from one period to the next (per entity). */
function cumulativeRole(x: Seen, grain: Grain, facts: TableFacts): Decided | null {
  const monotone = facts.nonDecreasing?.[x.c.name];
  if (monotone === undefined || monotone < 0.99) return null;
  if ((grain !== 'panel' && grain !== 'series') || !(x.s.max > x.s.min)) return null;
  return {
    role: 'cumulative',
    evidence: `never decreases from one period to the next${grain === 'panel' ? ' within an entity' : ''} (${Math.round(monotone * 100)}% of steps${facts.stepsSampled ? ' between sampled rows' : ''}): a running total`,
    settled: true,
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

/** One row per entity: a heavy-tailed size adds up across entities; other attributes do not. */
function crossSectionRole(x: Seen): Decided {
  const { c, s, range, whole } = x;
  const stockName = named(c.name, STOCK_WORDS);
  // Fractional values with a heavy tail and a name that says nothing: a size (GDP, area) or a
  // level that differs widely between entities (a concentration, a price), which the values
  // cannot tell apart. Summed, a level's shares mean nothing; averaged, a size still ranks.
  if (x.heavy && s.min >= 0 && !whole && !x.additiveName && !stockName)
    return {
      role: 'level',
      evidence: `${range}, heavy right tail (max ${number(s.max / Math.max(s.median, 1e-12))}× the median) of fractional values with a name that does not say they add up: a size or a level that differs between entities, averaged (the safe choice)`,
      settled: false,
    };
  if (x.heavy && s.min >= 0)
    return {
      role: stockName ? 'stock' : 'amount',
      evidence: `${range}, heavy right tail (max ${number(s.max / Math.max(s.median, 1e-12))}× the median): a size that adds up across entities`,
      settled: true,
    };
  if (x.additiveName && x.positive)
    return {
      role: whole ? 'count' : 'amount',
      evidence: `${range}, named as an amount (the values do not settle it)`,
      settled: true,
    };
  return {
    role: 'level',
    evidence: `${range}: an attribute of each entity (summing it across entities means nothing)`,
    settled: !x.levelName ? x.spread < 1 : true,
  };
}

/** One row per event: whole numbers count things, heavy or named amounts add up, the rest is averaged. */
function eventRole(x: Seen): Decided {
  const { s, range, whole, heavy, additiveName } = x;
  // Whole numbers in the thousands, neither heavy-tailed nor named as an amount, are no count of
  // things in one event: a salary or a price kept in whole units, averaged as its cents would be.
  const large = s.median >= 1000 && !heavy && !additiveName;
  // Nor are whole numbers held close to a typical value far from zero (a blood pressure of
  // 132 ± 12): a measurement, where counts of things start from none.
  const held = s.min > 0 && x.spread < 0.25 && !heavy && !additiveName;
  // Nor, when unsure, are whole numbers typically in the tens or hundreds without a heavy tail:
  // the things one event holds (items, guests) are few, or a few events hold many; these read as
  // whole units of a measurement (an azimuthal gap of 104°, a score of 70), whose sum over events
  // means nothing. Averaged, a count still says what a typical event holds.
  const wide = s.median > 20 && !heavy && !additiveName && !large && !held;
  if (whole && x.positive && !x.levelName && !large && !held && !wide)
    return {
      role: 'count',
      evidence: `whole numbers ${number(s.min)} to ${number(s.max)} per event`,
      settled: true,
    };
  if (x.positive && (heavy || additiveName))
    return {
      role: 'amount',
      evidence: `${range}${heavy ? ', heavy right tail' : ''} per event${additiveName ? ', named as an amount' : ''}${s.min < 0 ? ' (the few below zero: returns or refunds)' : ''}`,
      settled: true,
    };
  return {
    role: 'level',
    evidence: `${range} per event, ${whole && large ? 'whole numbers in the thousands, ' : ''}${whole && held && !large ? `whole numbers held close to their mean (std ${number(x.spread * 100)}% of it), ` : ''}${whole && wide ? `whole numbers with a median of ${number(s.median)}, ` : ''}neither heavy-tailed nor named as an amount: averaged (the safe choice)`,
    settled: false,
  };
}

/** One row per period (per entity): stocks stand, flows add up, the rest is averaged. */
function overTimeRole(x: Seen, grain: Grain): Decided {
  const { c, s, range, whole, heavy, additiveName } = x;
  const stockName = named(c.name, STOCK_WORDS);
  if (
    s.min >= 0 &&
    (stockName || (heavy && grain === 'panel' && !additiveName && whole && s.median > 10000))
  )
    return {
      role: 'stock',
      evidence: `${range}, a standing quantity per ${grain === 'panel' ? 'entity and ' : ''}period: summed across entities, never across time`,
      settled: stockName,
    };
  // A count that does not say what it counts may be a flow (cases this month) or a standing number
  // (people unemployed this month), and neither the values nor a heavy tail (which says only that
  // the entities differ in size) tell them apart. Summed over periods a standing number counts the
  // same people again, so it is summed only within one period (the safe choice).
  if (s.min >= 0 && named(c.name, COUNT_WORDS) && !flowName(c.name))
    return {
      role: 'stock',
      evidence: `${range}, named as a count, one value per ${grain === 'panel' ? 'entity and ' : ''}period: the name and values cannot tell a flow from a standing number, so it is summed across ${grain === 'panel' ? 'entities' : 'the rows'} within one period and averaged over time (the safe choice)`,
      settled: false,
    };
  if (x.positive && (heavy || additiveName))
    return {
      role: whole ? 'count' : 'amount',
      evidence: `${range}${heavy ? ', heavy right tail' : ''}${additiveName ? ', named as an amount' : ''}: adds up across entities and periods`,
      settled: true,
    };
  return {
    role: 'level',
    evidence: `${range}, neither heavy-tailed nor named as an amount: averaged (the safe choice)`,
    settled: false,
  };
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
    cumulativeRole(x, grain, facts) ??
    levelRole(x);
  if (decided) return decided;
  if (grain === 'cross_section') return crossSectionRole(x);
  return grain === 'event' ? eventRole(x) : overTimeRole(x, grain);
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
    case 'constant':
      return {
        role: 'empty',
        evidence: `one value throughout (${c.top[0]?.value ?? ''})`,
        settled: true,
      };
    case 'datetime':
      return {
        role: 'date',
        evidence: `dates from ${c.datetime?.min ?? '?'} to ${c.datetime?.max ?? '?'}`,
        settled: true,
      };
    case 'identifier':
      return {
        role: 'identifier',
        evidence: `${c.distinct} distinct values in ${c.distinct + c.missing} rows`,
        settled: true,
      };
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
