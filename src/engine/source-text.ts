/**
 * Reading a delimited text file (CSV, TSV, ';' or '|' separated, maybe gzip) into `data`: the
 * encoding and dialect decided as the pandas reader decides them, DuckDB's sniffer for quoting
 * and types, then the locale pass (decimal commas, thousands, day-first dates) on what stayed text.
 */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { DuckDb } from './duckdb.js';
import type { SourceLocale } from './types.js';
import {
  asBadInput,
  badInput,
  describeData,
  dropRowNames,
  emptyTable,
  toBadInput,
} from './source-common.js';
import { oneLine, withoutFooter, withoutTitle } from './source-footer.js';
import type { HostContext, ReadContext, ReadOutcome, TableColumn } from './source-common.js';
import {
  createCsvTable,
  cleanSamples,
  localeSampleRows,
  pandasQuoting,
  sampleText,
  sniffCsv,
  withTextNumbers,
} from './source-csv.js';
import type { CsvDialect, CsvNulls, CsvPlan } from './source-csv.js';
import { sampleDayFirst, settleDates } from './source-dates.js';
import { offsetColumns, offsetTimes } from './source-offsets.js';
import { findHeader, lineEnd, pandasNames, parseRows, sniffDelimiter } from './source-dialect.js';
import type { HeaderPlace } from './source-dialect.js';
import { convertLocaleNumbers, decideNumberLocale, pointGroupedDoubles } from './source-locale.js';
import type { NumberLocale } from './source-locale.js';
import type { DetectedFormat } from './source-sniff.js';
import { prepareText } from './source-transcode.js';
import { tabbedText, WHITESPACE } from './source-whitespace.js';

const MALFORMED = 'not a well-formed delimited file';

/** The column names: the header as written (pandas-style for empty and repeated ones). */
function columnNames(header: readonly string[], dialect: CsvDialect): string[] {
  const fromHeader = header.length === dialect.columns.length;
  return pandasNames(fromHeader ? header : dialect.columns.map((column) => column.name));
}

/** Why the sniffer gave up, in the reader's words when the sample shows it (a ragged row). */
function sniffFailure(sample: string, place: HeaderPlace, delimiter: string, error: unknown) {
  const rows = parseRows(sample, delimiter).filter((row) => row.startLine > place.skipLines);
  const ragged = rows.find((row) => row.fields.length > place.header.length);
  if (ragged) {
    const { startLine, fields } = ragged;
    const counts = `${fields.length} fields but the header has ${place.header.length}`;
    return badInput(`${MALFORMED}: line ${startLine + 1} has ${counts}`);
  }
  const sniffer = error instanceof Error && error.message.includes('Error when sniffing');
  return sniffer
    ? badInput(`${MALFORMED}: its quoting or number of fields per line is inconsistent`)
    : toBadInput(MALFORMED, undefined, error);
}

/** The words pandas' reader takes for a boolean: any other (yes/no, t/f) leaves the column text. */
const PANDAS_BOOLEANS = new Set(['True', 'TRUE', 'true', 'False', 'FALSE', 'false']);

/**
 * Indexes of the columns DuckDB's sniffer types BOOLEAN from words pandas keeps as text ("Yes" and
 * "No", "t" and "f"): read as text, so the report says the file's own words, not True and False.
 */
function textBooleans(columns: readonly TableColumn[]): number[] {
  return columns.flatMap((column, index) =>
    column.type === 'BOOLEAN' && column.sample.some((value) => !PANDAS_BOOLEANS.has(value))
      ? [index]
      : [],
  );
}

/** Column types to read with: the sniffer's, but text where the locale pass decides. */
const typesFor = (dialect: CsvDialect, asText: ReadonlySet<number>): string[] =>
  dialect.columns.map((column, i) => (asText.has(i) ? 'VARCHAR' : column.type));

/** Whether a read failed on a value its column's type cannot hold (other failures are the file's). */
async function converted(attempt: () => Promise<void>, ctx: ReadContext): Promise<boolean> {
  try {
    await attempt();
    return true;
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('Conversion Error'))
      throw toBadInput(MALFORMED, ctx.signal, error);
    return false;
  }
}

/**
 * Creates `data`; when a value past the sniffer's sample breaks its types, sniffs the whole file
 * and reads again. `nulls` says how the first read finds pandas' missing texts: by the empty field
 * alone (`empty`, faster) when the sample shows none of the others in a column typed other than
 * text; a read that then meets one in such a column is redone with the whole list. Returns the
 * dialect the table was read with.
 */
