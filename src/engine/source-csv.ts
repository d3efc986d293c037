/**
 * DuckDB's side of reading delimited text: its sniffer (given our delimiter and header line) for
 * quoting and column types, a raw text sample for locale detection, and the one read that
 * materialises the file as the `data` table.
 */
import { z } from 'zod';
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { DATA_RELATION } from './types.js';

/** Where and how to read a delimited file. */
export interface CsvPlan {
  /** The UTF-8 file DuckDB reads. */
  path: string;
  gzip: boolean;
  delimiter: string;
  /** Physical lines before the header row. */
  skip: number;
  /** The file has no header: its first row (after `skip`) is data (source-dialect's findHeader). */
  headerless?: boolean;
  /**
   * Read on one thread: DuckDB's parallel scanner refuses a quoted field holding a line break
   * together with the padding of short rows, which a serial read allows.
   */
  serial?: boolean;
  /**
   * Fields are quoted as pandas reads them, '"' doubled inside one: told to the sniffer, which
   * then only types the columns (for 10,000 rows 15 against 40–50 ms). Set when the file's
   * start has no other quoting to find: no apostrophe, no backslash before a '"'.
   */
  pandasQuotes?: boolean;
  /**
   * The line end the sniffer is told (DuckDB's escaped form, '\\r\\n'), when its own guess failed
   * on a line break inside a quoted field before the first line ends: a header name of two lines
   * in a file of CR LF lines, as Excel writes one ("Revenue⏎(USD)").
   */
  newLine?: string;
}

/** Whether a file starting with `sample` is read with pandas' quoting (CsvPlan.pandasQuotes). */
export function pandasQuoting(sample: string): boolean {
  return !sample.includes("'") && !sample.includes('\\"');
}

/** What DuckDB's sniffer found, given the plan. */
export interface CsvDialect {
  quote: string;
  escape: string;
  newLine: string;
  /** The columns as DuckDB names and types them. */
  columns: { name: string; type: string }[];
  dateFormat: string | null;
  timestampFormat: string | null;
}

/** A number as pandas' reader takes one, infinities included ("inf", "-Infinity", any case). */
const PANDAS_FLOAT = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?)$/i;
const INFINITY = /^[+-]?inf(?:inity)?$/i;

/** A whole number: padded ones read as BIGINT when every one is (pandas reads " 5 " as int64). */
const WHOLE = /^[+-]?\d+$/;

/**
 * The dialect with DOUBLE for each text column whose sampled values (pandas' missing texts left
 * out) are all numbers, infinities among them: DuckDB's sniffer leaves such a column text, while
 * pandas' reader, and DuckDB's own cast, read "inf" and "-Infinity" as numbers. So too a column
 * whose sample wrote numbers with spaces around them (`padded`: strikes.csv's " .01138"), which
 * pandas reads as numbers: BIGINT when every one is whole. A value further on that is not a
 * number fails the read, and the file is then sniffed whole.
 */
export function withTextNumbers(
  dialect: CsvDialect,
  samples: readonly string[][],
  padded: ReadonlySet<number> = new Set(),
): CsvDialect {
  const columns = dialect.columns.map((column, i) => {
    const values = samples[i] ?? [];
    if (column.type !== 'VARCHAR' || !values.every((v) => PANDAS_FLOAT.test(v))) return column;
    if (values.some((v) => INFINITY.test(v))) return { ...column, type: 'DOUBLE' };
    if (!padded.has(i) || values.length === 0) return column;
    return { ...column, type: values.every((v) => WHOLE.test(v)) ? 'BIGINT' : 'DOUBLE' };
  });
  return { ...dialect, columns };
}

/** The texts pandas reads as missing (read_csv's default na_values), so both engines agree. */
const PANDAS_NA = [
  '',
  '#N/A',
  '#N/A N/A',
  '#NA',
  '-1.#IND',
  '-1.#QNAN',
  '-NaN',
  '-nan',
  '1.#IND',
  '1.#QNAN',
  '<NA>',
  'N/A',
  'NA',
  'NULL',
  'NaN',
  'None',
  'n/a',
  'nan',
  'null',
];

