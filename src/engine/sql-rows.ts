/**
 * The rows an analysis reads, as the CTE `source`: the table `data` in file
 * order (its rowid kept as a column), with the plan's cleaning — numbers and
 * dates stored as text converted exactly as compile-plan.ts converts them,
 * for exactly the columns the plan uses — and then the analysis' filters.
 */
import { quarterSql } from './profile-dates.js';
import { numberTextSql } from './profile-details.js';
import { cleanedColumns, onYears, yearColumns } from '../agent/compile-plan.js';
import type { Analysis, Plan } from '../agent/plan.js';
import type { DataProfile } from '../agent/profile.js';
import type { DuckDb } from './duckdb.js';
import { ident, literal } from './duckdb.js';
import { filterSql } from './sql-filter.js';
import { freshName, indent, isNumber, isTemporal } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';
import { DATA_RELATION } from './types.js';
import type { SourceLocale } from './types.js';

/** The cleaned, filtered rows of one analysis. */
export interface Rows {
  /** The WITH entries that define `source`. */
  ctes: Cte[];
  /** The columns of `source` but the row-order one, with their types after cleaning. */
  columns: Column[];
  /** The column holding the row's position in the file (its rowid). */
  row: string;
  /** Whether the analysis' filters leave out rows (false: every row of `data`). */
  filtered: boolean;
  /** The columns whose values the cleaning converted (the rest are `data`'s as read). */
  cleaned: ReadonlySet<string>;
}

/** The plan-wide cleaning: each cleaned column's expression over `data`, and the types after it. */
export interface Cleaning {
  columns: Column[];
  exprs: Map<string, string>;
  row: string;
  /** Year columns made timestamps (yearColumns): filters on them read years as their first days. */
  years?: ReadonlySet<string>;
}

/** The columns of `data` and their DuckDB types. */
export async function dataColumns(db: DuckDb, signal?: AbortSignal): Promise<Column[]> {
  const result = await db.all(`SELECT * FROM ${DATA_RELATION} LIMIT 0`, signal);
  return result.columns.map((name, i) => ({ name, type: result.types[i] ?? 'VARCHAR' }));
}

// The numbers the profile read in the text (opsmind_semantic.parse_number_text): "(1,000.00)" is
// -1000, "12 EUR" is 12, a dash none; not the digits left once every other character is dropped.
const numericText = (c: string): string => numberTextSql(`CAST(${c} AS VARCHAR)`);

const TIMES = ['', ' %H:%M', ' %H:%M:%S'];
// A two-digit year's format before the four-digit one: %Y reads "03" as the year 3 (1/2/03 was
// 0003-01-02), while %y refuses 2003, whose last two digits it leaves unread.
const DAY_MONTH = ['%m/%d/%y', '%m/%d/%Y', '%m-%d-%Y', '%m.%d.%Y'];
const WORDS = [
  '%b %d %Y',
  '%b %d, %Y',
  '%B %d %Y',
  '%B %d, %Y',
  '%d %b %Y',
  '%d %B %Y',
  '%b-%d-%Y',
  '%B-%d-%Y',
  // Day, month name and year between dashes (19-Sep-03, 19-SEP-2003: msft.csv, Oracle's
  // DD-MON-YY), two digits first as above.
  '%d-%b-%y',
  '%d-%b-%Y',
  '%d-%B-%Y',
  // Strava's Jan 5, 2024, 7:03:12 AM: a comma before the time.
  ...['%b', '%B'].flatMap((m) =>
    [', %I:%M:%S %p', ', %I:%M %p', ', %H:%M:%S', ', %H:%M'].map((t) => `${m} %d, %Y${t}`),
  ),
  // Jira's 03/Jan/24 12:32 PM, with or without its time (dateutil reads the day first).
  ...['%d/%b/%y', '%d/%b/%Y'].flatMap((f) =>
    ['', ' %I:%M %p', ' %I:%M:%S %p', ' %H:%M', ' %H:%M:%S'].map((t) => f + t),
  ),
];
// A month alone (2024-01, 2024/1, Jan 2024, 01/2024): pandas reads it as the month's first day,
// as the profile's parse does (a superset of profile-dates.ts' LENIENT_PARTS). Tried after the full dates, whose
// extra fields these formats refuse.
const MONTHS = ['%Y-%m', '%Y/%m', '%Y.%m', '%m/%Y', '%b %Y', '%B %Y', '%b-%Y', '%B-%Y', '%Y %b'];

// A time of day alone, read on 1900-01-01 as the profile reads it (opsmind_semantic.on_one_day).
const TIMES_OF_DAY = ['%H:%M', '%H:%M:%S', '%H:%M:%S.%f', '%I:%M %p', '%I:%M:%S %p'];

/** The formats pd.to_datetime reads beyond ISO, month first as dateutil reads them unless the file is day-first. */
function dateFormats(order: SourceLocale['dateOrder']): string {
  const monthFirst = DAY_MONTH.flatMap((f) => TIMES.map((t) => f + t));
  const dayFirst = monthFirst.map((f) =>
    f.replace('%m', '%!').replace('%d', '%m').replace('%!', '%d'),
  );
  const numeric = order === 'DMY' ? [...dayFirst, ...monthFirst] : [...monthFirst, ...dayFirst];
  const list = [
    ...numeric,
    '%Y/%m/%d',
    '%Y/%m/%d %H:%M',
    '%Y/%m/%d %H:%M:%S',
    ...WORDS,
    ...MONTHS,
    ...TIMES_OF_DAY,
  ];
  return `[${list.map(literal).join(', ')}]`;
}

