/**
 * Columns lined up with spaces: ` 0   0    0`, `7.689620  0.000000`, as Fortran, R's
 * write.table with fixed widths and many instruments write them. pandas reads such a file with
 * `sep=r"\s+"` (any run of spaces and tabs between fields, none before the first);
 * opsmind_data.sniff_delimiter picks it by the same rule as sniffDelimiter here. DuckDB splits on
 * one character only: it reads a copy of the file with each run written as one tab.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { scratchPath } from './source-common.js';
import type { HostContext } from './source-common.js';
import type { PreparedText } from './source-transcode.js';

/** The delimiter of a file whose fields are split by runs of blanks, as pandas is told it. */
export const WHITESPACE = '\\s+';

const BLANK = /[ \t]+/;

/**
 * The fields of one line split by runs of spaces and tabs outside double quotes, none counted
 * before the first or after the last; each as written, its quotes kept.
 */
export function splitWhitespace(line: string): string[] {
  if (!line.includes('"')) {
    const trimmed = line.trim();
    return trimmed === '' ? [] : trimmed.split(BLANK);
  }
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    if (!quoted && (char === ' ' || char === '\t')) {
      if (field !== '') fields.push(field);
      field = '';
    } else field += char;
  }
  if (field !== '') fields.push(field);
  return fields;
}

/** The lines of `text`, at any line end. */
export function textLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** One line with its fields split by tabs (splitWhitespace), a blank line empty. */
const tabbedLine = (line: string): string => splitWhitespace(line).join('\t');

/** `text` with each line's fields split by tabs, one '\n' after each line (none added after the last). */
export function tabbed(text: string): string {
  return textLines(text).map(tabbedLine).join('\n');
}

/** Where the last whole line of `text` ends (after its line end); a CR at the very end may start a CR LF, held back. */
function wholeLines(text: string): number {
  const last = text.length - 1;
  for (let i = text[last] === '\r' ? last - 1 : last; i >= 0; i--)
    if (text[i] === '\n' || text[i] === '\r') return i + 1;
  return 0;
}

/**
 * Writes the UTF-8 text at `from` (decompressed when `gzip`) to `to`, each line's fields split
 * by one tab, streaming, a line never split between two chunks: the copy has the lines of the
 * file, blank ones too, so the title lines found on the tabbed sample are the copy's first lines.
 */
export async function writeTabbed(
  from: string,
  gzip: boolean,
  to: string,
  signal?: AbortSignal,
): Promise<void> {
  const lines = async function* (chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
    const decoder = new StringDecoder('utf8');
    let carry = '';
    for await (const chunk of chunks) {
      const text = carry + decoder.write(chunk);
      const end = wholeLines(text);
      carry = text.slice(end);
      if (end > 0) yield `${tabbed(text.slice(0, end).replace(/(\r\n|\r|\n)$/, ''))}\n`;
    }
    const rest = carry + decoder.end();
    if (rest !== '') yield tabbed(rest);
  };
  const options = signal ? { signal } : {};
  const file = createReadStream(from, { highWaterMark: 1 << 20 });
  if (gzip) await pipeline(file, createGunzip(), lines, createWriteStream(to), options);
  else await pipeline(file, lines, createWriteStream(to), options);
}

/** The text as DuckDB reads a file of columns lined up with spaces: a tab-separated copy, and its sample. */
export async function tabbedText(ctx: HostContext, text: PreparedText): Promise<PreparedText> {
  const copy = scratchPath(ctx, '.tsv');
  await writeTabbed(text.readPath, text.gzip, copy, ctx.signal);
  return { ...text, readPath: copy, gzip: false, sample: tabbed(text.sample) };
}
