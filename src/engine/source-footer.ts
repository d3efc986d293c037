/**
 * Lines under the data that are not data: "Source: World Bank, 2024", "Note: values in USD".
 * Read as rows, they put text into a column of names and numbers into a column of amounts (the
 * year of a source line), or turn a column of numbers into text. Found from the file's last
 * lines, the same way as the sandbox's reader finds them (opsmind_data.footer_start), and left out.
 */
import {
  closeSync,
  copyFileSync,
  openSync,
  readSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { scratchPath } from './source-common.js';
import { lineEnd, lineStart } from './source-dialect.js';
import type { HostContext } from './source-common.js';

/** The end of the file read for its footer. */
const TAIL_BYTES = 64 * 1024;
/** A footer has at most this many lines. */
const FOOTER_LINES = 10;
/** What a footer line not set apart by a blank line must start with. */
export const FOOTER_WORDS =
  /^\s*["']?(sources?|notes?|quellen?|anmerkung(en)?|hinweis|fuente|nota|remarks?|disclaimer|copyright|©|\*)/i;

/** The fields of one line: delimiters outside double quotes, plus one. */
function fieldCount(line: string, delimiter: string): number {
  let quoted = false;
  let fields = 1;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === delimiter && !quoted) fields += 1;
  }
  return fields;
}

/** A comment line of an export's sections: "# ----", "# Users", "# Start date: 20240101". */
const COMMENT = /^\s*#(\s|-|$)/;

/**
 * Where an export's commented sections start below its table, as Google Analytics writes its
 * reports (the table, a blank line, "# ----------------------------------------", "# Users", then
 * another table): the first blank line after a line of the table's width that is followed by a
 * comment line — so the comment lines above the header (its title) never count. -1 if none.
 */
function commentSections(
  lines: readonly { text: string }[],
  delimiter: string,
  columns: number,
): number {
  let table = false;
  for (const [i, line] of lines.entries()) {
    if (line.text.trim() === '') {
      const next = lines.slice(i + 1).find((l) => l.text.trim() !== '');
      if (table && next && COMMENT.test(next.text)) return i;
    } else if (!COMMENT.test(line.text) && fieldCount(line.text, delimiter) >= columns)
      table = true;
  }
  return -1;
}

/** Where a footer starts in `tail` (a char offset: latin-1, one char per byte) and its lines, or null. */
export function footerIn(
  tail: string,
  delimiter: string,
  columns: number,
  partialFirst: boolean,
): { offset: number; lines: string[] } | null {
  const lines: { start: number; text: string }[] = [];
  let start = 0;
  for (const text of tail.split('\n')) {
    lines.push({ start, text: text.replace(/\r$/, '') });
    start += text.length + 1;
  }
  if (partialFirst) lines.shift();
  while (lines.length && (lines.at(-1) as { text: string }).text.trim() === '') lines.pop();
  const sections = columns < 2 ? -1 : commentSections(lines, delimiter, columns);
  if (sections >= 0) {
    const below = lines.slice(sections).filter((l) => l.text.trim() !== '');
    return {
      offset: (lines[sections] as { start: number }).start,
      lines: below.map((l) => l.text.trim()),
    };
  }
  let i = lines.length - 1;
  const block: { start: number; text: string }[] = [];
  while (i >= 0) {
    const line = lines[i] as { start: number; text: string };
    const short = fieldCount(line.text, delimiter) < columns;
    if (line.text.trim() === '' || !(short || FOOTER_WORDS.test(line.text))) break;
    block.unshift(line);
    i -= 1;
  }
  if (block.length === 0 || block.length > FOOTER_LINES || i < 1 || columns < 2) return null;
  const blank = (lines[i] as { text: string }).text.trim() === '';
  // Set apart by a blank line, short lines and lines that say what they are ("Note: in USD, see
  // annex") are a footer; else only lines that say so, alone in their first field (a last row
  // with missing trailing values is data).
  if (
    !blank &&
    !block.every((l) => fieldCount(l.text, delimiter) === 1 && FOOTER_WORDS.test(l.text))
  )
    return null;
  const first = blank ? (lines[i] as { start: number }) : (block[0] as { start: number });
  return { offset: first.start, lines: block.map((l) => l.text.trim()) };
}

