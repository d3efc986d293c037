/**
 * The most frequent values of each column and its exact distinct count, ties ordered as pandas'
 * factorize orders them (by value for number columns, else by first appearance) and written as
 * pandas' `str()` writes them. Each column's groups are counted once and its top kept by a
 * bounded max_by (no sort). Small wide tables stack all their columns' values in one scan (an
 * unnest per row: cheap however wide the table); large or narrow ones group each column on its
 * own typed values and turn only the few values kept into text.
 */
import type { SourceFormat } from './types.js';
import { DATA_RELATION } from './types.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import type { ProfileColumn } from './profile-columns.js';
import { valueSql } from './profile-columns.js';
import { capText, pyFloat } from './profile-format.js';
import { GROUPED_SHARE, quartilePicks } from './profile-quartiles.js';
import { chunked, SCAN_COLUMNS } from './profile-scan.js';

/** How many values a profile lists. */
export const TOP_N = 5;
/**
 * Groups read per column, most frequent first: every value of a category with up to this many (its
 * levels, ColumnProfile.levels), and more than a boolean pair check needs to see every value.
 */
export const LEVELS_MAX = 24;
/** Rows × columns one top-values query may group at once. */
const GROUP_BUDGET = 4_000_000;
/** Up to this many rows, a query stacks its columns' values in one scan… */
const UNNEST_ROWS = 100_000;
/** …when the table has more columns than this: a few columns group faster one by one (10,000 rows × 10 columns: 22 ms against 30–45 ms stacked). */
const NARROW_COLUMNS = 16;

/** A column's value counts. */
export interface ColumnTop {
  /** The most frequent values (up to LEVELS_MAX, most frequent first), as full text. */
  values: { text: string; count: number }[];
  /** The exact number of distinct non-missing values. */
  distinct: number;
  /**
   * For a number column with few distinct values: the quartile picks (`quartilePicks`, with
   * `total`) over the same groups, for `interpolateQuartiles`.
   */
  picks?: Record<string, unknown>;
}

function groupedSql(column: ProfileColumn): string {
  return column.kind === 'duration' ? ident(column.name) : valueSql(column);
}

function byValue(column: ProfileColumn): boolean {
  return column.kind === 'int' || column.kind === 'float';
}

/** The value as text and as a number, as pandas' str() writes it (True/False for bools). */
export function valueParts(
  column: ProfileColumn,
  format: SourceFormat,
  v: string,
): [string, string] {
  const none = 'CAST(NULL AS DOUBLE)';
  switch (column.kind) {
    case 'int':
      return [`CAST(${v} AS VARCHAR)`, `CAST(${v} AS DOUBLE)`];
    case 'float':
      return ['CAST(NULL AS VARCHAR)', v];
    case 'bool':
      return [`CASE WHEN ${v} THEN 'True' WHEN NOT ${v} THEN 'False' END`, none];
    case 'datetime': {
      // Text formats: pandas shows the text itself; binary ones hold Timestamps (isoformat).
      const binary = (format === 'parquet' || format === 'excel') && column.sqlType !== 'DATE';
      const iso = `replace(strftime(CAST(${v} AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%f'), '.000000', '')`;
      return [binary ? iso : `CAST(${v} AS VARCHAR)`, none];
    }
    case 'duration':
    case 'text':
      return [`CAST(${v} AS VARCHAR)`, none];
    default: {
      const never: never = column.kind;
      return never;
    }
  }
}

/** Small tables: every column's (k, s, d, t) rows from one scan, grouped once. */
function stackedSql(columns: readonly ProfileColumn[], format: SourceFormat): string {
  const structs = columns.map((column) => {
    const [s, d] = valueParts(column, format, groupedSql(column));
    const t = byValue(column) ? d : 'CAST(rowid AS DOUBLE)';
    return `{'k': ${column.index}, 's': ${s}, 'd': ${d}, 't': ${t}}`;
  });
  const stacked =
    `SELECT * FROM (SELECT unnest([${structs.join(', ')}], recursive := true) FROM ${ident(DATA_RELATION)}) ` +
    'WHERE s IS NOT NULL OR d IS NOT NULL';
  const groups = `SELECT k, s, d, count(*) AS n, min(t) AS t FROM (${stacked}) GROUP BY k, s, d`;
  return (
    `SELECT k, count(*) AS g, sum(n) AS nm, ` +
    `max_by({'s': s, 'd': d, 'n': n}, {'n': n, 't': -t}, ${LEVELS_MAX}) AS top FROM (${groups}) GROUP BY k`
  );
}

/** The picks' columns, NULL in the branches of columns that have none. */
const PICK_COLUMNS = ['total', 'a0', 'b0', 'a1', 'b1', 'a2', 'b2'];

/**
 * Large tables: one column grouped on its typed values; only the values kept become text. A
 * number column with at most `fewGroups` groups also has its quartile picks taken from them, the
 * running counts of its finite values in order (what profile-quartiles' grouped query would
 * compute, without grouping the column a second time).
 */
