/**
 * The table transforms but the summary: missing values per column (count
 * and share rounded half to even, as pandas' round(1), only columns with
 * some, most first, ties in column order) and the top rows by a column
 * (nlargest / nsmallest with keep="first": ties in file order, every column).
 */
import type { Transform } from '../agent/plan.js';
import { ident, literal } from './duckdb.js';
import { columnOf } from './sql-rows.js';
import { noFindings, over, params, query, sourceInfos, tableOf } from './sql-spec.js';
import type { Ctx, Declared, Outcome } from './sql-spec.js';
import { capsOf, idents, isFloat, isTemporal, isBoolean, isNumber } from './sql-text.js';
import type { Column } from './sql-text.js';

type TopRows = Extract<Transform, { type: 'top_rows' }>;

/** Missing as pandas' isna() sees it: NULL, and NaN in a float column. */
export function missingCondition(column: Column): string {
  const c = ident(column.name);
  return isFloat(column.type) ? `${c} IS NULL OR isnan(${c})` : `${c} IS NULL`;
}

/** The missing transform: one row per column with missing values, as compile-plan.ts's frame. */
export async function missingAnalysis(ctx: Ctx): Promise<Outcome> {
  const structs = ctx.rows.columns.map(
    (c, i) =>
      `{'column': ${literal(c.name)}, 'position': ${i}, 'missing': count(*) FILTER (WHERE ${missingCondition(c)})}`,
  );
  const counts = `SELECT unnest([\n  ${structs.join(',\n  ')}\n], recursive := true), count(*) AS rows\nFROM source`;
  const sql = over(
    ctx,
    [['counts', counts]],
    [
      'SELECT "column", missing, round_even(missing / rows * 100, 1) AS "missing %"',
      'FROM counts',
      'WHERE missing > 0',
      'ORDER BY missing DESC, position',
    ].join('\n'),
  );
  return { declared: await tableOf(ctx, sql, 100), findings: noFindings };
}

/** The top_rows transform: the n rows with the largest (or smallest) values of a column, every column kept. */
export async function topRowsAnalysis(ctx: Ctx, t: TopRows): Promise<Outcome> {
  const column = columnOf(ctx.rows, t.sort_by);
  if (!isNumber(column.type) && !isBoolean(column.type) && !isTemporal(column.type)) {
    const method = t.ascending ? 'nsmallest' : 'nlargest';
    throw new Error(
      `TypeError: Column '${column.name}' has dtype object, cannot use method '${method}' with this dtype`,
    );
  }
  const keep = capsOf('table').columns ?? 100;
  const shown = ctx.rows.columns.slice(0, keep);
  const c = ident(column.name);
  const present = isFloat(column.type)
    ? `${c} IS NOT NULL AND NOT isnan(${c})`
    : `${c} IS NOT NULL`;
  const sql = over(
    ctx,
    [],
    [
      `SELECT ${idents(shown.map((s) => s.name))}`,
      'FROM source',
      `WHERE ${present}`,
      `ORDER BY ${c} ${t.ascending ? 'ASC' : 'DESC'}, ${ident(ctx.rows.row)}`,
    ].join('\n'),
  );
  // The declared frame is nlargest's result: at most n rows, so a table of n rows cuts none of them.
  const limited = `${sql}\nLIMIT ${t.n}`;
  const frame = await query(ctx, limited);
  const declared: Declared = {
    kind: 'table',
    table: true,
    params: params({ title: ctx.analysis.title, max_rows: t.n, note: ctx.analysis.why }),
    sql: limited,
    frame,
    sourceColumns: sourceInfos(ctx),
    sourceRows: frame.rows.length,
    reductions: ctx.rows.columns.length > keep ? ['truncated'] : [],
    sampled: false,
    cap: t.n,
    error: null,
  };
  return { declared, findings: noFindings };
}
