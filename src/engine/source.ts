/**
 * Attaching the data file a user brings: whatever its format (delimited text, gzip, JSON, JSON
 * lines, Parquet, Excel), it is read once into the table `data` (DATA_RELATION), in file order
 * (`rowid`), with the column names of its header, so every later query runs without file access.
 */
import { mkdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import type { SourceInfo } from './types.js';
import { badInput, describeData, removeScratch } from './source-common.js';
import type { HostContext, ReadContext, ReadOutcome } from './source-common.js';
import { readExcel } from './source-excel.js';
import { flattenNested, readJson, readParquet, RECORDS_IGNORED } from './source-native.js';
import { addPeriod } from './source-period.js';
import { readEpochs } from './source-epoch.js';
import { readDurations } from './source-durations.js';
import { readLabels } from './source-labels.js';
import { fillPivotLabels } from './source-pivot.js';
import { dropTotalRow } from './source-total-row.js';
import { meltMonths, meltYears } from './source-wide.js';
import { meltMonthYears } from './source-wide-months.js';
import { detectFormat, readHead } from './source-sniff.js';
import type { DetectedFormat } from './source-sniff.js';
import { planText, readDelimited, sniffNumberLocale } from './source-text.js';
import type { TextPlan } from './source-text.js';
import type { NumberLocale } from './source-locale.js';
import type { DataFacts } from '../sandbox/data-file.js';

/** How to attach a source. */
export interface AttachOptions {
  /** The Excel sheet to read, by name (default: the first). */
  sheet?: string;
  /** The key of a JSON wrapper whose records to read, when several hold records ("nodes", hits.hits). */
  records?: string;
  /** A host-only directory for conversions; what is written there is removed before returning. */
  scratchDir: string;
  /** The caller's pass over the file's bytes (scanDataFile), if it started one: else the read starts its own when it needs one. */
  facts?: Promise<DataFacts>;
  signal?: AbortSignal;
}

/** The size of the data file; a missing, unreadable, directory or empty path is refused. */
async function fileSize(path: string): Promise<number> {
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw badInput(`${path} is a directory, not a data file`);
    if (info.size === 0) throw badInput('the file is empty');
    return info.size;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw badInput(`no such file: ${path}`);
    if (code === 'EACCES') throw badInput(`cannot read ${path}: permission denied`);
    throw error;
  }
}

/** Reads the file with the reader its format needs. */
function read(ctx: ReadContext, detected: DetectedFormat, text?: TextPlan): Promise<ReadOutcome> {
  switch (detected.format) {
    case 'csv':
      return readDelimited(ctx, detected, text);
    case 'json':
    case 'jsonl':
      return readJson(ctx, detected);
    case 'parquet':
      return readParquet(ctx);
    case 'excel':
      return readExcel(ctx);
    default: {
      const unhandled: never = detected.format;
      throw new Error(`no reader for ${String(unhandled)}`);
    }
  }
}

/** The number of rows of `data`. */
async function countRows(db: DuckDb, signal?: AbortSignal): Promise<number> {
  const result = await db.all(`SELECT count(*) FROM ${ident(DATA_RELATION)}`, signal);
  return Number(result.rows[0]?.[0] ?? 0);
}

/**
 * Reads the data file at `path` into the table `data` of `db` and says how it was read. Errors
 * about the file are one-line OpsmindErrors with ExitCode.BAD_INPUT. Call before `db.lock`.
 */
/**
 * A column named rowid (in any case) hides DuckDB's row number, which every first-appearance
 * order, even sample and file-order scatter is computed from: refused with a way out, rather than
 * analysed in another order (or, for text, failing inside a query).
 */
function refuseRowid(names: readonly string[]): void {
  const name = names.find((n) => n.toLowerCase() === 'rowid');
  if (name === undefined) return;
  throw badInput(
    `the column ${JSON.stringify(name)} has the name DuckDB gives the row number, which fast mode orders rows by`,
    'rename the column (for example to "row_id"), or run with --engine pandas',
  );
}

export async function attachSource(
  database: DuckDb | Promise<DuckDb>,
  path: string,
  options: AttachOptions,
): Promise<SourceInfo> {
  const host: HostContext = {
    path: resolve(path),
    scratchDir: options.scratchDir,
    scratch: [],
    checks: [],
  };
  if (options.sheet !== undefined) host.sheet = options.sheet;
  if (options.records !== undefined) host.records = options.records;
  if (options.signal) host.signal = options.signal;
  if (options.facts) host.facts = options.facts;
  try {
    const sizeBytes = await fileSize(host.path);
    return await checked(host, (h) => readOnce(database, h, sizeBytes));
  } finally {
    await removeScratch(host);
  }
}

