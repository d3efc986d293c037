/**
 * The columns of the data relation as the profile sees them: a kind per DuckDB type, the pandas
 * dtype name the Python profile would report for the same file, and the SQL expressions every
 * profile query reads a column through (missing values, finite numbers, text).
 */
import type { SourceFormat } from './types.js';
import { DATA_RELATION } from './types.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';

/** How the profile treats a column: by its DuckDB type. */
export type ColumnKind = 'int' | 'float' | 'bool' | 'datetime' | 'duration' | 'text';

/** One column of the data relation. */
export interface ProfileColumn {
  /** Position in the relation (0-based); also the suffix of the column's SQL aliases. */
  index: number;
  name: string;
  /** The DuckDB type name, e.g. BIGINT, VARCHAR, TIMESTAMP WITH TIME ZONE. */
  sqlType: string;
  kind: ColumnKind;
}

const INT_TYPES =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/;
const FLOAT_TYPES = /^(FLOAT|DOUBLE|DECIMAL(\(.*\))?)$/;
const DATETIME_TYPES = /^(DATE|TIMESTAMP(_S|_MS|_NS)?|TIMESTAMP WITH TIME ZONE)$/;

/** The profile kind of a DuckDB type; anything unlisted (TIME, UUID, LIST…) is read as text. */
export function kindOf(sqlType: string): ColumnKind {
  if (INT_TYPES.test(sqlType)) return 'int';
  if (FLOAT_TYPES.test(sqlType)) return 'float';
  if (sqlType === 'BOOLEAN') return 'bool';
  if (DATETIME_TYPES.test(sqlType)) return 'datetime';
  if (sqlType === 'INTERVAL') return 'duration';
  return 'text';
}

/** Whether a kind is profiled as numbers (pandas' numeric dtypes, durations in seconds). */
export function isNumberKind(kind: ColumnKind): boolean {
  return kind === 'int' || kind === 'float' || kind === 'duration';
}

/** The pandas dtype read_csv gives the same column: ints with gaps are float64, bools with gaps object. */
export function dtypeOf(column: ProfileColumn, hasMissing: boolean): string {
  switch (column.kind) {
    case 'int':
      return hasMissing ? 'float64' : 'int64';
    case 'float':
      return 'float64';
    case 'bool':
      return hasMissing ? 'object' : 'bool';
    case 'datetime':
      return column.sqlType.endsWith('TIME ZONE') ? 'datetime64[ns, UTC]' : 'datetime64[ns]';
    case 'duration':
      return 'timedelta64[ns]';
    case 'text':
      return 'object';
    default: {
      const never: never = column.kind;
      return never;
    }
  }
}

/**
 * The dtype the Python profile reports for a detailed column: `dtypeOf`, except that pandas reads
 * a CSV column with no value at all as float64 (DuckDB types it VARCHAR).
 */
export function profileDtype(
  column: ProfileColumn,
  rows: number,
  nonmissing: number,
  format: SourceFormat,
): string {
  if (format === 'csv' && column.sqlType === 'VARCHAR' && rows > 0 && nonmissing === 0)
    return 'float64';
  return dtypeOf(column, nonmissing < rows);
}

/** The data relation's columns, in order. */
export async function readColumns(db: DuckDb, signal?: AbortSignal): Promise<ProfileColumn[]> {
  const rows = await db.objects(`DESCRIBE ${ident(DATA_RELATION)}`, signal);
  return rows.map((row, index) => {
    const sqlType = String(row.column_type);
    return { index, name: String(row.column_name), sqlType, kind: kindOf(sqlType) };
  });
}

/** A double as SQL, exactly (a string cast, so DuckDB never reads it as a DECIMAL). */
export function sqlDouble(x: number): string {
  return `CAST('${String(x)}' AS DOUBLE)`;
}

/**
 * The column's value with missing values as NULL: NaN counts as missing, as in pandas.
 * Durations read as seconds, as the Python profile's `total_seconds()`.
 */
export function valueSql(column: ProfileColumn): string {
  const name = ident(column.name);
  switch (column.kind) {
    case 'float':
      return `nullif(CAST(${name} AS DOUBLE), CAST('nan' AS DOUBLE))`;
    case 'duration':
      return `epoch(${name})`;
    case 'text':
      return column.sqlType === 'VARCHAR' ? name : `CAST(${name} AS VARCHAR)`;
    case 'int':
    case 'bool':
    case 'datetime':
      return name;
    default: {
      const never: never = column.kind;
      return never;
    }
  }
}

/** The column's finite values as DOUBLE (NULL elsewhere): what number statistics are computed over. */
export function finiteSql(column: ProfileColumn): string {
  if (column.kind === 'int') return `CAST(${ident(column.name)} AS DOUBLE)`;
  return finiteOf(valueSql(column));
}

/** Any DOUBLE expression with its non-finite values made NULL. */
export function finiteOf(expression: string): string {
  return `CASE WHEN isfinite(${expression}) THEN ${expression} END`;
}

/** A datetime column as a TIMESTAMP (UTC wall time for time-zone-aware columns). */
export function timestampSql(column: ProfileColumn): string {
  const name = ident(column.name);
  return column.sqlType.endsWith('TIME ZONE')
    ? `timezone('UTC', ${name})`
    : `CAST(${name} AS TIMESTAMP)`;
}

/** Only this many columns are profiled in detail (detailOf; the rest are counted by dtype). */
export const DETAIL_LIMIT = 200;

/**
 * The columns profiled in detail (detailed_positions in opsmind_profile.py): every one of a table
 * of DETAIL_LIMIT columns or fewer; of a wider one, every column that holds no numbers (the
 * categories, dates and flags a chart is split or ordered by; an ML file's label, often last),
 * then the first number columns, up to DETAIL_LIMIT in all, in the table's order.
 */
export function detailOf<C extends { kind: ColumnKind }>(columns: readonly C[]): C[] {
  if (columns.length <= DETAIL_LIMIT) return [...columns];
  const others = columns.filter((c) => !isNumberKind(c.kind)).slice(0, DETAIL_LIMIT);
  const numbers = columns
    .filter((c) => isNumberKind(c.kind))
    .slice(0, DETAIL_LIMIT - others.length);
  const kept = new Set([...others, ...numbers]);
  return columns.filter((c) => kept.has(c));
}
