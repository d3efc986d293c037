/**
 * Reading one sheet of an Excel workbook (.xlsx, .xlsm) into `data`: the first row is the header,
 * cells keep their types (numbers, booleans, dates, text), and the sheet reaches DuckDB as a
 * JSON-lines file in the scratch directory read with explicit column types.
 *
 * read-excel-file does the parsing: it is maintained, small, pure JavaScript (no native build,
 * nothing to download) and reads offline from a path; DuckDB's own Excel support is an extension
 * the locked engine never loads. It holds the workbook in memory, which suits spreadsheets.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Sheet } from 'read-excel-file/node';
import { ident, literal } from './duckdb.js';
import { DATA_RELATION } from './types.js';
import { badInput, DEFAULT_LOCALE, scratchPath } from './source-common.js';
import type { ReadContext, ReadOutcome } from './source-common.js';
import { pandasNames } from './source-dialect.js';
import { importEsm } from '../util/esm-import.js';
import type * as ReadExcelFile from 'read-excel-file/node';

type Cell = string | number | boolean | Date | null;
type ColumnType = 'BOOLEAN' | 'BIGINT' | 'DOUBLE' | 'DATE' | 'TIMESTAMP' | 'VARCHAR';

/** Every sheet of the workbook; a file that is not one is refused. */
async function loadSheets(path: string): Promise<Sheet[]> {
  try {
    // Loaded here, not at start-up: its 68 modules cost every command that reads no workbook.
    const { default: readExcelFile } =
      await importEsm<typeof ReadExcelFile>('read-excel-file/node');
    return await readExcelFile(path, { trim: false });
  } catch (error) {
    if (!/\.xls[xm]$/i.test(path))
      throw badInput(
        'the file is a ZIP archive, not an Excel workbook; unzip it and pass the data file',
      );
    const text = error instanceof Error ? error.message : String(error);
    throw badInput(`not a readable Excel workbook: ${text}`);
  }
}

/** The sheet asked for by name, else the first; an unknown name lists the sheets there are. */
function pickSheet(sheets: Sheet[], wanted: string | undefined): Sheet {
  const found = wanted === undefined ? sheets[0] : sheets.find((s) => s.sheet === wanted);
  if (found) return found;
  const names = sheets.map((s) => JSON.stringify(s.sheet)).join(', ');
  if (wanted === undefined) throw badInput('the workbook has no sheets');
  throw badInput(`the workbook has no sheet named ${JSON.stringify(wanted)}; its sheets: ${names}`);
}

const isMidnight = (date: Date): boolean => date.getTime() % 86_400_000 === 0;

/** The DuckDB type holding every value of a column (text when they mix). */
function columnType(values: Cell[]): ColumnType {
  const present = values.filter((value) => value !== null);
  if (present.length === 0) return 'VARCHAR';
  if (present.every((value) => typeof value === 'boolean')) return 'BOOLEAN';
  if (present.every((value) => typeof value === 'number'))
    return present.every((value) => Number.isSafeInteger(value)) ? 'BIGINT' : 'DOUBLE';
  if (present.every((value) => value instanceof Date))
    return present.every((value) => isMidnight(value)) ? 'DATE' : 'TIMESTAMP';
  return 'VARCHAR';
}

/** A date as ISO text: the day for DATE, day and time (UTC, as Excel's serial dates are) otherwise. */
function isoText(date: Date, type: ColumnType): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return type === 'DATE' ? iso.slice(0, 10) : iso.slice(0, 23).replace('T', ' ');
}

/** A cell as JSON for a column of `type`. */
function jsonValue(cell: Cell, type: ColumnType): string | number | boolean | null {
  if (cell === null) return null;
  if (cell instanceof Date) return isoText(cell, type);
  if (type === 'VARCHAR') return String(cell);
  return cell;
}

/** The header cell as a column name. */
const headerText = (cell: Cell | undefined): string =>
  cell === null || cell === undefined
    ? ''
    : cell instanceof Date
      ? isoText(cell, 'TIMESTAMP')
      : String(cell);

/** The sheet's rows as JSON lines keyed c0…cN (names may repeat, so they are set by alias). */
function* jsonLines(rows: Cell[][], types: ColumnType[]): Generator<string> {
  const batch: string[] = [];
  for (const row of rows) {
    const record = Object.fromEntries(
      types.map((type, i) => [`c${i}`, jsonValue(row[i] ?? null, type)]),
    );
    batch.push(JSON.stringify(record));
    if (batch.length === 1000) yield `${batch.splice(0).join('\n')}\n`;
  }
  if (batch.length > 0) yield `${batch.join('\n')}\n`;
}

/** Writes the rows into the scratch directory and creates `data` from them. */
async function loadRows(ctx: ReadContext, names: string[], types: ColumnType[], rows: Cell[][]) {
  const file = scratchPath(ctx, '.jsonl');
  await pipeline(
    Readable.from(jsonLines(rows, types)),
    createWriteStream(file),
    ctx.signal ? { signal: ctx.signal } : {},
  );
  const columns = types.map((type, i) => `${literal(`c${i}`)}: ${literal(type)}`).join(', ');
  const select = names.map((name, i) => `${ident(`c${i}`)} AS ${ident(name)}`).join(', ');
  const source =
    rows.length === 0
      ? `(SELECT ${types.map((type, i) => `NULL::${type} AS ${ident(`c${i}`)}`).join(', ')} LIMIT 0)`
      : `read_json(${literal(file)}, format='newline_delimited', columns={${columns}})`;
  await ctx.db.run(
    `CREATE OR REPLACE TABLE ${ident(DATA_RELATION)} AS SELECT ${select} FROM ${source}`,
    ctx.signal,
  );
}

/** Reads one sheet of the workbook of `ctx` (`ctx.sheet`, else the first) into `data`. */
export async function readExcel(ctx: ReadContext): Promise<ReadOutcome> {
  const sheets = await loadSheets(ctx.path);
  const sheet = pickSheet(sheets, ctx.sheet);
  // read-excel-file types a date cell as `typeof Date`; at run time it is a Date instance.
  const [header, ...rows] = sheet.data as Cell[][];
  if (!header) throw badInput(`the sheet ${JSON.stringify(sheet.sheet)} is empty`);
  const width = rows.reduce((most, row) => Math.max(most, row.length), header.length);
  const names = pandasNames(Array.from({ length: width }, (_, i) => headerText(header[i])));
  const types = names.map((_, i) => columnType(rows.map((row) => row[i] ?? null)));
  await loadRows(ctx, names, types, rows);
  const warnings =
    ctx.sheet === undefined && sheets.length > 1
      ? [
          `the workbook has ${sheets.length} sheets; read the first, ${JSON.stringify(sheet.sheet)} (choose another with --sheet)`,
        ]
      : [];
  return {
    format: 'excel',
    encoding: null,
    delimiter: null,
    compression: null,
    sheet: sheet.sheet,
    locale: { ...DEFAULT_LOCALE },
    skippedLines: 0,
    warnings,
  };
}