/**
 * pandas' missing texts but "None": in a column of words "None" is a level (birdstrikes.csv's
 * "Effect Amount of damage": None on 89% of rows, beside Minor and Medium). Only a file that
 * writes None where a number, a date or a boolean is missing (a Python export) uses it as its
 * missing marker, in every column.
 */
const TEXT_NA = PANDAS_NA.filter((text) => text !== 'None');

const SniffRow = z.object({
  Quote: z.string(),
  Escape: z.string(),
  NewLineDelimiter: z.string(),
  Columns: z.array(z.object({ name: z.string(), type: z.string() })),
  DateFormat: z.string().nullable(),
  TimestampFormat: z.string().nullable(),
});

const unset = (text: string): string => (text === '(empty)' ? '' : text);

const PANDAS_NA_SET: ReadonlySet<string> = new Set(PANDAS_NA);

/** Whether pandas reads this field, exactly as written, as missing. */
export function isPandasNa(field: string): boolean {
  return PANDAS_NA_SET.has(field);
}

/**
 * Which texts a read takes as missing: all of pandas' (`pandas`, a file that writes None for a
 * missing number), all but "None" (`words`), or only the empty field (`empty`), the rest of
 * TEXT_NA then left to the query (createCsvTable) or the caller (sampleText). The reader compares
 * every field with each text of its list, so the short list reads faster.
 */
export type CsvNulls = 'pandas' | 'words' | 'empty';

/** The options every read of the plan shares: no comment lines, no renaming, short rows padded. */
function planOptions(plan: CsvPlan, nulls: CsvNulls = 'pandas'): string[] {
  const missing = nulls === 'pandas' ? PANDAS_NA : nulls === 'words' ? TEXT_NA : [''];
  return [
    `delim=${literal(plan.delimiter)}`,
    `header=${plan.headerless ? 'false' : 'true'}`,
    `skip=${plan.skip}`,
    "comment=''",
    'normalize_names=false',
    'null_padding=true',
    `nullstr=[${missing.map(literal).join(', ')}]`,
    `compression=${plan.gzip ? "'gzip'" : "'none'"}`,
    ...(plan.serial ? ['parallel=false'] : []),
  ];
}

/**
 * The buffer a read of the first rows uses: DuckDB's default (16 × its 2 MiB longest line) reads
 * 32 MiB per thread, most of a 62 MB file, for 5,000 rows; its own first touch made the sample
 * of 1M rows cost 140–290 ms in a new process against 55–95. No smaller: a line longer than the
 * buffer fails the read, or (seen at 256 KiB) is left out without a word; at 2 MiB it is the
 * longest line DuckDB reads by default anyway.
 */
const HEAD_BUFFER_BYTES = 2 * 1024 * 1024;

/**
 * The buffer the whole file is read through. DuckDB's default, 32 MiB, is four of the 8 MB
 * stretches a thread parses at a time; each new buffer is fresh memory the kernel maps page by
 * page, and on a 1M-row file the load took 0.90 s of wall time and 1.53 CPU-s through it against
 * 0.69 and 1.31 through 8 MiB (300k rows 383 → 339 ms, 3M rows 2.08 → 1.98 s, 10M rows the
 * same). At least the longest line DuckDB reads (2 MiB).
 */
const LOAD_BUFFER_BYTES = 8 * 1024 * 1024;

/** Runs DuckDB's sniffer on the plan; `fullScan` samples every row instead of the first 20 480. */
export async function sniffCsv(
  db: DuckDb,
  plan: CsvPlan,
  fullScan: boolean,
  signal?: AbortSignal,
): Promise<CsvDialect> {
  const options = [
    ...planOptions(plan),
    ...(plan.pandasQuotes ? [`quote='"'`, `escape='"'`] : []),
    ...(plan.newLine ? [`new_line=${literal(plan.newLine)}`] : []),
    // The first 20,480 rows need no 32 MiB buffer (HEAD_BUFFER_BYTES); the sample is the same.
    ...(fullScan ? ['sample_size=-1'] : [`buffer_size=${HEAD_BUFFER_BYTES}`]),
  ].join(', ');
  const rows = await db.objects(
    `SELECT Quote, Escape, NewLineDelimiter, Columns, DateFormat, TimestampFormat
       FROM sniff_csv(${literal(plan.path)}, ${options})`,
    signal,
  );
  const row = SniffRow.parse(rows[0]);
  return {
    quote: unset(row.Quote),
    escape: unset(row.Escape),
    newLine: unset(row.NewLineDelimiter),
    columns: row.Columns,
    dateFormat: row.DateFormat,
    timestampFormat: row.TimestampFormat,
  };
}