function columnSql(column: ProfileColumn, format: SourceFormat, fewGroups: number): string {
  const v = groupedSql(column);
  // Grouped by position, and the value tie taken outside: a data column named val (or t, n)
  // would otherwise be what GROUP BY val and CAST(val …) bind to.
  const grouped =
    `SELECT ${v} AS val, count(*) AS n${byValue(column) ? '' : ', -min(rowid) AS t'} ` +
    `FROM ${ident(DATA_RELATION)} WHERE ${v} IS NOT NULL GROUP BY 1`;
  const groups = byValue(column)
    ? `SELECT val, n, -CAST(val AS DOUBLE) AS t FROM (${grouped})`
    : grouped;
  const [s, d] = valueParts(column, format, 'x.v');
  const kept = `max_by({'v': val, 'n': n}, {'n': n, 't': t}, ${LEVELS_MAX})`;
  const top =
    `SELECT ${column.index} AS k, count(*) AS g, sum(n) AS nm, ` +
    `list_transform(${kept}, lambda x: {'s': ${s}, 'd': ${d}, 'n': x.n}) AS top`;
  if (!byValue(column))
    return `${top}, ${PICK_COLUMNS.map((c) => `NULL AS ${c}`).join(', ')} FROM (${groups})`;
  const finite =
    'SELECT CAST(val AS DOUBLE) AS val, n FROM groups ' +
    `WHERE isfinite(CAST(val AS DOUBLE)) AND (SELECT count(*) FROM groups) <= ${fewGroups}`;
  const running =
    'SELECT val, sum(n) OVER (ORDER BY val ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum, ' +
    `sum(n) OVER () AS total FROM (${finite})`;
  const picks = `SELECT any_value(total) AS total, ${quartilePicks().join(', ')} FROM (${running})`;
  return (
    `SELECT * FROM (WITH groups AS MATERIALIZED (${groups}), picks AS (${picks}), ` +
    `tops AS (${top} FROM groups) SELECT tops.*, ${PICK_COLUMNS.map((c) => `picks.${c}`).join(', ')} FROM tops, picks)`
  );
}

/**
 * The value counts of every column with values, by column index. Int columns with gaps are read
 * by pandas as float64, so their values are written as floats.
 */
export async function topValues(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  rows: number,
  format: SourceFormat,
  signal?: AbortSignal,
): Promise<Map<number, ColumnTop>> {
  const out = new Map<number, ColumnTop>();
  const ints = new Set(columns.filter((c) => c.kind === 'int').map((c) => c.index));
  const stack = rows <= UNNEST_ROWS && columns.length > NARROW_COLUMNS;
  const most = stack ? 64 : SCAN_COLUMNS;
  const batch = Math.max(1, Math.min(most, Math.floor(GROUP_BUDGET / Math.max(1, rows))));
  for (const chunk of chunked(columns, batch)) {
    const sql = stack
      ? stackedSql(chunk, format)
      : chunk
          .map((column) => columnSql(column, format, Math.floor(GROUPED_SHARE * rows)))
          .join(' UNION ALL ');
    for (const row of await db.objects(sql, signal)) {
      const key = Number(row.k);
      const floats = ints.has(key) && Number(row.nm) < rows;
      const top = Array.isArray(row.top) ? (row.top as Record<string, unknown>[]) : [];
      const values = top.map(({ s, d, n }) => ({
        text: typeof s === 'string' && !floats ? s : pyFloat(Number(d)),
        count: Number(n),
      }));
      const picks = Number(row.total) > 0 ? { picks: row } : {};
      if (values.length > 0) out.set(key, { values, distinct: Number(row.g), ...picks });
    }
  }
  return out;
}

/** Levels longer than this are no scale's: a category's levels are listed only when none is. */
const LEVEL_CHARS = 60;

/**
 * Every value of a text column of categories with 3 to LEVELS_MAX of them, in code-point order (as
 * Python's sorted orders str): what a scale's order is read from (semantics-ordinal.ts).
 */
export function levelsOf(top: ColumnTop | undefined): string[] | undefined {
  const values = top?.values.map((v) => v.text) ?? [];
  if (values.length < 3 || values.length !== top?.distinct) return undefined;
  if (values.some((v) => v.length > LEVEL_CHARS)) return undefined;
  return values.sort(byCodePoint);
}

/** Strings in code-point order (JavaScript's < compares UTF-16 units, which differs past U+FFFF). */
function byCodePoint(a: string, b: string): number {
  const [x, y] = [Array.from(a), Array.from(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The profile's top list: the first TOP_N values, their text capped. */
export function topList(top: ColumnTop | undefined): { value: string; count: number }[] {
  return (top?.values ?? [])
    .slice(0, TOP_N)
    .map(({ text, count }) => ({ value: capText(text), count }));
}