async function materialise(
  ctx: ReadContext,
  plan: CsvPlan,
  dialect: CsvDialect,
  names: readonly string[],
  asText: ReadonlySet<number>,
  nulls: CsvNulls,
): Promise<CsvDialect> {
  const columns = (d: CsvDialect) =>
    typesFor(d, asText).map((type, i) => ({ name: names[i] ?? '', type }));
  const read = (d: CsvDialect, n: CsvNulls) => () =>
    createCsvTable(ctx.db, plan, d, columns(d), n, ctx.signal);
  if (await converted(read(dialect, nulls), ctx)) return dialect;
  // A missing text past the sample, in a typed column: the longer lists, in turn.
  const longer: CsvNulls[] =
    nulls === 'empty' ? ['words', 'pandas'] : nulls === 'words' ? ['pandas'] : [];
  for (const n of longer) if (await converted(read(dialect, n), ctx)) return dialect;
  return asBadInput(MALFORMED, ctx.signal, async () => {
    const full = await sniffCsv(ctx.db, plan, true, ctx.signal);
    if (full.columns.length !== names.length)
      throw badInput(`${MALFORMED}: its number of columns changes along the file`);
    await read(full, 'pandas')();
    return full;
  });
}

/** The table's columns with their types now, and their sampled text. */
async function tableColumns(db: DuckDb, samples: string[][], signal?: AbortSignal) {
  const described = await describeData(db, signal);
  return described.map((column, i): TableColumn => ({ ...column, sample: samples[i] ?? [] }));
}

/**
 * `empty` when no column typed other than text shows pandas' other missing texts in the sample;
 * else `pandas` when one shows None (the file's missing marker), else `words`.
 */
function nullsFor(
  types: readonly string[],
  withNa: ReadonlySet<number>,
  withNone: ReadonlySet<number>,
): CsvNulls {
  const typed = (set: ReadonlySet<number>): boolean =>
    [...set].some((i) => (types[i] ?? 'VARCHAR') !== 'VARCHAR');
  return typed(withNone) ? 'pandas' : typed(withNa) ? 'words' : 'empty';
}

/** The locale to report: the separators used, when some column needed them. */
const usedLocale = (locale: NumberLocale, converted: readonly string[]): NumberLocale =>
  converted.length > 0
    ? { decimal: locale.decimal, thousands: locale.thousands }
    : { decimal: '.', thousands: null };

/**
 * The file made readable, its delimiter, header and footer found: the host's part of the read,
 * which needs no database (attachSource runs it while DuckDB is still starting).
 */
export async function planText(ctx: HostContext, detected: DetectedFormat) {
  const prepared = await prepareText(ctx, detected.gzip, '.csv');
  const preferred = detected.extension === '.tsv' || detected.extension === '.tab' ? '\t' : ',';
  const sniffed = sniffDelimiter(prepared.sample, preferred);
  // Columns lined up with spaces: DuckDB reads a copy with a tab for each run (no footer sought).
  const text = sniffed === WHITESPACE ? await tabbedText(ctx, prepared) : prepared;
  const delimiter = sniffed === WHITESPACE ? '\t' : sniffed;
  const place = findHeader(text.sample, delimiter, text.cut);
  const titled = withoutTitle(ctx, text, place.skipLines);
  const table = titled ? { ...text, readPath: titled } : text;
  const footer =
    sniffed === WHITESPACE ? null : withoutFooter(ctx, table, delimiter, place.header.length);
  const plan: CsvPlan = {
    path: footer?.path ?? table.readPath,
    gzip: text.gzip,
    delimiter,
    skip: titled ? 0 : place.skipLines,
    pandasQuotes: pandasQuoting(text.sample),
    ...(place.headerless ? { headerless: true } : {}),
  };
  // One line and nothing after it: a header without rows, which DuckDB's sniffer need not read.
  const headerOnly = !text.gzip && oneLine(text.readPath);
  return { text, place, plan, footer: footer?.lines ?? [], headerOnly, delimiter: sniffed };
}

/** What planText found about a delimited file. */
export type TextPlan = Awaited<ReturnType<typeof planText>>;

/**
 * The host's plan, and DuckDB's sniffer run on it (the locale sample read beside it, when it can).
 * A sniff that fails where a quoted field breaks a line before the first line ends (lineEnd), or
 * where the title lines above the header end otherwise than the table's lines, is run again told
 * the header's line end: DuckDB guesses line ends from the first break it meets.
 */
