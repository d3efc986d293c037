/**
 * What changed between two snapshots of a dataset, computed, with the numbers: columns added,
 * removed or retyped; the row count; each shared key measure's total (amounts, counts) or mean
 * (levels, ratios) with its change; category values that appeared or vanished; and each shared
 * measure's population stability index (PSI) over the earlier file's deciles, estimated from
 * the two files' percentiles, with the usual thresholds (< 0.1 stable, 0.1–0.25 moderate,
 * ≥ 0.25 significant). Also its words for the index and the report.
 */
import type { Changes, Snapshot } from './types.js';
import { PSI_MODERATE, PSI_SIGNIFICANT } from './types.js';

/** Shares below this are floored in the PSI (an empty bin would make it infinite). */
const PSI_FLOOR = 1e-4;

function pct(before: number, after: number): number | null {
  return before === 0 ? null : ((after - before) / Math.abs(before)) * 100;
}

/** The share of values at or below x, from 101 percentiles (q[i] is the i-th percentile). */
export function cdf(q: readonly number[], x: number): number {
  const last = q.length - 1;
  if (last < 1 || x < (q[0] ?? 0)) return 0;
  if (x >= (q[last] ?? 0)) return 1;
  let i = 0;
  while (i < last && (q[i + 1] ?? Infinity) <= x) i += 1;
  const lo = q[i] ?? 0;
  const hi = q[i + 1] ?? lo;
  const within = hi > lo ? (x - lo) / (hi - lo) : 0;
  return (i + within) / last;
}

/** PSI of `after` against `before` over `before`'s deciles (edges repeated by ties merged). */
export function psi(before: readonly number[], after: readonly number[]): number {
  const edges = [...new Set([10, 20, 30, 40, 50, 60, 70, 80, 90].map((p) => before[p] ?? 0))];
  const shares = (q: readonly number[]): number[] => {
    const at = edges.map((e) => cdf(q, e));
    return [...at, 1].map((c, i) => c - (i === 0 ? 0 : (at[i - 1] ?? 0)));
  };
  const e = shares(before);
  const a = shares(after);
  let sum = 0;
  e.forEach((expected, i) => {
    const x = Math.max(expected, PSI_FLOOR);
    const y = Math.max(a[i] ?? 0, PSI_FLOOR);
    sum += (y - x) * Math.log(y / x);
  });
  return sum;
}

function level(value: number): 'stable' | 'moderate' | 'significant' {
  return value >= PSI_SIGNIFICANT ? 'significant' : value >= PSI_MODERATE ? 'moderate' : 'stable';
}

/** What changed from `before` to `after`. */
export function compareSnapshots(
  before: Snapshot,
  after: Snapshot,
  against: Changes['against'],
  sameContent: boolean,
): Changes {
  const beforeCols = new Map(before.columns.map((c) => [c.name, c.type]));
  const afterCols = new Map(after.columns.map((c) => [c.name, c.type]));
  const measures: Changes['measures'] = [];
  const beforeMeasures = new Map(before.measures.map((m) => [m.column, m]));
  for (const m of after.measures) {
    const b = beforeMeasures.get(m.column);
    if (!b || b.stat !== m.stat) continue;
    const x = m.stat === 'sum' ? b.sum : b.mean;
    const y = m.stat === 'sum' ? m.sum : m.mean;
    if (x === null || y === null) continue;
    measures.push({
      column: m.column,
      stat: m.stat,
      before: x,
      after: y,
      change: y - x,
      pct: pct(x, y),
    });
  }
  const beforeCats = new Map(before.categories.map((c) => [c.column, new Set(c.values)]));
  const categories: Changes['categories'] = [];
  for (const c of after.categories) {
    const b = beforeCats.get(c.column);
    if (!b) continue;
    const now = new Set(c.values);
    const appeared = c.values.filter((v) => !b.has(v));
    const vanished = [...b].filter((v) => !now.has(v));
    if (appeared.length || vanished.length)
      categories.push({ column: c.column, appeared, vanished });
  }
  const beforeQ = new Map(before.quantiles.map((q) => [q.column, q.q]));
  const shifts: Changes['shifts'] = [];
  for (const q of after.quantiles) {
    const b = beforeQ.get(q.column);
    if (!b) continue;
    const value = psi(b, q.q);
    shifts.push({
      column: q.column,
      psi: Math.round(value * 10_000) / 10_000,
      level: level(value),
    });
  }
  return {
    against,
    same_content: sameContent,
    columns_added: after.columns.filter((c) => !beforeCols.has(c.name)).map((c) => c.name),
    columns_removed: before.columns.filter((c) => !afterCols.has(c.name)).map((c) => c.name),
    type_changes: after.columns.flatMap((c) => {
      const was = beforeCols.get(c.name);
      return was !== undefined && was !== c.type ? [{ column: c.name, from: was, to: c.type }] : [];
    }),
    rows: {
      before: before.rows,
      after: after.rows,
      change: after.rows - before.rows,
      pct: pct(before.rows, after.rows),
    },
    measures,
    categories,
    shifts,
  };
}

