/**
 * Dates written with numbers only (31/12/2024, 31.12.2024, 12/31/2024): the day/month order is
 * decided from the data — a first field above 12 settles day-first, a second one month-first —
 * text columns that are such dates become DATE or TIMESTAMP, and an order nothing settled is
 * reported as an assumption.
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import type { SourceLocale } from './types.js';
import { DATA_RELATION } from './types.js';
import type { TableColumn } from './source-common.js';

type DateOrder = NonNullable<SourceLocale['dateOrder']>;
type DayMonth = 'DMY' | 'MDY';

/** The formats DuckDB's sniffer chose for the file (null when it typed no dates). */
export interface SniffedFormats {
  dateFormat: string | null;
  timestampFormat: string | null;
}

/** The order chosen for the file's numeric dates, and the warning when it was assumed. */
export interface DateOutcome {
  dateOrder: SourceLocale['dateOrder'];
  warnings: string[];
}

const NUMERIC_DATE = /^\d{1,2}([./-])\d{1,2}\1\d{4}(?:[ T]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?$/;
const ISO_DATE = /^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}/;
const TIMES = ['', ' %H:%M', ' %H:%M:%S', ' %H:%M:%S.%f', 'T%H:%M', 'T%H:%M:%S', 'T%H:%M:%S.%f'];

/** Every strptime format of a numeric date in `order`, with any separator and optional time. */
function formats(order: DayMonth): string {
  const [first, second] = order === 'DMY' ? ['%d', '%m'] : ['%m', '%d'];
  const list = ['/', '.', '-'].flatMap((sep) =>
    TIMES.map((time) => literal(`${first}${sep}${second}${sep}%Y${time}`)),
  );
  return `[${list.join(', ')}]`;
}

/** The field order a strptime format writes, or null. */
function orderOf(format: string | null): DateOrder | null {
  if (!format) return null;
  const [d, m, y] = ['%d', '%m', '%Y'].map((field) => format.indexOf(field)) as [
    number,
    number,
    number,
  ];
  if (d < 0 || m < 0) return null;
  if (y >= 0 && y < m && y < d) return 'YMD';
  return d < m ? 'DMY' : 'MDY';
}

const words = (order: DateOrder): string =>
  order === 'DMY' ? 'day/month/year' : order === 'MDY' ? 'month/day/year' : 'year/month/day';

/** One numeric-date column and what the data says about its order. */
interface DateColumn {
  column: TableColumn;
  /** Typed by DuckDB's sniffer (its order) or still text (to convert). */
  typed: boolean;
  order: DayMonth | null;
  settled: boolean;
  /** Text only: the orders every value parses in. */
  fits: DayMonth[];
  timed: boolean;
}

/** The numeric-date columns of `columns`: typed by the sniffer, or text that looks like dates. */
function dateColumns(columns: readonly TableColumn[], sniffed: SniffedFormats): DateColumn[] {
  return columns.flatMap((column): DateColumn[] => {
    if (column.sample.length === 0 || !column.sample.every((v) => NUMERIC_DATE.test(v))) return [];
    const base = { column, settled: false, fits: [], timed: false };
    if (column.type === 'VARCHAR') return [{ ...base, typed: false, order: null }];
    if (column.type !== 'DATE' && column.type !== 'TIMESTAMP') return [];
    const order = orderOf(column.type === 'DATE' ? sniffed.dateFormat : sniffed.timestampFormat);
    return order === 'DMY' || order === 'MDY' ? [{ ...base, typed: true, order }] : [];
  });
}

