/**
 * The quotient columns' facts (agent/semantics-quotients.ts) of the DuckDB engine: the candidates'
 * columns on the first QUOTIENT_SCREEN rows are read once and screened here; the few that hold
 * there are checked on every row in SQL. The pandas engine measures the same with
 * opsmind_semantic.quotient_facts, row for row alike.
 */
import type { DataProfile } from '../agent/profile.js';
import {
  quotientCandidates,
  QUOTIENT_SCREEN,
  screenQuotients,
} from '../agent/semantics-quotients.js';
import type { TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { NUMBER_TYPE, numberTextSql } from './profile-details.js';
import { DATA_RELATION } from './types.js';

/** semantics-quotients.ts quotientHolds, in SQL. */
function holds(q: string, n: string, d: string, scale: number, decimals: number | null): string {
  const exact = `${scale}.0 * ${n} / ${d}`;
  const half = decimals === null ? 0 : 0.5 * 10 ** -decimals;
  return `abs(${q} - ${exact}) <= ${half} + 1e-9 + 0.001 * abs(${exact})`;
}

/** Quotient columns: each candidate that holds on 90% of the first rows and 99% of all. */
export async function quotientFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'quotients'>> {
  const candidates = quotientCandidates(profile);
  if (candidates.length === 0) return { quotients: [] };
  const columns = [...new Set(candidates.flatMap(([q, n, d]) => [q, n, d]))];
  const x = (name: string): string => `x${columns.indexOf(name)}`;
  const value = (name: string): string =>
    NUMBER_TYPE.test(types.get(name) ?? '')
      ? `CAST(${ident(name)} AS DOUBLE)`
      : numberTextSql(`CAST(${ident(name)} AS VARCHAR)`);
  const projection = columns.map((c) => `${value(c)} AS ${x(c)}`).join(', ');
  const first = await db.objects(
    `SELECT ${projection} FROM ${ident(DATA_RELATION)} WHERE rowid < ${QUOTIENT_SCREEN}`,
    signal,
  );
  const number = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
  const values = new Map(columns.map((c) => [c, first.map((row) => number(row[x(c)]))]));
  const { kept, decimals } = screenQuotients(candidates, values);
  if (kept.length === 0) return { quotients: [] };
  const aggregates = kept.flatMap(([q, n, d, scale], i) => {
    const rows = `${x(q)} IS NOT NULL AND ${x(n)} IS NOT NULL AND ${x(d)} IS NOT NULL AND ${x(d)} <> 0`;
    return [
      `count_if(${rows}) AS n${i}`,
      `count_if(${rows} AND ${holds(x(q), x(n), x(d), scale, decimals.get(q) ?? null)}) AS h${i}`,
    ];
  });
  const [row = {}] = await db.objects(
    `SELECT ${aggregates.join(', ')} FROM (SELECT ${projection} FROM ${ident(DATA_RELATION)})`,
    signal,
  );
  return {
    quotients: kept.flatMap(([column, numerator, denominator, scale], i) => {
      const [n, h] = [Number(row[`n${i}`] ?? 0), Number(row[`h${i}`] ?? 0)];
      return n >= 10 && h >= 0.99 * n
        ? [{ column, numerator, denominator, scale, decimals: decimals.get(column) ?? null }]
        : [];
    }),
  };
}
