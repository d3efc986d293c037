/**
 * The dialect rules of preamble/opsmind_data.py, ported so both engines read a file alike: the
 * delimiter that splits the sample most consistently, the title lines above the header, and
 * pandas' column names (empty → "Unnamed: N", duplicates → "a.1"); and the line end DuckDB's
 * sniffer is told when a quoted line break comes before the first line ends.
 */

import { splitWhitespace, textLines, WHITESPACE } from './source-whitespace.js';

/** The delimiters tried, in order. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

const MAX_TITLE_LINES = 10;
const TITLE_SAMPLE_LINES = 50;

/** One record of delimited text, as Python's csv.reader yields it. */
export interface TextRow {
  fields: string[];
  /** The 0-based physical line the record starts on. */
  startLine: number;
}

/** A cursor over text being split into records. */
interface Cursor {
  text: string;
  at: number;
  line: number;
}

/** Reads one field starting at the cursor; returns whether the record ended with it. */
function readField(cursor: Cursor, delimiter: string, into: string[]): boolean {
  const { text } = cursor;
  let value = '';
  let quoted = text[cursor.at] === '"';
  if (quoted) cursor.at++;
  while (cursor.at < text.length) {
    const char = text[cursor.at++] ?? '';
    if (quoted && char === '"') {
      if (text[cursor.at] === '"') value += text[cursor.at++];
      else quoted = false;
    } else if (!quoted && char === delimiter) {
      into.push(value);
      return false;
    } else if (!quoted && (char === '\n' || char === '\r')) {
      if (char === '\r' && text[cursor.at] === '\n') cursor.at++;
      cursor.line++;
      break;
    } else {
      if (char === '\n' || (char === '\r' && text[cursor.at] !== '\n')) cursor.line++;
      value += char;
    }
  }
  into.push(value);
  return true;
}

/** Splits `text` into at most `limit` records (a blank line is a record with no fields). */
export function parseRows(text: string, delimiter: string, limit = Infinity): TextRow[] {
  const cursor: Cursor = { text, at: 0, line: 0 };
  const rows: TextRow[] = [];
  while (cursor.at < text.length && rows.length < limit) {
    const startLine = cursor.line;
    const fields: string[] = [];
    const first = text[cursor.at];
    if (first === '\n' || first === '\r') {
      cursor.at += first === '\r' && text[cursor.at + 1] === '\n' ? 2 : 1;
      cursor.line++;
    } else while (!readField(cursor, delimiter, fields));
    rows.push({ fields, startLine });
  }
  return rows;
}

/**
 * The number of fields of each record of `text`, as parseRows splits it (a blank line has none):
 * the same reading of quotes and line ends, without building the fields (sniffDelimiter reads
 * the 64 KiB sample once per delimiter, and needs only the counts).
 */
export function fieldCounts(text: string, delimiter: string): number[] {
  const [quote, lf, cr, split] = [34, 10, 13, delimiter.charCodeAt(0)];
  const counts: number[] = [];
  const end = text.length;
  let at = 0;
  while (at < end) {
    const first = text.charCodeAt(at);
    if (first === lf || first === cr) {
      at += first === cr && text.charCodeAt(at + 1) === lf ? 2 : 1;
      counts.push(0);
      continue;
    }
    let fields = 0;
    for (let more = true; more; fields++) {
      more = false;
      let quoted = text.charCodeAt(at) === quote;
      if (quoted) at++;
      while (at < end) {
        const char = text.charCodeAt(at++);
        if (quoted && char === quote) {
          if (text.charCodeAt(at) === quote) at++;
          else quoted = false;
        } else if (!quoted && char === split) {
          more = true;
          break;
        } else if (!quoted && (char === lf || char === cr)) {
          if (char === cr && text.charCodeAt(at) === lf) at++;
          break;
        }
      }
    }
    counts.push(fields);
  }
  return counts;
}

/** The most frequent value; ties go to the smallest (as Python's max over a set of ints does). */
function mode(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [value, count] of [...counts].sort((a, b) => a[0] - b[0]))
    if (count > bestCount) [best, bestCount] = [value, count];
  return best;
}

