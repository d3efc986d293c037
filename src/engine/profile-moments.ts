/**
 * The profile's second scan over number columns and numbers stored as text: centred moments and
 * outlier counts, which need the first scan's mean and quartiles. Number columns are read from
 * the data, numbers stored as text from the parsed table (weighted by each value's count).
 */
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import type { ProfileColumn } from './profile-columns.js';
import { finiteSql, sqlDouble } from './profile-columns.js';
import { PARSED_RELATION } from './profile-details.js';
import type { MomentScan, NumberScan } from './profile-numbers.js';
import { fences, momentAggregates, readMomentScan } from './profile-numbers.js';
import { chunked, SCAN_COLUMNS, scanSql } from './profile-scan.js';

/** A column whose numbers get a second scan: its own finite values, or its text parsed. */
export interface MomentRequest {
  column: ProfileColumn;
  fromText: boolean;
  scan: NumberScan;
  /** The first scan found no NaN or ±inf in the column's own values: they are read as stored. */
  allFinite?: boolean;
}

async function ownMoments(
  db: DuckDb,
  requests: readonly MomentRequest[],
  out: Map<number, MomentScan>,
  signal?: AbortSignal,
): Promise<void> {
  for (const chunk of chunked(requests, SCAN_COLUMNS)) {
    const projections: string[] = [];
    const aggregates: string[] = [];
    for (const { column, scan, allFinite } of chunk) {
      const moments = momentAggregates(`x${column.index}`, `m${column.index}`, scan);
      if (moments.length === 0) continue;
      // Without NaN or ±inf, the finite values are the stored ones: no CASE per value (~30%).
      const finite = allFinite ? `CAST(${ident(column.name)} AS DOUBLE)` : finiteSql(column);
      projections.push(`${finite} AS x${column.index}`);
      aggregates.push(...moments);
    }
    if (aggregates.length === 0) continue;
    const [row = {}] = await db.objects(scanSql(projections, aggregates), signal);
    for (const { column } of chunk) out.set(column.index, readMomentScan(row, `m${column.index}`));
  }
}

/** Moments of parsed numbers: one GROUP BY over PARSED_RELATION, weighted by each value's count. */
async function parsedMoments(
  db: DuckDb,
  requests: readonly MomentRequest[],
  out: Map<number, MomentScan>,
  signal?: AbortSignal,
): Promise<void> {
  const given = requests.flatMap(({ column, scan }) => {
    const [low, high] = fences(scan);
    const values = [scan.mean, low, high];
    return values.every(Number.isFinite)
      ? [`(${column.index}, ${values.map(sqlDouble).join(', ')})`]
      : [];
  });
  if (given.length === 0) return;
  const c = '(p.r - s.mean)';
  const sql =
    `SELECT p.k, fsum(p.n * ${c} * ${c}) AS m_m2, fsum(p.n * ${c} * ${c} * ${c}) AS m_m3, ` +
    'coalesce(sum(p.n) FILTER (WHERE p.r < s.low OR p.r > s.high), 0) AS m_out ' +
    `FROM ${ident(PARSED_RELATION)} p JOIN (VALUES ${given.join(', ')}) s(k, mean, low, high) ` +
    'ON p.k = s.k WHERE p.r IS NOT NULL GROUP BY p.k';
  for (const row of await db.objects(sql, signal)) out.set(Number(row.k), readMomentScan(row, 'm'));
}

/** The second scan of every requested column, by column index. */
export async function momentScan(
  db: DuckDb,
  requests: readonly MomentRequest[],
  signal?: AbortSignal,
): Promise<Map<number, MomentScan>> {
  const out = new Map<number, MomentScan>();
  await ownMoments(
    db,
    requests.filter((r) => !r.fromText),
    out,
    signal,
  );
  await parsedMoments(
    db,
    requests.filter((r) => r.fromText),
    out,
    signal,
  );
  return out;
}
