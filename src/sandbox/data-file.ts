/**
 * Host-side checks on a data file before any Python starts, for fast one-line errors, and the one
 * pass over its bytes that a session needs: the hash it is recorded by, a NUL byte anywhere in a
 * text file, and whether the text is UTF-8.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { bomEncoding, EncodingScan } from '../engine/source-encoding.js';
import type { EncodingChoice } from '../engine/source-encoding.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { fileChunks } from '../util/file-chunks.js';

/** How much of a text file checkDataFile scans for a NUL byte. */
export interface CheckOptions {
  /**
   * `whole` (the default) reads every byte; `head` its first 64 KiB only (HEAD_BYTES), for a
   * caller whose session scans the rest in its one pass over the file (scanDataFile,
   * refuseBinary).
   */
  scan?: 'whole' | 'head';
}

/** Resolves and checks a data file path: exists, is a regular readable file, is not empty. Throws OpsmindError (exit 2). */
export function checkDataFile(path: string, options: CheckOptions = {}): string {
  const full = resolve(path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    throw new OpsmindError(
      `data file not found: ${path}`,
      ExitCode.BAD_INPUT,
      'check the path, or run `ls` to see the files here',
    );
  }
  if (stat.isDirectory())
    throw new OpsmindError(
      `${path} is a directory, not a data file`,
      ExitCode.BAD_INPUT,
      'pass one data file (csv, tsv, json, jsonl, parquet, xlsx, or csv.gz); `opsmind batch <folder>` reports on every file in a folder',
    );
  if (!stat.isFile()) throw new OpsmindError(`${path} is not a regular file`, ExitCode.BAD_INPUT);
  if (stat.size === 0) throw new OpsmindError(`data file is empty: ${path}`, ExitCode.BAD_INPUT);
  let fd: number;
  try {
    fd = openSync(full, 'r');
  } catch (error) {
    throw new OpsmindError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      ExitCode.BAD_INPUT,
    );
  }
  try {
    if (binaryFormat(fd, full, path)) return full;
    const scanned = options.scan === 'head' ? Math.min(HEAD_BYTES, stat.size) : stat.size;
    const at = nulOffset(fd, scanned);
    if (at !== null) throw binaryFile(path, at);
  } finally {
    closeSync(fd);
  }
  return full;
}

const SCAN_CHUNK = 4 * 1024 * 1024;
/**
 * What `head` reads: enough for the NUL bytes of any binary file's start, no more, since the
 * session reads it all anyway (4 MiB here, fresh memory read into, cost 20-30 ms of the start of
 * every run on a large file).
 */
const HEAD_BYTES = 64 * 1024;

/** The refusal of a text file with a NUL byte at `offset`. */
function binaryFile(shown: string, offset: number): OpsmindError {
  return new OpsmindError(
    `${shown} looks like a binary file, not a data table (a NUL byte at offset ${offset.toLocaleString('en-US')})`,
    ExitCode.BAD_INPUT,
    'export it to CSV first',
  );
}

/** Binary formats the engine reads, by extension, with the bytes their files start with. */
const BINARY_FORMATS: readonly { name: string; extensions: readonly string[]; magic: Buffer }[] = [
  { name: 'Parquet', extensions: ['.parquet', '.pq'], magic: Buffer.from('PAR1') },
  {
    name: 'Excel (.xlsx)',
    extensions: ['.xlsx', '.xlsm'],
    magic: Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  },
  { name: 'gzip', extensions: ['.gz'], magic: Buffer.from([0x1f, 0x8b]) },
];

/** The binary format a file's name says it is, if any. */
function namedFormat(path: string): (typeof BINARY_FORMATS)[number] | undefined {
  const name = path.toLowerCase();
  return BINARY_FORMATS.find((f) => f.extensions.some((e) => name.endsWith(e)));
}

/**
 * True for a file of a binary format the engine reads (its extension and its first bytes agree),
 * which skips the NUL scan; a file named so whose bytes disagree is refused with the reason.
 */
function binaryFormat(fd: number, full: string, shown: string): boolean {
  const format = namedFormat(full);
  if (!format) return false;
  const head = Buffer.alloc(format.magic.length);
  const read = readSync(fd, head, 0, head.length, 0);
  if (read === head.length && head.equals(format.magic)) return true;
  throw new OpsmindError(
    `${shown} is named like a ${format.name} file but is not one (it does not start with the ${format.name} signature)`,
    ExitCode.BAD_INPUT,
  );
}

/**
 * The offset of the first NUL byte of a text file, or null. The whole file is
 * scanned (memchr speed, stopping at the first hit), so a text head cannot
 * hide binary content; a UTF-16 file (BOM) is text with NULs and is skipped.
 */
function nulOffset(fd: number, size: number): number | null {
  const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, size));
  for (let offset = 0; offset < size;) {
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    if (read <= 0) break;
    if (
      offset === 0 &&
      read >= 2 &&
      ((buffer[0] === 0xff && buffer[1] === 0xfe) || (buffer[0] === 0xfe && buffer[1] === 0xff))
    )
      return null;
    const at = buffer.subarray(0, read).indexOf(0);
    if (at >= 0) return offset + at;
    offset += read;
  }
  return null;
}

/** What one pass over a data file finds. */
export interface DataFacts {
  sha256: string;
  size: number;
  /**
   * The offset of the first NUL byte of a text file, or null: none, or a file of a binary format
   * its name and first bytes agree on (Parquet, Excel, gzip), or UTF-16 text (a BOM).
   */
  nulAt: number | null;
  /** The encoding its bytes are in, read as text without a BOM (null for a binary format). */
  encoding: EncodingChoice | null;
}

/**
 * SHA-256 and size of a data file, its first NUL byte and its text encoding, in one read of its
 * bytes through one reused buffer: a session records the hash, refuses a NUL byte anywhere
 * (refuseBinary), and the engine checks the encoding it guessed from the file's start (DuckDB
 * already reads the file meanwhile). Three passes, one per question, cost a 62 MB file ~0.15 s of
 * this thread before DuckDB could start.
 */
export async function scanDataFile(path: string): Promise<DataFacts> {
  const hash = createHash('sha256');
  let size = 0;
  let nulAt: number | null = null;
  let encoding: EncodingScan | null = null;
  let text = true;
  let scanning = true;
  for await (const chunk of fileChunks(path)) {
    if (size === 0) {
      const format = namedFormat(path);
      const bom = bomEncoding(chunk);
      text = !(format && chunk.subarray(0, format.magic.length).equals(format.magic));
      encoding = text ? new EncodingScan() : null;
      if (bom === 'utf-16le' || bom === 'utf-16be') text = false;
    }
    hash.update(chunk);
    if (text && nulAt === null) {
      const at = chunk.indexOf(0);
      if (at >= 0) nulAt = size + at;
    }
    if (encoding && scanning) scanning = encoding.push(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size, nulAt, encoding: encoding?.result() ?? null };
}

/** Throws checkDataFile's refusal when the pass found a NUL byte in a text file. */
export function refuseBinary(facts: DataFacts, shown: string): void {
  if (facts.nulAt !== null) throw binaryFile(shown, facts.nulAt);
}

/** SHA-256 and size of a file, read chunk by chunk (the data file is recorded with its session). */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const { sha256, size } = await scanDataFile(path);
  return { sha256, size };
}
