/**
 * A JSON file that is one object wrapping its records, as APIs write them: {"meta": …, "data":
 * [{…}, …]}, {"results": […]}, Elasticsearch's {"hits": {"hits": […]}}. When exactly one key
 * holds records (a non-empty array of objects) — looked for among the object's keys, and only if
 * none does, among the keys of the objects it holds — those records are the table; several such
 * keys (a graph's "nodes" and "links"), or none, and the file is refused, naming them. The rows are
 * written as JSON lines by DuckDB, every number as the file wrote it, then read as any JSON lines
 * file is (opsmind_data._read_wrapped finds the same key for the sandbox's `df`).
 */
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { literal } from './duckdb.js';
import { documentSql, jsonLines } from './source-geojson.js';
import type { ReadContext } from './source-common.js';
import { listed } from '../util/sentence.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { thousands } from './profile-format.js';

/** A file this large is not parsed whole to say what its one object holds. */
const DESCRIBED_BYTES = 64 * 1024 * 1024;

/** Where a wrapper keeps its records: the keys from the document down, and how many there are. */
export interface RecordsKey {
  path: string[];
  records: number;
}

/** What a .json file that is one object holds: its keys, and the keys that hold records. */
export interface JsonObjectFile {
  keys: string[];
  records: RecordsKey[];
}

const isRecords = (value: unknown): value is Record<string, unknown>[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((x) => x !== null && typeof x === 'object' && !Array.isArray(x));

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The keys of `document` holding records; if none, those one object down. */
export function recordKeys(document: Record<string, unknown>): RecordsKey[] {
  const top = Object.entries(document)
    .filter(([, v]) => isRecords(v))
    .map(([k, v]) => ({ path: [k], records: (v as unknown[]).length }));
  if (top.length > 0) return top;
  return Object.entries(document).flatMap(([k, v]) =>
    isObject(v)
      ? Object.entries(v)
          .filter(([, w]) => isRecords(w))
          .map(([k2, w]) => ({ path: [k, k2], records: (w as unknown[]).length }))
      : [],
  );
}

/**
 * The file as one object, when it is one (parsed whole, up to 64 MB; a UTF-8 BOM allowed); null
 * when it is not, or too large to look into.
 */
export function jsonObjectFile(path: string, sample: string): JsonObjectFile | null {
  if (!/^\s*\{/.test(sample) || statSync(path).size > DESCRIBED_BYTES) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  return { keys: Object.keys(parsed), records: recordKeys(parsed) };
}

/** A key path as the user reads it: "data", or "hits"."hits". */
export const keyPath = (path: readonly string[]): string =>
  path.map((k) => JSON.stringify(k)).join('.');

/** A key path as `--records` names it: "data", or hits.hits. */
const plainPath = (path: readonly string[]): string => path.join('.');

/** Why a .json object file has no one table in it, in the user's words (its keys, where records are). */
export function objectRefusal(file: JsonObjectFile): OpsmindError {
  const keys = file.keys.slice(0, 8).map((k) => JSON.stringify(k));
  const named = `${keys.join(', ')}${file.keys.length > 8 ? `, … (${file.keys.length} keys)` : ''}`;
  const counted = file.records.map((r) => `${keyPath(r.path)} (${thousands(r.records)})`);
  const first = file.records[0]?.path ?? [];
  const hint =
    file.records.length === 0
      ? 'save the data as an array of objects ([{…}, {…}]) or as one object per line (JSON lines)'
      : `its keys ${listed(counted)} hold records: pass --records ${plainPath(first)} (or another of them) to read one`;
  return new OpsmindError(
    `not a JSON records file: it holds one object (${named}), not an array of records or one record per line`,
    ExitCode.BAD_INPUT,
    hint,
  );
}

/**
 * The records a wrapper's table is read from: its one key of records, or with `wanted` (the
 * user's --records: "nodes", or hits.hits for a key one object down) the key so named; none, or
 * several without `wanted`, refused naming them.
 */
export function recordsOf(file: JsonObjectFile, wanted?: string): RecordsKey {
  if (wanted === undefined) {
    const [only, second] = file.records;
    if (!only || second) throw objectRefusal(file);
    return only;
  }
  const found = file.records.find((r) => plainPath(r.path) === wanted);
  if (found) return found;
  const counted = file.records.map((r) => `${plainPath(r.path)} (${thousands(r.records)})`);
  throw new OpsmindError(
    `--records ${wanted}: no key of the file by that name holds records`,
    ExitCode.BAD_INPUT,
    counted.length ? `keys that hold records: ${listed(counted)}` : objectRefusal(file).hint,
  );
}

/** A JSON Pointer (RFC 6901) to `path`: "/hits/hits", "~" and "/" in a key escaped. */
const pointer = (path: readonly string[]): string =>
  path.map((k) => `/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** What the read says it did: the records' key, and the keys left out at the top. */
export function unwrapWarning(file: JsonObjectFile, key: RecordsKey): string {
  const others = file.keys.filter((k) => k !== key.path[0]).map((k) => JSON.stringify(k));
  const shown = `${others.slice(0, 5).join(', ')}${others.length > 5 ? ', …' : ''}`;
  const noun = key.records === 1 ? 'record' : 'records';
  return `read the ${thousands(key.records)} ${noun} under ${keyPath(key.path)}${others.length > 0 ? `, leaving out ${shown}` : ''}`;
}

/** Writes the records under `key` as JSON lines into the scratch directory and returns that file. */
export async function wrappedLines(
  ctx: ReadContext,
  path: string,
  key: RecordsKey,
): Promise<string> {
  const document = documentSql(path, statSync(path).size);
  return jsonLines(
    ctx,
    `SELECT unnest(CAST(json_extract(json, ${literal(pointer(key.path))}) AS JSON[])) AS row FROM ${document}`,
  );
}

/**
 * For a program that reads the file itself (`opsmind run`, whose `df` the sandbox reads): what
 * analyze refuses of a JSON object that holds several tables — no --records, or a key it lacks —
 * is refused here too, before Python would read the object as one row of lists. A file of one
 * table, or of none (a column-oriented object pandas reads), passes.
 */
export function checkRecordsChoice(path: string, records?: string): void {
  if (!/\.json$/i.test(path)) return;
  const head = Buffer.alloc(64);
  const fd = openSync(path, 'r');
  let read = 0;
  try {
    read = readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const file = jsonObjectFile(
    path,
    head
      .subarray(0, read)
      .toString('utf8')
      .replace(/^\uFEFF/, ''),
  );
  if (!file || file.records.length === 0) return;
  if (records === undefined && file.records.length === 1) return;
  recordsOf(file, records);
}