async function planRead(ctx: ReadContext, host: TextPlan) {
  const { text, place } = host;
  let plan = host.plan;
  const sniffing = sniffCsv(ctx.db, plan, false, ctx.signal);
  const early = earlySample(ctx, host);
  const sniffed = await sniffing.catch(async (error: unknown) => {
    if (ctx.signal?.aborted) throw error;
    const newLine = plan.pandasQuotes ? lineEnd(text.sample, true, place.skipLines) : null;
    if (newLine !== null && newLine !== lineEnd(text.sample, false)) {
      plan = { ...plan, newLine };
      const told = await sniffCsv(ctx.db, plan, false, ctx.signal).catch(() => null);
      if (told) return told;
    }
    throw sniffFailure(text.sample, place, plan.delimiter, error);
  });
  const names = columnNames(place.header, sniffed);
  return { ...host, plan, sniffed, names, early };
}

/**
 * The locale sample read while the sniffer types the columns, when the host already knows the
 * dialect it only needs the text in: pandas' quoting, the line ends of the file's start, a field
 * per header name. Used only if the sniffer finds that dialect (sampleOf); ~50 ms of every start.
 */
function earlySample(ctx: ReadContext, { text, place, plan }: TextPlan) {
  const newLine = plan.pandasQuotes ? lineEnd(text.sample, true, place.skipLines) : null;
  if (newLine === null || place.header.length === 0) return null;
  const dialect: CsvDialect = {
    quote: '"',
    escape: '"',
    newLine,
    columns: place.header.map((name) => ({ name, type: 'VARCHAR' })),
    dateFormat: null,
    timestampFormat: null,
  };
  const rows = localeSample(ctx, plan, dialect);
  rows.catch(() => undefined);
  return { plan, dialect, rows };
}

/** The locale sample of the planned read: the early one when its dialect is the sniffer's. */
async function sampleOf(ctx: ReadContext, planned: PlannedRead): Promise<(string | null)[][]> {
  const { early, plan, sniffed } = planned;
  const same =
    early?.plan === plan &&
    early.dialect.quote === sniffed.quote &&
    early.dialect.escape === sniffed.escape &&
    early.dialect.newLine === sniffed.newLine &&
    early.dialect.columns.length === sniffed.columns.length;
  if (same) {
    const rows = await early.rows.catch(() => null);
    if (rows) return rows;
  }
  return localeSample(ctx, plan, sniffed);
}

/** The first rows of the file as text, for its locale (localeSampleRows: fewer in a wide file). */
function localeSample(ctx: ReadContext, plan: CsvPlan, dialect: CsvDialect) {
  return sampleText(ctx.db, plan, dialect, localeSampleRows(dialect.columns.length), ctx.signal);
}

/** The locale pass over `data`: text columns that are numbers, then numeric dates. */
async function applyLocale(
  ctx: ReadContext,
  samples: string[][],
  numbers: NumberLocale,
  dialect: CsvDialect,
): Promise<{ locale: SourceLocale; warnings: string[] }> {
  const before = await tableColumns(ctx.db, samples, ctx.signal);
  const converted = await convertLocaleNumbers(ctx.db, before, numbers, ctx.signal);
  const after = await tableColumns(ctx.db, samples, ctx.signal);
  const dates = await settleDates(ctx.db, after, dialect, ctx.signal);
  const locale = { ...usedLocale(numbers, converted), dateOrder: dates.dateOrder };
  return { locale, warnings: dates.warnings };
}

type PlannedRead = Awaited<ReturnType<typeof planRead>>;

/**
 * Runs `read` on the plan, and once more on one thread when it fails as a malformed file while
 * the dialect quotes fields: a quoted line break fails the parallel reader only (the serial
 * attempt's own error is the one reported when that fails too).
 */
async function withSerialRetry<T>(
  ctx: ReadContext,
  planned: PlannedRead,
  read: (planned: PlannedRead) => Promise<T>,
): Promise<T> {
  try {
    return await read(planned);
  } catch (error) {
    const malformed =
      error instanceof OpsmindError &&
      error.exitCode === ExitCode.BAD_INPUT &&
      !ctx.signal?.aborted;
    if (!malformed || planned.sniffed.quote === '' || planned.plan.serial) throw error;
    return read({ ...planned, plan: { ...planned.plan, serial: true } });
  }
}

