/**
 * Shares of an additive value (share_insights): the top category's share of the total, the top
 * two compared (weighed by their rows when the larger total comes of more rows each holding
 * less), and the top three's share.
 */
import { fmtMoney, fmtPct, fmtRatio } from './insights-format.js';
import { pairwiseSum } from './insights-stats.js';
import { groupName, insight, isMissing, isOther, measure, neverThrows } from './insights-values.js';
import type { Insight } from './insights-values.js';
import { listed } from '../util/sentence.js';
import type { CategoryValue } from './insights.js';

/** The name of the rows without a category. */
const MISSING = '(missing)';

/** Sums per category name in order of first appearance, with pandas' groupby (Kahan) summation. */
function groupTotals(rows: readonly CategoryValue[], by?: string): Total[] {
  const totals = new Map<string, { sum: number; compensation: number; category: unknown }>();
  for (const row of rows) {
    const value = measure(row.value);
    if (!Number.isFinite(value)) continue;
    const name = isMissing(row.category) ? MISSING : groupName(row.category, by);
    const group = totals.get(name) ?? { sum: 0, compensation: 0, category: row.category };
    const y = value - group.compensation;
    const t = group.sum + y;
    totals.set(name, { sum: t, compensation: t - group.sum - y, category: group.category });
  }
  return [...totals].map(([name, { sum, category }]) => ({ name, value: sum, category }));
}

/** A group's total, its name as written and its category as the frame holds it. */
interface Total {
  name: string;
  value: number;
  category: unknown;
}

/**
 * How many rows hold a value of a summed measure: in each group (by its category; null for a
 * missing one) and in all of them (opsmind_insights.share_insights counts its `keys` and `values`).
 */
export interface RowCounts {
  of: (category: unknown) => number | null;
  total: number;
}

/**
 * The rows behind the top two totals, when they reverse the order per row: the larger total comes
 * of more rows, each holding less (racd10data.csv: "offer 0 has 12× the income of offer 1" from
 * 28× the respondents, whose income is 19.3 on average against offer 1's 47.4). Null otherwise.
 */
function perRowReversal(
  top: Total,
  second: Total | undefined,
  counts: RowCounts | undefined,
): { nTop: number; nSecond: number; total: number } | null {
  if (!counts || !second || isMissing(top.category) || isMissing(second.category)) return null;
  const [nTop, nSecond] = [counts.of(top.category), counts.of(second.category)];
  if (!nTop || !nSecond || !(counts.total > 0)) return null;
  return top.value / nTop < second.value / nSecond ? { nTop, nSecond, total: counts.total } : null;
}

/**
 * Under this share of the total the second group is too small to measure the first against:
 * airports.csv's "USA has 3,372× the rows of Federated States of Micronesia (3,372 vs 1)" and
 * "the top 3 … account for 99.9%" beside "USA accounts for 99.9%" said nothing the share had not.
 */
const SECOND_SHARE = 0.01;

/** Whether a second group of `second` out of `total` is too small to compare with (SECOND_SHARE). */
function dwarfed(second: number, total: number): boolean {
  return second < SECOND_SHARE * total;
}

function topSentences(
  ranked: Total[],
  label: string,
  total: number,
  counts?: RowCounts,
  money?: string | null,
): Insight[] {
  const fmt = (x: number): string => fmtMoney(x, money);
  const top = ranked[0]?.value ?? NaN;
  const leaders = ranked.filter((g) => g.value === top).map((g) => g.name);
  const numbers = { share_pct: (top / total) * 100, value: top, total };
  const of = `(${fmt(top)} of ${fmt(total)})`;
  if (leaders.length > 1) {
    const text = `${listed(leaders)} tie for the largest share of ${label}: ${fmtPct(top / total)} each ${of}.`;
    return [insight(text, 'top_share', numbers)];
  }
  const leader = leaders[0] ?? '';
  const second = ranked[1]?.value ?? 0;
  const compared = second > 0 && !dwarfed(second, total);
  const reversed = compared ? perRowReversal(ranked[0] as Total, ranked[1], counts) : null;
  const rows = reversed ? `, from ${fmtPct(reversed.nTop / reversed.total)} of the rows` : '';
  const out = [
    insight(
      `${leader} accounts for ${fmtPct(top / total)} of ${label} ${of}${rows}.`,
      'top_share',
      numbers,
    ),
  ];
  if (compared) {
    const other = ranked[1]?.name ?? '';
    const perRow = reversed
      ? ` but ${fmtRatio(reversed.nTop / reversed.nSecond)} the rows: per row, ${other} has more ` +
        `(${fmt(second / reversed.nSecond)} vs ${fmt(top / reversed.nTop)} on average)`
      : '';
    const text =
      `${leader} has ${fmtRatio(top / second)} the ${label} of ${other} ` +
      `(${fmt(top)} vs ${fmt(second)})${perRow}.`;
    out.push(insight(text, 'top_vs_second', { ratio: top / second, value: top, second }));
  }
  return out;
}

/**
 * The share of the member a question asks about (`named`), when it is not the leader the next
 * sentence names: "Renewables accounts for 19.0% of net_generation (164,220 of 864,452)."
 */
