/** Compass bearings stored as numbers (semantics-roles.ts' labels): a place on a circle. */
import type { ColumnProfile } from './profile.js';
import { nameWords, words } from './semantics-evidence.js';

/** A bearing's role: a direction, settled, with its evidence. */
interface Compass {
  role: 'direction';
  evidence: string;
  settled: true;
}

/** Words that name a bearing in degrees: wind_dir, dirCat, heading, azimuth, WindDirection. */
const DIRECTION_WORDS = words('dir direction bearing heading azimuth winddir wdir');

/**
 * A compass bearing in degrees (a wind's direction, a vessel's heading): 359° lies next to 0°,
 * so its plain mean, median or correlation with a measure says nothing — 350° and 10° average to
 * 180°, the opposite way. Named so (a word of a name of at most three: wind_dir, dirCat, not
 * direction_change_count) and spread over at least half the circle within one turn (0–360, or
 * −180–180): a "dir" of -1 and 1 is a sign, a "heading" 1–6 a level of a document.
 */
export function compassRole(
  c: ColumnProfile,
  s: { min: number; max: number },
  range: string,
): Compass | null {
  const parts = nameWords(c.name);
  if (parts.length > 3 || !parts.some((p) => DIRECTION_WORDS.has(p))) return null;
  if (s.min < -180 || s.max > 360 || s.max - s.min < 180 || s.max - s.min > 360) return null;
  if (c.distinct < 4) return null;
  return {
    role: 'direction',
    evidence: `${range} named as a direction: a compass bearing in degrees, where 360° meets 0°, averaged only on the circle`,
    settled: true,
  };
}
