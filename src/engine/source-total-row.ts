/**
 * A last row that totals the rows above it, with no label: Google Analytics writes its table's
 * total so (",45,678" under the days), as does a sheet with a SUM at its foot. Read as a row, it
 * is a day of no date that a histogram, a median, a skew and the outliers count as one more
 * value — the largest by far. Left out when every label column (every column not a number) is
 * blank on it, one of them is filled on every other row, and a number column holds the sum of
 * the rows above (within 0.1%: a total of rounded values). The sandbox's reader leaves out the
 * same row (opsmind_data._drop_total_row).
 */
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** At least this many rows, the total among them. */
const MIN_ROWS = 5;
/** How close to the sum of the rows above a total is. */
export const TOTAL_TOLERANCE = 1e-3;

const NUMBER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/;

/** Leaves out a last row that totals the rows above with no label; its warning, or null. */
export async function dropTotalRow(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const numbers = columns.filter((c) => NUMBER_TYPE.test(c.type));
  const labels = columns.filter((c) => !NUMBER_TYPE.test(c.type));
  if (numbers.length === 0 || labels.length === 0) return null;
  const data = ident(DATA_RELATION);
  const last = `(SELECT max(rowid) FROM ${data})`;
  // The last row first: only when its labels are all blank is every row read.
  const [blank = {}] = await db.objects(
    `SELECT ${labels.map((c, i) => `${ident(c.name)} IS NULL AS b${i}`).join(', ')} FROM ${data} WHERE rowid = ${last}`,
    signal,
  );
  if (!labels.every((_, i) => blank[`b${i}`] === true)) return null;
  const parts = [
    ...labels.map((c, i) => `count(*) FILTER (WHERE ${ident(c.name)} IS NULL) AS m${i}`),
    ...numbers.flatMap((c, i) => [
      `sum(CAST(${ident(c.name)} AS DOUBLE)) FILTER (WHERE rowid < l.r) AS s${i}`,
      `max(CAST(${ident(c.name)} AS DOUBLE)) FILTER (WHERE rowid = l.r) AS v${i}`,
    ]),
  ];
  const [row = {}] = await db.objects(
    `SELECT count(*) AS n, ${parts.join(', ')} FROM ${data}, (SELECT ${last} AS r) AS l`,
    signal,
  );
  if (Number(row.n) < MIN_ROWS) return null;
  // Filled on every other row: the blank is the total's, not a value missing now and then.
  if (!labels.some((_, i) => Number(row[`m${i}`]) === 1)) return null;
  const total = numbers.find((_, i) => {
    const [sum, value] = [Number(row[`s${i}`]), row[`v${i}`]];
    return (
      value !== null &&
      value !== undefined &&
      Number.isFinite(sum) &&
      sum !== 0 &&
      Math.abs(Number(value) - sum) <= TOTAL_TOLERANCE * Math.abs(sum)
    );
  });
  if (!total) return null;
  await db.run(`DELETE FROM ${data} WHERE rowid = ${last}`, signal);
  return `left out the last row: a total of the rows above (no label, its ${JSON.stringify(total.name)} their sum)`;
}
