/**
 * The text encoding of a data file, decided as preamble/opsmind_data.py decides it: a BOM first
 * (UTF-8, UTF-16 LE/BE), then UTF-8 if every byte is valid, then Windows-1252, Latin-1 last; and
 * the streaming decoders that turn the non-UTF-8 ones into UTF-8 for DuckDB.
 */
import { isAscii, isUtf8 } from 'node:buffer';

/** An encoding a text data file is read with (the names pandas uses for the single-byte ones). */
export type TextEncoding = 'utf-8' | 'utf-8-sig' | 'utf-16le' | 'utf-16be' | 'cp1252' | 'latin-1';

/** An encoding and the warning a reader should see about it. */
export interface EncodingChoice {
  encoding: TextEncoding;
  warning: string | null;
}

/** Appends the decoded text of `chunk`; `final` flushes what a multi-byte character left pending. */
export type ChunkDecoder = (chunk: Buffer, final: boolean) => string;

/** Bytes Windows-1252 leaves undefined: Python's cp1252 refuses them, so the file is Latin-1. */
const CP1252_HOLES = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

/** Windows-1252's characters for 0x80–0x9F (Latin-1 maps the rest); holes map to themselves. */
const CP1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

const NOT_UTF8 = 'file is not valid UTF-8; read it as';

/** The encoding a byte-order mark at the start of `head` names, or null. */
export function bomEncoding(head: Buffer): TextEncoding | null {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8-sig';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return null;
}

/** Why `head` is not text (NUL or many control bytes, no UTF-16 BOM to explain them), or null. */
export function binaryReason(head: Buffer): string | null {
  const bom = bomEncoding(head);
  if (bom === 'utf-16le' || bom === 'utf-16be') return null;
  const start = head.subarray(0, 8192);
  if (start.includes(0)) return 'the file looks binary (it contains NUL bytes), not like text data';
  let control = 0;
  for (const byte of start) if (byte < 0x20 && (byte < 0x09 || byte > 0x0d)) control++;
  return start.length >= 64 && control > start.length / 10
    ? 'the file looks binary (it is full of control bytes), not like text data'
    : null;
}

/** Where the last complete UTF-8 character of `bytes` ends (a character cut at the end is left out). */
function completeEnd(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] ?? 0;
    if (byte < 0x80) return bytes.length;
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return length > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

/** True when `head` is valid UTF-8, allowing a character cut at its end when `cut`. */
export function headIsUtf8(head: Buffer, cut: boolean): boolean {
  return isUtf8(head.subarray(0, cut ? completeEnd(head) : head.length));
}

/**
 * The encoding of a file without a BOM, from its bytes fed in order: UTF-8 while every character
 * is valid (one cut between two chunks is carried over), else Windows-1252, or Latin-1 once one of
 * the bytes Windows-1252 leaves undefined shows up. A chunk may be a view reused for the next one.
 */
export class EncodingScan {
  private utf8 = true;
  private holes = false;
  private carry = Buffer.alloc(0);

  /** Feeds the next bytes; false once more bytes cannot change the verdict. */
  push(chunk: Buffer): boolean {
    // isAscii is one vector pass; the five searches run only on a chunk with high bytes.
    this.holes ||= !isAscii(chunk) && CP1252_HOLES.some((byte) => chunk.includes(byte));
    if (this.utf8) {
      const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
      const end = completeEnd(bytes);
      this.utf8 = isUtf8(bytes.subarray(0, end));
      this.carry = Buffer.from(bytes.subarray(end));
    }
    return this.utf8 || !this.holes;
  }

  /** The verdict on the bytes fed so far, taken as the whole file. */
  result(): EncodingChoice {
    if (this.utf8 && this.carry.length === 0) return { encoding: 'utf-8', warning: null };
    return this.holes
      ? { encoding: 'latin-1', warning: `${NOT_UTF8} Latin-1` }
      : { encoding: 'cp1252', warning: `${NOT_UTF8} Windows-1252 (Latin-1)` };
  }
}

/** The encoding of a file without a BOM, from one streaming pass over its bytes. */
export async function scanEncoding(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  signal?: AbortSignal,
): Promise<EncodingChoice> {
  const scan = new EncodingScan();
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    if (!scan.push(chunk)) break;
  }
  return scan.result();
}

/** Whether DuckDB can read the encoding as is (it reads UTF-8, with or without a BOM). */
export function readableByDuckDb(encoding: TextEncoding): boolean {
  return encoding === 'utf-8' || encoding === 'utf-8-sig';
}

/** Decodes Windows-1252 exactly (Node 20's TextDecoder maps 0x80–0x9F as Latin-1). */
function decodeCp1252(chunk: Buffer): string {
  return chunk
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (char) => CP1252_HIGH[char.charCodeAt(0) - 0x80] ?? char);
}

/** A streaming decoder for `encoding`; a BOM is dropped. */
export function chunkDecoder(encoding: TextEncoding): ChunkDecoder {
  if (encoding === 'cp1252') return (chunk) => decodeCp1252(chunk);
  if (encoding === 'latin-1') return (chunk) => chunk.toString('latin1');
  const decoder = new TextDecoder(encoding === 'utf-8-sig' ? 'utf-8' : encoding);
  return (chunk, final) => decoder.decode(chunk, { stream: !final });
}
