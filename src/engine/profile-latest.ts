/**
 * The years each measure of a yearly panel is reported in (TableFacts.reported). A World Bank
 * file's last year is often thin (a row for every country, a value for the few that report early)
 * and its first years too (fewer countries measured in 1960): a total over the countries of such a
 * year is no total. `from` and `to` are the first and the last year that holds REPORTED_SHARE of
 * the values of the measure's fullest year, or has a value on REPORTED_SHARE of its own rows (a
 * year with fewer rows but a value on each, no disaster of a kind that year, misses nothing).
 * `latest` is the last year with REPORTED_SHARE of the fullest year's values, rows or not: the
 * year a ranking of the entities compares (semantics' latest). The pandas engine's facts pick the
 * same. A dated panel (one row per store and month) is read the same way, its periods by their
 * dates: `from`, `to` and `latest` are then the periods' times as written in filters
 * ("2024-08-01 00:00:00"): a month in which three stores of eight have revenue yet is no total.
 * Its measures missing inside the span too are sparse, not reported late: their span is every
 * period they have a value in. Either kind lists its gaps: the rows inside its span without it,
 * where a period misses it on more than GAP_SHARE of its rows (a store's blank month).
 */
import { GAP_SHARE, REPORTED_SHARE } from '../agent/semantics.js';
import type { Reported, TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/**
 * Per measure: the years it is reported in (from, to), and the year to rank in (latest); `value`:
 * a measure's numbers as SQL (numbers stored as text read as numbers); `dated`:
 * the periods of `time`, a TIMESTAMP expression, instead of a column of years.
 */
export async function reportedYears(
  db: DuckDb,
  time: string,
  measures: readonly string[],
  value: (m: string) => string,
  signal?: AbortSignal,
  dated = false,
): Promise<NonNullable<TableFacts['reported']>> {
  const y = dated ? time : `CAST(${ident(time)} AS DOUBLE)`;
  const known = dated ? `${y} IS NOT NULL` : `${y} IS NOT NULL AND NOT isnan(${y})`;
  const key = dated ? `strftime(${y}, '%Y-%m-%d %H:%M:%S')` : y;
  // A NaN is no value (pandas' count skips it), as the profile counts.
  const counts = measures.map(
    (m, i) => `count(nullif(CAST(${value(m)} AS DOUBLE), CAST('nan' AS DOUBLE))) AS c${i}`,
  );
  const rows = await db.objects(
    `SELECT ${key} AS y, count(*) AS r, ${counts.join(', ')} FROM ${ident(DATA_RELATION)} WHERE ${known} GROUP BY 1 ORDER BY 1`,
    signal,
  );
  return Object.fromEntries(
    measures.flatMap((m, i) => {
      const years = rows.map((row) => ({
        year: dated ? String(row.y) : Number(row.y),
        rows: Number(row.r ?? 0),
        n: Number(row[`c${i}`] ?? 0),
      }));
      let fullest = 0;
      for (const x of years) fullest = Math.max(fullest, x.n);
      const isFull = (x: (typeof years)[number]): boolean =>
        x.n > 0 && x.n >= REPORTED_SHARE * fullest;
      const full = years.filter(isFull);
      const at = years.flatMap((x, index) =>
        isFull(x) || (x.n > 0 && x.n >= REPORTED_SHARE * x.rows) ? [index] : [],
      );
      let [first, last] = [at[0], at.at(-1)];
      // A dated panel's measure missing here and there inside its span (a discount on some
      // orders) is sparse, not reported late or early: nothing to keep to but its values' span.
      if (dated && first !== undefined && last !== undefined && last - first + 1 !== at.length) {
        const valued = years.flatMap((x, index) => (x.n > 0 ? [index] : []));
        [first, last] = [valued[0], valued.at(-1)];
      }
      const [from, to, latest] = [
        years[first ?? -1]?.year,
        years[last ?? -1]?.year,
        full.at(-1)?.year,
      ];
      if (from === undefined || to === undefined || latest === undefined) return [];
      const gaps = gapsOf(years.slice(first, (last ?? -1) + 1));
      return [[m, { from, to, latest, ...(gaps ? { gaps } : {}) }]];
    }),
  );
}

/**
 * The rows of `span`'s periods without the measure, when a period misses it on more than
 * GAP_SHARE of its rows; `at` the first that misses the largest share (the pandas facts the same).
 */
function gapsOf(
  span: readonly { year: number | string; rows: number; n: number }[],
): Reported['gaps'] {
  let [cells, periods] = [0, 0];
  let worst: { at: number | string; missing: number; rows: number } | undefined;
  for (const x of span) {
    const missing = x.rows - x.n;
    cells += missing;
    if (missing <= GAP_SHARE * x.rows) continue;
    periods += 1;
    // Shares compared as whole numbers crossed (missing / rows), as the pandas facts compare them.
    if (!worst || missing * worst.rows > worst.missing * x.rows)
      worst = { at: x.year, missing, rows: x.rows };
  }
  return worst ? { cells, periods, ...worst } : undefined;
}
