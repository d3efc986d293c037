/**
 * Pairs of numeric columns: the relationship transform (a scatter of the
 * used columns, every row up to the points cap, past it a reproducible
 * sample: the rows with the smallest hash of their file position, shown in
 * file order; the correlation finding always over all complete pairs) and
 * the correlation transform (pandas' pairwise-complete Pearson matrix, as
 * heatmap cells or as a table rounded to three decimals).
 */
import { HEATMAP_CELLS, namedAs, NO_SCALES, unitLabel } from '../agent/compile-plan.js';
import type { Transform } from '../agent/plan.js';
import { ident, literal } from './duckdb.js';
import { correlationInsights, groupCorrelationInsights } from './insights.js';
import type { Insight } from './insights.js';
import { matrixInsights } from './insights-matrix.js';
import { finiteOf } from './profile-columns.js';
import { columnOf } from './sql-rows.js';
import { pairStatsSql, sharedRanks } from './sql-ranks.js';
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
import type { Column } from './sql-text.js';

type Relationship = Extract<Transform, { type: 'relationship' }>;
type Correlation = Extract<Transform, { type: 'correlation' }>;

/** The scatter's rows: all of them up to `cap`, else a deterministic sample of `cap` rows in file order. */
export function scatterSql(ctx: Ctx, names: readonly string[], rows: number, cap: number): string {
  const row = ident(ctx.rows.row);
  if (rows <= cap) return over(ctx, [], `SELECT ${idents(names)}\nFROM source\nORDER BY ${row}`);
  const sample = `SELECT *\nFROM source\nORDER BY hash(${row}), ${row}\nLIMIT ${cap}`;
  return over(ctx, [['sample', sample]], `SELECT ${idents(names)}\nFROM sample\nORDER BY ${row}`);
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
      x_label: unitLabel(t.x, namedAs(a, ctx.scales ?? NO_SCALES), ctx.scales),
      y_label: unitLabel(t.y, namedAs(a, ctx.scales ?? NO_SCALES), ctx.scales),
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

/**
 * corr() of the i-th and j-th columns, each pair in one order so the matrix is exactly symmetric;
 * over finite values (DuckDB's corr() fails the query on an infinity).
 */
function corrOf(columns: readonly Column[], i: number, j: number): string {
  const [p, q] = [columns[Math.min(i, j)], columns[Math.max(i, j)]] as [Column, Column];
  const finite = (c: Column): string => finiteOf(asDouble(ident(c.name), c.type));
  return `corr(${finite(p)}, ${finite(q)})`;
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
  const cap = HEATMAP_CELLS;
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
  // The cells row by row, as the matrix: row i, column j at i × shown + j.
  const z = declared.frame?.rows.map((cell) => cell[2]) ?? [];
  const r = (i: number, j: number): unknown => z[i * shown.length + j];
  const columnNames = shown.map((c) => c.name);
  return { declared, findings: () => Promise.resolve(matrixInsights(columnNames, r)) };
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