/** The placeholder name DuckDB gives column `index` while reading (real names are set by alias). */
const placeholder = (index: number): string => `c${index}`;

/**
 * A read_csv call with everything fixed: the dialect, and `types` for the columns in order;
 * `head`: only the first rows are read (a smaller buffer).
 */
function readCsvSql(
  plan: CsvPlan,
  dialect: CsvDialect,
  types: readonly string[],
  nulls: CsvNulls = 'pandas',
  head = false,
): string {
  const columns = types.map((type, i) => `${literal(placeholder(i))}: ${literal(type)}`);
  const options = [
    ...planOptions(plan, nulls),
    `buffer_size=${head ? HEAD_BUFFER_BYTES : LOAD_BUFFER_BYTES}`,
    'auto_detect=false',
    `quote=${literal(dialect.quote)}`,
    `escape=${literal(dialect.escape)}`,
    ...(dialect.newLine ? [`new_line=${literal(dialect.newLine)}`] : []),
    ...(dialect.dateFormat ? [`dateformat=${literal(dialect.dateFormat)}`] : []),
    ...(dialect.timestampFormat ? [`timestampformat=${literal(dialect.timestampFormat)}`] : []),
    `columns={${columns.join(', ')}}`,
  ];
  return `read_csv(${literal(plan.path)}, ${options.join(', ')})`;
}

/** Columns per read of a wide file's sample. */
const WIDE_SAMPLE_COLUMNS = 250;
/** Up to this many columns, the sample comes back as one JSON text (each list() holds its own buffers, so not for thousands). */
const JSON_SAMPLE_COLUMNS = 64;

/** Rows sampled as text to decide the file's locale: at most this many… */
const LOCALE_SAMPLE_ROWS = 5000;
/**
 * … and fewer for a wide file, down to LOCALE_MIN_ROWS, so that the sample holds about this many
 * values: each comes to JavaScript as a string, and 5,000 rows of a 301-column file (1.5 million
 * strings) took 1.3 s of the main thread, most of it garbage collection, before the load began.
 * A column's vote needs far fewer values; a missing text past the sample is met by the load's
 * retries (materialise), as in a narrow file.
 */
const LOCALE_SAMPLE_VALUES = 100_000;
const LOCALE_MIN_ROWS = 500;

/** How many rows of a file of `columns` columns the locale sample reads. */
export function localeSampleRows(columns: number): number {
  const fit = Math.floor(LOCALE_SAMPLE_VALUES / Math.max(1, columns));
  return Math.min(LOCALE_SAMPLE_ROWS, Math.max(LOCALE_MIN_ROWS, fit));
}

/**
 * The first `limit` rows as written, every column as text: the evidence for the file's locale.
 * Only empty fields are missing (null): pandas' other missing texts come back as written, for
 * the caller to see where they are (isPandasNa).
 */
