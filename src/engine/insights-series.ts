/**
 * Sentences comparing the lines of a chart split by a category or an entity
 * (series_trend_insights in preamble/opsmind_insights.py): each line's change, the lines that
 * moved most, and the highest point of them all.
 */
import { asDatetime, inferFrequency } from './insights-dates.js';
import { capital, fmtDate, fmtPct } from './insights-format.js';
import type { Point, TrendHow } from './insights-trend.js';
import {
  byDifference,
  endsNote,
  fewValues,
  fmtDifference,
  fmtLevel,
  inPeriod,
  lastFullYears,
  seriesXY,
} from './insights-trend.js';
import { listed } from '../util/sentence.js';
import { groupName, insight, isMissing, isOther, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';

/** A point of one of the lines; `n`, when known, how many values its mean is of. */
interface SeriesPoint {
  x: unknown;
  series: unknown;
  y: unknown;
  n?: number;
}

/** One line's values compared (a ratio or a difference of `after` over `before`), and where they are from. */
interface Line {
  name: string;
  before: number;
  after: number;
  /** "from Q1 2000 to Q1 2010 (29.5 → 207)", or "over 2023 (summing 12 months: 393 → 441)". */
  span: string;
  change: number;
}

/** Each named line's points with a date and a finite value, in time order (three or more, as a single line needs). */
function pointsOf(
  points: readonly SeriesPoint[],
  by: string,
  folded: boolean,
): Map<string, Point[]> {
  const groups = new Map<string, { x: unknown; y: unknown; n?: number }[]>();
  for (const p of points) {
    if (isMissing(p.series)) continue;
    const name = groupName(p.series, by);
    if (folded && isOther(name)) continue;
    const point = p.n === undefined ? { x: p.x, y: p.y } : { x: p.x, y: p.y, n: p.n };
    groups.set(name, [...(groups.get(name) ?? []), point]);
  }
  const lines = new Map<string, Point[]>();
  for (const [name, rows] of groups) {
    const data = seriesXY(rows)?.data ?? [];
    if (data.length >= 3) lines.set(name, data);
  }
  return lines;
}

/**
 * What each line compares: when every line has the same last full year (monthly or quarterly,
 * the year before full too), that year against the one before, combined as the single line's
 * year-over-year does; else its own first period against its own last. The year is returned too.
 */
function compared(
  lines: Map<string, Point[]>,
  frequency: string | null,
  how: TrendHow,
  money?: string | null,
): { year: number | null; lines: Omit<Line, 'change'>[] } {
  const years = [...lines.values()].map((data) => lastFullYears(data, frequency, how));
  const year = years[0]?.year ?? null;
  const periods = `${how === 'sum' ? 'summing' : 'averaging'} ${frequency === 'M' ? '12 months' : '4 quarters'}`;
  if (year !== null && years.every((y) => y?.year === year))
    return {
      year,
      lines: [...lines.keys()].map((name, i) => {
        const { total, previous } = years[i] ?? { total: NaN, previous: NaN };
        const span = `over ${year - 1} (${periods}: ${fmtLevel(previous, how, money)} → ${fmtLevel(total, how, money)})`;
        return { name, before: previous, after: total, span };
      }),
    };
  const reference = [...lines.values()].flat();
  return {
    year: null,
    lines: [...lines].map(([name, data]) => {
      const [first, last] = [data[0] as Point, data[data.length - 1] as Point];
      const [from, to] = [fmtDate(first.x, frequency), fmtDate(last.x, frequency)];
      const note = endsNote(data, from, to, reference);
      const span = `from ${from} to ${to} (${fmtLevel(first.y, how, money)} → ${fmtLevel(last.y, how, money)}${note})`;
      return { name, before: first.y, after: last.y, span };
    }),
  };
}

/** A line's highest point, first reached (np.argmax), and whether the line never moves from it. */
function peakOf(name: string, data: Point[]): { name: string; at: Point; flat: boolean } {
  let at = data[0] as Point;
  for (const p of data) if (p.y > at.y) at = p;
  return { name, at, flat: data.every((p) => p.y === at.y) };
}

/**
 * Which line rose highest, when, and where each other line peaked (up to PEAKS_LISTED of them,
 * highest first; lines that never move said once per level, "drizzle, fog and sun stayed at 0"):
 * the first→last sentence misses a line that rose and fell back (crimea.json's deaths from
 * disease, 2,761 in Jan 1855 and near nothing at both ends). Nothing when the highest line is flat.
 */
function peakInsight(
  found: Map<string, Point[]>,
  frequency: string | null,
  how: TrendHow,
  all: string,
  money?: string | null,
): Insight[] {
  const peaks = [...found]
    .map(([name, data]) => peakOf(name, data))
    .sort((a, b) => b.at.y - a.at.y || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const [top, ...rest] = peaks as [(typeof peaks)[number], ...typeof peaks];
  if (top.flat) return [];
  const fewer = fewValues(top.at, [...found.values()].flat());
  const when = (p: Point): string => inPeriod(fmtDate(p.x, frequency), frequency);
  const moving = rest
    .filter((p) => !p.flat)
    .map(
      (p, i) =>
        `${p.name}${i === 0 ? ' peaked' : ''} at ${fmtLevel(p.at.y, how, money)} ${when(p.at)}`,
    );
  const levels = new Map<number, string[]>();
  for (const p of rest.filter((l) => l.flat))
    levels.set(p.at.y, [...(levels.get(p.at.y) ?? []), p.name]);
  const still = [...levels].map(
    ([y, names]) => `${listed(names)} stayed at ${fmtLevel(y, how, money)}`,
  );
  const parts = [moving.join(', '), ...still].filter(Boolean).join('; ');
  const others = rest.length > 0 && rest.length <= PEAKS_LISTED ? ` (${parts})` : '';
  return [
    insight(
      `The highest point of ${all}: ${top.name} at ${fmtLevel(top.at.y, how, money)} ${when(top.at)}${fewer}${others}.`,
      'series_peak',
      { lines: peaks.length, peak: top.at.y },
    ),
  ];
}

/** Past this many other lines, the peak sentence names only the highest one's. */
const PEAKS_LISTED = 4;

/**
 * The line that rose most and the one that fell most (or, when all moved one way, the most and
 * the least), then the highest point of all lines (peakInsight). Said as differences on an
 * interval scale or when a line starts at or below zero (a percentage of a signed quantity
 * means nothing), else as percentages. [] below two lines or when x is not dates; no change
 * sentence when no line moved. `word` names the lines ("lines" for several measures'), else
 * they are "`by` lines". A point's `n`, when given, is how many values its mean is of: a line's
 * end or the highest point of few says so (fewValues). `money`: the values' currency (fmtMoney).
 */
export const seriesTrendInsights = neverThrows(
  (
    points: readonly SeriesPoint[],
    label: string,
    how: TrendHow,
    period: string | null,
    by: string,
    word?: string,
    money?: string | null,
  ): Insight[] => {
    // Lines of several measures fold nothing: a measure called "other" is a line of its own.
    const found = pointsOf(points, by, word === undefined);
    if (found.size < 2) return [];
    const stamps = asDatetime(points.map((p) => p.x)) ?? [];
    const frequency = period ?? inferFrequency(stamps.filter((s): s is number => s !== null));
    const n = found.size;
    const noun = word ?? `${by} lines`;
    const all = n === 2 ? `both ${noun}` : `all ${n} ${noun}`;
    return [
      ...changeInsight(found, frequency, how, label, all, word !== undefined, money),
      ...peakInsight(found, frequency, how, all, money),
    ];
  },
);

/** Which line rose most and which fell most (seriesTrendInsights), or nothing when none moved. */
function changeInsight(
  found: Map<string, Point[]>,
  frequency: string | null,
  how: TrendHow,
  label: string,
  all: string,
  measures: boolean,
  money?: string | null,
): Insight[] {
  const { year, lines: plain } = compared(found, frequency, how, money);
  const differences = byDifference(how) || plain.some((l) => l.before <= 0 || l.after < 0);
  const lines: Line[] = plain.map((l) => ({
    ...l,
    change: differences ? l.after - l.before : (l.after - l.before) / l.before,
  }));
  lines.sort((a, b) => b.change - a.change || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const still = (l: Line): boolean => (differences ? l.change === 0 : Math.abs(l.change) < 0.0005);
  const [top, bottom] = [lines[0], lines[lines.length - 1]];
  if (!top || !bottom || (still(top) && still(bottom))) return [];
  const said: Said = {
    top,
    bottom,
    all,
    up: differences ? 'rose' : 'grew',
    year,
    amount: (l) =>
      differences
        ? `by ${fmtDifference(Math.abs(l.change), how, money)}`
        : fmtPct(Math.abs(l.change)),
    still,
  };
  const text = measures ? measuresText(said) : linesText(said, label);
  const [scale, key] = differences ? [1, 'change'] : [100, 'change_pct'];
  return [
    insight(text, 'series_change', {
      lines: lines.length,
      ...(year === null ? {} : { year }),
      [`highest_${key}`]: top.change * scale,
      [`lowest_${key}`]: bottom.change * scale,
    }),
  ];
}

/** What a change sentence says: the lines that moved most and least, and how to word a move. */
interface Said {
  top: Line;
  bottom: Line;
  /** "both symbol lines", "all 3 lines". */
  all: string;
  up: 'rose' | 'grew';
  year: number | null;
  amount: (l: Line) => string;
  still: (l: Line) => boolean;
}

/** The change sentence of lines split by a category or an entity, whose subject is the label. */
function linesText({ top, bottom, all, up, year, amount, still }: Said, label: string): string {
  const subject = year === null ? capital(label) : `In ${year}, ${label}`;
  if (top.change > 0 && bottom.change > 0 && !still(bottom))
    return (
      `${subject} ${up} in ${all}: the most in ${top.name}, ${amount(top)} ${top.span}; ` +
      `the least in ${bottom.name}, ${amount(bottom)} ${bottom.span}.`
    );
  if (top.change < 0 && bottom.change < 0 && !still(top))
    return (
      `${subject} fell in ${all}: the most in ${bottom.name}, ${amount(bottom)} ${bottom.span}; ` +
      `the least in ${top.name}, ${amount(top)} ${top.span}.`
    );
  const part = (l: Line, verb: string): string =>
    still(l)
      ? `was ${l.change === 0 ? '' : 'nearly '}unchanged in ${l.name} ${l.span}`
      : `${verb} the most in ${l.name}, ${amount(l)} ${l.span}`;
  return `${subject} ${part(top, up)}, and ${part(bottom, 'fell')}.`;
}

/** The change sentence of several measures' lines: the lines are its subject ("the value rose in other" says nothing). */
function measuresText({ top, bottom, all, up, year, amount, still }: Said): string {
  const when = year === null ? '' : `In ${year}, `;
  if (top.change > 0 && bottom.change > 0 && !still(bottom))
    return (
      `${capital(when + all)} ${up}: ${top.name} the most, ${amount(top)} ${top.span}; ` +
      `${bottom.name} the least, ${amount(bottom)} ${bottom.span}.`
    );
  if (top.change < 0 && bottom.change < 0 && !still(top))
    return (
      `${capital(when + all)} fell: ${bottom.name} the most, ${amount(bottom)} ${bottom.span}; ` +
      `${top.name} the least, ${amount(top)} ${top.span}.`
    );
  const each = (l: Line, verb: string): string =>
    still(l)
      ? `${l.name} was ${l.change === 0 ? '' : 'nearly '}unchanged ${l.span}`
      : `${l.name} ${verb} the most, ${amount(l)} ${l.span}`;
  return `${capital(`${when}of ${all}`)}, ${each(top, up)}, and ${each(bottom, 'fell')}.`;
}
