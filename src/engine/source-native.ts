/**
 * The self-describing formats DuckDB reads natively — JSON records, JSON lines, Parquet — and the
 * pass that makes every column scalar (nested LIST/STRUCT/MAP values become JSON text).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import { jsonWallTimes } from './source-offsets.js';
import { asBadInput, badInput, DEFAULT_LOCALE, describeData, toBadInput } from './source-common.js';
import type { ReadContext, ReadOutcome } from './source-common.js';
import type { DetectedFormat } from './source-sniff.js';
import { prepareText } from './source-transcode.js';
import { featureLines, geoJsonHead } from './source-geojson.js';
import { statSync } from 'node:fs';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { jsonObjectFile, recordsOf, unwrapWarning, wrappedLines } from './source-wrapper.js';
import type { JsonObjectFile } from './source-wrapper.js';

/** A nested DuckDB type: LIST (`T[]`), ARRAY (`T[3]`), STRUCT, MAP or UNION. */
const NESTED = /^(STRUCT|MAP|UNION)\(|\[\d*\]$/;

type JsonLayout = 'array' | 'newline_delimited';

/**
 * Creates `data` from a JSON file; every record is sampled so no key seen late is dropped. Times
 * written with an offset are the times they write (jsonWallTimes): its warnings.
 */
async function createJsonTable(
  db: DuckDb,
  path: string,
  gzip: boolean,
  layout: JsonLayout,
  signal?: AbortSignal,
): Promise<string[]> {
  const options = [
    `format=${literal(layout)}`,
    'sample_size=-1',
    `compression=${gzip ? "'gzip'" : "'uncompressed'"}`,
  ];
  const source = (more: string[] = []): string =>
    `read_json(${literal(path)}, ${[...options, ...more].join(', ')})`;
  await db.run(
    `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT * FROM ${source()}`,
    signal,
  );
  return jsonWallTimes(db, (columns) => source([`columns=${columns}`]), signal);
}

/** Reads JSON as `format` says; a .json file that is not one array is retried as JSON lines (as pandas does). */
async function readJsonLayout(
  ctx: ReadContext,
  path: string,
  gzip: boolean,
  format: 'json' | 'jsonl',
): Promise<{ format: 'json' | 'jsonl'; warnings: string[] }> {
  const prefix = `not a JSON ${format === 'json' ? 'records' : 'lines'} file`;
  const layout: JsonLayout = format === 'json' ? 'array' : 'newline_delimited';
  try {
    return { format, warnings: await createJsonTable(ctx.db, path, gzip, layout, ctx.signal) };
  } catch (error) {
    const mapped = toBadInput(prefix, ctx.signal, error);
    if (format === 'jsonl' || mapped === error) throw mapped;
    try {
      const warnings = await createJsonTable(ctx.db, path, gzip, 'newline_delimited', ctx.signal);
      return { format: 'jsonl', warnings };
    } catch {
      throw mapped;
    }
  }
}

/**
 * A .json file read as records, or as JSON lines when it is not one array; a file that is one
 * object (read as one line, or not at all) is a wrapper: its one key of records is read
 * (source-wrapper.ts), or it is refused saying what it holds.
 */
async function readJsonText(
  ctx: ReadContext,
  text: { readPath: string; gzip: boolean; sample: string },
  format: 'json' | 'jsonl',
): Promise<{ format: 'json' | 'jsonl'; warning?: string; walls: string[] }> {
  const object = (): JsonObjectFile | null =>
    format === 'json' && !text.gzip ? jsonObjectFile(text.readPath, text.sample) : null;
  let read: { format: 'json' | 'jsonl'; warnings: string[] };
  try {
    read = await readJsonLayout(ctx, text.readPath, text.gzip, format);
  } catch (error) {
    const bad = error instanceof OpsmindError && error.exitCode === ExitCode.BAD_INPUT;
    const file = bad ? object() : null;
    if (!file) throw error;
    return unwrap(ctx, text.readPath, file);
  }
  // One object read as one line of JSON lines: a wrapper ({"meta": …, "rows": [{…}]}) or a
  // document (TopoJSON), not a table of one row whose every column is "constant".
  if (format === 'json') {
    const rows = await ctx.db.all(`SELECT count(*) FROM ${ident(DATA_RELATION)}`, ctx.signal);
    const file = Number(rows.rows[0]?.[0] ?? 0) === 1 ? object() : null;
    if (file) return unwrap(ctx, text.readPath, file);
  }
  return { format: read.format, walls: read.warnings };
}

/**
 * The table of a wrapper's one key of records, or of the key --records names; a wrapper of none,
 * or of several and no --records, refused (recordsOf).
 */
async function unwrap(
  ctx: ReadContext,
  path: string,
  file: JsonObjectFile,
): Promise<{ format: 'json'; warning: string; walls: string[] }> {
  const key = recordsOf(file, ctx.records);
  const read = await readJsonLayout(ctx, await wrappedLines(ctx, path, key), false, 'jsonl');
  return { format: 'json', warning: unwrapWarning(file, key), walls: read.warnings };
}

/** What --records on a file that is no wrapper of records does. */
export const RECORDS_IGNORED =
  '--records applies to a JSON file that is one object wrapping its records; ignored';

/** Reads a JSON records (array of objects), JSON lines or GeoJSON FeatureCollection file into `data`. */
export async function readJson(ctx: ReadContext, detected: DetectedFormat): Promise<ReadOutcome> {
  const format = detected.format === 'jsonl' ? 'jsonl' : 'json';
  const text = await prepareText(ctx, detected.gzip, `.${format}`);
  const geo =
    format === 'json' && !text.gzip && geoJsonHead(text.sample)
      ? await featureLines(ctx, text.readPath, statSync(text.readPath).size)
      : null;
  const read = geo
    ? {
        format: 'json' as const,
        walls: (await readJsonLayout(ctx, geo.path, false, 'jsonl')).warnings,
        warning: undefined,
      }
    : await readJsonText(ctx, text, format);
  if (geo)
    text.warnings.push(
      `read as GeoJSON: one row per feature (${geo.features}), its properties as columns, a Point's longitude and latitude (a third coordinate as z)`,
    );
  if (read.warning) text.warnings.push(read.warning);
  else if (ctx.records !== undefined) text.warnings.push(RECORDS_IGNORED);
  text.warnings.push(...read.walls);
  const columns = await describeData(ctx.db, ctx.signal);
  const rows = await ctx.db.all(`SELECT count(*) FROM ${ident(DATA_RELATION)}`, ctx.signal);
  const count = Number(rows.rows[0]?.[0] ?? 0);
  if (count === 0 && columns.length === 1 && columns[0]?.name === 'json')
    throw badInput('the JSON file holds no records');
  const dated = columns.some((c) => c.type === 'DATE' || c.type.startsWith('TIMESTAMP'));
  return {
    format: read.format,
    encoding: text.encoding,
    delimiter: null,
    compression: detected.gzip ? 'gzip' : null,
    sheet: null,
    locale: { ...DEFAULT_LOCALE, dateOrder: dated ? 'YMD' : null },
    skippedLines: 0,
    warnings: text.warnings,
  };
}

/** Reads a Parquet file into `data`. */
export async function readParquet(ctx: ReadContext): Promise<ReadOutcome> {
  await asBadInput('not a readable Parquet file', ctx.signal, () =>
    ctx.db.run(
      `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT * FROM read_parquet(${literal(ctx.path)})`,
      ctx.signal,
    ),
  );
  return {
    format: 'parquet',
    encoding: null,
    delimiter: null,
    compression: null,
    sheet: null,
    locale: { ...DEFAULT_LOCALE },
    skippedLines: 0,
    warnings: [],
  };
}

/** SQL making a column of `type` plain text: JSON for nested values, the string itself for a JSON string. */
function asText(column: string, type: string): string | null {
  if (NESTED.test(type)) return `to_json(${column})::VARCHAR`;
  if (type === 'JSON')
    return `CASE json_type(${column}) WHEN 'VARCHAR' THEN ${column} ->> '$' ELSE ${column}::VARCHAR END`;
  return null;
}

/** The most columns one object column is spread into, and how deep objects are followed. */
export const SPREAD_FIELDS = 20;
const SPREAD_DEPTH = 3;

/**
 * The columns `data` would have with `column` (a STRUCT) spread into one per field, named
 * "column.field" as pandas' json_normalize names them, in its place; null when it has too many
 * fields or a spread name is taken.
 */
async function spreadColumns(
  db: DuckDb,
  columns: readonly { name: string; type: string }[],
  column: string,
  signal?: AbortSignal,
): Promise<string[] | null> {
  const fields = await db.all(
    `DESCRIBE SELECT ${ident(column)}.* FROM ${ident(DATA_RELATION)}`,
    signal,
  );
  const names = fields.rows.map((row) => String(row[0]));
  const taken = new Set(columns.map((c) => c.name));
  const spread = names.map((f) => `${column}.${f}`);
  if (names.length === 0 || names.length > SPREAD_FIELDS || spread.some((n) => taken.has(n)))
    return null;
  return columns.flatMap((c) =>
    c.name === column
      ? names.map(
          (f, i) => `struct_extract(${ident(column)}, ${literal(f)}) AS ${ident(spread[i] ?? f)}`,
        )
      : [ident(c.name)],
  );
}

/**
 * Spreads each object column of `data` (a STRUCT: every value an object) into one column per
 * field, "record.high" and "record.low", following objects three levels deep; an object of more
 * than 20 fields stays one column, of JSON text. Without it, a column of objects is one category
 * per distinct object ('{"high":50,"low":38} accounts for 60% of rows').
 */
async function spreadObjects(db: DuckDb, signal?: AbortSignal): Promise<void> {
  // How many objects deep each spread column lies; a column that is not spread again is kept.
  const level = new Map<string, number>();
  const kept = new Set<string>();
  for (;;) {
    const columns = await describeData(db, signal);
    const object = columns.find(
      (c) =>
        c.type.startsWith('STRUCT(') &&
        !/\[\d*\]$/.test(c.type) && // a list of objects stays one column (of JSON text)
        !kept.has(c.name) &&
        (level.get(c.name) ?? 0) < SPREAD_DEPTH,
    );
    if (!object) return;
    const select = await spreadColumns(db, columns, object.name, signal);
    if (!select) {
      kept.add(object.name);
      continue;
    }
    const before = new Set(columns.map((c) => c.name));
    await db.run(
      `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT ${select.join(', ')} FROM ${ident(DATA_RELATION)}`,
      signal,
    );
    const deeper = (level.get(object.name) ?? 0) + 1;
    for (const c of await describeData(db, signal))
      if (!before.has(c.name)) level.set(c.name, deeper);
  }
}

/**
 * Spreads object columns into their fields (spreadObjects), then turns every other nested or
 * JSON column of `data` into VARCHAR, so every column is scalar.
 */
export async function flattenNested(db: DuckDb, signal?: AbortSignal): Promise<void> {
  await spreadObjects(db, signal);
  for (const column of await describeData(db, signal)) {
    const name = ident(column.name);
    const text = asText(name, column.type);
    if (text)
      await db.run(
        `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${name} SET DATA TYPE VARCHAR USING ${text}`,
        signal,
      );
  }
}
