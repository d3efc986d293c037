/**
 * Sentences comparing the lines of a chart split by a category or an entity
 * (series_trend_insights in preamble/opsmind_insights.py): each line's change
 * from its first to its last period, and the lines that moved most.
 */
import { asDatetime, inferFrequency } from './insights-dates.js';
import { capital, fmtDate, fmtNumber, fmtPct } from './insights-format.js';
import type { TrendHow } from './insights-trend.js';
import { seriesXY } from './insights-trend.js';
import { groupName, insight, isMissing, isOther, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';

/** One line's first and last values and its change (a ratio, or a difference). */
interface Line {
  name: string;
  first: { x: number; y: number };
  last: { x: number; y: number };
  change: number;
}

/** A change that rounds to 0.0% (or a difference of 0) is said as no change. */
const still = (line: Line, differences: boolean): boolean =>
  differences ? line.change === 0 : Math.abs(line.change) < 0.0005;

/** The lines with two values or more, named as the findings name groups ("Pclass 1"). */
function linesOf(
  points: readonly { x: unknown; series: unknown; y: unknown }[],
  by: string,
): { name: string; first: Line['first']; last: Line['last'] }[] {
  const groups = new Map<string, { x: unknown; y: unknown }[]>();
  for (const p of points) {
    if (isMissing(p.series)) continue;
    const name = groupName(p.series, by);
    if (isOther(name)) continue;
    groups.set(name, [...(groups.get(name) ?? []), { x: p.x, y: p.y }]);
  }
  return [...groups].flatMap(([name, rows]) => {
    const data = seriesXY(rows)?.data ?? [];
    const [first, last] = [data[0], data[data.length - 1]];
    return first && last && data.length >= 2 ? [{ name, first, last }] : [];
  });
}

/**
 * The line that rose most and the one that fell most (or, when all moved one way, the most and
 * the least), each from its own first to its own last period. Levels, stocks and interval levels
 * only: the first and last periods of a total (a flow) may be part-periods, so `how` "sum" gives
 * none. Said as differences on an interval scale or when a line starts at or below zero (a
 * percentage of a signed quantity means nothing), else as percentages. [] below two lines, when
 * no line moved, or when x is not dates.
 */
export const seriesTrendInsights = neverThrows(
  (
    points: readonly { x: unknown; series: unknown; y: unknown }[],
    label: string,
    how: TrendHow,
    period: string | null,
    by: string,
  ): Insight[] => {
    if (how === 'sum') return [];
    const found = linesOf(points, by);
    if (found.length < 2) return [];
    const differences = how === 'interval' || found.some((l) => l.first.y <= 0 || l.last.y < 0);
    const lines: Line[] = found.map((l) => ({
      ...l,
      change: differences ? l.last.y - l.first.y : (l.last.y - l.first.y) / l.first.y,
    }));
    lines.sort((a, b) => b.change - a.change || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const [top, bottom] = [lines[0], lines[lines.length - 1]];
    if (!top || !bottom || (still(top, differences) && still(bottom, differences))) return [];
    const stamps = asDatetime(points.map((p) => p.x)) ?? [];
    const frequency = period ?? inferFrequency(stamps.filter((s): s is number => s !== null));
    const span = (l: Line): string =>
      `from ${fmtDate(l.first.x, frequency)} to ${fmtDate(l.last.x, frequency)} ` +
      `(${fmtNumber(l.first.y)} → ${fmtNumber(l.last.y)})`;
    const amount = (l: Line): string =>
      differences ? `by ${fmtNumber(Math.abs(l.change))}` : fmtPct(Math.abs(l.change));
    const up = differences ? 'rose' : 'grew';
    const n = lines.length;
    const all = n === 2 ? `both ${by} lines` : `all ${n} ${by} lines`;
    const Label = capital(label);
    let text: string;
    if (top.change > 0 && bottom.change > 0 && !still(bottom, differences))
      text =
        `${Label} ${up} in ${all}: the most in ${top.name}, ${amount(top)} ${span(top)}; ` +
        `the least in ${bottom.name}, ${amount(bottom)} ${span(bottom)}.`;
    else if (top.change < 0 && bottom.change < 0 && !still(top, differences))
      text =
        `${Label} fell in ${all}: the most in ${bottom.name}, ${amount(bottom)} ${span(bottom)}; ` +
        `the least in ${top.name}, ${amount(top)} ${span(top)}.`;
    else {
      const part = (l: Line, verb: string): string =>
        still(l, differences)
          ? `was ${l.change === 0 ? '' : 'nearly '}unchanged in ${l.name} ${span(l)}`
          : `${verb} the most in ${l.name}, ${amount(l)} ${span(l)}`;
      text = `${Label} ${part(top, up)}, and ${part(bottom, 'fell')}.`;
    }
    const scale = differences ? 1 : 100;
    const key = differences ? 'change' : 'change_pct';
    return [
      insight(text, 'series_change', {
        lines: n,
        [`highest_${key}`]: top.change * scale,
        [`lowest_${key}`]: bottom.change * scale,
      }),
    ];
  },
);