export async function sampleText(
  db: DuckDb,
  plan: CsvPlan,
  dialect: CsvDialect,
  limit: number,
  signal?: AbortSignal,
): Promise<(string | null)[][]> {
  const types = dialect.columns.map(() => 'VARCHAR');
  if (types.length === 0) return [];
  const rows = `SELECT * FROM ${readCsvSql(plan, dialect, types, 'empty', true)} LIMIT ${limit}`;
  if (types.length > JSON_SAMPLE_COLUMNS) {
    // A few hundred columns per read: the reader holds a vector of 2,048 values for each column
    // it returns, so all 5,000 columns of a 1.5 MB file at once took over 500 MB.
    const out: (string | null)[][] = [];
    for (let from = 0; from < types.length; from += WIDE_SAMPLE_COLUMNS) {
      const names = types
        .slice(from, from + WIDE_SAMPLE_COLUMNS)
        .map((_, i) => ident(placeholder(from + i)));
      const result = await db.all(
        `SELECT ${names.join(', ')} FROM ${readCsvSql(plan, dialect, types, 'empty', true)} LIMIT ${limit}`,
        signal,
      );
      names.forEach((_, i) =>
        out.push(result.rows.map((row) => (typeof row[i] === 'string' ? row[i] : null))),
      );
    }
    return out;
  }
  // A JSON text of each column's values: parsed by V8 in a fraction of the time that converting
  // each value of the result to JS takes. One text per column, not one list of lists: DuckDB
  // writes the nested list half as fast (10,000 rows × 10 columns: 28–44 against 17 ms).
  const lists = types.map((_, i) => {
    const name = ident(placeholder(i));
    return `CAST(to_json(list(${name})) AS VARCHAR) AS ${name}`;
  });
  const result = await db.all(`SELECT ${lists.join(', ')} FROM (${rows})`, signal);
  const texts = result.rows[0] ?? [];
  return dialect.columns.map((_, i) => {
    const text = texts[i];
    const values: unknown = typeof text === 'string' ? JSON.parse(text) : null;
    return Array.isArray(values) ? values.map((v) => (typeof v === 'string' ? v : null)) : [];
  });
}

/**
 * Column `i` as the table holds it. Read with `empty` nulls, pandas' other missing texts are made
 * missing here: in a text column by name; in a DOUBLE column they are the spellings of NaN the
 * reader parses ('NaN', '-nan', …), so NaN is; in any other type they fail the read.
 */
function columnSelect(index: number, type: string, nulls: CsvNulls): string {
  const c = ident(placeholder(index));
  if (nulls !== 'empty') return c;
  if (type === 'VARCHAR') {
    // A CASE of its own, not `IN (…)`: DuckDB plans a long IN list as a join, and a join in the
    // read lets the row groups land out of file order (rowid is the file's line order).
    const whens = TEXT_NA.filter((text) => text !== '').map((t) => `WHEN ${literal(t)} THEN NULL`);
    return `CASE ${c} ${whens.join(' ')} ELSE ${c} END`;
  }
  return type === 'DOUBLE' || type === 'FLOAT'
    ? `CASE WHEN isnan(${c}) THEN NULL ELSE ${c} END`
    : c;
}

/**
 * Materialises the file as the `data` table: column i typed `types[i]` and named `names[i]`.
 * With `empty` nulls, a missing text of pandas' in a column of numbers, dates or booleans fails
 * the read with a Conversion Error, as a value its type cannot hold does.
 */
export async function createCsvTable(
  db: DuckDb,
  plan: CsvPlan,
  dialect: CsvDialect,
  columns: readonly { name: string; type: string }[],
  nulls: CsvNulls,
  signal?: AbortSignal,
): Promise<void> {
  const select = columns.map(
    (column, i) => `${columnSelect(i, column.type, nulls)} AS ${ident(column.name)}`,
  );
  const source = readCsvSql(
    plan,
    dialect,
    columns.map((column) => column.type),
    nulls,
  );
  await db.run(
    `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT ${select.join(', ')} FROM ${source}`,
    signal,
  );
}

/**
 * The sampled text of each column: the values pandas does not read as missing, trimmed; the
 * columns where the sample holds one of pandas' missing texts other than the empty field; and
 * those where it writes a value with spaces around it (withTextNumbers' `padded`).
 */
export function cleanSamples(raw: (string | null)[][]): {
  samples: string[][];
  withNa: Set<number>;
  withNone: Set<number>;
  padded: Set<number>;
} {
  const [withNa, withNone, padded] = [new Set<number>(), new Set<number>(), new Set<number>()];
  const samples = raw.map((values, column) => {
    const kept: string[] = [];
    for (const value of values) {
      if (value !== null && isPandasNa(value)) {
        withNa.add(column);
        if (value === 'None') withNone.add(column);
        continue;
      }
      const trimmed = value?.trim();
      if (trimmed) kept.push(trimmed);
      if (trimmed && trimmed !== value) padded.add(column);
    }
    return kept;
  });
  return { samples, withNa, withNone, padded };
}
