/**
 * The running balances' facts (agent/semantics-balances.ts) of the DuckDB engine: each balance's
 * step from the row before it (and to the row after it) against each flow, over every row in the
 * table's order. The pandas engine measures the same with opsmind_semantic.balance_facts.
 */
import type { DataProfile } from '../agent/profile.js';
import { balanceCandidates } from '../agent/semantics-balances.js';
import type { TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/** A row's step matches its flow: within a millionth of the two, as the flows' cents add up exactly. */
function steps(b: string, before: string, a: string): [string, string] {
  const rows = `${b} IS NOT NULL AND ${before} IS NOT NULL AND ${a} IS NOT NULL`;
  return [
    rows,
    `${rows} AND abs((${b} - ${before}) - ${a}) <= 1e-6 * (abs(${b}) + abs(${a})) + 1e-6`,
  ];
}

/** Running balances: each (balance, flow) pair whose step is the flow on 99% of the rows (10 or more). */
export async function balanceFacts(
  db: DuckDb,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'balances'>> {
  const pairs = balanceCandidates(profile);
  if (pairs.length === 0) return { balances: [] };
  const balances = [...new Set(pairs.map(([b]) => b))];
  const flows = [...new Set(pairs.map(([, a]) => a))];
  const b = (name: string): number => balances.indexOf(name);
  const a = (name: string): number => flows.indexOf(name);
  const projection = [
    ...balances.flatMap((name, i) => {
      const x = `CAST(${ident(name)} AS DOUBLE)`;
      return [`${x} AS b${i}`, `lag(${x}) OVER w AS p${i}`, `lead(${x}) OVER w AS q${i}`];
    }),
    ...flows.map((name, j) => `CAST(${ident(name)} AS DOUBLE) AS a${j}`),
  ];
  const aggregates = pairs.flatMap(([balance, flow], k) => {
    const [i, j] = [b(balance), a(flow)];
    const [up, upHit] = steps(`b${i}`, `p${i}`, `a${j}`);
    const [down, downHit] = steps(`b${i}`, `q${i}`, `a${j}`);
    return [
      `count_if(${up}) AS n${k}`,
      `count_if(${upHit}) AS h${k}`,
      `count_if(${down}) AS m${k}`,
      `count_if(${downHit}) AS g${k}`,
    ];
  });
  const [row = {}] = await db.objects(
    `SELECT ${aggregates.join(', ')} FROM (SELECT ${projection.join(', ')} FROM ${ident(DATA_RELATION)} WINDOW w AS (ORDER BY rowid))`,
    signal,
  );
  const holds = (n: unknown, h: unknown): boolean =>
    Number(n ?? 0) >= 10 && Number(h ?? 0) >= 0.99 * Number(n ?? 0);
  return {
    balances: pairs.flatMap(([balance, amount], k): NonNullable<TableFacts['balances']> =>
      holds(row[`n${k}`], row[`h${k}`])
        ? [{ balance, amount, order: 'ascending' as const }]
        : holds(row[`m${k}`], row[`g${k}`])
          ? [{ balance, amount, order: 'descending' as const }]
          : [],
    ),
  };
}
