/**
 * Evenly spaced date columns: a column whose row i holds first + i × step (step ≠ 0, no value
 * missing) is a sorted run of distinct, evenly spaced timestamps. That is proved by one scan
 * comparing every row with its place, and then its value counts (every value once, the first
 * rows first) and the gaps between its timestamps (all |step|) need no grouping and no sort,
 * the profile's two costliest queries on a long time series. Any other column takes the usual way.
 */
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import type { ProfileColumn } from './profile-columns.js';
import { timestampSql } from './profile-columns.js';
import type { Frequency } from './profile-dates.js';
import { FREQUENCIES, pickFrequency } from './profile-dates.js';
import type { ColumnTop } from './profile-top.js';
import { LEVELS_MAX, valueParts } from './profile-top.js';
import type { SourceFormat } from './types.js';
import { DATA_RELATION } from './types.js';

/** Fewer rows have fewer than two gaps, too few to infer a spacing from. */
export const SERIES_MIN_ROWS = 3;
/** Ends and spans of at most this many microseconds (± 146,000 years) leave BIGINT room to spare. */
const SAFE_SPAN = 2n ** 62n;
/** Types whose cast to TIMESTAMP keeps every distinct value distinct (not TIMESTAMP_NS). */
const EXACT_TYPES = /^(DATE|TIMESTAMP(_S|_MS)?|TIMESTAMP WITH TIME ZONE)$/;

/** An evenly spaced column: its value counts, as topValues gives them, and its spacing. */
export interface EvenSeries {
  top: ColumnTop;
  /** The gap between consecutive timestamps, in seconds (> 0). */
  stepSeconds: number;
}

/** The frequency inferFrequency gives for rows − 1 gaps of `stepSeconds` each. */
export function seriesFrequency(series: EvenSeries): Frequency | null {
  return pickFrequency(series.stepSeconds, (band) => {
    const { low, high } = FREQUENCIES[band] ?? { low: 0, high: -1 };
    return series.stepSeconds >= low && series.stepSeconds <= high ? 1 : 0;
  });
}

function candidates(columns: readonly ProfileColumn[]): ProfileColumn[] {
  return columns.filter((c) => c.kind === 'datetime' && EXACT_TYPES.test(c.sqlType));
}

/** A candidate whose ends are a whole number of steps apart: its first epoch_us and the step. */
interface Spaced {
  column: ProfileColumn;
  first: bigint;
  step: bigint;
}

/**
 * Each candidate's first and last epoch_us (microseconds: TIMESTAMP's own unit, never out of
 * BIGINT), and the step between them when it is a whole number.
 */
async function steps(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  rows: number,
  signal?: AbortSignal,
): Promise<Spaced[]> {
  const last = rows - 1;
  const ends = columns.flatMap((c) => {
    const us = `CAST(epoch_us(${timestampSql(c)}) AS VARCHAR)`;
    return [
      `max(${us}) FILTER (WHERE rowid = 0) AS f${c.index}`,
      `max(${us}) FILTER (WHERE rowid = ${last}) AS l${c.index}`,
    ];
  });
  const [row] = await db.objects(
    `SELECT ${ends.join(', ')} FROM ${ident(DATA_RELATION)} WHERE rowid = 0 OR rowid = ${last}`,
    signal,
  );
  const out: Spaced[] = [];
  for (const column of columns) {
    const [f, l] = [row?.[`f${column.index}`], row?.[`l${column.index}`]];
    if (typeof f !== 'string' || typeof l !== 'string') continue;
    const [first, span] = [BigInt(f), BigInt(l) - BigInt(f)];
    const step = span / BigInt(last);
    const safe =
      span <= SAFE_SPAN && -span <= SAFE_SPAN && first <= SAFE_SPAN && -first <= SAFE_SPAN;
    if (safe && step !== 0n && step * BigInt(last) === span) out.push({ column, first, step });
  }
  return out;
}

/** The first rows' values, as the profile's top values write them. */
async function firstValues(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  format: SourceFormat,
  signal?: AbortSignal,
): Promise<Map<number, string[]>> {
  const texts = columns.map((c) => `${valueParts(c, format, ident(c.name))[0]} AS s${c.index}`);
  const rows = await db.objects(
    `SELECT ${texts.join(', ')} FROM ${ident(DATA_RELATION)} WHERE rowid < ${LEVELS_MAX} ORDER BY rowid`,
    signal,
  );
  return new Map(columns.map((c) => [c.index, rows.map((row) => String(row[`s${c.index}`]))]));
}

/**
 * The evenly spaced date columns among `columns`, by index: proved over every row of the data
 * relation (`rows` rows, rowids 0 … rows − 1), or left out.
 */
export async function evenSeries(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  rows: number,
  format: SourceFormat,
  signal?: AbortSignal,
): Promise<Map<number, EvenSeries>> {
  const out = new Map<number, EvenSeries>();
  const dates = candidates(columns);
  if (rows < SERIES_MIN_ROWS || dates.length === 0) return out;
  const even = await steps(db, dates, rows, signal);
  if (even.length === 0) return out;
  // Every row at its place: values strictly monotonic, so distinct, and rowids 0 … rows − 1.
  const checks = even.map(({ column: c, first, step }) => {
    const place = `CAST(${first} AS BIGINT) + rowid * CAST(${step} AS BIGINT)`;
    return `count_if(epoch_us(${timestampSql(c)}) IS DISTINCT FROM ${place}) AS off${c.index}`;
  });
  const [row] = await db.objects(
    `SELECT count(*) AS n, min(rowid) AS r0, max(rowid) AS r1, ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`,
    signal,
  );
  if (!row || Number(row.n) !== rows || Number(row.r0) !== 0 || Number(row.r1) !== rows - 1)
    return out;
  const proved = even.filter(({ column }) => Number(row[`off${column.index}`]) === 0);
  if (proved.length === 0) return out;
  const firsts = await firstValues(
    db,
    proved.map(({ column }) => column),
    format,
    signal,
  );
  for (const { column, step } of proved) {
    const values = (firsts.get(column.index) ?? []).map((text) => ({ text, count: 1 }));
    out.set(column.index, {
      top: { values, distinct: rows },
      stepSeconds: Math.abs(Number(step)) / 1e6,
    });
  }
  return out;
}
