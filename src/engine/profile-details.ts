/**
 * Text columns that may hold dates or numbers, each distinct value parsed once into a temporary
 * table: how many values parse as dates and their extremes, and the statistics of the numbers
 * stored as text (parsed as opsmind_semantic.parse_number_text does: strip signs and separators
 * and cast; what that misses goes through the full pattern), weighted by how often each occurs.
 */
import type { DuckDb } from './duckdb.js';
import { ident, literal } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { ProfileColumn } from './profile-columns.js';
import { valueSql } from './profile-columns.js';
import type { DateScan } from './profile-dates.js';
import { boundedSql, dateParseSql, readDateScan } from './profile-dates.js';
import type { NumberScan } from './profile-numbers.js';
import { readNumberScan } from './profile-numbers.js';
import { interpolateQuartiles, quartilePicks } from './profile-quartiles.js';
import { CURRENCY_CODES } from './profile-semantic.js';

const CURRENCY = '[$€£¥₹]';
// opsmind_semantic.NUMBER_TEXT in RE2 syntax; groups: 1 sign, 2 currency, 3 sign, 4 number.
const NUMBER_TEXT_RE2 = literal(
  `(?i)^\\s*([-+\\x{2212}(])?\\s*(${CURRENCY}|(?:${CURRENCY_CODES})\\s?)?\\s*([-(])?` +
    '(\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d*)?(?:[eE][-+]?\\d+)?|\\.\\d+)' +
    `\\s*(%)?\\s*(${CURRENCY}|(?:${CURRENCY_CODES}))?\\s*\\)?\\s*\\n?$`,
);

/** DuckDB's number types, as the facts read a column's type. */
export const NUMBER_TYPE =
  /^(BIGINT|INTEGER|DOUBLE|FLOAT|DECIMAL|HUGEINT|SMALLINT|TINYINT|UBIGINT|UINTEGER)/;

/** A text expression's number as DOUBLE ("$1,234.50", "12.5%" → 12.5, "(300)" → -300), else NULL. */
export function numberTextSql(text: string): string {
  // The fast path: FAST_NUMBER's translate (regexp_replace is quicker than DuckDB's translate).
  // pandas' to_numeric reads neither "1_000" nor NaN here; DuckDB's cast would read the first.
  const fast =
    `nullif(CASE WHEN NOT contains(${text}, '_') THEN ` +
    `TRY_CAST(replace(replace(regexp_replace(${text}, '[$€£¥₹,% )]', '', 'g'), '(', '-'), '\u2212', '-') ` +
    `AS DOUBLE) END, CAST('nan' AS DOUBLE))`;
  const group = (n: number): string => `regexp_extract(${text}, ${NUMBER_TEXT_RE2}, ${n})`;
  const negative = `${group(1)} IN ('-', '\u2212', '(') OR ${group(3)} IN ('-', '(')`;
  const full =
    `CASE WHEN regexp_matches(${text}, ${NUMBER_TEXT_RE2}) THEN ` +
    `(CASE WHEN ${negative} THEN -1 ELSE 1 END) * TRY_CAST(replace(${group(4)}, ',', '') AS DOUBLE) END`;
  return `coalesce(${fast}, ${full})`;
}

/**
 * The temporary table of parsed text: one row per distinct value of each requested column,
 * `(k, n, r, t)` — column index, how often the value occurs, its finite number, its timestamp.
 * Parsing each distinct value once is what the Python profile does (it parses uniques).
 */
export const PARSED_RELATION = 'opsmind_profile_parsed';

/** What to parse in a text column: dates (with the inferred format, or null), numbers, or both. */
export interface DetailRequest {
  column: ProfileColumn;
  dates: { format: string | null } | null;
  numbers: boolean;
}

/** What parsing found: dates that parse, and statistics (with quartiles) of the numbers that parse. */
export interface DetailScan {
  dates: DateScan | null;
  numbers: NumberScan | null;
}

