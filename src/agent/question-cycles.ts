/**
 * A question asking for a cycle ("average delay by hour", "orders by day of week", "which months
 * of the year sell most"): a seasonal profile of the hours of the day, the weekdays or the months
 * of the year, not a line of every hour of three months, one value each.
 */
import type { Analysis, Cycle } from './plan.js';
import { CYCLE_PERIOD } from './plan.js';
import { PERIOD_ORDER } from './periods.js';
import type { ColumnProfile } from './profile.js';
import type { Roles } from './roles.js';
import { timeFrequencyOf } from './roles.js';

/** The words of each cycle, and the days of data it needs at least. */
const ASKED: readonly [Exclude<Cycle, 'weekday_hour'>, RegExp, number][] = [
  ['hour', /\b(hours? of (the )?day|time of (the )?day|by (the )?hour|hour by hour)\b/i, 3],
  ['weekday', /\b(days? of (the )?week|weekdays?|by (the )?weekday)\b/i, 14],
  ['month', /\b(months? of (the )?year|calendar months?|seasonal(ity)?)\b/i, 365],
];

/** Whether a question asks for a cycle ("which weekday…"), whether or not the data can give it. */
export function cycleWorded(question: string): boolean {
  return ASKED.some(([, words]) => words.test(question));
}

/**
 * Whether the table's grain lets a cycle of the measure be drawn: a panel's levels get none
 * (averaging entities mixes them), but its sums and counts do, and so does a quotient of totals
 * (CTR: all the campaigns' clicks ÷ their impressions on Mondays mixes nothing).
 */
export function cycleFits(
  r: Pick<Roles, 'semantics'>,
  agg: string,
  measure: ColumnProfile | undefined,
): boolean {
  if (r.semantics.table.grain !== 'panel' || agg === 'sum' || agg === 'count') return true;
  return agg === 'mean' && (r.semantics.quotients ?? []).some((q) => q.column === measure?.name);
}

/** How each cycle is said in a note. */
const SAID: Readonly<Record<Exclude<Cycle, 'weekday_hour'>, string>> = {
  hour: 'hour of the day',
  weekday: 'day of the week',
  month: 'month of the year',
};

/**
 * The cycle a question asks for over `date`, if the data can give it: times at least as fine as
 * the cycle's period (hours for hours of the day), and days enough for it to repeat.
 */
export function cycleAsked(
  question: string,
  date: ColumnProfile,
  r: Pick<Roles, 'semantics'>,
): Exclude<Cycle, 'weekday_hour'> | null {
  const found = ASKED.find(([, words]) => words.test(question));
  if (!found || !date.datetime) return null;
  const [cycle, , days] = found;
  if (r.semantics.table.time?.kind === 'year' && r.semantics.table.time.column === date.name)
    return null;
  const own = timeFrequencyOf(date, r);
  if (own && PERIOD_ORDER.indexOf(CYCLE_PERIOD[cycle]) < PERIOD_ORDER.indexOf(own)) return null;
  return date.datetime.span_days >= days ? cycle : null;
}

/** The analysis of a cycle asked: a bar of each hour (weekday, month), its note saying how. */
export function cycleAnswer(
  a: { title: string; why: string },
  date: ColumnProfile,
  cycle: Exclude<Cycle, 'weekday_hour'>,
  measure: string | null,
  agg: Extract<Analysis['transform'], { type: 'season' }>['agg'],
): Analysis {
  const unit = CYCLE_PERIOD[cycle] === 'M' ? 'month' : CYCLE_PERIOD[cycle] === 'D' ? 'day' : 'hour';
  const how =
    measure === null || agg === 'count'
      ? `rows per ${unit}, averaged over the ${unit}s of each ${SAID[cycle]}`
      : agg === 'sum'
        ? `each ${unit}'s total of ${measure}, averaged over the ${unit}s of each ${SAID[cycle]}`
        : `${measure} ${agg === 'median' ? 'as the median' : `as the ${agg}`} of the rows of each ${SAID[cycle]}`;
  return {
    title: a.title,
    why: `${a.why} By ${SAID[cycle]} (${date.name}): ${how}.`,
    chart: 'bar',
    transform: { type: 'season', date: date.name, measure, agg, cycle },
  };
}