const num = (v: number): string =>
  Math.abs(v) >= 1e9 || (v !== 0 && Math.abs(v) < 1e-3)
    ? v.toExponential(3)
    : v.toLocaleString('en-US', { maximumFractionDigits: Math.abs(v) >= 100 ? 0 : 2 });

const signed = (v: number): string => (v > 0 ? `+${num(v)}` : num(v));

function pctText(p: number | null): string {
  return p === null ? '' : ` (${p > 0 ? '+' : ''}${p.toFixed(1)}%)`;
}

/** The changes in sentences, most telling first; an unchanged file says so in one. */
export function changeLines(c: Changes): string[] {
  if (c.same_content) return [`Same content as ${c.against.name}: nothing changed.`];
  const lines: string[] = [];
  if (c.columns_added.length) lines.push(`Columns added: ${c.columns_added.join(', ')}.`);
  if (c.columns_removed.length) lines.push(`Columns removed: ${c.columns_removed.join(', ')}.`);
  for (const t of c.type_changes) lines.push(`${t.column} changed type: ${t.from} → ${t.to}.`);
  if (c.rows.change !== 0)
    lines.push(
      `Rows: ${num(c.rows.before)} → ${num(c.rows.after)} (${signed(c.rows.change)}${c.rows.pct === null ? '' : `, ${c.rows.pct > 0 ? '+' : ''}${c.rows.pct.toFixed(1)}%`}).`,
    );
  else lines.push(`Rows: ${num(c.rows.after)}, unchanged.`);
  for (const cat of c.categories) {
    if (cat.appeared.length)
      lines.push(
        `New in ${cat.column}: ${cat.appeared.slice(0, 10).join(', ')}${cat.appeared.length > 10 ? ` and ${cat.appeared.length - 10} more` : ''}.`,
      );
    if (cat.vanished.length)
      lines.push(
        `Gone from ${cat.column}: ${cat.vanished.slice(0, 10).join(', ')}${cat.vanished.length > 10 ? ` and ${cat.vanished.length - 10} more` : ''}.`,
      );
  }
  for (const m of c.measures)
    if (m.change !== 0)
      lines.push(
        `${m.stat === 'sum' ? 'Total' : 'Mean'} ${m.column}: ${num(m.before)} → ${num(m.after)}${pctText(m.pct)}.`,
      );
  for (const s of c.shifts)
    if (s.level !== 'stable')
      lines.push(
        `The distribution of ${s.column} shifted (${s.level}: PSI ${s.psi.toFixed(2)}, threshold ${s.level === 'significant' ? PSI_SIGNIFICANT : PSI_MODERATE}).`,
      );
  return lines;
}

/** How a comparison is introduced. */
export function againstText(c: Changes): string {
  return c.against.kind === 'previous_run'
    ? `Since the previous run (${c.against.name}${c.against.when ? `, ${c.against.when.slice(0, 16).replace('T', ' ')}` : ''})`
    : `Since ${c.against.name}, the previous file of the series${c.against.when ? ` (${c.against.when})` : ''}`;
}
