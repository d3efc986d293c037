/**
 * What the engine's query builders share: DuckDB column types read the way
 * the preamble's coarse dtypes read pandas ones, exact number literals, and
 * readable WITH queries a person can paste into duckdb against `data`.
 */
import { RENDERERS } from '../../renderers/index.js';
import type { Caps } from '../../renderers/index.js';
import type { ColumnDtype } from '../spec/schema.js';
import { ident, literal } from './duckdb.js';

/** A column of a relation: its name and its DuckDB type name ("BIGINT", "VARCHAR", "TIMESTAMP"…). */
export interface Column {
  name: string;
  type: string;
}

const NUMBER = /^(U?(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT)|FLOAT|DOUBLE|REAL|DECIMAL)/;

/** A number type (booleans are not numbers here, as pandas' numeric_columns leaves them out). */
export const isNumber = (type: string): boolean => NUMBER.test(type);
/** A type that can hold NaN, which pandas counts as missing. */
export const isFloat = (type: string): boolean => /^(FLOAT|DOUBLE|REAL)$/.test(type);
/** A date or a timestamp. */
export const isTemporal = (type: string): boolean => /^(DATE|TIMESTAMP)/.test(type);
/** DuckDB's BOOLEAN. */
export const isBoolean = (type: string): boolean => type === 'BOOLEAN';

/** The coarse dtype opsmind_frames.coarse_dtype would report for a column of this type. */
export function coarseType(type: string): ColumnDtype {
  if (isBoolean(type)) return 'boolean';
  if (isNumber(type)) return 'number';
  if (isTemporal(type)) return 'datetime';
  if (type === 'VARCHAR') return 'string';
  return 'other';
}

/** The caps of a kind, from the renderer registry (what the preamble reads from its contract). */
export function capsOf(kind: string): Caps {
  return RENDERERS[kind]?.caps ?? {};
}

/**
 * A finite number as a SQL literal that DuckDB reads back as exactly this double:
 * integers and short decimals as written, anything longer in exponent form (parsed as DOUBLE,
 * never through a DECIMAL that could round twice).
 */
export function sqlNumber(x: number): string {
  if (!Number.isFinite(x)) throw new Error(`not a finite number: ${x}`);
  const text = String(x);
  const digits = text.replace(/^-/, '').replace('.', '').replace(/^0+/, '');
  return /e/i.test(text) || digits.length > 15 || Math.abs(x) >= 1e15 ? x.toExponential() : text;
}

/** A finite number as a DOUBLE literal: `497.75::DOUBLE` (a short decimal cast alone is exact) or `1.2345678901234567e+2`. */
export function sqlDouble(x: number): string {
  const text = sqlNumber(x);
  return /e/.test(text) ? text : `${text}::DOUBLE`;
}

/** A plan value (text, number or boolean) as a SQL literal. */
export function sqlValue(value: string | number | boolean): string {
  if (typeof value === 'string') return literal(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return sqlNumber(value);
}

/** `expr` as a DOUBLE (booleans as 0/1, text that is no number as NULL, as pd.to_numeric coerces). */
export function asDouble(expr: string, type: string): string {
  if (type === 'DOUBLE') return expr;
  if (type === 'VARCHAR') return `TRY_CAST(${expr} AS DOUBLE)`;
  return `CAST(${expr} AS DOUBLE)`;
}

/** A timestamp as the text pandas' JSON writer gives it: 2024-01-05T00:00:00.000. */
export function isoText(expr: string): string {
  return `strftime(${expr}, '%Y-%m-%dT%H:%M:%S.%g')`;
}

/** A key as text, for a column that must also hold "Other": timestamps as ISO text. */
export function keyText(expr: string, type: string): string {
  if (type === 'VARCHAR') return expr;
  return isTemporal(type) ? isoText(expr) : `CAST(${expr} AS VARCHAR)`;
}

/** str() of a value as pandas labels a group: booleans True/False, timestamps "2024-01-05 00:00:00". */
export function labelText(expr: string, type: string): string {
  if (isBoolean(type)) return `CASE WHEN ${expr} THEN 'True' ELSE 'False' END`;
  return type === 'VARCHAR' ? expr : `CAST(${expr} AS VARCHAR)`;
}

const [SINGLE_QUOTE, DOUBLE_QUOTE, NEWLINE] = [39, 34, 10];

/** Lines indented by `spaces`; a line break inside a quoted name or text is part of it and stays as it is. */
export function indent(text: string, spaces = 2): string {
  const pad = ' '.repeat(spaces);
  let quote = 0; // the char code of the open quote, or 0
  let out = pad;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote === 0) {
      if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE) quote = c;
      else if (c === NEWLINE) {
        out += `${text.slice(from, i + 1)}${pad}`;
        from = i + 1;
      }
    } else if (c === quote) quote = 0;
  }
  out += text.slice(from);
  return out.replace(/^ +$/gm, '');
}

/**
 * A named subquery of a WITH clause. `inline`: DuckDB reads it again wherever it is named instead
 * of materializing it once when named twice (a projection of the table is cheaper to scan again
 * than to copy: the box plot's second pass over 1M rows, 90 ms of copying).
 */
export type Cte = readonly [name: string, sql: string, inline?: 'inline'];

/** `WITH a AS (…), b AS (…) <body>`: one readable statement. */
export function withQuery(ctes: readonly Cte[], body: string): string {
  if (ctes.length === 0) return body;
  const parts = ctes.map(cteText);
  return `WITH ${parts.join(',\n')}\n${body}`;
}

/** One CTE as `withQuery` writes it. */
export function cteText([name, sql, inline]: Cte): string {
  return `${name} AS ${inline ? 'NOT MATERIALIZED ' : ''}(\n${indent(sql)}\n)`;
}

/** A comma-separated list of quoted identifiers. */
export function idents(names: readonly string[]): string {
  return names.map(ident).join(', ');
}

/** `name`, or `name_1`, `name_2`… when the data already has a column of that name. */
export function freshName(base: string, taken: readonly string[]): string {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  let name = base;
  for (let i = 1; used.has(name.toLowerCase()); i++) name = `${base}_${i}`;
  return name;
}

/** Names made unique as pandas' read_csv and opsmind_frames.to_frame do: a repeat gets ".1", ".2"… */
export function uniqueNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 1; seen.has(candidate); n++) candidate = `${name}.${n}`;
    seen.add(candidate);
    return candidate;
  });
}

/** `ORDER BY` keys that sort NULL last, as pandas' groupby and sort_values place missing keys. */
export function keyOrder(names: readonly string[], prefix = ''): string {
  return names.map((n) => `${prefix}${ident(n)} ASC NULLS LAST`).join(', ');
}
