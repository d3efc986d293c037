/**
 * Quartiles of the number columns that get statistics. Columns with few distinct values (most
 * ints, rounded prices) take them from their grouped values: a sort of the distinct values only,
 * and exactly np.percentile's linear interpolation. On tables the profile groups column by column
 * (profile-top's columnSql), those picks come with the value counts; the grouped query here serves
 * the rest. The others use DuckDB's quantile_cont (exact,
 * holding every value, so few columns per query) or, beyond EXACT_ROWS, approx_quantile.
 */
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { ProfileColumn } from './profile-columns.js';
import { finiteSql } from './profile-columns.js';
import type { NumberScan } from './profile-numbers.js';
import { quartileAggregate, withQuartiles } from './profile-numbers.js';
import { chunked, SCAN_COLUMNS, scanSql } from './profile-scan.js';

/** Values exact quantile_cont may hold at once (8 bytes each) before a query is split. */
export const QUANTILE_BUDGET = 32_000_000;
/** Columns with at most this share of distinct values per row take quartiles from their groups. */
export const GROUPED_SHARE = 0.25;
const GROUPED_PER_QUERY = 8;
const QUARTILES = [0.25, 0.5, 0.75] as const;

/** A number column that needs quartiles, with what its first scan and top values found. */
export interface QuartileRequest {
  column: ProfileColumn;
  scan: NumberScan;
  distinct: number;
}

/**
 * Aggregates over (val, cum, total) — sorted distinct values with their running and total counts —
 * picking the values at sorted positions ⌊q(n−1)⌋ and the next, for `interpolateQuartiles`.
 */
export function quartilePicks(): string[] {
  return QUARTILES.flatMap((q, i) => [
    `min(val) FILTER (WHERE cum > floor(${q} * (total - 1))) AS a${i}`,
    `min(val) FILTER (WHERE cum > floor(${q} * (total - 1)) + 1) AS b${i}`,
  ]);
}

/** One branch: a column's distinct finite values with their running counts, and the picks. */
function groupedSql(column: ProfileColumn): string {
  const x = finiteSql(column);
  const picks = quartilePicks();
  const groups = `SELECT ${x} AS val, count(*) AS n FROM ${ident(DATA_RELATION)} WHERE ${x} IS NOT NULL GROUP BY 1`;
  const running =
    'SELECT val, sum(n) OVER (ORDER BY val ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS cum, ' +
    `sum(n) OVER () AS total FROM (${groups})`;
  return `SELECT ${column.index} AS k, any_value(total) AS total, ${picks.join(', ')} FROM (${running})`;
}

/** The scan with quartiles by np.percentile's linear interpolation of `quartilePicks`' values. */
export function interpolateQuartiles(row: Record<string, unknown>, scan: NumberScan): NumberScan {
  const n = Number(row.total);
  const [q1, median, q3] = QUARTILES.map((q, i) => {
    const position = q * (n - 1);
    const t = position - Math.floor(position);
    const a = Number(row[`a${i}`]);
    const b = row[`b${i}`] === null || row[`b${i}`] === undefined ? a : Number(row[`b${i}`]);
    return t >= 0.5 ? b - (b - a) * (1 - t) : a + (b - a) * t;
  });
  return { ...scan, q1: q1 ?? NaN, median: median ?? NaN, q3: q3 ?? NaN };
}

async function grouped(
  db: DuckDb,
  requests: readonly QuartileRequest[],
  out: Map<number, NumberScan>,
  signal?: AbortSignal,
): Promise<void> {
  for (const chunk of chunked(requests, GROUPED_PER_QUERY)) {
    const sql = chunk.map(({ column }) => groupedSql(column)).join(' UNION ALL ');
    const rows = new Map((await db.objects(sql, signal)).map((row) => [Number(row.k), row]));
    for (const { column, scan } of chunk) {
      const row = rows.get(column.index);
      if (row) out.set(column.index, interpolateQuartiles(row, scan));
    }
  }
}

async function direct(
  db: DuckDb,
  requests: readonly QuartileRequest[],
  rows: number,
  approximate: boolean,
  out: Map<number, NumberScan>,
  signal?: AbortSignal,
): Promise<void> {
  const budget = approximate ? SCAN_COLUMNS : Math.floor(QUANTILE_BUDGET / Math.max(1, rows));
  for (const chunk of chunked(requests, Math.max(1, Math.min(SCAN_COLUMNS, budget)))) {
    const projections = chunk.map(({ column }) => `${finiteSql(column)} AS x${column.index}`);
    const aggregates = chunk.map(({ column: { index } }) =>
      quartileAggregate(`x${index}`, `q${index}`, approximate),
    );
    const [row = {}] = await db.objects(scanSql(projections, aggregates), signal);
    for (const { column, scan } of chunk)
      out.set(column.index, withQuartiles(scan, row, `q${column.index}`));
  }
}

/**
 * Each requested column's scan with its quartiles filled in, by column index, and whether any
 * column's quartiles came from quantile functions rather than its groups.
 */
export async function quartiles(
  db: DuckDb,
  requests: readonly QuartileRequest[],
  rows: number,
  approximate: boolean,
  signal?: AbortSignal,
): Promise<{ scans: Map<number, NumberScan>; direct: boolean }> {
  const scans = new Map<number, NumberScan>();
  const few = (r: QuartileRequest): boolean => r.distinct <= GROUPED_SHARE * rows;
  await grouped(db, requests.filter(few), scans, signal);
  const rest = requests.filter((r) => !few(r));
  await direct(db, rest, rows, approximate, scans, signal);
  return { scans, direct: rest.length > 0 };
}
