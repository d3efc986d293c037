/**
 * The ranking of a non-additive value per group (ranking_insights in preamble/opsmind_insights.py):
 * the highest and the lowest group, how far apart, and whether chance alone could give the gap.
 */
import type { CategoryValue } from './insights.js';
import { fmtMoney, fmtNumber, fmtRatio } from './insights-format.js';
import { descendingOrder } from './insights-sort.js';
import {
  groupName,
  insight,
  isMissing,
  isOther,
  neverThrows,
  toNumber,
} from './insights-values.js';
import type { Insight } from './insights-values.js';
import { gapByChance, welchAnova } from './insights-welch.js';
import type { BlockedTest } from './insights-welch.js';
import type { Spread } from './insights-welch.js';

/** Below this many values, a group's value is said with how few it is of (fewOf). */
const FEW = 10;

/**
 * ", 4 of 5 rows" (a rate's hits of its rows) or ", from 3 values" (a mean's), for a group of
 * fewer than FEW values ranked against one of FEW or more; nothing when both are small (a chart
 * of one row per customer).
 */
function fewOf(
  group: Spread | null | undefined,
  other: Spread | null | undefined,
  percent: boolean,
): string {
  if (!group || !other || group.n >= FEW || other.n < FEW) return '';
  if (percent)
    return `, ${Math.round((group.n * group.mean) / 100)} of ${group.n} row${group.n === 1 ? '' : 's'}`;
  return `, from ${group.n} value${group.n === 1 ? '' : 's'}`;
}

/**
 * For averages and other non-additive values: the highest and the lowest
 * category and how far apart they are (ranking_insights); ties are broken as
 * pandas' sort_values does. "Other"-like categories are left out. Given each
 * group's spread (a mean's), a gap that Welch's t-test between the two finds
 * within chance (p ≥ 0.05, Bonferroni-corrected for picking the two of
 * `groups`, by default every row ranked: gapByChance) is said to be, and a
 * group of fewer than FEW values is said with how few (fewOf). Given `overall` (the groups'
 * plural: "months"), the groups are a cycle whose question is whether they differ at all: Welch's
 * one-way ANOVA of every group replaces the test of the two; `blocked`, the cycle's two-way ANOVA
 * within its blocks (months year by year: blockedAnova) with the block's word, replaces that
 * when given. `percent`: the values are a rate's
 * shares in percent (each group's share of its rows: Fisher's exact test for few rows); `points`:
 * they are percentages of a measure (a mean margin of 17.9%), said as percent and apart by
 * percentage points as a rate's are, but tested as any mean. `money`: the values' currency ("$",
 * "EUR"), written with each value and an interval's difference (fmtMoney).
 */
export const rankingInsights = neverThrows(
  (
    rows: readonly CategoryValue[],
    label: string,
    interval = false,
    percent = false,
    by?: string,
    spread?: (category: unknown) => Spread | null,
    groups?: number,
    overall?: string,
    points = false,
    blocked?: (BlockedTest & { block: string }) | null,
    money?: string | null,
  ): Insight[] => {
    // A number names its group with its column: "Pclass 1", not a bare "1".
    const named = (c: unknown): string => groupName(c, by);
    const data = rows
      .map((row) => ({ category: row.category, value: toNumber(row.value) }))
      // Rows without a category are no group to rank ("(missing) has the highest …").
      .filter(
        (row) => !Number.isNaN(row.value) && !isOther(row.category) && !isMissing(row.category),
      );
    if (data.length < 2 || new Set(data.map((row) => row.value)).size < 2) return [];
    const order = descendingOrder(data.map((row) => row.value));
    const top = data[order[0] ?? 0];
    const bottom = data[order[order.length - 1] ?? 0];
    if (!top || !bottom) return [];
    // Values that print alike (9/27 and 10/30 as 33.3) are a tie, not a ranking.
    if (fmtNumber(top.value) === fmtNumber(bottom.value)) return [];
    const name = label || 'value';
    const [high, low] = [spread?.(top.category), spread?.(bottom.category)];
    const shown = (value: number, group: Spread | null | undefined, other: typeof group) =>
      `${fmtMoney(value, money)}${percent || points ? '%' : ''}${fewOf(group, other, percent === true)}`;
    let text =
      `${named(top.category)} has the highest ${name} (${shown(top.value, high, low)}); ` +
      `${named(bottom.category)} the lowest (${shown(bottom.value, low, high)})`;
    const numbers: Record<string, number> = { highest: top.value, lowest: bottom.value };
    if (fewOf(high, low, false)) numbers.highest_n = high?.n ?? NaN;
    if (fewOf(low, high, false)) numbers.lowest_n = low?.n ?? NaN;
    // Shares (a rate in %) differ by points; on an interval scale (°C) a ratio means nothing
    // either: 9.3 °C is not 64× 0.15 °C.
    if (percent || points) {
      numbers.difference = top.value - bottom.value;
      text += `, ${fmtNumber(numbers.difference)} percentage points apart`;
    } else if (interval) {
      numbers.difference = top.value - bottom.value;
      text += `, ${fmtMoney(numbers.difference, money)} apart`;
    } else if (bottom.value > 0) {
      numbers.ratio = top.value / bottom.value;
      text += `, ${fmtRatio(numbers.ratio)} apart`;
    }
    const chance = overall
      ? cycleChance(data, spread, overall, blocked)
      : pairChance(high, low, percent === true, groups ?? data.length);
    if (chance) {
      text += chance.text;
      Object.assign(numbers, chance.numbers);
    }
    return [insight(`${text}.`, 'ranking', numbers)];
  },
);

/**
 * The clause of a cycle's groups (months: `overall`) when a test of them all — within their blocks
 * (`blocked`), else Welch's one-way ANOVA — finds their differences within chance (p ≥ 0.05): a
 * cycle's question is whether its groups differ at all, so no pair is picked.
 */
function cycleChance(
  data: readonly { category: unknown }[],
  spread: ((category: unknown) => Spread | null) | undefined,
  overall: string,
  blocked: (BlockedTest & { block: string }) | null | undefined,
): { text: string; numbers: Record<string, number> } | null {
  if (!spread) return null;
  const none: Spread = { n: 0, mean: NaN, variance: NaN };
  const test = blocked ?? welchAnova(data.map((row) => spread(row.category) ?? none));
  if (!test || test.p < 0.05) return null;
  const how = blocked
    ? `, ${blocked.block} by ${blocked.block} (two-way ANOVA over ${fmtNumber(blocked.blocks)} complete ${blocked.block}s`
    : " (Welch's ANOVA";
  return {
    text: `; chance alone could give differences this size between the ${fmtNumber(data.length)} ${overall}${how}, p = ${fmtNumber(test.p)})`,
    numbers: { p_value: test.p },
  };
}

/** The clause of the highest and lowest of `groups` groups when their gap is within chance (gapByChance). */
function pairChance(
  high: Spread | null | undefined,
  low: Spread | null | undefined,
  percent: boolean,
  groups: number,
): { text: string; numbers: Record<string, number> } | null {
  const chance = gapByChance(high, low, percent, groups);
  if (!chance) return null;
  const corrected =
    chance.pairs > 1
      ? ` after Bonferroni's correction for the ${fmtNumber(chance.pairs)} pairs of ${fmtNumber(groups)} groups`
      : '';
  return {
    text: `; chance alone could give a gap this size (${chance.test}, p = ${fmtNumber(chance.p)}${corrected})`,
    numbers: { p_value: chance.p, ...(chance.pairs > 1 ? { pairs: chance.pairs } : {}) },
  };
}
