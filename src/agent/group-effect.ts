/**
 * What pooling groups hides in a pair of measures: the correlation within every group has one
 * sign and is at least moderate, while over all rows it has the other sign or is near zero
 * (a reversal: penguins' beak length against depth, −0.24 pooled, +0.39…+0.65 per species), or
 * is weaker by 0.2 or more. One rule for the planner (which scatter to draw, from the table facts)
 * and for the finding (from the analysis' rows).
 */

/** One group's Pearson r over its complete pairs. */
export interface GroupCorrelation {
  n: number;
  r: number;
  xConstant?: boolean;
  yConstant?: boolean;
}

export interface GroupEffect {
  kind: 'reversal' | 'stronger';
  /** The pooled r, clipped to [-1, 1]. */
  overall: number;
  lo: number;
  hi: number;
  groups: number;
}

/** Groups with fewer complete pairs than this say nothing about a correlation within them. */
export const GROUP_PAIRS = 10;

const clip = (r: number): number => Math.min(1, Math.max(-1, r));

export function groupEffect(
  overall: number,
  groups: readonly GroupCorrelation[],
): GroupEffect | null {
  if (!Number.isFinite(overall)) return null;
  const rs = groups
    .filter((g) => g.n >= GROUP_PAIRS && !g.xConstant && !g.yConstant && Number.isFinite(g.r))
    .map((g) => clip(g.r));
  if (rs.length < 2) return null;
  const sign = Math.sign(rs[0] ?? 0);
  if (sign === 0 || !rs.every((r) => Math.sign(r) === sign)) return null;
  const weakest = Math.min(...rs.map(Math.abs));
  if (weakest < 0.3) return null;
  const r0 = clip(overall);
  const found = { overall: r0, lo: Math.min(...rs), hi: Math.max(...rs), groups: rs.length };
  if (Math.sign(r0) !== sign || Math.abs(r0) < 0.1) return { kind: 'reversal', ...found };
  if (weakest - Math.abs(r0) >= 0.2) return { kind: 'stronger', ...found };
  return null;
}
