/**
 * A compass bearing's findings (compass_insights in opsmind_insights.py): its mean on the circle
 * and how tightly the bearings gather around it, and its busiest 45° sector — never a plain mean,
 * median or skew, which depend on where the circle is cut (350° and 10° average to 180°).
 */
import { capital, displayFixed, fmtPct, groupThousands } from './insights-format.js';
import { insight, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';

/** The eight points of the compass, each the middle of its 45° sector (N: 337.5°–22.5°). */
export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** Sums over a bearing's finite values: their count, Σ sin and Σ cos, and the count per sector. */
export interface CompassStats {
  n: number;
  sin: number;
  cos: number;
  /** Values per sector, in COMPASS_POINTS' order. */
  sectors: number[];
}

/** Below this mean resultant length the bearings balance out: they have no mean direction. */
const NO_DIRECTION = 0.05;

/** The sector of a bearing in degrees: 0 for north (337.5° up to 22.5°), then clockwise. */
export function sectorOf(degrees: number): number {
  const turned = ((degrees % 360) + 360) % 360;
  return Math.floor((turned + 22.5) / 45) % 8;
}

/** A sector's bounds: "337.5°–22.5°" for N, "22.5°–67.5°" for NE. */
function bounds(sector: number): string {
  const lo = (sector * 45 - 22.5 + 360) % 360;
  return `${lo}°–${(sector * 45 + 22.5) % 360}°`;
}

/** How the values gather around their mean direction, by the mean resultant length. */
function gathered(r: number): string {
  if (r >= 0.8) return 'and the values are tightly gathered around it';
  if (r >= 0.5) return 'and the values are gathered around it';
  if (r >= 0.2) return 'and the values are loosely gathered around it';
  return 'but the values are spread around the compass';
}

/**
 * The circular mean of a bearing (atan2 of the mean sine and cosine) with its mean resultant
 * length R (1: every value the same way, 0: no prevailing direction), and the sector with the
 * most values; [] below two values.
 */
export const compassInsights = neverThrows((stats: CompassStats, label: string): Insight[] => {
  const { n, sin, cos, sectors } = stats;
  if (!(n >= 2) || !Number.isFinite(sin) || !Number.isFinite(cos)) return [];
  const r = Math.min(1, Math.hypot(sin, cos) / n);
  const subject = `${capital(label)} is a compass bearing (360° is 0°: north)`;
  const length = displayFixed(r, 2);
  const out: Insight[] = [];
  if (r < NO_DIRECTION) {
    const text = `${subject}: its values balance out around the compass (mean resultant length ${length} of 1), so they have no mean direction.`;
    out.push(insight(text, 'direction', { resultant: r, n }));
  } else {
    const mean = ((((Math.atan2(sin, cos) * 180) / Math.PI) % 360) + 360) % 360;
    const shown = displayFixed(mean, 0);
    const degrees = shown === '360' ? '0' : shown;
    const text = `${subject}, so it is averaged on the circle: its mean direction is ${degrees}° (${COMPASS_POINTS[sectorOf(mean)]}), ${gathered(r)} (mean resultant length ${length} of 1)${r < 0.2 ? ': that mean says little' : ''}.`;
    out.push(insight(text, 'direction', { mean_deg: mean, resultant: r, n }));
  }
  const ranked = sectors
    .map((count, i) => ({ count, i }))
    .sort((a, b) => b.count - a.count || a.i - b.i);
  const [first, second] = ranked;
  if (first && second && first.count > second.count && first.count > 0) {
    const point = COMPASS_POINTS[first.i] ?? '';
    const text =
      `The most common direction of ${label} is ${point} (${bounds(first.i)}): ` +
      `${groupThousands(String(first.count))} of ${groupThousands(String(n))} values (${fmtPct(first.count / n)})` +
      (second.count > 0
        ? `, then ${COMPASS_POINTS[second.i] ?? ''} (${fmtPct(second.count / n)}).`
        : '.');
    out.push(insight(text, 'sector', { count: first.count, share_pct: (first.count / n) * 100 }));
  }
  return out;
});
