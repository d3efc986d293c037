/**
 * The time a question names for its rows, beyond one year (question-values.ts yearFilters): a
 * range of years ("from 2019 to 2021", "2019-2021"), a quarter ("in Q3 2024"), a month ("in
 * March 2024"), or the latest periods of the data ("in the last 3 months": the data's own latest
 * months, not the calendar's, said so). Each becomes filters of the table's time column, and a
 * phrase for the answer's note.
 */
import type { Analysis } from './plan.js';
import type { ColumnProfile } from './profile.js';
import { yearFilters } from './question-values.js';
import { MONTH_NAMES } from './periods.js';

type Filter = NonNullable<Analysis['filters']>[number];

/** The rows a question's time keeps: the filters, and how the note says them. */
export interface TimeReading {
  filters: Filter[];
  /** "from 2019 to 2021", "in Q3 2024", "in the last 3 months of the data (…)"; null: none. */
  said: string | null;
  /** Why no rows are kept for a time it names (one outside the data, years apart). */
  note?: string;
}

const MONTH_WORDS =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const YEAR = '((?:19|20)\\d{2})';
const YEARS = new RegExp(
  `\\bbetween\\s+${YEAR}\\s+and\\s+${YEAR}\\b|\\b${YEAR}\\s*(?:to|through|until|thru|-|–|—)\\s*${YEAR}\\b`,
  'i',
);
const QUARTER = new RegExp(`\\bq([1-4])\\s*${YEAR}\\b|\\b${YEAR}\\s*-?\\s*q([1-4])\\b`, 'i');
const MONTH = new RegExp(`\\b(${MONTH_WORDS})\\.?\\s+${YEAR}\\b`, 'i');
const COUNTS: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  twelve: 12,
};
/** "This year", "this month", "year to date", "YTD": the period the data's latest time falls in. */
const CURRENT =
  /\b(?:this|current)\s+(year|quarter|month|week)\b|\b(?:year[\s-]to[\s-]date|ytd)\b/i;

const LATEST = new RegExp(
  `\\b(?:last|past|latest|most\\s+recent)\\s+(?:(\\d{1,3}|${Object.keys(COUNTS).join('|')})\\s+)?(year|quarter|month|week|day)s?\\b`,
  'i',
);

type Unit = 'year' | 'quarter' | 'month' | 'week' | 'day';

/** A UTC time as filters write it: "2024-07-01 00:00:00". */
const stamp = (t: number): string => new Date(t).toISOString().slice(0, 19).replace('T', ' ');
const parse = (text: string): number => Date.parse(`${text.replace(' ', 'T').slice(0, 19)}Z`);

/** The start of the `unit` holding `t` (weeks from Monday), moved `back` units earlier. */
function unitStart(t: number, unit: Unit, back = 0): number {
  const d = new Date(t);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
  if (unit === 'year') return Date.UTC(y - back, 0, 1);
  if (unit === 'quarter') return Date.UTC(y, m - (m % 3) - 3 * back, 1);
  if (unit === 'month') return Date.UTC(y, m - back, 1);
  const monday = (d.getUTCDay() + 6) % 7;
  return Date.UTC(y, m, day - (unit === 'week' ? monday + 7 * back : back));
}

