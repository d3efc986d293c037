/**
 * Which reader a data file needs, decided by its extension and its first bytes (magic numbers win
 * over a misleading extension: a gzip stream named .csv is still gzip, a ZIP is an .xlsx workbook).
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { SourceFormat } from './types.js';
import { badInput } from './source-common.js';

/** How many bytes of a file are sampled to detect its format, encoding and dialect. */
export const SAMPLE_BYTES = 64 * 1024;

/** The reader a file needs. */
export interface DetectedFormat {
  format: SourceFormat;
  /** The file is a gzip stream (DuckDB decompresses it). */
  gzip: boolean;
  /** The extension that names the content, without .gz (".csv", ".tsv", ""). */
  extension: string;
}

const GZIP = Buffer.from([0x1f, 0x8b]);
const PARQUET = Buffer.from('PAR1');
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The first `bytes` bytes of a file (fewer when it is shorter). */
export async function readHead(path: string, bytes = SAMPLE_BYTES): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The first `bytes` decompressed bytes of a gzip file, and whether there is more. */
export async function readGzipHead(
  path: string,
  bytes = SAMPLE_BYTES,
): Promise<{ head: Buffer; cut: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  const source = createReadStream(path);
  const stream = source.pipe(createGunzip());
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size > bytes) break;
    }
  } catch (error) {
    if (size === 0)
      throw badInput(`the file is not a readable gzip stream: ${(error as Error).message}`);
  } finally {
    stream.destroy();
    source.destroy();
  }
  const all = Buffer.concat(chunks);
  return { head: all.subarray(0, bytes), cut: all.length > bytes };
}

/** The extension that names the content: "data.csv.gz" → ".csv". */
function contentExtension(path: string): string {
  const extension = extname(path).toLowerCase();
  return extension === '.gz' ? extname(basename(path, extname(path))).toLowerCase() : extension;
}

/** A text format by extension: JSON records, JSON lines, or delimited text. */
function textFormat(extension: string): SourceFormat {
  if (extension === '.json') return 'json';
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  return 'csv';
}

/** The reader `path` needs, given its first bytes; unsupported formats are refused with a hint. */
export function detectFormat(path: string, head: Buffer): DetectedFormat {
  const extension = contentExtension(path);
  const plain = (format: SourceFormat): DetectedFormat => ({ format, gzip: false, extension });
  if (head.subarray(0, 2).equals(GZIP))
    return { format: textFormat(extension), gzip: true, extension };
  if (head.subarray(0, 4).equals(PARQUET)) return plain('parquet');
  if (head.subarray(0, 4).equals(ZIP)) return plain('excel');
  if (head.subarray(0, 8).equals(OLE2) || extension === '.xls')
    throw badInput('this is an old binary Excel (.xls) workbook; save it as .xlsx or CSV');
  if (extension === '.xlsx' || extension === '.xlsm')
    throw badInput(
      `not an Excel workbook: a ${extension} file is a ZIP archive and this is not one`,
    );
  if (extension === '.parquet')
    throw badInput('not a Parquet file: it does not start with the PAR1 marker');
  return plain(textFormat(extension));
}
