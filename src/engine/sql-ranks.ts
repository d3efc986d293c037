/**
 * Spearman's rho in SQL for the scatter's finding: Pearson r of average ranks over a pair's
 * complete finite pairs, each side ranked by its distinct values (joined back) or by a sort of the
 * pairs; a column finite in every row is ranked once for the plan (sharedRanks).
 */
import { ident } from './duckdb.js';
import { over } from './sql-spec.js';
import type { Ctx } from './sql-spec.js';
import { asDouble } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

/** Past this many distinct values (the profile's count), a side may be ranked by a sort of its pairs. */
export const SORTED_RANKS = 10_000;
/**
 * ... and is, once its distinct values are more than this share of the table's rows: below it,
 * ranking the distinct values and joining them back is the cheaper way (1M rows, a side of 183k
 * values: 145 against 220 ms), above it the join is nearly as large as the pairs (1M distinct:
 * 310 against 160 ms).
 */
export const SORTED_SHARE = 0.4;

/** Which side of the pair is ranked by sorting the pairs: the one with more distinct values, if many. */
function sortedSide(ctx: Ctx, x: Column, y: Column): 'a' | 'b' | null {
  const [dx, dy] = [ctx.distinct?.get(x.name) ?? 0, ctx.distinct?.get(y.name) ?? 0];
  const many = Math.max(SORTED_RANKS, SORTED_SHARE * (ctx.tableRows ?? 0));
  if (Math.max(dx, dy) <= many) return null;
  return dy >= dx ? 'b' : 'a';
}

/**
 * Whether x and y hold a finite number in every row of the analysis (its rows unfiltered, both
 * columns as read, the profile's exact count): then the complete pairs are all the rows, and a
 * side's ranks among them are its ranks over the column, the same in every pair it is in.
 */
function completePairs(ctx: Ctx, x: Column, y: Column): boolean {
  if (ctx.rows.filtered) return false;
  return [x, y].every((c) => {
    const known = ctx.known?.get(c.name);
    return !ctx.rows.cleaned.has(c.name) && known !== undefined && known.n === known.rows;
  });
}

/**
 * The ranks CTEs of a pair, with the side ranked by a sort (if any). A grouped side's average
 * ranks come from its distinct values (how many are smaller, plus the middle of the ties): over
 * the pairs, or — when every row is a complete pair — over the column's values in the rows, a
 * CTE that names no other column, which the plan keeps once for every pair of the column.
 */
function rankCtes(ctx: Ctx, x: Column, y: Column) {
  const sorted = sortedSide(ctx, x, y);
  const sides = { a: x, b: y };
  const whole = completePairs(ctx, x, y);
  const ctes = (['a', 'b'] as const)
    .filter((v) => v !== sorted)
    .map((v): Cte => {
      const column = sides[v];
      const values = whole
        ? `SELECT ${asDouble(ident(column.name), column.type)} AS v, count(*) AS c FROM source GROUP BY 1`
        : `SELECT ${v} AS v, count(*) AS c FROM pairs GROUP BY 1`;
      return [
        `ranks_${v}`,
        `SELECT v, sum(c) OVER (ORDER BY v) - c + (c + 1) / 2.0 AS r\nFROM (${values})`,
      ];
    });
  return { sorted, ctes, whole };
}

/** The ranks a pair's query reads that the plan may keep for other pairs (rankCtes over whole columns). */
export function sharedRanks(ctx: Ctx, x: Column, y: Column): Cte[] {
  const { ctes, whole } = rankCtes(ctx, x, y);
  return whole ? ctes : [];
}

/**
 * r, Spearman's rho (Pearson r of average ranks) and n over the complete finite pairs of x and y.
 * A grouped side's ranks (rankCtes) are joined back to the pairs: cheap for a side of few values.
 * A side of many values (sortedSide) is ranked by one sort of the pairs instead: a tie's first
 * rank, rank(), and its last, the count up to it (cume_dist × n, a whole number once rounded),
 * give the same average rank without a join as large as the pairs.
 */
export function pairStatsSql(ctx: Ctx, x: Column, y: Column): string {
  const [a, b] = [asDouble(ident(x.name), x.type), asDouble(ident(y.name), y.type)];
  const { sorted, ctes } = rankCtes(ctx, x, y);
  const grouped = (['a', 'b'] as const).filter((v) => v !== sorted);
  const joins = grouped.map((v) => `JOIN ranks_${v} ON pairs.${v} = ranks_${v}.v`);
  const picked = grouped.map((v) => `ranks_${v}.r AS rank_${v}`);
  const ranked = [
    `SELECT ${[
      'pairs.a',
      'pairs.b',
      ...picked,
      ...(sorted
        ? [
            `(rank() OVER w + round(cume_dist() OVER w * (SELECT count(*) FROM pairs))) / 2.0 AS rank_${sorted}`,
          ]
        : []),
    ].join(', ')}`,
    'FROM pairs',
    ...joins,
    ...(sorted ? [`WINDOW w AS (ORDER BY pairs.${sorted})`] : []),
  ];
  return over(
    ctx,
    [
      [
        'pairs',
        `SELECT ${a} AS a, ${b} AS b\nFROM source\nWHERE isfinite(${a}) AND isfinite(${b})`,
      ],
      ...ctes,
      ['ranked', ranked.join('\n')],
    ],
    [
      'SELECT corr(a, b) AS r, corr(rank_a, rank_b) AS rho, count(*) AS n,',
      '  min(a) = max(a) AS x_constant, min(b) = max(b) AS y_constant',
      'FROM ranked',
    ].join('\n'),
  );
}