/** The byte offset where the file's footer starts, and its lines; null when it has none. */
export function fileFooter(
  path: string,
  delimiter: string,
  columns: number,
): { offset: number; lines: string[] } | null {
  const size = statSync(path).size;
  const base = Math.max(0, size - TAIL_BYTES);
  const buffer = Buffer.alloc(size - base);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, buffer, 0, buffer.length, base);
  } finally {
    closeSync(fd);
  }
  const found = footerIn(buffer.toString('latin1'), delimiter, columns, base > 0);
  return found ? { offset: base + found.offset, lines: found.lines } : null;
}

/** Bytes read at a time by `oneLine`. */
const LINE_CHUNK = 1024 * 1024;

/**
 * Whether the file holds one line of text and nothing after it but blanks: a header with no data
 * rows (a vector written as one line of 20,190 numbers, statsmodels' poisson_resid.csv), which
 * pandas refuses at once and DuckDB's sniffer, over that many columns, took minutes to read.
 * Reads up to the first line break and then to the first byte that is not blank.
 */
export function oneLine(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(LINE_CHUNK);
    let broken = false;
    for (let offset = 0; ;) {
      const read = readSync(fd, buffer, 0, LINE_CHUNK, offset);
      if (read <= 0) return true;
      for (let i = 0; i < read; i += 1) {
        const byte = buffer[i];
        if (byte === 0x0a || byte === 0x0d) broken = true;
        else if (broken && byte !== 0x20 && byte !== 0x09) return false;
      }
      offset += read;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The file without its footer (fileFooter): a copy cut where the footer starts, in the
 * scratch dir. None for compressed files and UTF-16/32 ones (the sandbox's reader looks for a
 * footer in the same files only).
 */
export function withoutFooter(
  ctx: HostContext,
  text: { readPath: string; gzip: boolean; encoding: string },
  delimiter: string,
  columns: number,
): { path: string; lines: string[] } | null {
  if (text.gzip || /^utf-(16|32)/i.test(text.encoding)) return null;
  const footer = fileFooter(text.readPath, delimiter, columns);
  if (!footer) return null;
  const path = scratchPath(ctx, '.csv');
  copyFileSync(text.readPath, path);
  truncateSync(path, footer.offset);
  return { path, lines: footer.lines };
}

/** Bytes copied at a time by `withoutTitle`. */
const COPY_CHUNK = 1024 * 1024;

/**
 * The file from its header on, when the title lines above the header end otherwise than the
 * table's lines (a "Data Source" block written with LF over a table of CR LF lines, as a script
 * that prepends one writes it): DuckDB takes one line end for the whole file, the lines it skips
 * included, and refuses such a file. A copy in the scratch dir, read with nothing to skip; null
 * when the lines end alike, nothing is skipped, or the file is compressed.
 */
export function withoutTitle(
  ctx: HostContext,
  text: { readPath: string; gzip: boolean; sample: string },
  skipLines: number,
): string | null {
  if (skipLines === 0 || text.gzip) return null;
  const table = lineEnd(text.sample, true, skipLines);
  if (table === null || table === lineEnd(text.sample, false)) return null;
  const fd = openSync(text.readPath, 'r');
  try {
    const head = Buffer.alloc(Math.min(statSync(text.readPath).size, 1024 * 1024));
    readSync(fd, head, 0, head.length, 0);
    // Byte offsets: latin-1 keeps one char per byte, and line breaks and quotes are ASCII.
    let offset = lineStart(head.toString('latin1'), skipLines, false);
    if (offset < 0) return null;
    const path = scratchPath(ctx, '.csv');
    const out = openSync(path, 'w', 0o600);
    try {
      const buffer = Buffer.allocUnsafe(COPY_CHUNK);
      for (let read; (read = readSync(fd, buffer, 0, COPY_CHUNK, offset)) > 0; offset += read)
        writeSync(out, buffer, 0, read);
    } finally {
      closeSync(out);
    }
    return path;
  } finally {
    closeSync(fd);
  }
}