/** Fills in, from one scan of the table, which orders settle or fit each column. */
async function measure(db: DuckDb, dates: DateColumn[], signal?: AbortSignal): Promise<void> {
  const pattern = literal(NUMERIC_DATE.source.replace('\\1', '[./-]'));
  const checks = dates.flatMap(({ column, typed }) => {
    const name = ident(column.name);
    if (typed) return [`count(*) FILTER (WHERE day(${name}) > 12)`];
    const bad = (order: DayMonth): string =>
      `count(*) FILTER (WHERE ${name} IS NOT NULL AND (NOT regexp_full_match(trim(${name}), ${pattern}) OR try_strptime(trim(${name}), ${formats(order)}) IS NULL))`;
    return [bad('DMY'), bad('MDY'), `count(*) FILTER (WHERE contains(${name}, ':'))`];
  });
  const result = await db.all(`SELECT ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
  const counts = (result.rows[0] ?? []).map(Number);
  let at = 0;
  for (const date of dates) {
    if (date.typed) {
      date.settled = (counts[at++] ?? 0) > 0;
      continue;
    }
    const [dmyBad, mdyBad, timed] = [counts[at++], counts[at++], counts[at++]];
    date.fits = [
      ...(dmyBad === 0 ? ['DMY' as const] : []),
      ...(mdyBad === 0 ? ['MDY' as const] : []),
    ];
    date.settled = date.fits.length === 1;
    date.order = date.settled ? (date.fits[0] ?? null) : null;
    date.timed = (timed ?? 0) > 0;
  }
}

/** The order assumed for a text column nothing settled: "." and "-" day-first, "/" month-first. */
const separatorOrder = (sample: string): DayMonth => (/^\d{1,2}\//.test(sample) ? 'MDY' : 'DMY');

/** Converts a text column of numeric dates to DATE (or TIMESTAMP when some have a time). */
async function convert(db: DuckDb, date: DateColumn, order: DayMonth, signal?: AbortSignal) {
  const name = ident(date.column.name);
  const type = date.timed ? 'TIMESTAMP' : 'DATE';
  await db.run(
    `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${name} SET DATA TYPE ${type} USING CAST(try_strptime(trim(${name}), ${formats(order)}) AS ${type})`,
    signal,
  );
}

/** The warning for dates nothing settled. */
function ambiguity(columns: TableColumn[], order: DateOrder): string {
  const example = columns[0]?.sample[0] ?? '';
  const names = columns.map((column) => JSON.stringify(column.name)).join(', ');
  const label = columns.length === 1 ? 'column' : 'columns';
  return `dates such as ${JSON.stringify(example)} are ambiguous; read them as ${words(order)} (${label} ${names})`;
}

/**
 * Whether the numeric dates of `columns` read day first, judged from their sampled text alone (no
 * table): the order settleDates would choose when the sample already shows it. The sandbox's
 * reader is told, and parses a column only if every value fits day first, so a wrong guess
 * leaves text, never a wrong date.
 */
export function sampleDayFirst(columns: readonly TableColumn[], sniffed: SniffedFormats): boolean {
  const dates = dateColumns(columns, sniffed);
  for (const date of dates) {
    if (date.typed) continue;
    const fields = date.column.sample.map((v) => v.split(/[./-]/).map(Number));
    const dmy = fields.every(([day = 0, month = 0]) => day <= 31 && month <= 12);
    const mdy = fields.every(([month = 0, day = 0]) => day <= 31 && month <= 12);
    date.fits = [...(dmy ? ['DMY' as const] : []), ...(mdy ? ['MDY' as const] : [])];
    date.settled = date.fits.length === 1;
    date.order = date.settled ? (date.fits[0] ?? null) : null;
  }
  const settled = dates.find((date) => date.order && (date.settled || date.typed))?.order;
  const fallback = orderOf(sniffed.dateFormat) ?? orderOf(sniffed.timestampFormat);
  const first = dates.find((date) => date.typed || date.fits.length > 0);
  if (!first) return false;
  const assumed = fallback === 'DMY' || fallback === 'MDY' ? fallback : null;
  return (settled ?? assumed ?? separatorOrder(first.column.sample[0] ?? '')) === 'DMY';
}

/**
 * Settles the order of the numeric dates in `data`, converts text columns of them, and returns
 * the order (YMD when the only dates are ISO, null when there are none).
 */
export async function settleDates(
  db: DuckDb,
  columns: readonly TableColumn[],
  sniffed: SniffedFormats,
  signal?: AbortSignal,
): Promise<DateOutcome> {
  const dates = dateColumns(columns, sniffed);
  if (dates.length > 0) await measure(db, dates, signal);
  const settled = dates.find((date) => date.settled && date.order)?.order ?? null;
  const fallback = orderOf(sniffed.dateFormat) ?? orderOf(sniffed.timestampFormat);
  const assumed = settled ?? (fallback === 'DMY' || fallback === 'MDY' ? fallback : null);
  const ambiguous: TableColumn[] = [];
  let firstOrder: DayMonth | null = settled;
  for (const date of dates) {
    if (!date.typed && date.fits.length === 0) continue;
    const order = date.order ?? assumed ?? separatorOrder(date.column.sample[0] ?? '');
    if (!date.typed) await convert(db, date, order, signal);
    if (!date.settled) ambiguous.push(date.column);
    firstOrder ??= order;
  }
  const iso = columns.some(
    (column) => column.type !== 'VARCHAR' && column.sample.some((v) => ISO_DATE.test(v)),
  );
  const dateOrder = firstOrder ?? (iso ? 'YMD' : null);
  const warnings =
    !settled && firstOrder && ambiguous.length > 0 ? [ambiguity(ambiguous, firstOrder)] : [];
  return { dateOrder, warnings };
}