function parsedSql({ column, dates, numbers }: DetailRequest): string {
  const number = numbers ? numberTextSql('v') : 'CAST(NULL AS DOUBLE)';
  const stamp = dates ? dateParseSql('v', dates.format) : 'CAST(NULL AS TIMESTAMP)';
  const value = valueSql(column);
  const distinct = `SELECT ${value} AS v, count(*) AS n FROM ${ident(DATA_RELATION)} WHERE ${value} IS NOT NULL GROUP BY 1`;
  const parsed = `SELECT ${column.index} AS k, n, ${number} AS x, ${stamp} AS p FROM (${distinct})`;
  return `SELECT k, n, CASE WHEN isfinite(x) THEN x END AS r, ${boundedSql('p')} AS t FROM (${parsed})`;
}

/** Parses the requested columns into PARSED_RELATION (`dropParsed` removes it). */
export async function createParsed(
  db: DuckDb,
  requests: readonly DetailRequest[],
  signal?: AbortSignal,
): Promise<void> {
  const select = requests.map(parsedSql).join(' UNION ALL ');
  await db.run(`CREATE OR REPLACE TABLE ${ident(PARSED_RELATION)} AS ${select}`, signal);
}

/** Removes PARSED_RELATION if it exists. */
export async function dropParsed(db: DuckDb): Promise<void> {
  await db.run(`DROP TABLE IF EXISTS ${ident(PARSED_RELATION)}`);
}

const STATS_SQL =
  'SELECT k, coalesce(sum(n) FILTER (WHERE r IS NOT NULL), 0) AS d_nf, min(r) AS d_min, ' +
  'max(r) AS d_max, fsum(r * n) / sum(n) FILTER (WHERE r IS NOT NULL) AS d_mean, ' +
  'coalesce(sum(n) FILTER (WHERE r = 0), 0) AS d_zeros, ' +
  'coalesce(sum(n) FILTER (WHERE r < 0), 0) AS d_neg, ' +
  'coalesce(sum(n) FILTER (WHERE t IS NOT NULL), 0) AS d_dn, ' +
  "strftime(min(t), '%Y-%m-%dT%H:%M:%S.%f') AS d_dmin, " +
  "strftime(max(t), '%Y-%m-%dT%H:%M:%S.%f') AS d_dmax, " +
  `epoch_us(max(t)) - epoch_us(min(t)) AS d_dspan FROM ${ident(PARSED_RELATION)} GROUP BY k`;

const QUARTILES_SQL = (() => {
  const numbers = `SELECT k, r AS val, sum(n) AS n FROM ${ident(PARSED_RELATION)} WHERE r IS NOT NULL GROUP BY k, r`;
  const running =
    'SELECT k, val, sum(n) OVER (PARTITION BY k ORDER BY val ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) ' +
    `AS cum, sum(n) OVER (PARTITION BY k) AS total FROM (${numbers})`;
  return `SELECT k, any_value(total) AS total, ${quartilePicks().join(', ')} FROM (${running}) GROUP BY k`;
})();

/** Statistics of the parsed columns (PARSED_RELATION must exist); results by column index. */
export async function detailScan(
  db: DuckDb,
  requests: readonly DetailRequest[],
  signal?: AbortSignal,
): Promise<Map<number, DetailScan>> {
  const stats = new Map((await db.objects(STATS_SQL, signal)).map((row) => [Number(row.k), row]));
  const wanted = requests.some((r) => r.numbers);
  const picks = wanted ? await db.objects(QUARTILES_SQL, signal) : [];
  const quartiles = new Map(picks.map((row) => [Number(row.k), row]));
  const out = new Map<number, DetailScan>();
  for (const { column, dates, numbers } of requests) {
    const row = stats.get(column.index) ?? {};
    const scan = numbers ? readNumberScan(row, 'd') : null;
    const picked = quartiles.get(column.index);
    out.set(column.index, {
      dates: dates ? readDateScan(row, 'd', false) : null,
      numbers: scan && picked ? interpolateQuartiles(picked, scan) : scan,
    });
  }
  return out;
}