/** A day as said: "Sep 15, 2024". */
const daySaid = (t: number): string => {
  const d = new Date(t);
  return `${MONTH_NAMES[d.getUTCMonth()] ?? ''} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
};

/** [start, end) of the date column as filters, when it overlaps the data's span; else none. */
function dateSpan(time: ColumnProfile, start: number, end: number, said: string): TimeReading {
  const dates = time.datetime;
  if (!dates) return { filters: [], said: null };
  const [min, max] = [parse(dates.min), parse(dates.max)];
  if (!(start <= max && end > min)) return { filters: [], said: null };
  return {
    filters: [
      { column: time.name, op: '>=', value: stamp(start) },
      { column: time.name, op: '<', value: stamp(end) },
    ],
    said,
  };
}

/** "from 2019 to 2021": a date column from the first's first day to the day after the last. */
function yearRange(question: string, time: ColumnProfile): TimeReading | null {
  const match = YEARS.exec(question);
  if (!match) return null;
  const [a, b] = [Number(match[1] ?? match[3]), Number(match[2] ?? match[4])];
  if (!(a < b)) return null;
  const said = `from ${a} to ${b}`;
  if (time.datetime) return dateSpan(time, Date.UTC(a, 0, 1), Date.UTC(b + 1, 0, 1), said);
  const range = time.numeric;
  if (!range || a > range.max || b < range.min) return { filters: [], said: null };
  return {
    filters: [
      { column: time.name, op: '>=', value: a },
      { column: time.name, op: '<=', value: b },
    ],
    said,
  };
}

/**
 * Several years named ("in 2023 and 2024", "2021, 2022 or 2023"): a run of years is their span;
 * years apart are their rows in a column of years, and no rows a filter can keep in a date column
 * (no filter, rather than the first year alone).
 */
function yearList(question: string, time: ColumnProfile): TimeReading | null {
  const years = [
    ...new Set([...question.matchAll(/\b(?:19|20)\d{2}\b/g)].map((m) => Number(m[0]))),
  ];
  if (years.length < 2) return null;
  years.sort((a, b) => a - b);
  const [first, last] = [years[0] as number, years.at(-1) as number];
  const run = last - first + 1 === years.length;
  const said = `in ${years.slice(0, -1).join(', ')} and ${last}`;
  if (time.datetime)
    return run
      ? dateSpan(time, Date.UTC(first, 0, 1), Date.UTC(last + 1, 0, 1), said)
      : { filters: [], said: null };
  const range = time.numeric;
  const held = years.filter((y) => range && y >= range.min && y <= range.max);
  if (held.length === 0) return { filters: [], said: null };
  return { filters: [{ column: time.name, op: 'in', value: held }], said };
}

/** "Q3 2024", "2024 Q3", "March 2024": one quarter or month of a date column. */
function periodNamed(question: string, time: ColumnProfile): TimeReading | null {
  const quarter = QUARTER.exec(question);
  if (quarter) {
    const q = Number(quarter[1] ?? quarter[4]);
    const year = Number(quarter[2] ?? quarter[3]);
    const start = Date.UTC(year, 3 * (q - 1), 1);
    return dateSpan(time, start, Date.UTC(year, 3 * q, 1), `in Q${q} ${year}`);
  }
  const month = MONTH.exec(question);
  if (!month) return null;
  const index = MONTH_NAMES.findIndex((m) =>
    (month[1] ?? '').toLowerCase().startsWith(m.toLowerCase()),
  );
  const year = Number(month[2]);
  const start = Date.UTC(year, index, 1);
  return dateSpan(time, start, Date.UTC(year, index + 1, 1), `in ${MONTH_NAMES[index]} ${year}`);
}

/**
 * "In the last 3 months": the data's latest `n` periods, counting the one its latest time falls
 * in (a file ending on Sep 15, 2024: Jul, Aug and Sep 2024), not the calendar's; a column of
 * years: its latest `n` years.
 */
function latestPeriods(question: string, time: ColumnProfile): TimeReading | null {
  // "This year", "year to date": the data's latest year so far (its latest month, quarter, week).
  const current = CURRENT.exec(question);
  const match = LATEST.exec(question) ?? current;
  if (!match) return null;
  const [counted, named] = match === current ? [undefined, match[1]] : [match[1], match[2]];
  const count = counted ? (COUNTS[counted.toLowerCase()] ?? Number(counted)) : 1;
  const unit = (named ?? 'year').toLowerCase() as Unit;
  const word = match === current ? 'latest' : 'last';
  const periods = `${count === 1 ? '' : `${count} `}${unit}${count === 1 ? '' : 's'}`;
  if (!(count >= 1)) return null;
  if (time.datetime) {
    const latest = parse(time.datetime.max);
    const start = unitStart(latest, unit, count - 1);
    const from = new Date(start);
    const first =
      unit === 'year'
        ? String(from.getUTCFullYear())
        : unit === 'month' || unit === 'quarter'
          ? `${MONTH_NAMES[from.getUTCMonth()] ?? ''} ${from.getUTCFullYear()}`
          : daySaid(start);
    const said = `in the ${word} ${periods} of the data (from ${first}; its latest date is ${daySaid(latest)})`;
    // To the end of the period the latest time falls in: whole periods, said as such ("Q4 2024").
    return dateSpan(time, start, unitStart(latest, unit, -1), said);
  }
  const range = time.numeric;
  if (!range || unit !== 'year') return null;
  const first = range.max - count + 1;
  return {
    filters: [{ column: time.name, op: '>=', value: first }],
    said: `in the ${word} ${periods} of the data (${first} to ${range.max})`,
  };
}

/**
 * The filters of the time a question names, on the table's time column `time`: a range of years,
 * a quarter, a month, the latest periods, or one year (yearFilters). None when it names none, or
 * none the data holds.
 */
export function timeReading(question: string, time: ColumnProfile | undefined): TimeReading {
  if (!time) return { filters: [], said: null };
  const found =
    yearRange(question, time) ??
    yearList(question, time) ??
    (time.datetime ? periodNamed(question, time) : null) ??
    latestPeriods(question, time);
  const reading = found ?? { filters: yearFilters(question, time), said: null };
  if (reading.filters.length > 0 || !TIME_SAID.some((words) => words.test(question)))
    return reading;
  return { ...reading, note: unkept(time) };
}

/** A year, a range, a quarter, a month or a season a question says (not "top 2000 products"). */
const TIME_SAID = [
  /\b(in|for|of|during|since|from|before|between|and|to)\s+(the\s+year\s+)?(19|20)\d{2}\b/i,
  // A season: months of every year, which no range of dates keeps.
  /\b(in|during|over|for)\s+(the\s+)?(winters?|summers?|spring|springtime|autumns?|fall)\b/i,
  YEARS,
  QUARTER,
  MONTH,
];

/** The note for a time a question names that no filter of the data keeps. */
function unkept(time: ColumnProfile): string {
  const span = time.datetime
    ? `${time.datetime.min.slice(0, 10)} to ${time.datetime.max.slice(0, 10)}`
    : time.numeric
      ? `${time.numeric.min} to ${time.numeric.max}`
      : null;
  const runs = span ? ` (${time.name} runs from ${span})` : '';
  return `The time it names is not one the rows can be kept to${runs}: every row is shown.`;
}

const FREQ_UNIT: Readonly<Record<string, Unit>> = {
  D: 'day',
  W: 'week',
  M: 'month',
  Q: 'quarter',
  Y: 'year',
};

/**
 * The start of the period (pandas' alias: H, D, W, M, Q, Y; weeks run Monday to Sunday) holding
 * `t`, or of the next one (`ahead`).
 */
function periodStart(t: number, freq: string, ahead = false): number {
  if (freq === 'H') return t - (t % 3_600_000) + (ahead ? 3_600_000 : 0);
  const unit = FREQ_UNIT[freq];
  return unit ? unitStart(t, unit, ahead ? -1 : 0) : t;
}

/**
 * A question's time filters on a line drawn per `freq`, moved in to whole periods: "the last 3
 * months" of a file from Oct 1 (a Tuesday) drawn per week would start with a week of six days,
 * and its growth be measured from a short first week. Unchanged when no whole period is left.
 */
export function alignedTo(filters: readonly Filter[], column: string, freq: string): Filter[] {
  const moved = filters.map((f) => {
    const t = f.column === column && typeof f.value === 'string' ? parse(f.value) : NaN;
    if (!Number.isFinite(t) || periodStart(t, freq) === t) return f;
    if (f.op === '>=') return { ...f, value: stamp(periodStart(t, freq, true)) };
    return f.op === '<' ? { ...f, value: stamp(periodStart(t, freq)) } : f;
  });
  const from = moved.find((f) => f.column === column && f.op === '>=');
  const to = moved.find((f) => f.column === column && f.op === '<');
  return from && to && String(from.value) >= String(to.value) ? [...filters] : moved;
}

/**
 * `date` as the rows a question's time filters keep see it: its first and last times and its
 * span moved in to them, its distinct times in proportion, so that a line of "the last 3 months"
 * of a file of two years is drawn per week, as a file of three months is.
 */
export function narrowed(date: ColumnProfile, filters: readonly Filter[]): ColumnProfile {
  const dates = date.datetime;
  if (!dates) return date;
  const [min, max] = [parse(dates.min), parse(dates.max)];
  let [from, to] = [min, max];
  for (const f of filters) {
    const t = f.column === date.name && typeof f.value === 'string' ? parse(f.value) : NaN;
    if (!Number.isFinite(t)) continue;
    if (f.op === '>=' || f.op === '>') from = Math.max(from, t);
    if (f.op === '<' || f.op === '<=') to = Math.min(to, f.op === '<' ? t - 1000 : t);
  }
  if ((from === min && to === max) || !(from <= to)) return date;
  const days = (to - from) / 86_400_000;
  const share = dates.span_days > 0 ? Math.min(1, days / dates.span_days) : 1;
  return {
    ...date,
    distinct: Math.max(1, Math.round(date.distinct * share)),
    datetime: { ...dates, min: stamp(from), max: stamp(to), span_days: days },
  };
}