function namedShare(
  ranked: readonly Total[],
  named: string | number | undefined,
  label: string,
  total: number,
  money?: string | null,
): Insight[] {
  if (named === undefined) return [];
  const member = ranked.find((g) => g.name === String(named));
  if (!member || member.value === ranked[0]?.value) return [];
  const fmt = (x: number): string => fmtMoney(x, money);
  const text = `${member.name} accounts for ${fmtPct(member.value / total)} of ${label} (${fmt(member.value)} of ${fmt(total)}).`;
  return [
    insight(text, 'named_share', {
      share_pct: (member.value / total) * 100,
      value: member.value,
      total,
    }),
  ];
}

/**
 * Share of total of the top category, top vs second, and the top-3 share,
 * for additive values (share_insights). Rows with the same category are
 * summed; a null category is "(missing)", counted in the total but never
 * ranked; non-finite values are dropped; "Other"-like names never count as top. Label "count" reads as "rows".
 * Given a sum's row `counts`, a leader whose rows each hold less than the
 * second's is said to lead by its rows (perRowReversal). `money`: the values' currency (fmtMoney).
 * `named`: a member the question asks about, its share said first (namedShare).
 */
/**
 * Totals on both sides of zero (money in and money out: opsmind_insights._signed_totals): no
 * shares, but the largest, the most negative and what all the groups come to together.
 */
function signedTotals(
  totals: readonly Total[],
  label: string,
  total: number,
  money?: string | null,
): Insight[] {
  const ranked = totals
    .map((g, i) => ({ ...g, i }))
    .sort((a, b) => b.value - a.value || a.i - b.i)
    .filter((g) => !isOther(g.name) && g.name !== MISSING);
  const [high, low] = [ranked[0], ranked[ranked.length - 1]];
  if (ranked.length < 2 || !high || !low || !(high.value > 0 && low.value < 0)) return [];
  const fmt = (x: number): string => fmtMoney(x, money);
  const text = `${high.name} has the largest ${label} (${fmt(high.value)}); ${low.name} the most negative (${fmt(low.value)}); all ${totals.length} together come to ${fmt(total)}.`;
  return [insight(text, 'signed_totals', { value: high.value, lowest: low.value, total })];
}

export const shareInsights = neverThrows(
  (
    rows: readonly CategoryValue[],
    label?: string,
    by?: string,
    counts?: RowCounts,
    money?: string | null,
    named?: string | number,
  ): Insight[] => {
    const totals = groupTotals(rows, by);
    const values = totals.map((g) => g.value);
    const total = pairwiseSum(values);
    const name = (label || 'value') === 'count' ? 'rows' : label || 'value';
    if (totals.length >= 2 && values.some((v) => v < 0) && values.some((v) => v > 0))
      return signedTotals(totals, name, total, money);
    if (
      totals.length < 2 ||
      values.some((v) => v < 0) ||
      !(total > 0) ||
      new Set(values).size < 2
    ) {
      return [];
    }
    const ranked = totals
      .map((g, i) => ({ ...g, i }))
      .sort((a, b) => b.value - a.value || a.i - b.i)
      // Rows without a category hold part of the total but lead no ranking: no member of it.
      .filter((g) => !isOther(g.name) && g.name !== MISSING);
    if (ranked.length === 0) return [];
    const out = [
      ...namedShare(ranked, named, name, total, money),
      ...topSentences(ranked, name, total, counts, money),
    ];
    if (totals.length > 3 && ranked.length >= 3 && !dwarfed(ranked[1]?.value ?? 0, total)) {
      const top3 = pairwiseSum(ranked.slice(0, 3).map((g) => g.value));
      const names = ranked.slice(0, 3).map((g) => g.name);
      const text = `The top 3 (${names.join(', ')}) account for ${fmtPct(top3 / total)} of ${name}.`;
      out.push(
        insight(text, 'top3_share', { share_pct: (top3 / total) * 100, value: top3, total }),
      );
    }
    return out;
  },
);

/** Levels in a sentence: "Satisfied or Very satisfied". */
function either(levels: readonly string[]): string {
  return levels.length <= 1
    ? (levels[0] ?? '')
    : `${levels.slice(0, -1).join(', ')} or ${levels[levels.length - 1]}`;
}

/**
 * A survey question's answers by side of its scale (`low`, `high`: the levels either side of the
 * middle, in the scale's order): the share of the answers on each, missing answers left out
 * (opsmind_insights.scale_insights). The counts are whole numbers, so any order of adding agrees.
 */
export const scaleInsights = neverThrows(
  (
    rows: readonly CategoryValue[],
    by: string,
    sides: { low: readonly string[]; high: readonly string[] },
  ): Insight[] => {
    if (sides.low.length === 0 || sides.high.length === 0) return [];
    const answered = rows
      .filter((r) => !isMissing(r.category) && Number.isFinite(measure(r.value)))
      .map((r) => ({ name: String(r.category), value: measure(r.value) }));
    const total = answered.reduce((sum, r) => sum + r.value, 0);
    if (!(total > 0) || answered.some((r) => r.value < 0)) return [];
    const part = (side: readonly string[]): number =>
      answered.filter((r) => side.includes(r.name)).reduce((sum, r) => sum + r.value, 0);
    const [lo, hi] = [part(sides.low), part(sides.high)];
    const text = `${fmtPct(hi / total)} of the answers to ${by} are ${either(sides.high)}; ${fmtPct(lo / total)} are ${either(sides.low)}.`;
    return [
      insight(text, 'scale_sides', {
        share_pct: (hi / total) * 100,
        low_pct: (lo / total) * 100,
        value: hi,
        total,
      }),
    ];
  },
);
