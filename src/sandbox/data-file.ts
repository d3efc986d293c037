/** Host-side checks on a data file before any Python starts, for fast one-line errors. */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { fileChunks } from '../util/file-chunks.js';

/** Resolves and checks a data file path: exists, is a regular readable file, is not empty. Throws OpsmindError (exit 2). */
export function checkDataFile(path: string): string {
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
      'pass a .csv, .tsv, .json or .jsonl file',
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
    const at = nulOffset(fd, stat.size);
    if (at !== null) {
      throw new OpsmindError(
        `${path} looks like a binary file, not a data table (a NUL byte at offset ${at.toLocaleString('en-US')})`,
        ExitCode.BAD_INPUT,
        'export it to CSV first',
      );
    }
  } finally {
    closeSync(fd);
  }
  return full;
}

const SCAN_CHUNK = 4 * 1024 * 1024;

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

/**
 * True for a file of a binary format the engine reads (its extension and its first bytes agree),
 * which skips the NUL scan; a file named so whose bytes disagree is refused with the reason.
 */
function binaryFormat(fd: number, full: string, shown: string): boolean {
  const name = full.toLowerCase();
  const format = BINARY_FORMATS.find((f) => f.extensions.some((e) => name.endsWith(e)));
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
  const buffer = Buffer.alloc(Math.min(SCAN_CHUNK, size));
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

/** SHA-256 and size of a file, read chunk by chunk (the data file is recorded with its session). */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fileChunks(path)) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { sha256: hash.digest('hex'), size };
}