// pd.to_datetime(errors="coerce"): ISO text first, then the other formats pandas reads. Only text
// that starts with a year is cast: DuckDB's cast also reads 1/2/03 and 11/12/13 as year/month/day
// (the years 1 and 11), where pandas reads January 2 and November 12 of 2003 and 2013.
function textDate(c: string, order: SourceLocale['dateOrder']): string {
  const iso = `CASE WHEN regexp_matches(${c}, '^\\s*\\d{4}') THEN TRY_CAST(${c} AS TIMESTAMP) END`;
  return `coalesce(${iso}, try_strptime(${c}, ${dateFormats(order)}), ${quarterSql(c)})`;
}

/** One column as the cleaning leaves it, and the expression that converts it (none: left as read). */
function cleaned(
  column: Column,
  semantic: string | undefined,
  order: SourceLocale['dateOrder'],
): { type: string; expr: string | null } {
  const c = ident(column.name);
  // A column the reader already read as numbers (thousands separators, say) needs no cleaning.
  if (semantic === 'numeric_text' && !isNumber(column.type))
    return { type: 'DOUBLE', expr: numericText(c) };
  if (semantic === 'datetime' && column.type !== 'TIMESTAMP' && !/TIME ZONE/.test(column.type)) {
    // A time of day (TIME) on the profile's day, 1900-01-01: it is no text to parse.
    const expr = isTemporal(column.type)
      ? `CAST(${c} AS TIMESTAMP)`
      : column.type === 'TIME'
        ? `CAST(DATE '1900-01-01' + ${c} AS TIMESTAMP)`
        : textDate(c, order);
    return { type: 'TIMESTAMP', expr };
  }
  return { type: column.type, expr: null };
}

/** A whole-number year as the timestamp of its first day (missing when it is not a whole number). */
export function yearTimestamp(c: string): string {
  return `make_timestamp(TRY_CAST(${c} AS BIGINT), 1, 1, 0, 0, 0)`;
}

/** The column as a time to order by: dates stored as text parsed as the cleaning parses them. */
export function timeExpr(
  name: string,
  type: string,
  semantic: string | undefined,
  order: SourceLocale['dateOrder'],
): string {
  return cleaned({ name, type }, semantic, order).expr ?? ident(name);
}

/** What compile-plan.ts's cleaning does to the plan's columns, in SQL over `data`. */
export function planCleaning(
  plan: Plan,
  profile: DataProfile,
  data: Column[],
  order: SourceLocale['dateOrder'],
): Cleaning {
  const used = cleanedColumns(plan, profile);
  const years = yearColumns(plan, profile);
  const exprs = new Map<string, string>();
  const columns = data.map((column) => {
    if (!used.has(column.name)) return column;
    if (years.has(column.name)) {
      exprs.set(column.name, yearTimestamp(ident(column.name)));
      return { name: column.name, type: 'TIMESTAMP' };
    }
    const semantic = profile.column_profiles.find((c) => c.name === column.name)?.semantic;
    const { type, expr } = cleaned(column, semantic, order);
    if (expr) exprs.set(column.name, expr);
    return { name: column.name, type };
  });
  const row = freshName(
    '_row',
    data.map((c) => c.name),
  );
  return { columns, exprs, row, years };
}

function cleanedSelect(cleaning: Cleaning): string {
  const head = `SELECT rowid AS ${ident(cleaning.row)}, *`;
  if (cleaning.exprs.size === 0) return `${head}\nFROM ${DATA_RELATION}`;
  const replaced = [...cleaning.exprs].map(([name, expr]) => `${expr} AS ${ident(name)}`);
  return `${head} REPLACE (\n${indent(replaced.join(',\n'))}\n)\nFROM ${DATA_RELATION}`;
}

/** The rows of one analysis: the cleaned data, filtered (pandas' masks as WHERE clauses). */
export function rowsFor(cleaning: Cleaning, analysis: Analysis): Rows {
  const columns = cleaning.columns;
  const filters = (analysis.filters ?? []).map((f) =>
    filterSql(
      onYears(f, cleaning.years ?? new Set()),
      columns.find((c) => c.name === f.column),
    ),
  );
  const select = cleanedSelect(cleaning);
  const shape = { columns, row: cleaning.row, cleaned: new Set(cleaning.exprs.keys()) };
  // The table's columns as stored (a filter at most) are read again by a query that names them
  // twice; cleaned ones are computed once.
  const inline = cleaning.exprs.size === 0 ? 'inline' : undefined;
  if (filters.length === 0)
    return { ctes: [['source', select, inline]], ...shape, filtered: false };
  const where = `WHERE ${filters.join('\n  AND ')}`;
  if (cleaning.exprs.size === 0)
    return { ctes: [['source', `${select}\n${where}`, inline]], ...shape, filtered: true };
  const source = `SELECT *\nFROM cleaned\n${where}`;
  return {
    ctes: [
      ['cleaned', select],
      ['source', source],
    ],
    ...shape,
    filtered: true,
  };
}

/** Throws pandas' ValueError when a frame would hold two columns of one name (reset_index refuses). */
export function distinctColumns(names: readonly string[]): void {
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined)
    throw new Error(`ValueError: cannot insert ${repeated}, already exists`);
}

/** The column `name` of the rows; a KeyError as pandas raises one when it is not there. */
export function columnOf(rows: Rows, name: string): Column {
  const column = rows.columns.find((c) => c.name === name);
  if (!column) throw new Error(`KeyError: ${JSON.stringify(name)} is not a column of the data`);
  return column;
}
