/**
 * The bar and pie preparers' top-N fold (fold_top in opsmind_chart_common.py)
 * in SQL: keep the n categories with the largest |total| (ties in frame
 * order), and sum the rest into "Other" — per series — only when the values
 * add up (sum, count); the rest of a mean or a median is dropped, not summed.
 */
import { OTHER } from '../../renderers/frame.js';
import type { ColumnDtype } from '../spec/schema.js';
import { ident, literal } from './duckdb.js';
import { freshName, idents, indent, keyOrder, keyText } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

/** What to fold: the frame (a CTE name), its category, series and value columns. */
export interface Fold {
  frame: string;
  key: Column;
  series: Column | null;
  value: string;
  n: number;
  additive: boolean;
  /** The frame's row order: its keys (bar), or its values largest first then keys (pie). */
  order: 'keys' | 'values';
}

function orderBy(f: Fold, prefix: string, sortKey?: string): string {
  const keys = keyOrder(
    [sortKey ?? f.key.name, ...(f.series ? [f.series.name] : [])],
    sortKey ? '' : prefix,
  );
  return f.order === 'values' ? `${prefix}${ident(f.value)} DESC NULLS LAST, ${keys}` : keys;
}

/** The key's dtype once "Other" joins keys that are not text: mixed, as pandas infers it ("other"). */
export function foldDtypes(f: Fold, folded: boolean): Record<string, ColumnDtype> | undefined {
  return folded && f.additive && f.key.type !== 'VARCHAR' ? { [f.key.name]: 'other' } : undefined;
}

/** The frame in its order, unfolded. */
export function unfoldedSql(f: Fold): string {
  return `SELECT *\nFROM ${f.frame}\nORDER BY ${orderBy(f, '')}`;
}

/**
 * The ranking CTE: each category's rank by |sum of values|, ties in frame order. A sum's own
 * "Other" category ranks last, so it joins the rest summed as "Other" (never two "Other" bars).
 */
function rankedCte(f: Fold, rank: string): Cte {
  const k = ident(f.key.name);
  const tie = f.order === 'values' ? `max(${ident(f.value)}) DESC NULLS LAST, ` : '';
  const own =
    f.additive && f.key.type === 'VARCHAR' ? `${k} IS NOT DISTINCT FROM ${literal(OTHER)}, ` : '';
  const sql = [
    `SELECT ${k}, row_number() OVER (ORDER BY ${own}abs(coalesce(sum(${ident(f.value)}), 0)) DESC, ${tie}${k} ASC NULLS LAST) AS ${ident(rank)}`,
    `FROM ${f.frame}`,
    `GROUP BY ${k}`,
  ].join('\n');
  return ['ranked', sql];
}

const joined = (f: Fold): string =>
  `FROM ${f.frame} AS g\nJOIN ranked AS r ON g.${ident(f.key.name)} IS NOT DISTINCT FROM r.${ident(f.key.name)}`;

/** The folded frame: its CTEs and final SELECT. */
export function foldedSql(f: Fold): { ctes: Cte[]; body: string } {
  const names = [f.key.name, f.value, ...(f.series ? [f.series.name] : [])];
  const [rank, part, sortKey] = ['rank', 'part', 'sort_key'].map((n) => freshName(n, names)) as [
    string,
    string,
    string,
  ];
  const ctes = [rankedCte(f, rank)];
  const kept = `WHERE r.${ident(rank)} <= ${f.n}`;
  if (!f.additive) {
    return { ctes, body: `SELECT g.*\n${joined(f)}\n${kept}\nORDER BY ${orderBy(f, 'g.')}` };
  }
  const [k, v] = [ident(f.key.name), ident(f.value)];
  const s = f.series ? `g.${ident(f.series.name)}, ` : '';
  const keep = [
    `SELECT 0 AS ${ident(part)}, g.${k} AS ${ident(sortKey)}, ${keyText(`g.${k}`, f.key.type)} AS ${k}, ${s}g.${v}`,
    joined(f),
    kept,
  ].join('\n');
  const other = [
    `SELECT 1, NULL, ${literal(OTHER)}, ${s}coalesce(sum(g.${v}), 0)`,
    joined(f),
    `WHERE r.${ident(rank)} > ${f.n}`,
    ...(f.series ? [`GROUP BY g.${ident(f.series.name)}`] : []),
  ].join('\n');
  const columns = idents([f.key.name, ...(f.series ? [f.series.name] : []), f.value]);
  const body = [
    `SELECT ${columns}`,
    `FROM (\n${indent(`${keep}\nUNION ALL\n${other}`)}\n)`,
    `ORDER BY ${ident(part)}, ${orderBy(f, '', sortKey)}`,
  ].join('\n');
  return { ctes, body };
}
