/**
 * What the profile says about rows and column pairs: duplicate rows (exact: a row hash finds the
 * candidates, an exact DISTINCT settles them, so hash collisions never count) and the strongest
 * Pearson correlations among number columns (pairwise-complete rows, as pandas' corr).
 */
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { ProfileColumn } from './profile-columns.js';
import { finiteSql } from './profile-columns.js';
import { pyRound } from './profile-format.js';
import { chunked, scanSql } from './profile-scan.js';

/** Correlations are computed over at most this many rows (an even hash spread beyond it). */
export const CORR_ROWS = 200_000;
/** Only the first this many number columns are correlated. */
export const CORR_COLUMNS = 50;
const CORR_MIN = 0.3;
const CORR_LIMIT = 10;

/** A correlated pair, as the profile contract holds it. */
export interface Correlation {
  a: string;
  b: string;
  r: number;
}

const PAIRS_PER_QUERY = 120;

/** r of each pair (NaN where undefined or fewer than three complete rows), in pair order. */
async function pairR(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  pairs: readonly [number, number][],
  where: string | undefined,
  signal?: AbortSignal,
): Promise<number[]> {
  const used = [...new Set(pairs.flat())];
  const projections = used.flatMap((i) => {
    const column = columns[i];
    return column ? [`${finiteSql(column)} AS x${i}`] : [];
  });
  const aggregates = pairs.flatMap(([i, j]) => [
    `corr(x${i}, x${j}) AS r${i}_${j}`,
    `regr_count(x${i}, x${j}) AS n${i}_${j}`,
  ]);
  const [row = {}] = await db.objects(scanSql(projections, aggregates, { where }), signal);
  return pairs.map(([i, j]) => {
    const r = row[`r${i}_${j}`];
    const n = Number(row[`n${i}_${j}`] ?? 0);
    return typeof r === 'number' && n >= 3 ? Math.min(1, Math.max(-1, r)) : NaN;
  });
}

/** Pearson r between the columns: |r| ≥ 0.3, strongest first (ties in column order), at most 10. */
export async function correlations(
  db: DuckDb,
  numeric: readonly ProfileColumn[],
  rows: number,
  signal?: AbortSignal,
): Promise<Correlation[]> {
  const columns = numeric.slice(0, CORR_COLUMNS);
  if (columns.length < 2 || rows < 3) return [];
  const pairs: [number, number][] = [];
  for (let i = 0; i < columns.length; i += 1)
    for (let j = i + 1; j < columns.length; j += 1) pairs.push([i, j]);
  const every = Math.ceil(rows / CORR_ROWS);
  const where = every > 1 ? `hash(rowid) % ${every} = 0` : undefined;
  const found: { i: number; j: number; r: number }[] = [];
  for (const chunk of chunked(pairs, PAIRS_PER_QUERY)) {
    const values = await pairR(db, columns, chunk, where, signal);
    chunk.forEach(([i, j], k) => found.push({ i, j, r: values[k] ?? NaN }));
  }
  const strong = found.filter(({ r }) => Number.isFinite(r) && Math.abs(r) >= CORR_MIN);
  strong.sort((x, y) => Math.abs(y.r) - Math.abs(x.r));
  return strong.slice(0, CORR_LIMIT).map(({ i, j, r }) => ({
    a: columns[i]?.name ?? '',
    b: columns[j]?.name ?? '',
    r: pyRound(r, 3),
  }));
}

/** Rows equal to an earlier row over every column (missing equals missing). */
export async function duplicateRows(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  signal?: AbortSignal,
): Promise<number> {
  const data = ident(DATA_RELATION);
  const key = `hash(${columns.map((c) => ident(c.name)).join(', ')})`;
  const sql =
    `WITH shared AS (SELECT ${key} AS h FROM ${data} GROUP BY 1 HAVING count(*) > 1), ` +
    `candidates AS (SELECT * FROM ${data} WHERE ${key} IN (SELECT h FROM shared)) ` +
    `SELECT (SELECT count(*) FROM candidates) - ` +
    `(SELECT count(*) FROM (SELECT DISTINCT * FROM candidates)) AS duplicates`;
  const [row] = await db.objects(sql, signal);
  return Number(row?.duplicates ?? 0);
}
