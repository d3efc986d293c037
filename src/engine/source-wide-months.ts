/**
 * A row per account and a column per month, each named by its month and year ("Jan 2024" …
 * "Dec 2024", "2024-01", "Jan-24"), as accounting tools export a profit and loss by month: one
 * measure over time written wide. Read as rows — one per row and month, the date in "period"
 * (the first of the month) and the number in "value" — it is charted per month by account, not
 * as twelve unrelated measures ("Oct 2024 vs Sep 2024"). A number column beside them that is the
 * sum of the months on every row (the export's "Total") would repeat in every month's row: left
 * out, and the warning says so. The sandbox's reader melts it the same way
 * (opsmind_data._melt_month_years).
 */
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { monthOfColumn } from './source-wide.js';
import { DATA_RELATION } from './types.js';

/** At least this many month columns make a wide table. */
const WIDE_MONTHS = 3;
/** How close a row's total is to the sum of its months: a total of rounded values. */
const TOTAL_TOLERANCE = 1e-4;

const NUMBER_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/;

/** A two-digit year as strftime's %y reads it: 69–99 in the 1900s, 00–68 in the 2000s. */
const fullYear = (y: string): number => {
  const n = Number(y.replace("'", ''));
  return y.replace("'", '').length === 4 ? n : n < 69 ? 2000 + n : 1900 + n;
};

/** The year and month a column is named as ("Jan 2024", "January-2024", "Jan-24", "2024-01"), or null. */
export function monthYearOf(name: string): { year: number; month: number } | null {
  const text = name.trim();
  const named = /^([A-Za-z]+)[\s\-.]*('?\d{2}|\d{4})$/.exec(text);
  if (named) {
    const month = monthOfColumn(named[1] ?? '');
    return month === undefined ? null : { year: fullYear(named[2] ?? ''), month };
  }
  const iso = /^(\d{4})[-/.](\d{1,2})$/.exec(text);
  const month = Number(iso?.[2]);
  return iso && month >= 1 && month <= 12 ? { year: Number(iso[1]), month } : null;
}

/** Melts the month columns of `data` into "period" and "value" rows; its warning, or null. */
export async function meltMonthYears(db: DuckDb, signal?: AbortSignal): Promise<string | null> {
  const columns = await describeData(db, signal);
  const months = columns.flatMap((c) => {
    const at = monthYearOf(c.name);
    return at ? [{ ...c, ...at }] : [];
  });
  if (months.length < WIDE_MONTHS || !months.every((c) => NUMBER_TYPE.test(c.type))) return null;
  if (new Set(months.map((c) => 12 * c.year + c.month)).size !== months.length) return null;
  const ids = columns.filter((c) => !monthYearOf(c.name));
  if (ids.length === 0 || ids.some((c) => ['period', 'value'].includes(c.name.toLowerCase())))
    return null;
  const data = ident(DATA_RELATION);
  const sum = months.map((c) => `coalesce(CAST(${ident(c.name)} AS DOUBLE), 0)`).join(' + ');
  const numbers = ids.filter((c) => NUMBER_TYPE.test(c.type));
  const checks = numbers.map((c) => {
    const t = `CAST(${ident(c.name)} AS DOUBLE)`;
    return `count(${t}) > 0 AND count(*) FILTER (WHERE ${t} IS NOT NULL AND abs(${t} - (${sum})) > ${TOTAL_TOLERANCE} * abs(${t}) + 1e-6) = 0`;
  });
  const [row = []] = checks.length
    ? (await db.all(`SELECT ${checks.join(', ')} FROM ${data}`, signal)).rows
    : [[]];
  const totals = numbers.filter((_, i) => row[i] === true).map((c) => c.name);
  const kept = ids.filter((c) => !totals.includes(c.name));
  if (kept.length === 0) return null;
  const idList = kept.map((c) => ident(c.name)).join(', ');
  const list = (f: (c: (typeof months)[number]) => string) => `[${months.map(f).join(', ')}]`;
  await db.run(
    `CREATE OR REPLACE TABLE ${data} AS SELECT ${idList}, make_timestamp(_y, _m, 1, 0, 0, 0) AS "period", "value" FROM (SELECT rowid AS _r, ${idList}, unnest(${list((c) => String(c.year))}) AS _y, unnest(${list((c) => String(c.month))}) AS _m, unnest(${list((c) => ident(c.name))}) AS "value", unnest(range(${months.length})) AS _p FROM ${data}) ORDER BY _r, _p`,
    signal,
  );
  const [first = '', last = ''] = [months[0]?.name.trim(), months.at(-1)?.name.trim()];
  const left = totals.length
    ? `; left out ${totals.join(', ')}: the sum of the months on every row, which would repeat in every month's row`
    : '';
  return `read the ${months.length} month columns (${first} … ${last}) as rows: one per ${kept[0]?.name ?? 'row'} and month, in "period" (the first of each month) and "value"${left}`;
}
