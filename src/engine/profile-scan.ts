/**
 * The profile's first scan: one wide SELECT per chunk of columns giving every column's
 * non-missing count, number statistics (count, extremes, mean, zeros, negatives; quartiles come
 * later, for the columns that need them), text lengths and first value, and datetime extremes.
 */
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { ProfileColumn } from './profile-columns.js';
import { finiteSql, isNumberKind, timestampSql, valueSql } from './profile-columns.js';
import type { DateScan } from './profile-dates.js';
import { dateAggregates, readDateScan } from './profile-dates.js';
import type { NumberScan } from './profile-numbers.js';
import { numberAggregates, readNumberScan } from './profile-numbers.js';
import { idHint, mayLink, rowName } from './profile-semantic.js';

/** Columns one scan aggregates at most. */
export const SCAN_COLUMNS = 24;

/** What the first scan found about one column. */
export interface ColumnScan {
  nonmissing: number;
  /** Number statistics of the finite values (number kinds), or null. */
  numbers: NumberScan | null;
  /** Whether every finite value is a whole number. */
  integral: boolean;
  /** The first non-missing value in file order (text kinds). */
  first: string | null;
  /** Total and longest length of the values in characters (text kinds). */
  lengthSum: number;
  maxLength: number;
  /** Extremes of a datetime column. */
  dates: DateScan | null;
  /** Whether every non-missing value is a finite number (a number column without NaN or ±inf). */
  allFinite: boolean;
}

/** SELECT `aggregates` FROM a relation (the data) projected to `projections` (and `derived` over them). */
export function scanSql(
  projections: readonly string[],
  aggregates: readonly string[],
  options: { derived?: readonly string[]; where?: string; relation?: string } = {},
): string {
  const where = options.where ? ` WHERE ${options.where}` : '';
  const relation = ident(options.relation ?? DATA_RELATION);
  let from = `(SELECT ${projections.join(', ') || '1 AS one'} FROM ${relation}${where})`;
  if (options.derived?.length) from = `(SELECT *, ${options.derived.join(', ')} FROM ${from})`;
  return `SELECT ${aggregates.join(', ')} FROM ${from}`;
}

/**
 * A float column is read as it is stored (y), not through the expressions that make NaN missing
 * and ±inf not a number (v and x: two CASEs per value, ~20% of the scan): when the counts show
 * it holds neither, the figures of y are those of x; when it holds one, the column is scanned
 * again through them (`exact`).
 */
const storedFloat = (column: ProfileColumn, exact: boolean): boolean =>
  column.kind === 'float' && !exact;

function projectionsOf(column: ProfileColumn, exact: boolean): string[] {
  const i = column.index;
  if (storedFloat(column, exact)) return [`CAST(${ident(column.name)} AS DOUBLE) AS y${i}`];
  const out = [`${valueSql(column)} AS v${i}`];
  if (isNumberKind(column.kind)) out.push(`${finiteSql(column)} AS x${i}`);
  if (column.kind === 'datetime') out.push(`${timestampSql(column)} AS t${i}`);
  return out;
}

function aggregatesOf(column: ProfileColumn, exact: boolean): string[] {
  const i = column.index;
  const stored = storedFloat(column, exact);
  const x = stored ? `y${i}` : `x${i}`;
  const out = stored
    ? [`count(y${i}) AS c${i}_stored`, `count_if(NOT isfinite(y${i})) AS c${i}_other`]
    : [`count(v${i}) AS c${i}_n`];
  if (isNumberKind(column.kind)) {
    out.push(...numberAggregates(x, `c${i}`));
    // Only a key-like name (opsmind_profile._classify_numeric) or a link's end (nodeCodes) makes
    // wholeness matter.
    const named = idHint(column.name) || rowName(column.name) || mayLink(column.name);
    if (column.kind !== 'int' && named) out.push(`count_if(${x} <> floor(${x})) AS c${i}_frac`);
  }
  if (column.kind === 'text')
    out.push(
      `arg_min(v${i}, rid) AS c${i}_first`,
      `sum(length(v${i})) AS c${i}_len`,
      `max(length(v${i})) AS c${i}_maxlen`,
    );
  if (column.kind === 'datetime') out.push(...dateAggregates(`t${i}`, `c${i}`));
  return out;
}

/** A column's scan, or null when its stored values hold NaN or ±inf (to be scanned again, exactly). */
function readScan(
  row: Record<string, unknown>,
  column: ProfileColumn,
  exact: boolean,
): ColumnScan | null {
  const i = column.index;
  const first = row[`c${i}_first`];
  const stored = storedFloat(column, exact);
  if (stored && Number(row[`c${i}_other`] ?? 1) !== 0) return null;
  return {
    nonmissing: Number(row[stored ? `c${i}_stored` : `c${i}_n`] ?? 0),
    numbers: isNumberKind(column.kind) ? readNumberScan(row, `c${i}`) : null,
    integral: column.kind === 'int' || Number(row[`c${i}_frac`] ?? 0) === 0,
    first: typeof first === 'string' ? first : null,
    lengthSum: Number(row[`c${i}_len`] ?? 0),
    maxLength: Number(row[`c${i}_maxlen`] ?? 0),
    dates:
      column.kind === 'datetime'
        ? readDateScan(row, `c${i}`, column.sqlType.endsWith('TIME ZONE'))
        : null,
    allFinite: column.kind === 'int' || stored,
  };
}

/** `items` in consecutive groups of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    out.push(items.slice(start, start + size));
  return out;
}

/** The first scan of every column in `detailed`, by column index. */
export async function firstScan(
  db: DuckDb,
  detailed: readonly ProfileColumn[],
  signal?: AbortSignal,
): Promise<Map<number, ColumnScan>> {
  const out = new Map<number, ColumnScan>();
  const scan = async (columns: readonly ProfileColumn[], exact: boolean) => {
    const again: ProfileColumn[] = [];
    for (const chunk of chunked(columns, SCAN_COLUMNS)) {
      const projections = ['rowid AS rid', ...chunk.flatMap((c) => projectionsOf(c, exact))];
      const aggregates = chunk.flatMap((c) => aggregatesOf(c, exact));
      const [row = {}] = await db.objects(scanSql(projections, aggregates), signal);
      for (const column of chunk) {
        const read = readScan(row, column, exact);
        if (read) out.set(column.index, read);
        else again.push(column);
      }
    }
    return again;
  };
  await scan(await scan(detailed, false), true);
  return out;
}

/** How many values of each column are missing, for columns only counted (beyond the detail limit). */
export async function missingCounts(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  rows: number,
  signal?: AbortSignal,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (columns.length === 0) return out;
  const aggregates = columns.map((c) => `count(${ident(c.name)}) AS n${c.index}`);
  const [row = {}] = await db.objects(
    `SELECT ${aggregates.join(', ')} FROM ${ident(DATA_RELATION)}`,
    signal,
  );
  for (const column of columns) out.set(column.index, rows - Number(row[`n${column.index}`] ?? 0));
  return out;
}