const isShort = (count: number, common: number): boolean => count <= 1 || count < common / 2;

const share = (values: number[], value: number): number =>
  values.filter((v) => v === value).length / values.length;

/**
 * The delimiter that splits the sample's lines most consistently (`preferred` wins ties). When none
 * splits them, a single space that splits every line into the same number of fields (two or more):
 * spector.csv's "'OBS' 'GPA' 'TUCE'", diabetes_data_raw's "59 2 32.1 101.0 …", one column at
 * least all numbers below the first line (opsmind_data's sniff_delimiter alike), never lines of
 * words (a list of two-word names). Runs of spaces (or a space before the first field or after
 * the last): columns lined up (linedUp), split at every run (WHITESPACE).
 */
export function sniffDelimiter(sample: string, preferred: string): string {
  const found = sniffListed(sample, preferred);
  if (found.score[1] >= 2) return found.best;
  if (/ {2}|^ | $/m.test(sample)) return linedUp(sample) ? WHITESPACE : found.best;
  let counts = fieldCounts(sample, ' ').filter((count) => count > 0);
  if (counts.length > 2) counts = counts.slice(0, -1);
  const common = counts.length ? mode(counts) : 0;
  if (common < 2 || share(counts, common) !== 1) return found.best;
  // A column of numbers, as a table split by spaces holds: never a list of two-word names.
  const data = parseRows(sample, ' ', counts.length + 1).slice(1, counts.length);
  const numeric = (j: number) => data.every((row) => PLAIN_NUMBER.test(row.fields[j] ?? ''));
  return data.length > 0 && Array.from({ length: common }, (_, j) => j).some(numeric)
    ? ' '
    : found.best;
}

/**
 * Whether every line of the sample (but a last one, maybe cut, and title lines above, each short
 * beside the rest: isShort) splits into the same number of fields, two or more, at runs of
 * blanks (splitWhitespace), and some column below the first line is all numbers: columns lined
 * up with spaces (data_x_x2_x3.csv's " 0   0    0"), read as pandas reads them with
 * sep=r"\s+". Never a list of names, nor lines that split unevenly.
 */
function linedUp(sample: string): boolean {
  let rows = textLines(sample)
    .map(splitWhitespace)
    .filter((fields) => fields.length > 0);
  if (rows.length > 2) rows = rows.slice(0, -1);
  const count = rows.at(-1)?.length ?? 0;
  // Title lines above the header, short as findHeader's titles are.
  let start = 0;
  while (
    start < Math.min(MAX_TITLE_LINES, rows.length - 2) &&
    isShort(rows[start]?.length ?? 0, count)
  )
    start++;
  rows = rows.slice(start);
  if (rows.length < 2 || count < 2 || rows.some((fields) => fields.length !== count)) return false;
  const data = rows.slice(1);
  return Array.from({ length: count }, (_, j) => j).some((j) =>
    data.every((fields) => PLAIN_NUMBER.test(fields[j] ?? '')),
  );
}

function sniffListed(sample: string, preferred: string): { best: string; score: [number, number] } {
  let best = preferred;
  let bestScore: [number, number] = [0, 0];
  for (const delimiter of DELIMITERS) {
    let counts = fieldCounts(sample, delimiter).filter((count) => count > 0);
    if (counts.length > 2) counts = counts.slice(0, -1);
    if (counts.length === 0) continue;
    const common = mode(counts);
    if (common < 2) continue;
    const score: [number, number] = [share(counts, common), common];
    const better =
      score[0] > bestScore[0] || (score[0] === bestScore[0] && score[1] > bestScore[1]);
    const tie = score[0] === bestScore[0] && score[1] === bestScore[1];
    if (better || (tie && delimiter === preferred)) [best, bestScore] = [delimiter, score];
  }
  return { best, score: bestScore };
}

