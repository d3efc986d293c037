/**
 * A text data file made ready for DuckDB, which reads UTF-8 only: the encoding is detected, a
 * UTF-16 or single-byte file is transcoded (streaming, chunk by chunk) into a UTF-8 copy in the
 * scratch directory, and the start of the text is kept as a sample for dialect detection.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { scanDataFile } from '../sandbox/data-file.js';
import { badInput, scratchPath } from './source-common.js';
import type { HostContext } from './source-common.js';
import {
  binaryReason,
  bomEncoding,
  chunkDecoder,
  headIsUtf8,
  readableByDuckDb,
  scanEncoding,
} from './source-encoding.js';
import type { EncodingChoice, TextEncoding } from './source-encoding.js';
import { readGzipHead, readHead, SAMPLE_BYTES } from './source-sniff.js';

/** A text file DuckDB can read, and a decoded sample of its start. */
export interface PreparedText {
  /** The file DuckDB reads: the data file itself, or a UTF-8 copy in the scratch directory. */
  readPath: string;
  /** Whether `readPath` is gzip-compressed. */
  gzip: boolean;
  /** The encoding the data file was written in. */
  encoding: TextEncoding;
  warnings: string[];
  /** The first ~64 KiB of the file as text. */
  sample: string;
  /** The sample stops before the end of the file (its last line may be cut). */
  cut: boolean;
}

const CHUNK_BYTES = 1 << 20;

/** A gzip file's decompressed bytes, read 1 MiB at a time. */
function gunzipStream(path: string): Readable {
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  const gunzip = createGunzip();
  file.on('error', (error) => gunzip.destroy(error));
  return file.pipe(gunzip);
}

const UTF8: EncodingChoice = { encoding: 'utf-8', warning: null };

/** A check that settles to null, the encoding to read again with, or the file's error, marked handled until awaited. */
function check(ctx: HostContext, verdict: Promise<EncodingChoice | null>): void {
  verdict.catch(() => undefined);
  ctx.checks.push(verdict);
}

/**
 * The encoding: a BOM if there is one; for gzip, UTF-8 when the decompressed head is valid
 * (checking the whole stream would cost a full decompression); else the pass over every byte
 * (scanDataFile). A plain file whose start is UTF-8 is read as UTF-8 at once, the pass checking
 * the rest beside the read: a byte further on that is not (a Windows-1252 file with an accent
 * past its first 64 KiB) has the file read again, transcoded.
 */
async function chooseEncoding(
  ctx: HostContext,
  head: Buffer,
  gzip: boolean,
  cut: boolean,
): Promise<EncodingChoice> {
  const bom = bomEncoding(head);
  if (bom) return { encoding: bom, warning: null };
  if (!cut) return scanEncoding([head]);
  if (ctx.encoding) return ctx.encoding;
  if (gzip) {
    if (headIsUtf8(head, true)) return { encoding: 'utf-8', warning: null };
    const stream = gunzipStream(ctx.path);
    try {
      return await scanEncoding(stream as AsyncIterable<Buffer>, ctx.signal);
    } finally {
      stream.destroy();
    }
  }
  const facts = ctx.facts ?? scanDataFile(ctx.path);
  const whole = facts.then(({ encoding }) => encoding ?? UTF8);
  if (!headIsUtf8(head, true)) return whole;
  check(
    ctx,
    whole.then((choice) => (readableByDuckDb(choice.encoding) ? null : choice)),
  );
  return UTF8;
}

/** Writes `path` (decompressed when `gzip`) decoded from `encoding` into `out` as UTF-8. */
async function transcode(
  path: string,
  gzip: boolean,
  encoding: TextEncoding,
  out: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const decode = chunkDecoder(encoding);
  const toUtf8 = async function* (source: AsyncIterable<Buffer>): AsyncGenerator<string> {
    for await (const chunk of source) {
      const text = decode(chunk, false);
      if (text) yield text;
    }
    const rest = decode(Buffer.alloc(0), true);
    if (rest) yield rest;
  };
  const options = signal ? { signal } : {};
  if (gzip)
    await pipeline(createReadStream(path), createGunzip(), toUtf8, createWriteStream(out), options);
  else await pipeline(createReadStream(path), toUtf8, createWriteStream(out), options);
}

/** The file's first bytes (decompressed when `gzip`) and whether there is more. */
async function sampleBytes(path: string, gzip: boolean): Promise<{ head: Buffer; cut: boolean }> {
  if (gzip) return readGzipHead(path);
  const head = await readHead(path, SAMPLE_BYTES + 1);
  return { head: head.subarray(0, SAMPLE_BYTES), cut: head.length > SAMPLE_BYTES };
}

/**
 * Detects the encoding of a text data file and makes it readable by DuckDB; refuses an empty or
 * binary file. `suffix` names the scratch copy's extension (".csv", ".json").
 */
/**
 * Decompresses the whole gzip stream and drops the bytes, refusing a truncated or damaged one:
 * DuckDB reads a cut-off stream without a word, which would report on the rows before the cut
 * (the last one half-written) as if they were the file.
 */
async function verifyGzip(path: string, signal: AbortSignal | undefined): Promise<void> {
  const file = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  try {
    await pipeline(file, createGunzip(), async (chunks: AsyncIterable<Buffer>) => {
      for await (const _ of chunks) signal?.throwIfAborted();
    });
  } catch (error) {
    signal?.throwIfAborted();
    throw badInput(
      `the gzip stream is truncated or damaged (${(error as Error).message}), so not every row could be read`,
    );
  }
}

export async function prepareText(
  ctx: HostContext,
  gzip: boolean,
  suffix: string,
): Promise<PreparedText> {
  // A whole decompression, beside the read: DuckDB reads a cut-off stream without a word.
  if (gzip && !ctx.encoding)
    check(
      ctx,
      verifyGzip(ctx.path, ctx.signal).then(() => null),
    );
  const { head, cut } = await sampleBytes(ctx.path, gzip);
  const binary = binaryReason(head);
  if (binary) throw badInput(binary);
  const choice = await chooseEncoding(ctx, head, gzip, cut);
  const sample = chunkDecoder(choice.encoding)(head, !cut);
  if (sample.trim() === '') throw badInput('the file is empty');
  const warnings = choice.warning ? [choice.warning] : [];
  const prepared = { encoding: choice.encoding, warnings, sample, cut };
  if (readableByDuckDb(choice.encoding)) return { ...prepared, readPath: ctx.path, gzip };
  const out = scratchPath(ctx, suffix);
  await transcode(ctx.path, gzip, choice.encoding, out, ctx.signal);
  return { ...prepared, readPath: out, gzip: false };
}
