/**
 * What the source readers (source-text, source-native, source-excel) share: the context they are
 * handed, the outcome they return, scratch files and how a DuckDB failure becomes a one-line
 * BAD_INPUT message.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataFacts } from '../sandbox/data-file.js';
import type { EncodingChoice } from './source-encoding.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { ident } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { SourceInfo, SourceLocale } from './types.js';

/** What a reader is handed: the database, the data file and a scratch directory it may write to. */
export interface ReadContext extends HostContext {
  db: DuckDb;
}

/** The part of a read's context the host's own steps use (no database). */
export interface HostContext {
  /** The resolved path of the data file. */
  path: string;
  /** A host-only directory for conversions; every file made with `scratchPath` is removed afterwards. */
  scratchDir: string;
  /** Files this read wrote into `scratchDir` (removed by `removeScratch`). */
  scratch: string[];
  sheet?: string;
  /** The key of a JSON wrapper whose records to read (--records: "nodes", hits.hits). */
  records?: string;
  signal?: AbortSignal;
  /** The caller's pass over the file's bytes (sandbox/data-file.ts scanDataFile), if it started one. */
  facts?: Promise<DataFacts>;
  /**
   * Checks running beside the read, awaited before its table is used (attachSource): each settles
   * to null, or to the encoding the file must be read again with, or fails with the file's error.
   */
  checks: Promise<EncodingChoice | null>[];
  /** The encoding a second read uses, the first one's guess refuted by a check. */
  encoding?: EncodingChoice;
}

/** What a reader found, before the table is counted. */
export type ReadOutcome = Omit<SourceInfo, 'path' | 'name' | 'rows' | 'columns' | 'sizeBytes'>;

/** The locale of a file whose numbers and dates need none: '.' decimals, no thousands, no numeric dates. */
export const DEFAULT_LOCALE: SourceLocale = { decimal: '.', thousands: null, dateOrder: null };

/** An error about the user's data file (exit status BAD_INPUT). */
export function badInput(message: string, hint?: string): OpsmindError {
  return new OpsmindError(message, ExitCode.BAD_INPUT, hint);
}

/** A fresh file name in the scratch directory, recorded for removal. */
export function scratchPath(ctx: HostContext, suffix: string): string {
  const path = join(ctx.scratchDir, `source-${randomUUID()}${suffix}`);
  ctx.scratch.push(path);
  return path;
}

/** Removes what the read wrote into the scratch directory; a file already gone is fine. */
export async function removeScratch(ctx: HostContext): Promise<void> {
  await Promise.all(ctx.scratch.map((path) => rm(path, { force: true })));
  ctx.scratch.length = 0;
}

/** DuckDB's one-line error text without its class prefix ("Invalid Input Error: "). */
export function reason(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? text).replace(/^[A-Za-z ]*Error: /, '').trim();
}

/**
 * Runs a read; a DuckDB failure (not a cancel or a limit) becomes BAD_INPUT "`prefix`: reason",
 * since a file DuckDB cannot parse is the user's data, not our bug.
 */
export async function asBadInput<T>(
  prefix: string,
  signal: AbortSignal | undefined,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    throw toBadInput(prefix, signal, error);
  }
}

/** `error` as BAD_INPUT "`prefix`: reason" when DuckDB failed on the data; any other error as is. */
export function toBadInput(
  prefix: string,
  signal: AbortSignal | undefined,
  error: unknown,
): unknown {
  if (signal?.aborted) return error;
  if (!(error instanceof OpsmindError) || error.exitCode !== ExitCode.INTERNAL) return error;
  if (error.message === 'the query was cancelled') return error;
  return badInput(`${prefix}: ${reason(error)}`);
}

/** A column of the `data` table: its name, its DuckDB type, and a sample of its values as written. */
export interface TableColumn {
  name: string;
  type: string;
  /** Non-missing values from the start of the file, as text and trimmed (empty when not sampled). */
  sample: string[];
}

/** Makes `data` a table of these text columns and no row (a file that is its header alone). */
export async function emptyTable(db: DuckDb, names: readonly string[], signal?: AbortSignal) {
  const columns = names.map((name) => `${ident(name)} VARCHAR`).join(', ');
  await db.run(`CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} (${columns})`, signal);
}

/**
 * Drops the column of row names an R export writes first (source-dialect's findHeader): pandas
 * keeps them in its index, so the frame both engines describe has the header's columns alone.
 */
export async function dropRowNames(db: DuckDb, name: string, signal?: AbortSignal): Promise<void> {
  await db.run(`ALTER TABLE ${ident(DATA_RELATION)} DROP COLUMN ${ident(name)}`, signal);
}

/** The columns of the `data` table, in order, with their DuckDB types. */
export async function describeData(
  db: DuckDb,
  signal?: AbortSignal,
): Promise<{ name: string; type: string }[]> {
  const result = await db.all(`DESCRIBE ${ident(DATA_RELATION)}`, signal);
  return result.rows.map((row) => ({ name: String(row[0]), type: String(row[1]) }));
}
