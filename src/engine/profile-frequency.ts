/**
 * The typical spacing of every datetime column's distinct timestamps, in SQL (one UNION ALL of
 * window queries, a few columns at a time).
 */
import type { DuckDb } from './duckdb.js';
import type { Frequency } from './profile-dates.js';
import { frequencySql, readFrequency } from './profile-dates.js';

const COLUMNS_PER_QUERY = 8;

/** A column to time: its key, and a SELECT of its timestamps as column `ts`. */
export interface FrequencyRequest {
  key: number;
  timestamps: string;
}

/** The frequency of each requested column, by key. */
export async function frequencies(
  db: DuckDb,
  requests: readonly FrequencyRequest[],
  signal?: AbortSignal,
): Promise<Map<number, Frequency | null>> {
  const out = new Map<number, Frequency | null>();
  for (let start = 0; start < requests.length; start += COLUMNS_PER_QUERY) {
    const branches = requests
      .slice(start, start + COLUMNS_PER_QUERY)
      .map(({ key, timestamps }) => frequencySql(key, timestamps));
    for (const row of await db.objects(branches.join(' UNION ALL '), signal))
      out.set(Number(row.k), readFrequency(row));
  }
  return out;
}
