/**
 * Pairs of numeric columns: the relationship transform (a scatter of the
 * used columns, every row up to the points cap, past it a reproducible
 * sample: the rows with the smallest hash of their file position, shown in
 * file order; the correlation finding always over all complete pairs) and
 * the correlation transform (pandas' pairwise-complete Pearson matrix, as
 * heatmap cells or as a table rounded to three decimals).
 */
import type { Transform } from '../agent/plan.js';
import { ident, literal } from './duckdb.js';
import { correlationInsights, groupCorrelationInsights } from './insights.js';
import type { Insight } from './insights.js';
import { columnOf } from './sql-rows.js';
import {
  countOf,
  keepingShared,
  noFindings,
  over,
  params,
  query,
  queryRow,
  sourceInfos,
  tableOf,
} from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import {
  asDouble,
  capsOf,
  idents,
  isBoolean,
  isNumber,
  isTemporal,
  uniqueNames,
} from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

type Relationship = Extract<Transform, { type: 'relationship' }>;
type Correlation = Extract<Transform, { type: 'correlation' }>;

/** The scatter's rows: all of them up to `cap`, else a deterministic sample of `cap` rows in file order. */
export function scatterSql(ctx: Ctx, names: readonly string[], rows: number, cap: number): string {
  const row = ident(ctx.rows.row);
  if (rows <= cap) return over(ctx, [], `SELECT ${idents(names)}\nFROM source\nORDER BY ${row}`);
  const sample = `SELECT *\nFROM source\nORDER BY hash(${row}), ${row}\nLIMIT ${cap}`;
  return over(ctx, [['sample', sample]], `SELECT ${idents(names)}\nFROM sample\nORDER BY ${row}`);
}

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

/** Whether opsmind_insights.numbers() reads a column as a measure (booleans and dates are not). */
const measured = (c: Column): boolean => !isBoolean(c.type) && !isTemporal(c.type);

/** Pearson r per group of `by` over the complete finite pairs (rows without a group left out). */
export function groupPairsSql(ctx: Ctx, x: Column, y: Column, by: Column): string {
  const [a, b] = [asDouble(ident(x.name), x.type), asDouble(ident(y.name), y.type)];
  return over(
    ctx,
    [
      [
        'pairs',
        `SELECT ${ident(by.name)} AS g, ${a} AS a, ${b} AS b\nFROM source\nWHERE isfinite(${a}) AND isfinite(${b}) AND ${ident(by.name)} IS NOT NULL`,
      ],
    ],
    [
      'SELECT corr(a, b) AS r, count(*) AS n, min(a) = max(a) AS x_constant, min(b) = max(b) AS y_constant',
      'FROM pairs',
      'GROUP BY g',
    ].join('\n'),
  );
}

async function pairFindings(ctx: Ctx, x: Column, y: Column, by: Column | null): Promise<Insight[]> {
  if (!measured(x) || !measured(y)) return [];
  const s = await queryRow(
    await keepingShared(ctx, sharedRanks(ctx, x, y)),
    pairStatsSql(ctx, x, y),
  );
  if (s.r === null || s.rho === null) return [];
  const stats = {
    r: Number(s.r),
    rho: Number(s.rho),
    n: Number(s.n),
    xConstant: s.x_constant === true,
    yConstant: s.y_constant === true,
  };
  const found = correlationInsights(stats, x.name, y.name);
  if (!by || found.length === 0) return found;
  const result = await query(ctx, groupPairsSql(ctx, x, y, by));
  const groups = result.rows.map(([r, n, xConstant, yConstant]) => ({
    n: Number(n),
    r: r === null ? NaN : Number(r),
    xConstant: xConstant === true,
    yConstant: yConstant === true,
  }));
  return [...found, ...groupCorrelationInsights(stats.r, groups, x.name, y.name, by.name)];
}