/** The title lines above the header, and the header. */
export interface HeaderPlace {
  /** Non-empty lines above the header that are skipped (0 for a clean file). */
  titleLines: number;
  /** Physical lines before the header row (titles and blank lines). */
  skipLines: number;
  /** The header row's fields as written (the names given, for a file without one). */
  header: string[];
  /** The first row is data: every field of it and of the next a number (headerlessNames). */
  headerless?: boolean;
  /**
   * The rows have one field more than the header names: R's write.csv puts each row's name first
   * and names no column for them. Read without the header line (header: "" and the names), and
   * that first column dropped, as pandas makes it the frame's index.
   */
  rowNames?: boolean;
  /** What the read says of it: the title lines skipped, the names given. */
  warnings: string[];
}

/** A column named as a year: four digits from 1800 to 2100 (source-wide.ts melts such columns). */
export const YEAR_COLUMN = /^\s*(1[89]\d\d|20\d\d|2100)\s*$/;

/** A number as a header never names a column: digits, a point, a sign, an exponent. */
const PLAIN_NUMBER = /^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

/** The names of a file's columns when its first row is data: column_1, column_2, … */
export function headerlessNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `column_${i + 1}`);
}

/** What a file without a header is told (opsmind_data's _parse_delimited says the same). */
function headerlessWarning(count: number): string {
  const said = 'the first row holds numbers, not names: read as data,';
  if (count === 1) return `${said} the column named column_1`;
  return `${said} the columns named column_1${count > 2 ? ` … column_${count}` : ', column_2'}`;
}

/**
 * Numbers that name columns all the same: years (2019, 2020, 2021 over their values, a wide table
 * without a name column) or the columns counted out (1, 2, 3 or 0, 1, 2). opsmind_data's
 * _names_of_numbers decides alike.
 */
function namesOfNumbers(header: readonly string[]): boolean {
  const values = header.map((f) => f.trim());
  if (values.every((v) => YEAR_COLUMN.test(v))) return true;
  return values.every((v, i) => v === String(i)) || values.every((v, i) => v === String(i + 1));
}

/** The fields of a row that hold something. */
const filled = (fields: readonly string[]): number =>
  fields.filter((field) => field.trim() !== '').length;

/**
 * Whether a row is a title above the header: at most one field, or fewer than half the fields the
 * rest has; or fewer than half of them filled (boston_house_prices.csv's "506,13,,,,…") when the
 * row after it names every column in words, as a header does.
 */
function isTitle(row: readonly string[], next: readonly string[] | undefined, common: number) {
  if (isShort(row.length, common)) return true;
  const named = next !== undefined && next.every((f) => f.trim() !== '' && !PLAIN_NUMBER.test(f));
  return named && isShort(filled(row), common);
}

/**
 * Where the header is: after the first 1..10 non-empty lines when each is a title (isTitle), the
 * rest of the sample consistent (opsmind_data.title_lines). A header whose every field is a
 * number, above a row of numbers as long, is data: the file has no header (iris measurements
 * exported without one, digits.csv) — unless the numbers name columns (namesOfNumbers).
 */
