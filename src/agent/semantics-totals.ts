/**
 * Total rows outside time: a category value whose rows add up the rest of the table (a "Total"
 * line under a list of states; a subtotal per region in a region × product table). Both engines
 * measure the same sums (TableFacts.splits) over the columns and measures chosen here; this
 * module decides, so a summed chart never counts the same thing twice.
 */
import type { DataProfile } from './profile.js';
import { derivedMeasures } from './semantics-derived.js';
import { timeColumn } from './semantics-grain.js';
import type { Semantics, TableFacts } from './semantics-types.js';

/** Labels that say a row sums others, in the languages of the data we read. */
export const TOTAL_LABEL =
  /^\s*(grand\s+|sub-?)?totals?(\s+general)?\s*$|^\s*(all|sum|overall|gesamt|insgesamt|summe|totale|todos|tous|alle)\s*$/i;

/** A value's sums may be this far from the rest's and still be their total (rounded parts). */
export const LOOSE_SHARE = 0.005;
/** Without a label that says so, the sums must agree this closely, on two measures or more. */
export const EXACT_SHARE = 1e-6;

/** At most this many category columns and measures are measured. */
const SPLIT_COLUMNS = 6;
const SPLIT_MEASURES = 6;
/** A column with more values is grouped only in tables up to SPLIT_ROWS rows. */
const SPLIT_DISTINCT = 1000;
const SPLIT_ROWS = 100_000;

/** The text columns whose values may label a total, and the measures summed: both engines'. */
export function splitCandidates(profile: DataProfile): { columns: string[]; measures: string[] } {
  const measures = derivedMeasures(profile).slice(0, SPLIT_MEASURES);
  if (measures.length === 0 || profile.rows < 4) return { columns: [], measures: [] };
  const time = timeColumn(profile)?.column.name ?? null;
  const columns = profile.column_profiles
    .filter(
      (c) =>
        c.name !== time &&
        ['category', 'identifier', 'text'].includes(c.semantic) &&
        /^(object|string)/.test(c.dtype) &&
        c.distinct >= 3 &&
        (c.distinct <= SPLIT_DISTINCT || profile.rows <= SPLIT_ROWS),
    )
    .slice(0, SPLIT_COLUMNS)
    .map((c) => c.name);
  return { columns, measures };
}

/** One value's sum of one measure (`part`) and the whole column's (`whole`), near a total. */
export type Split = NonNullable<TableFacts['splits']>[number];

/**
 * The values that total the rest: on two measures or more to EXACT_SHARE, or, labelled as a
 * total, on one to LOOSE_SHARE. One per column, the most measures first; "Total" before a value
 * that only adds up by chance.
 */
export function tableTotals(splits: readonly Split[]): Semantics['totals'] {
  const found = new Map<string, { value: string; measures: string[]; labelled: boolean }>();
  const byValue = new Map<string, Split[]>();
  for (const s of splits) {
    const key = JSON.stringify([s.column, s.value]);
    byValue.set(key, [...(byValue.get(key) ?? []), s]);
  }
  for (const list of byValue.values()) {
    const { column, value } = list[0] as Split;
    const labelled = TOTAL_LABEL.test(value);
    const close = (s: Split, share: number) => {
      const rest = s.whole - s.part;
      return s.part !== 0 && Math.abs(s.part - rest) <= share * Math.abs(s.part) + 1e-9;
    };
    const exact = list.filter((s) => close(s, EXACT_SHARE)).map((s) => s.measure);
    const loose = list.filter((s) => close(s, LOOSE_SHARE)).map((s) => s.measure);
    const measures = exact.length >= 2 ? exact : labelled && loose.length ? loose : null;
    if (!measures) continue;
    const best = found.get(column);
    const rank = (f: { value: string; measures: string[]; labelled: boolean }) => [
      Number(f.labelled),
      f.measures.length,
    ];
    const [a, b] = [rank({ value, measures, labelled }), best ? rank(best) : [-1, -1]];
    const wins =
      (a[0] as number) - (b[0] as number) ||
      (a[1] as number) - (b[1] as number) ||
      (best && value < best.value ? 1 : 0);
    if (!best || wins > 0) found.set(column, { value, measures, labelled });
  }
  return [...found].map(([column, f]) => ({
    column,
    value: f.value,
    measure: f.measures[0] as string,
    within: 'table' as const,
  }));
}
