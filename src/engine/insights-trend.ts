/**
 * Sentences about a series over time (trend_insights in
 * preamble/opsmind_insights.py): change first→last, peak and trough, and
 * year-over-year growth of the last full year of a monthly or quarterly series.
 */
import { ROWS_LABEL } from '../agent/compile-plan.js';
import { asDatetime, inferFrequency } from './insights-dates.js';
import { capital, fmtDate, fmtMoney, fmtNumber, fmtPct } from './insights-format.js';
import { pairwiseSum } from './insights-stats.js';
import { insight, measure, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';
import { listed } from '../util/sentence.js';

/**
 * What each period of a series holds: a total (years compare by summing), a total of a standing
 * number (a stock: years compare by averaging, since summing counts the same things again) or a
 * level (by averaging), or a level on an interval scale (a temperature in °C: averaged, and said
 * as differences, since its zero is not "none" and a percentage of it means nothing).
 */
export type TrendHow = 'sum' | 'mean' | 'stock' | 'interval' | 'share';

/** A value of a line as written: a share (how 'share') in percent, else the number (in `money`, a currency). */
export const fmtLevel = (value: number, how: TrendHow, money?: string | null): string =>
  how === 'share' ? `${fmtNumber(value)}%` : fmtMoney(value, money);

/** A difference of two of its values: percentage points for a share, else in the values' currency if any. */
export const fmtDifference = (difference: number, how: TrendHow, money?: string | null): string =>
  how === 'share' ? `${fmtNumber(difference)} percentage points` : fmtMoney(difference, money);

/** Whether a line's changes are said as differences: an interval scale, or a share in percent. */
export const byDifference = (how: TrendHow): boolean => how === 'interval' || how === 'share';

export interface Point {
  x: number;
  y: number;
  /** How many values the period's value is of (a mean's), when the caller knows. */
  n?: number;
}

/** Below this many values, a period's mean is said with how few it is of (as a ranking's group is). */
const FEW = 10;

/**
 * ", from 1 value" for a point whose value is of fewer than FEW values on a line where some period
 * holds FEW or more and twice as many (Nov 1993's mean age, of one person, beside April 1992's of
 * 36): nothing when the counts are not known, every period is small (a line of one row per day),
 * or the point holds half the busiest's (a quarter of 8 weekly readings beside ones of 13).
 */
export function fewValues(point: Point | undefined, reference: readonly Point[]): string {
  const few = fewOf(point, reference);
  return few ? `, ${few}` : '';
}

/** "from 1 value" (fewValues' words), or null. */
function fewOf(point: Point | undefined, reference: readonly Point[]): string | null {
  const n = point?.n;
  if (n === undefined || n >= FEW) return null;
  if (!reference.some((p) => (p.n ?? 0) >= FEW && (p.n ?? 0) >= 2 * n)) return null;
  return `from ${n} value${n === 1 ? '' : 's'}`;
}

/**
 * "; Nov 1993 from 1 value" after a change's two values (`data`'s first and last, said `from`
 * and `to`): which end is of few values beside the busy periods of `reference` (fewOf).
 */
export function endsNote(
  data: readonly Point[],
  from: string,
  to: string,
  reference: readonly Point[] = data,
): string {
  const ends: [Point | undefined, string][] = [
    [data[0], from],
    [data[data.length - 1], to],
  ];
  const notes = ends.flatMap(([point, when]) => {
    const few = fewOf(point, reference);
    return few ? [`${when} ${few}`] : [];
  });
  return notes.length ? `; ${notes.join(', ')}` : '';
}

const PERIODS_PER_YEAR: Record<string, number> = { M: 12, Q: 4 };

interface Series {
  data: Point[];
  /** The timestamps of the points without a value: gaps in the line. */
  gaps: number[];
}

/** The points with a timestamp and a finite value, sorted by time; null when x is not dates or repeats. */
export function seriesXY(points: readonly { x: unknown; y: unknown; n?: number }[]): Series | null {
  if (points.length === 0) return null;
  const stamps = asDatetime(points.map((p) => p.x));
  if (stamps === null) return null;
  const data: Point[] = [];
  const gaps: number[] = [];
  points.forEach((p, i) => {
    const [x, y] = [stamps[i] ?? null, measure(p.y)];
    if (x !== null && Number.isFinite(y))
      data.push(p.n === undefined ? { x, y } : { x, y, n: p.n });
    else if (x !== null && Number.isNaN(y)) gaps.push(x);
  });
  data.sort((a, b) => a.x - b.x);
  gaps.sort((a, b) => a - b);
  return data.some((p, i) => i > 0 && p.x === data[i - 1]?.x) ? null : { data, gaps };
}

/** Whether every point is at the start of a year: periods years apart (a census), said as years. */
function yearStarts(data: Point[]): boolean {
  return data.every((p) => {
    const t = new Date(p.x);
    return t.getUTCMonth() === 0 && t.getUTCDate() === 1 && p.x % 86_400_000 === 0;
  });
}

/** The periods without a value, said as gaps (never zeros): listed up to three, else counted. */
function gapsInsight(label: string, gaps: number[], frequency: string | null): Insight[] {
  if (gaps.length === 0) return [];
  const when = gaps.map((x) => fmtDate(x, frequency));
  const periods =
    when.length > 3
      ? `${when.length} periods (the first ${when[0] ?? ''}, the last ${when[when.length - 1] ?? ''})`
      : listed(when);
  const what =
    label === ROWS_LABEL || label === 'count'
      ? `No rows in ${periods}`
      : `${capital(label)} has no value in ${periods}`;
  const shown = gaps.length === 1 ? 'a gap there, not a zero' : 'gaps there, not zeros';
  return [insight(`${what}: the line has ${shown}.`, 'gaps', { gaps: gaps.length })];
}

function change(
  label: string,
  when: string[],
  data: readonly Point[],
  how: TrendHow,
  money?: string | null,
): Insight {
  const interval = byDifference(how);
  const [from, to] = [when[0] ?? '', when[when.length - 1] ?? ''];
  const [first, last] = [data[0]?.y ?? NaN, data[data.length - 1]?.y ?? NaN];
  const note = endsNote(data, from, to);
  if (first === 0 && !interval) {
    return insight(
      `${capital(label)} went from 0 to ${fmtMoney(last, money)} between ${from} and ${to}${note ? ` (${note.slice(2)})` : ''}.`,
      'change',
      { first, last },
    );
  }
  if (first < 0 || last < 0 || interval) {
    // A percentage of a signed quantity (an anomaly, a net change, a return) means nothing:
    // -0.17 -> 1.17 is not "grew 788%". The difference is said instead.
    const difference = last - first;
    const moved =
      difference > 0
        ? `rose by ${fmtDifference(difference, how, money)}`
        : difference < 0
          ? `fell by ${fmtDifference(-difference, how, money)}`
          : 'was unchanged';
    return insight(
      `${capital(label)} ${moved} from ${from} to ${to} (${fmtLevel(first, how, money)} → ${fmtLevel(last, how, money)}${note}).`,
      'change',
      { first, last, change: difference },
    );
  }
  const ratio = (last - first) / Math.abs(first);
  // A change that rounds to 0.0% is not "grew 0.0%".
  const flat = Math.abs(ratio) < 0.0005;
  const verb =
    ratio === 0 ? 'was unchanged' : flat ? 'was nearly unchanged' : ratio > 0 ? 'grew' : 'fell';
  const amount = flat ? '' : ` ${fmtPct(Math.abs(ratio))}`;
  return insight(
    `${capital(label)} ${verb}${amount} from ${from} to ${to} (${fmtMoney(first, money)} → ${fmtMoney(last, money)}${note}).`,
    'change',
    { first, last, change_pct: ratio * 100 },
  );
}

/** The years whose periods are all present exactly once, ascending. */
function completeYears(data: Point[], frequency: string, perYear: number): number[] {
  const slots = new Map<number, number[]>();
  for (const { x } of data) {
    const date = new Date(x);
    const slot = frequency === 'M' ? date.getUTCMonth() : Math.floor(date.getUTCMonth() / 3);
    const year = date.getUTCFullYear();
    slots.set(year, [...(slots.get(year) ?? []), slot]);
  }
  return [...slots.entries()]
    .filter(([, s]) => s.length === perYear && new Set(s).size === perYear)
    .map(([year]) => year)
    .sort((a, b) => a - b);
}

/**
 * The last full year of a monthly or quarterly series whose year before is full too, and each
 * year's values combined as `how` says (summed for a total, else averaged); null when none.
 */
export function lastFullYears(
  data: Point[],
  frequency: string | null,
  how: TrendHow,
): { year: number; total: number; previous: number } | null {
  const perYear = frequency === null ? undefined : PERIODS_PER_YEAR[frequency];
  if (frequency === null || perYear === undefined || data.length < 2 * perYear) return null;
  const complete = completeYears(data, frequency, perYear);
  const year = complete[complete.length - 1] ?? NaN;
  if (complete.length < 2 || !complete.includes(year - 1)) return null;
  const combine = (y: number): number => {
    const values = data.filter((p) => new Date(p.x).getUTCFullYear() === y).map((p) => p.y);
    return how === 'sum' ? pairwiseSum(values) : pairwiseSum(values) / values.length;
  };
  return { year, total: combine(year), previous: combine(year - 1) };
}

function yearOverYear(
  data: Point[],
  label: string,
  frequency: string | null,
  how: TrendHow,
  money?: string | null,
): Insight[] {
  const full = lastFullYears(data, frequency, how);
  if (full === null) return [];
  const { year, total, previous } = full;
  const periods = frequency === 'M' ? '12 months' : '4 quarters';
  if (byDifference(how)) {
    const difference = total - previous;
    const moved = difference > 0 ? 'higher than' : difference < 0 ? 'lower than' : 'the same as';
    const by = difference ? `${fmtDifference(Math.abs(difference), how, money)} ` : '';
    const said =
      `In ${year}, ${label} was ${by}${moved} in ${year - 1} (averaging the ${periods} of each year: ` +
      `${fmtLevel(total, how, money)} vs ${fmtLevel(previous, how, money)}).`;
    return [
      insight(said, 'year_over_year', {
        change: difference,
        year,
        total,
        previous_total: previous,
      }),
    ];
  }
  if (previous <= 0 || total < 0) return [];
  const growth = total / previous - 1;
  const word = growth > 0 ? 'higher' : growth < 0 ? 'lower' : 'the same as';
  const amount = growth ? `${fmtPct(Math.abs(growth))} ` : '';
  const verb = how === 'sum' ? 'summing' : 'averaging';
  const text =
    `In ${year}, ${label} was ${amount}${word}${growth ? ' than' : ''} in ${year - 1} (${verb} the ${periods} of each year: ` +
    `${fmtMoney(total, money)} vs ${fmtMoney(previous, money)}).`;
  return [
    insight(text, 'year_over_year', {
      yoy_pct: growth * 100,
      year,
      total,
      previous_total: previous,
    }),
  ];
}

/** The index of the first value that `better` prefers over all others (np.argmax / np.argmin). */
function firstBest(values: number[], better: (a: number, b: number) => boolean): number {
  let best = 0;
  values.forEach((v, i) => {
    if (better(v, values[best] ?? NaN)) best = i;
  });
  return best;
}

/** A period as a sentence says it: on a day or an hour, in the week ending on its label (a Sunday, as pandas labels "W"), in a month or a year. */
export function inPeriod(when: string, frequency: string | null): string {
  if (/^\d{2}:\d{2}$/.test(when)) return `at ${when}`;
  if (frequency === 'D' || frequency === 'H') return `on ${when}`;
  return frequency === 'W' ? `in the week ending ${when}` : `in ${when}`;
}

function extremes(
  label: string,
  when: string[],
  data: readonly Point[],
  frequency: string | null,
  how: TrendHow,
  money?: string | null,
): Insight[] {
  const values = data.map((p) => p.y);
  const peak = firstBest(values, (a, b) => a > b);
  const trough = firstBest(values, (a, b) => a < b);
  return (
    [
      ['peak', peak, 'peaked at'],
      ['trough', trough, 'was lowest at'],
    ] as const
  ).map(([kind, i, words]) => {
    const latest = i === values.length - 1 ? ', the latest period' : '';
    const value = values[i] ?? NaN;
    return insight(
      `${capital(label)} ${words} ${fmtLevel(value, how, money)} ${inPeriod(when[i] ?? '', frequency)}${latest}${fewValues(data[i], data)}.`,
      kind,
      { [kind]: value },
    );
  });
}

/**
 * Change first→last, peak and trough, and year-over-year growth of the last
 * full year (monthly or quarterly) of a series; the yearly comparison, when
 * there is one, comes first and replaces first→last (which would compare
 * different seasons). x: dates, ISO date strings or years; `period` the series' frequency
 * ("M", "Q", "Y", …) when the caller knows it, else inferred from x; [] below three
 * usable points, for a flat series, or when x is not dates or repeats. A point's `n`, when given,
 * is how many values its mean is of: an end or an extreme of fewer than FEW says so (fewValues).
 * `money`: the values' currency ("$", "EUR"), written with each (fmtMoney).
 */
export const trendInsights = neverThrows(
  (
    points: readonly { x: unknown; y: unknown; n?: number }[],
    label: string,
    how: TrendHow = 'sum',
    period: string | null = null,
    money?: string | null,
  ): Insight[] => {
    const series = seriesXY(points);
    const data = series?.data ?? null;
    const values = data?.map((p) => p.y) ?? [];
    if (series === null || data === null || data.length < 3 || new Set(values).size < 2) return [];
    const frequency =
      period ?? inferFrequency(data.map((p) => p.x)) ?? (yearStarts(data) ? 'Y' : null);
    const when = data.map((p) => fmtDate(p.x, frequency));
    const yearly = yearOverYear(data, label, frequency, how, money);
    const first = yearly.length ? [] : [change(label, when, data, how, money)];
    const gaps = gapsInsight(label, series.gaps, frequency);
    return [...yearly, ...first, ...extremes(label, when, data, frequency, how, money), ...gaps];
  },
);
