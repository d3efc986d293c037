/** Fields of the calendar stored as numbers (semantics-roles.ts' labels). */
import type { ColumnProfile } from './profile.js';
import { nameWords, words } from './semantics-evidence.js';

/** A calendar field's role: a code, settled, with its evidence. */
interface Calendar {
  role: 'code';
  evidence: string;
  settled: true;
}

/** Fields of the calendar written as numbers, and their ranges (hours from 0, weekdays 0–7). */
const CALENDAR: readonly { words: ReadonlySet<string>; lo: number; hi: number; what: string }[] = [
  { words: words('month mon monat mois mes mese maand mnth'), lo: 1, hi: 12, what: 'month' },
  { words: words('quarter qtr quartal trimestre'), lo: 1, hi: 4, what: 'quarter' },
  { words: words('week wk woche semaine isoweek'), lo: 0, hi: 53, what: 'week' },
  { words: words('weekday dow wday'), lo: 0, hi: 7, what: 'weekday' },
  { words: words('day dom tag jour dia'), lo: 1, hi: 31, what: 'day of the month' },
  { words: words('hour hr stunde heure'), lo: 0, hi: 23, what: 'hour' },
];

/**
 * A field of the calendar stored as a number (month 1–12 beside a year column): a place in a
 * cycle, not an amount. Named so (the name's last word, at most two words: order_month, not
 * days_to_ship) and within the field's range.
 */
export function calendarRole(
  c: ColumnProfile,
  s: { min: number; max: number },
  whole: boolean,
  range: string,
): Calendar | null {
  const parts = nameWords(c.name);
  const last = parts.at(-1) ?? '';
  const field = parts.length <= 2 ? CALENDAR.find((f) => f.words.has(last)) : undefined;
  if (!whole || !field || s.min < field.lo || s.max > field.hi) return null;
  return {
    role: 'code',
    evidence: `whole numbers ${range} named as a ${field.what}: a place in the calendar, never summed or averaged`,
    settled: true,
  };
}
