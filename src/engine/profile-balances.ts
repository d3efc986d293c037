/**
 * The running balances' facts (agent/semantics-balances.ts) of the DuckDB engine: each balance's
 * step from the row before it (and to the row after it) against each flow, over every row in the
 * table's order. The pandas engine measures the same with opsmind_semantic.balance_facts.
 */
import type { DataProfile } from '../agent/profile.js';
import {
  BALANCE_SCREEN,
  balanceCandidates,
  sectionCandidates,
} from '../agent/semantics-balances.js';
import type { BalanceCandidate } from '../agent/semantics-balances.js';
import type { TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/**
 * A row's step matches its flow: within a millionth of the two, as the flows' cents add up exactly.
 * A flow of two columns is the in less the out, a blank as 0, on the rows with either. Only rows
 * whose balance before is not 0 count: a column of mostly zeros steps by its own value from a 0,
 * and any two columns whose difference it is would pass for its flows (birdstrikes' Cost Other =
 * Cost Total $ − Cost Repair).
 */
function steps(b: string, before: string, a: string, out?: string): [string, string] {
  const present =
    out === undefined ? `${a} IS NOT NULL` : `(${a} IS NOT NULL OR ${out} IS NOT NULL)`;
  const flow = out === undefined ? a : `(coalesce(${a}, 0) - coalesce(${out}, 0))`;
  const rows = `${b} IS NOT NULL AND ${before} IS NOT NULL AND ${before} <> 0 AND ${present}`;
  return [
    rows,
    `${rows} AND abs((${b} - ${before}) - ${flow}) <= 1e-6 * (abs(${b}) + abs(${flow})) + 1e-6`,
  ];
}

type Found = NonNullable<TableFacts['balances']>;

/**
 * Each candidate's step against its flow over the rows (those with rowid below `screen` only, when
 * given), from the row before and to the row after: the order it holds in on `share` of the rows
 * that have all of them (10 or more).
 */
async function measured(
  db: DuckDb,
  pairs: readonly BalanceCandidate[],
  share: number,
  screen: number | null,
  signal?: AbortSignal,
): Promise<(Found[number] | null)[]> {
  const balances = [...new Set(pairs.map(([b]) => b))];
  const flows = [...new Set(pairs.flatMap(([, ...a]) => a))];
  const b = (name: string): number => balances.indexOf(name);
  const a = (name: string): number => flows.indexOf(name);
  const projection = [
    ...balances.flatMap((name, i) => {
      const x = `CAST(${ident(name)} AS DOUBLE)`;
      return [`${x} AS b${i}`, `lag(${x}) OVER w AS p${i}`, `lead(${x}) OVER w AS q${i}`];
    }),
    ...flows.map((name, j) => `CAST(${ident(name)} AS DOUBLE) AS a${j}`),
  ];
  const aggregates = pairs.flatMap(([balance, flow, out], k) => {
    const [i, j] = [b(balance), a(flow)];
    const o = out === undefined ? undefined : `a${a(out)}`;
    const [up, upHit] = steps(`b${i}`, `p${i}`, `a${j}`, o);
    const [down, downHit] = steps(`b${i}`, `q${i}`, `a${j}`, o);
    return [
      `count_if(${up}) AS n${k}`,
      `count_if(${upHit}) AS h${k}`,
      `count_if(${down}) AS m${k}`,
      `count_if(${downHit}) AS g${k}`,
    ];
  });
  const where = screen === null ? '' : ` WHERE rowid < ${screen}`;
  const [row = {}] = await db.objects(
    `SELECT ${aggregates.join(', ')} FROM (SELECT ${projection.join(', ')} FROM ${ident(DATA_RELATION)}${where} WINDOW w AS (ORDER BY rowid))`,
    signal,
  );
  const holds = (n: unknown, h: unknown): boolean =>
    Number(n ?? 0) >= 10 && Number(h ?? 0) >= share * Number(n ?? 0);
  return pairs.map(([balance, amount, debit], k) => {
    const found = { balance, amount, ...(debit === undefined ? {} : { debit }) };
    return holds(row[`n${k}`], row[`h${k}`])
      ? { ...found, order: 'ascending' as const }
      : holds(row[`m${k}`], row[`g${k}`])
        ? { ...found, order: 'descending' as const }
        : null;
  });
}

/**
 * Running balances: each candidate whose step is its flow on 99% of the rows (10 or more). Money
 * in and out in two columns is first screened on the first rows (90% of them), as the pandas
 * engine does (BALANCE_SCREEN): any two columns never below zero are a candidate.
 */
export async function balanceFacts(
  db: DuckDb,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'balances'>> {
  const candidates = balanceCandidates(profile);
  const paired = candidates.filter((c) => c.length === 3);
  const screened = paired.length ? await measured(db, paired, 0.9, BALANCE_SCREEN, signal) : [];
  const pairs = [
    ...candidates.filter((c) => c.length === 2),
    ...paired.filter((_, k) => screened[k] !== null),
  ];
  if (pairs.length === 0) return { balances: [] };
  const found = (await measured(db, pairs, 0.99, null, signal)).filter(
    (f): f is Found[number] => f !== null,
  );
  const by = found.length ? await sectionOf(db, profile, signal) : null;
  return { balances: by === null ? found : found.map((f) => ({ ...f, by })) };
}

/**
 * The first of sectionCandidates whose values each come in one run in row order (a missing value
 * one more value), or null: a report of several accounts, each account's balance its own.
 */
async function sectionOf(
  db: DuckDb,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<string | null> {
  const columns = sectionCandidates(profile);
  if (columns.length === 0) return null;
  const lagged = columns.map((c, i) => `${ident(c)} AS c${i}, lag(${ident(c)}) OVER w AS p${i}`);
  const counts = columns.map(
    (_, i) =>
      `count_if(c${i} IS DISTINCT FROM p${i} OR rowid = 0) AS r${i}, count(DISTINCT c${i}) + max(CASE WHEN c${i} IS NULL THEN 1 ELSE 0 END) AS d${i}`,
  );
  const [row = {}] = await db.objects(
    `SELECT ${counts.join(', ')} FROM (SELECT rowid, ${lagged.join(', ')} FROM ${ident(DATA_RELATION)} WINDOW w AS (ORDER BY rowid))`,
    signal,
  );
  const i = columns.findIndex((_, k) => Number(row[`r${k}`]) === Number(row[`d${k}`]));
  return columns[i] ?? null;
}
