/**
 * The role of a number column by the table's grain, once the rules that hold whatever the grain
 * (semantics-roles.ts) have not decided it: one row per entity, per event, or per period.
 */
import { COUNT_WORDS, flowName, named, number, STOCK_WORDS } from './semantics-evidence.js';
import type { Decided, Seen } from './semantics-roles.js';
import type { Grain } from './semantics-types.js';

/**
 * How heavy a right tail is: the max as a multiple of the median, or (a median of 0, most values
 * none: digits.csv's pixels) the skew, since a multiple of nothing says nothing.
 */
function tailOf(s: Seen['s']): string {
  return s.median > 0
    ? `max ${number(s.max / s.median)}× the median`
    : `median ${number(s.median)}, skew ${number(s.skew ?? 0)}`;
}

/**
 * Below this coefficient of variation a cross-section's values named as amounts read as a level
 * of each entity (crossSectionRole), as an event's whole numbers held that close read as a
 * measurement (eventRole's `held`).
 */
const HELD_SPREAD = 0.25;

/** One row per entity: a heavy-tailed size adds up across entities; other attributes do not. */
export function crossSectionRole(x: Seen): Decided {
  const { c, s, range, whole } = x;
  const stockName = named(c.name, STOCK_WORDS);
  // Fractional values with a heavy tail and a name that says nothing: a size (GDP, area) or a
  // level that differs widely between entities (a concentration, a price), which the values
  // cannot tell apart. Summed, a level's shares mean nothing; averaged, a size still ranks.
  if (x.heavy && s.min >= 0 && !whole && !x.additiveName && !stockName)
    return {
      role: 'level',
      evidence: `${range}, heavy right tail (${tailOf(s)}) of fractional values with a name that does not say they add up: a size or a level that differs between entities, averaged (the safe choice)`,
      settled: false,
    };
  if (x.heavy && s.min >= 0)
    return {
      role: stockName ? 'stock' : 'amount',
      evidence: `${range}, heavy right tail (${tailOf(s)}): a size that adds up across entities`,
      settled: true,
    };
  // Named as an amount, but held close to a typical value far from zero (cpunish.csv's INCOME of
  // each state, 26,954 to 45,844: ±14%): totals of entities of different sizes spread further,
  // so this reads as a level of each entity (a median income), whose sum over states means
  // nothing. Averaged, the safe choice: an average of totals still says what a typical one holds.
  if (x.additiveName && s.min > 0 && x.spread < HELD_SPREAD)
    return {
      role: 'level',
      evidence: `${range}, named as an amount but held within ±${number(x.spread * 100)}% of the mean: too even for totals of entities of different sizes, a level of each, averaged (the safe choice)`,
      settled: false,
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
export function eventRole(x: Seen): Decided {
  const { s, range, whole, heavy, additiveName } = x;
  // Whole numbers in the thousands, neither heavy-tailed nor named as an amount, are no count of
  // things in one event: a salary or a price kept in whole units, averaged as its cents would be.
  const large = s.median >= 1000 && !heavy && !additiveName;
  // Nor are whole numbers held close to a typical value far from zero (a blood pressure of
  // 132 ± 12): a measurement, where counts of things start from none.
  const held = s.min > 0 && x.spread < HELD_SPREAD && !heavy && !additiveName;
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

/**
 * At most this median step from one period to the next, as a share of the value, a series moves
 * as a level does (Stocks.csv's monthly prices: 3–8%); flows jump (crimea.json's deaths a month:
 * 35–45%; seattle-weather.csv's daily rain: 99%).
 */
const LEVEL_STEP = 0.1;

/**
 * One row per period (per entity): stocks stand, flows add up, the rest is averaged. `step` is
 * the measure's typical step between periods (TableFacts.typicalStep), when measured.
 */
export function overTimeRole(x: Seen, grain: Grain, step?: number): Decided {
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
  // One row per period, a heavy tail that comes of a trend, not of jumps: a price or an index that
  // grew (Stocks.csv's AAPL, 0.10 to 177), whose sum over a quarter means nothing. A flow that
  // grew so smoothly is averaged too (the safe choice): a mean per period is still right.
  if (grain === 'series' && heavy && !additiveName && step !== undefined && step <= LEVEL_STEP)
    return {
      role: 'level',
      evidence: `${range}, heavy right tail, but moving by a median ${number(Math.round(step * 1000) / 10)}% from one period to the next: a level that trended (a price, an index), not a flow that jumps; averaged (the safe choice)`,
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