/** Reads the delimited text file of `ctx` into `data` (`host`: its planText, when already made). */
export async function readDelimited(
  ctx: ReadContext,
  detected: DetectedFormat,
  host?: TextPlan,
): Promise<ReadOutcome> {
  const plan = host ?? (await planText(ctx, detected));
  if (plan.headerOnly) return headerOnly(ctx, plan, detected);
  const planned = await planRead(ctx, plan);
  return withSerialRetry(ctx, planned, (p) => readPlanned(ctx, detected, p));
}

async function readPlanned(
  ctx: ReadContext,
  detected: DetectedFormat,
  planned: PlannedRead,
): Promise<ReadOutcome> {
  const { place, plan, sniffed, names, footer } = planned;
  const raw = await asBadInput(MALFORMED, ctx.signal, () => sampleOf(ctx, planned));
  const { samples, withNa, withNone, padded } = cleanSamples(raw);
  const typed = withTextNumbers(sniffed, samples, padded);
  const columns = typed.columns.map((c, i) => ({
    name: names[i] ?? '',
    type: c.type,
    sample: samples[i] ?? [],
  }));
  const numbers = decideNumberLocale(columns, plan.delimiter);
  const [offsets, points] = [offsetColumns(columns), pointGroupedDoubles(columns, numbers)];
  const asText = new Set([...points, ...textBooleans(columns), ...offsets]);
  const nulls = nullsFor(typesFor(typed, asText), withNa, withNone);
  const dialect = await materialise(ctx, plan, typed, names, asText, nulls);
  const walls = await offsetTimes(ctx.db, offsets, columns, ctx.signal);
  const { locale, warnings } = await applyLocale(ctx, samples, numbers, dialect);
  if (place.rowNames) await dropRowNames(ctx.db, names[0] ?? '', ctx.signal);
  const title = place.warnings;
  const shown = footer.map((l) => JSON.stringify(l.length > 60 ? `${l.slice(0, 57)}…` : l));
  const below = footer.length
    ? [
        `left out ${footer.length} line(s) below the data (a footer: ${shown.slice(0, 2).join(', ')}${footer.length > 2 ? ', …' : ''})`,
      ]
    : [];
  return csvOutcome(planned, detected, locale, [...title, ...below, ...walls, ...warnings]);
}

/** What a read of a delimited file found: its dialect, and the text's warnings before `warnings`. */
function csvOutcome(
  { text, delimiter, place }: Pick<TextPlan, 'text' | 'delimiter' | 'place'>,
  detected: DetectedFormat,
  locale: SourceLocale,
  warnings: string[],
): ReadOutcome {
  return {
    format: 'csv',
    encoding: text.encoding,
    delimiter,
    compression: detected.gzip ? 'gzip' : null,
    sheet: null,
    locale,
    skippedLines: place.titleLines,
    warnings: [...text.warnings, ...warnings],
  };
}

/**
 * How the numbers of a delimited text file are written, and whether its numeric dates read day
 * first, from a sample only (no table is made): what the sandbox's pandas reader is told, so its
 * `df` reads the numbers and dates the engine reads.
 */
export async function sniffNumberLocale(
  ctx: ReadContext,
  detected: DetectedFormat,
): Promise<NumberLocale & { dayFirst: boolean }> {
  const planned = await planRead(ctx, await planText(ctx, detected));
  const { plan, sniffed, names } = planned;
  const { samples } = cleanSamples(
    await withSerialRetry(ctx, planned, (p) =>
      asBadInput(MALFORMED, ctx.signal, () => sampleOf(ctx, p)),
    ),
  );
  const columns = sniffed.columns.map((c, i) => ({
    name: names[i] ?? '',
    type: c.type,
    sample: samples[i] ?? [],
  }));
  const { decimal, thousands } = decideNumberLocale(columns, plan.delimiter);
  return { decimal, thousands, dayFirst: sampleDayFirst(columns, sniffed) };
}

/**
 * A file of one line: its header, every column text and no row, as pandas reads it (statsmodels'
 * poisson_resid.csv, one line of 20,190 numbers, took DuckDB's sniffer minutes and near 1 GB).
 */
async function headerOnly(
  ctx: ReadContext,
  host: TextPlan,
  detected: DetectedFormat,
): Promise<ReadOutcome> {
  await emptyTable(ctx.db, pandasNames(host.place.header), ctx.signal);
  const locale: SourceLocale = { decimal: '.', thousands: null, dateOrder: null };
  return csvOutcome(host, detected, locale, host.place.warnings);
}