/** The relationship transform of an analysis: a scatter and its correlation finding. */
export async function relationshipAnalysis(ctx: Ctx, t: Relationship): Promise<Outcome> {
  const [x, y] = [columnOf(ctx.rows, t.x), columnOf(ctx.rows, t.y)];
  if (t.color) columnOf(ctx.rows, t.color);
  const names = [...new Set([t.x, t.y, ...(t.color ? [t.color] : [])])];
  const cap = Math.min(
    capsOf('scatter').points ?? 5000,
    ctx.analysis.options?.max_points ?? Number.POSITIVE_INFINITY,
  );
  const rows = await countOf(ctx, over(ctx, [], 'SELECT * FROM source'));
  const sql = scatterSql(ctx, names, rows, cap);
  const a = ctx.analysis;
  const declared: Declared = {
    kind: 'scatter',
    table: false,
    params: params({
      title: a.title,
      x: t.x,
      y: t.y,
      color: t.color,
      trendline: a.options?.trendline ?? true,
      max_points: a.options?.max_points,
      note: a.why,
    }),
    sql,
    frame: await query(ctx, sql),
    sourceColumns: sourceInfos(ctx),
    sourceRows: rows,
    reductions: rows > cap ? ['sampled'] : [],
    sampled: rows > cap,
    cap,
    error: null,
  };
  if (ctx.analysis.options?.correlation === false)
    return { declared, findings: () => Promise.resolve([]) };
  const by = t.color ? columnOf(ctx.rows, t.color) : null;
  return { declared, findings: () => pairFindings(ctx, x, y, by) };
}

/** corr() of the i-th and j-th columns, each pair in one order so the matrix is exactly symmetric. */
function corrOf(columns: readonly Column[], i: number, j: number): string {
  const [p, q] = [columns[Math.min(i, j)], columns[Math.max(i, j)]] as [Column, Column];
  return `corr(${asDouble(ident(p.name), p.type)}, ${asDouble(ident(q.name), q.type)})`;
}

/** The matrix as a list of structs, one per row (table) or per cell (heatmap), for unnest. */
function matrixSql(ctx: Ctx, structs: string[]): string {
  return over(
    ctx,
    [],
    `SELECT unnest([\n  ${structs.join(',\n  ')}\n], recursive := true)\nFROM source`,
  );
}

/** The matrix as a table rounded to three decimals, as `frame.round(3)` declares it. */
async function correlationTable(
  ctx: Ctx,
  columns: readonly Column[],
  names: string[],
): Promise<Outcome> {
  const [index, ...keys] = names;
  const rows = columns.map((row, i) => {
    const values = columns.map(
      (_, j) => `${literal(keys[j] ?? '')}: round_even(${corrOf(columns, i, j)}, 3)`,
    );
    return `{${literal(index ?? 'index')}: ${literal(row.name)}, ${values.join(', ')}}`;
  });
  const sql = matrixSql(ctx, rows);
  const declared = await tableOf(ctx, sql, capsOf('table').rows ?? 50, {
    sourceRows: columns.length,
  });
  return { declared, findings: noFindings };
}

/** The matrix as heatmap cells (x, y, z), rows outer, as the heatmap preparer stacks a matrix. */
async function correlationHeatmap(
  ctx: Ctx,
  columns: readonly Column[],
  names: string[],
): Promise<Outcome> {
  const cap = capsOf('heatmap').categories ?? 60;
  const shown = columns.slice(0, cap);
  const cell = (i: number, j: number): string =>
    `{'x': ${literal(names[j + 1] ?? '')}, 'y': ${literal(shown[i]?.name ?? '')}, 'z': ${corrOf(shown, i, j)}}`;
  const sql = matrixSql(
    ctx,
    shown.flatMap((_, i) => shown.map((_, j) => cell(i, j))),
  );
  const a = ctx.analysis;
  const declared: Declared = {
    kind: 'heatmap',
    table: false,
    params: params({ title: a.title, zmid: 0, note: a.why }),
    sql,
    frame: await query(ctx, sql),
    sourceColumns: names.map((name, i) => ({ name, dtype: i === 0 ? 'string' : 'number' })),
    sourceRows: columns.length,
    reductions: columns.length > cap ? ['top_n'] : [],
    sampled: false,
    cap,
    error: null,
  };
  return { declared, findings: noFindings };
}

/** The correlation transform of an analysis: the heatmap cells or the rounded matrix as a table. */
export async function correlationAnalysis(ctx: Ctx, t: Correlation): Promise<Outcome> {
  // DataFrame.corr keeps only the numeric (and boolean) columns of the ones selected.
  const columns = t.columns
    .map((name) => columnOf(ctx.rows, name))
    .filter((c) => isNumber(c.type) || isBoolean(c.type));
  if (columns.length === 0) throw new Error('ValueError: none of the columns is numeric');
  // The matrix's labels become a column "index"; repeated names get ".1" (opsmind_frames.to_frame).
  const names = uniqueNames(['index', ...columns.map((c) => c.name)]);
  return ctx.analysis.chart === 'table'
    ? correlationTable(ctx, columns, names)
    : correlationHeatmap(ctx, columns, names);
}
