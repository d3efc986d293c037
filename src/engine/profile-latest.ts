/**
 * The years each measure of a yearly panel is reported in (TableFacts.reported). A World Bank
 * file's last year is often thin (a row for every country, a value for the few that report early)
 * and its first years too (fewer countries measured in 1960): a total over the countries of such a
 * year is no total. `from` and `to` are the first and the last year that holds REPORTED_SHARE of
 * the values of the measure's fullest year, or has a value on REPORTED_SHARE of its own rows (a
 * year with fewer rows but a value on each, no disaster of a kind that year, misses nothing).
 * `latest` is the last year with REPORTED_SHARE of the fullest year's values, rows or not: the
 * year a ranking of the entities compares (semantics' latest). The pandas engine's facts pick the
 * same.
 */
import { REPORTED_SHARE } from '../agent/semantics.js';
import type { TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/** Per measure: the years it is reported in (from, to), and the year to rank in (latest). */
export async function reportedYears(
  db: DuckDb,
  year: string,
  measures: readonly string[],
  signal?: AbortSignal,
): Promise<NonNullable<TableFacts['reported']>> {
  const y = `CAST(${ident(year)} AS DOUBLE)`;
  // A NaN is no value (pandas' count skips it), as the profile counts.
  const counts = measures.map(
    (m, i) => `count(nullif(CAST(${ident(m)} AS DOUBLE), CAST('nan' AS DOUBLE))) AS c${i}`,
  );
  const rows = await db.objects(
    `SELECT ${y} AS y, count(*) AS r, ${counts.join(', ')} FROM ${ident(DATA_RELATION)} WHERE ${y} IS NOT NULL AND NOT isnan(${y}) GROUP BY 1 ORDER BY 1`,
    signal,
  );
  return Object.fromEntries(
    measures.flatMap((m, i) => {
      const years = rows.map((row) => ({
        year: Number(row.y),
        rows: Number(row.r ?? 0),
        n: Number(row[`c${i}`] ?? 0),
      }));
      const fullest = Math.max(0, ...years.map((x) => x.n));
      const full = years.filter((x) => x.n > 0 && x.n >= REPORTED_SHARE * fullest);
      const whole = years.filter((x) => x.n > 0 && x.n >= REPORTED_SHARE * x.rows);
      const reported = years.filter((x) => full.includes(x) || whole.includes(x));
      const [from, to, latest] = [reported[0]?.year, reported.at(-1)?.year, full.at(-1)?.year];
      return from === undefined || to === undefined || latest === undefined
        ? []
        : [[m, { from, to, latest }]];
    }),
  );
}
