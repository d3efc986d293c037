/**
 * Declaration ids that are unique across a session. Every program numbers
 * its own declarations from `c1` and `t1`; the host shifts them past the ids
 * earlier steps of the session used, so a session's second chart is `c2`
 * whichever step declared it. The shift depends only on what the session
 * stored (the declarations of earlier steps, in order), so a live run and a
 * replay of it give the same ids.
 */
import type { RenderSpec } from './schema.js';

/** How many declarations of each id prefix (`c` charts, `t` tables, `f` figures) the session's earlier steps made. */
export type IdCounts = Readonly<Record<string, number>>;

const NUMBERED = /^([a-z]+)(\d+)$/;

function shift<T extends { id: string }>(decl: T, used: IdCounts): T {
  const match = NUMBERED.exec(decl.id);
  if (!match?.[1] || !match[2]) return decl;
  const prefix = match[1];
  return { ...decl, id: `${prefix}${Number(match[2]) + (used[prefix] ?? 0)}` };
}

/** The spec with its numbered ids moved past those already `used`; ids of another form stay as they are. */
export function renumberSpec(spec: RenderSpec, used: IdCounts): RenderSpec {
  return {
    ...spec,
    charts: spec.charts.map((d) => shift(d, used)),
    tables: spec.tables.map((d) => shift(d, used)),
    images: spec.images.map((d) => shift(d, used)),
  };
}

/** The counts after one more step that declared `ids`. */
export function countIds(used: IdCounts, ids: readonly string[]): IdCounts {
  const next: Record<string, number> = { ...used };
  for (const id of ids) {
    const prefix = NUMBERED.exec(id)?.[1];
    if (prefix) next[prefix] = (next[prefix] ?? 0) + 1;
  }
  return next;
}

/** The ids a spec declares (charts, tables and captured figures). */
export function specIds(spec: RenderSpec | null): string[] {
  return spec ? [...spec.charts, ...spec.tables, ...spec.images].map((d) => d.id) : [];
}