/** `work`, or the signal's reason once it aborts first (a pass over a large file is not cut short). */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/**
 * `read` on `ctx`, then the checks that ran beside it (HostContext.checks), which speak first: a
 * damaged file's error is theirs, not DuckDB's, and an encoding they refute has the file read
 * again with the one they found.
 */
async function checked<C extends HostContext, T>(ctx: C, read: (ctx: C) => Promise<T>): Promise<T> {
  const first = await read(ctx).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ('error' in first && ctx.signal?.aborted) throw first.error;
  const verdicts = await abortable(Promise.all(ctx.checks), ctx.signal);
  const encoding = verdicts.find((verdict) => verdict !== null);
  if (encoding) {
    await removeScratch(ctx);
    return read({ ...ctx, checks: [], encoding });
  }
  if ('error' in first) throw first.error;
  return first.value;
}

/** One read of the file into `data`, by the reader its format needs, and what was found. */
async function readOnce(
  database: DuckDb | Promise<DuckDb>,
  host: HostContext,
  sizeBytes: number,
): Promise<SourceInfo> {
  const { signal, sheet } = host;
  const detected = detectFormat(host.path, await readHead(host.path, 16));
  await mkdir(host.scratchDir, { recursive: true, mode: 0o700 });
  // A delimited file's encoding, delimiter, header and footer are the host's to find: done
  // while a database still being opened (DuckDbEngine.open) starts.
  const text = detected.format === 'csv' ? await planText(host, detected) : undefined;
  const db = await database;
  const ctx: ReadContext = { ...host, db };
  const outcome = await read(ctx, detected, text);
  await flattenNested(db, signal);
  const total = await dropTotalRow(db, signal);
  if (total) outcome.warnings.push(total);
  const wide =
    (await meltYears(db, signal)) ??
    (await meltMonths(db, signal)) ??
    (await meltMonthYears(db, signal));
  if (wide) outcome.warnings.push(wide);
  outcome.warnings.push(...(await fillPivotLabels(db, signal)));
  const period = await addPeriod(db, signal);
  if (period) outcome.warnings.push(period);
  outcome.warnings.push(...(await readLabels(db, signal)));
  outcome.warnings.push(...(await readEpochs(db, signal)));
  outcome.warnings.push(...(await readDurations(db, signal)));
  const described = await describeData(db, signal);
  refuseRowid(described.map((c) => c.name));
  const columns = described.length;
  const rows = await countRows(db, signal);
  if (sheet !== undefined && detected.format !== 'excel')
    outcome.warnings.push('--sheet applies to Excel workbooks only; ignored');
  if (host.records !== undefined && detected.format !== 'json' && detected.format !== 'jsonl')
    outcome.warnings.push(RECORDS_IGNORED);
  return { path: host.path, name: basename(host.path), ...outcome, rows, columns, sizeBytes };
}

/**
 * How a delimited text file writes its numbers (decimal separator, thousands separator) and
 * whether its numeric dates read day first, judged from a sample with a database of its own; null for other formats or when the file cannot be
 * sniffed (the sandbox's reader then keeps pandas' defaults). The sandbox is told this, so `df`
 * reads "1.234,56" as the number the engine reads. `facts`: the session's pass over the file, if
 * it made one (else the sniff makes its own when the file's start does not settle the encoding).
 */
export async function numberLocaleOf(
  path: string,
  scratchDir: string,
  facts?: Promise<DataFacts>,
): Promise<(NumberLocale & { dayFirst: boolean }) | null> {
  const resolved = resolve(path);
  const detected = detectFormat(resolved, await readHead(resolved, 16));
  if (detected.format !== 'csv') return null;
  await mkdir(scratchDir, { recursive: true, mode: 0o700 });
  const db = await DuckDb.open({ memoryMb: 128, threads: 1, tempDir: join(scratchDir, 'spill') });
  const ctx: ReadContext = { db, path: resolved, scratchDir, scratch: [], checks: [] };
  if (facts) ctx.facts = facts;
  try {
    return await checked(ctx, (c) => sniffNumberLocale(c, detected));
  } catch {
    return null;
  } finally {
    await removeScratch(ctx);
    db.close();
  }
}