export function findHeader(sample: string, delimiter: string, cut: boolean): HeaderPlace {
  let rows = parseRows(sample, delimiter, 4 * TITLE_SAMPLE_LINES)
    .filter((row) => row.fields.some((field) => field.trim() !== ''))
    .slice(0, TITLE_SAMPLE_LINES + 1);
  if (cut && rows.length > 2) rows = rows.slice(0, -1);
  rows = rows.slice(0, TITLE_SAMPLE_LINES);
  const at = (k: number): HeaderPlace => {
    const header = rows[k]?.fields ?? [];
    const next = rows[k + 1]?.fields;
    const numbers = (fields: readonly string[], empty: boolean) =>
      fields.every((f) => PLAIN_NUMBER.test(f) || (empty && f.trim() === ''));
    const data =
      header.length >= 1 &&
      next?.length === header.length &&
      numbers(header, false) &&
      numbers(next, true) &&
      !namesOfNumbers(header);
    const title = k > 0 ? [`skipped ${k} line(s) above the header (a title?)`] : [];
    const place = { titleLines: k, skipLines: rows[k]?.startLine ?? 0 };
    const below = rows.slice(k + 1);
    const named =
      !data &&
      header.length >= 1 &&
      below.length >= 2 &&
      below.every((row) => row.fields.length === header.length + 1) &&
      // A delimiter ending every line (an empty last field) is no name of a row.
      !below.every((row) => (row.fields.at(-1) ?? '').trim() === '');
    if (named)
      return {
        titleLines: k,
        skipLines: below[0]?.startLine ?? 0,
        header: ['', ...header],
        headerless: true,
        rowNames: true,
        warnings: [
          ...title,
          'the first column holds row names (the header names one column fewer): left out of the columns, as pandas keeps them in its index',
        ],
      };
    return data
      ? {
          ...place,
          header: headerlessNames(header.length),
          headerless: true,
          warnings: [...title, headerlessWarning(header.length)],
        }
      : { ...place, header, warnings: title };
  };
  for (let k = 1; k <= Math.min(MAX_TITLE_LINES, rows.length - 2); k++) {
    const rest = rows.slice(k).map((row) => row.fields.length);
    const common = mode(rest);
    const title = isTitle(rows[k - 1]?.fields ?? [], rows[k]?.fields, common);
    if (common < 2 || !title) return at(0);
    if (share(rest, common) < 0.9 || isShort(rest[0] ?? 0, common)) continue;
    return at(k);
  }
  return at(0);
}

/**
 * pandas' column names for a header: "" → "Unnamed: N", repeats → "a.1", "a.2" (mangle_dupe_cols).
 * As its C parser: the named columns first, then the unnamed, so a name the file gives is kept
 * and "Unnamed: 0" of an empty name beside a column so named becomes "Unnamed: 0.1"
 * (methylation-test.csv); a suffixed name the header holds already is passed over. Repeats are
 * compared ignoring case, as DuckDB's identifiers are ("a", "A" → "a", "A.1").
 */
export function pandasNames(header: readonly string[]): string[] {
  const names = header.map((field, index) => (field === '' ? `Unnamed: ${index}` : field));
  const given = new Set(names.map((name) => name.toLowerCase()));
  const order = [
    ...[...names.keys()].filter((i) => header[i] !== ''),
    ...[...names.keys()].filter((i) => header[i] === ''),
  ];
  const counts = new Map<string, number>();
  for (const i of order) {
    const first = names[i] ?? '';
    let name = first;
    let count = counts.get(first.toLowerCase()) ?? 0;
    while (count > 0) {
      counts.set(first.toLowerCase(), count + 1);
      name = `${first}.${count}`;
      count = given.has(name.toLowerCase()) ? count + 1 : (counts.get(name.toLowerCase()) ?? 0);
    }
    names[i] = name;
    counts.set(name.toLowerCase(), count + 1);
  }
  return names;
}

/**
 * Where the line after the first `skip` lines starts in `text` (breaks outside pandas' quoted
 * fields, CR LF one break), and how the line before it ends; `end` -1 past the text.
 */
function lineBreak(text: string, skip: number, quoted: boolean): { end: number; next: number } {
  let inside = false;
  let lines = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && quoted) inside = !inside;
    else if ((c === '\n' || c === '\r') && !inside) {
      const next = c === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
      if (lines++ === skip) return { end: i, next };
      i = next - 1;
    }
  }
  return { end: -1, next: -1 };
}

/**
 * The text of a file's line ends as DuckDB's sniffer names them, from its first line break
 * outside a quoted field (pandas' quoting: '"', doubled inside one), or from its first of all;
 * `skip`: the first break after that many lines (the title lines above a header, which another
 * tool may have written with other line ends than the table's).
 */
export function lineEnd(sample: string, quoted = true, skip = 0): string | null {
  const { end, next } = lineBreak(sample, skip, quoted);
  if (end < 0) return null;
  if (sample[end] === '\n') return '\\n';
  return next === end + 2 ? '\\r\\n' : '\\r';
}

/** Where line `lines` (from 0) starts in `text`, or -1 when the text has fewer lines. */
export function lineStart(text: string, lines: number, quoted = true): number {
  return lines === 0 ? 0 : lineBreak(text, lines - 1, quoted).next;
}
