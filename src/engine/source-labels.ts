/**
 * Periods written as labels, the way spreadsheet and BI exports write them and pandas does not
 * read: quarters ("Q1 2022", "2022 Q3", "Q4-23", "Qtr 2 2024"), months ("Jan-23", Excel's
 * mmm-yy; "01/2024", "1.2024") and ISO weeks ("2024-W05", "KW 05/2024", read as their Mondays). A text column whose every value is one kind is read as dates, the
 * first day of each period, in place — else a quarterly or monthly export is a column of
 * categories, charted by value rather than over time. The forms pandas reads itself ("2022Q1",
 * "Jan-2023") stay text, parsed as the profile parses dates. A two-digit year is read as
 * strptime's %y reads it (69–99 the 1900s); "Jan-23" is January 2023 (Excel writes a day of
 * January as "23-Jan"). So are whole numbers writing each month as YYYYMM (202401) in a column
 * named as a month or period. The sandbox's reader converts the same columns
 * (opsmind_data._read_labels).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';

/** "Q1 2022", "Q1-22", "Q1 '22", "Qtr 1 2022": the quarter, then its year (RE2 and Python alike). */
export const QUARTER_FIRST =
  "^(?:[Qq]|[Qq][Tt][Rr]) ?([1-4]) *[-/.' ] *'?((?:1[89]|2[01])[0-9]{2}|[0-9]{2})$";
/** "2022 Q1", "2022/Q1", "2022 Qtr 1": the year, then its quarter. */
export const YEAR_FIRST = '^((?:1[89]|2[01])[0-9]{2}) *[-/. ]? *(?:[Qq]|[Qq][Tt][Rr]) ?([1-4])$';
/** "Jan-23", "Sept'24", "jan. '23": a month's English name, then a two-digit year. */
export const MONTH_NAMED =
  "(?i)^(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december)\\.?(?:-|'|-'| ')([0-9]{2})$";
/** "01/2024", "1-2024", "12.2024": a month's number, then its year. */
export const MONTH_NUMBERED = '^(0?[1-9]|1[0-2])[-/.]((?:1[89]|2[01])[0-9]{2})$';
/** "2024-W05", "2024W05", "2024 w5": a year, then its ISO week. */
export const WEEK_YEAR_FIRST = '^((?:1[89]|2[01])[0-9]{2}) ?-? ?[Ww](0?[1-9]|[1-4][0-9]|5[0-3])$';
/** "W05 2024", "KW 05/2024" (German Kalenderwoche): an ISO week, then its year. */
export const WEEK_FIRST =
  '^(?:[Ww]|[Kk][Ww]) ?(0?[1-9]|[1-4][0-9]|5[0-3]) *[-/ ] *((?:1[89]|2[01])[0-9]{2})$';
/** A name that says its numbers are months or periods (YYYYMM). */
export const MONTH_NUMBER_NAME =
  /(^|[^a-z])(month|period|yyyymm|yearmonth|monat|periode)([^a-z]|$)|month$/i;

const MONTH_WORDS =
  "['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']";

/** One way of writing a period: where its year and its part are, and the part's first month. */
interface LabelForm {
  pattern: string;
  year: number;
  part: number;
  /** The part's first month; none when the part is an ISO week (its Monday). */
  month?: (part: string) => string;
}

/** A kind of period label: its forms, and the forms pandas reads itself (left as text). */
interface LabelKind {
  unit: 'quarter' | 'month' | 'week';
  forms: LabelForm[];
  pandasReads: string | null;
}

const KINDS: readonly LabelKind[] = [
  {
    unit: 'quarter',
    forms: [QUARTER_FIRST, YEAR_FIRST].map((pattern, i) => ({
      pattern,
      year: i === 0 ? 2 : 1,
      part: i === 0 ? 1 : 2,
      month: (q) => `(CAST(${q} AS INTEGER) - 1) * 3 + 1`,
    })),
    pandasReads: '^[0-9]{4}-?[Qq][1-4]$',
  },
  {
    unit: 'month',
    forms: [
      {
        pattern: MONTH_NAMED,
        year: 2,
        part: 1,
        month: (m) => `list_position(${MONTH_WORDS}, lower(left(${m}, 3)))`,
      },
      { pattern: MONTH_NUMBERED, year: 2, part: 1, month: (m) => `CAST(${m} AS INTEGER)` },
    ],
    pandasReads: null,
  },
  {
    unit: 'week',
    forms: [
      { pattern: WEEK_YEAR_FIRST, year: 1, part: 2 },
      { pattern: WEEK_FIRST, year: 2, part: 1 },
    ],
    pandasReads: null,
  },
];

/** The Monday of ISO week `week` of `year` (SQL): week 1 holds January 4th. */
function isoWeekSql(year: string, week: string): string {
  const jan4 = `make_date(${year}, 1, 4)`;
  return `CAST(${jan4} - CAST(isodow(${jan4}) - 1 AS INTEGER) + (CAST(${week} AS INTEGER) - 1) * 7 AS TIMESTAMP)`;
}

/** The year of a label's year digits: four as written, two as %y reads them. */
function yearSql(digits: string): string {
  return `CASE WHEN length(${digits}) = 2 THEN CAST(${digits} AS INTEGER) + CASE WHEN CAST(${digits} AS INTEGER) < 69 THEN 2000 ELSE 1900 END ELSE CAST(${digits} AS INTEGER) END`;
}

/** Whether a trimmed text is a label of `kind`. */
const labelSql = (kind: LabelKind, text: string): string =>
  `(${kind.forms.map((f) => `regexp_full_match(${text}, ${literal(f.pattern)})`).join(' OR ')})`;

/** The first day of the period a trimmed label of `kind` writes (NULL for any other text). */
function startSql(kind: LabelKind, text: string): string {
  const cases = kind.forms.map(({ pattern, year, part, month }) => {
    const group = (n: number) => `regexp_extract(${text}, ${literal(pattern)}, ${n})`;
    const start = month
      ? `make_timestamp(${yearSql(group(year))}, ${month(group(part))}, 1, 0, 0, 0)`
      : isoWeekSql(yearSql(group(year)), group(part));
    return `WHEN regexp_full_match(${text}, ${literal(pattern)}) THEN ${start}`;
  });
  return `CASE ${cases.join(' ')} END`;
}

/** The aggregates that judge one column against one kind: values, labels, pandas' own, the least label. */
function judgeSql(kind: LabelKind, text: string): string[] {
  const label = labelSql(kind, text);
  const readable = kind.pandasReads
    ? `count(*) FILTER (WHERE regexp_full_match(${text}, ${literal(kind.pandasReads)}))`
    : '0';
  return [
    `count(${text})`,
    `count(*) FILTER (WHERE ${label})`,
    readable,
    `min(${text}) FILTER (WHERE ${label})`,
  ];
}

/** A pattern as a JavaScript RegExp (RE2's leading "(?i)" as the flag). */
const jsPattern = (pattern: string): RegExp =>
  pattern.startsWith('(?i)') ? new RegExp(pattern.slice(4), 'i') : new RegExp(pattern);
const SCREENS = KINDS.map((kind) => kind.forms.map((form) => jsPattern(form.pattern)));
/** Rows read to screen the text columns before the whole table is scanned (a file may have thousands). */
const SCREEN_ROWS = 100;

/** Columns screened per query: a row of thousands of text vectors would not fit in memory. */
const SCREEN_COLUMNS = 200;

/** Whether the first values of a column (one at least) are all labels of one kind. */
function looksLabelled(values: readonly unknown[]): boolean {
  const texts = values.flatMap((value) =>
    typeof value === 'string' && value.trim() !== '' ? [value.replace(/^ +| +$/g, '')] : [],
  );
  return (
    texts.length > 0 && SCREENS.some((forms) => texts.every((v) => forms.some((f) => f.test(v))))
  );
}

/** The text columns whose first values are all labels of one kind, screened a batch at a time. */
async function candidates(db: DuckDb, signal?: AbortSignal): Promise<{ name: string }[]> {
  const texts = (await describeData(db, signal)).filter((column) => column.type === 'VARCHAR');
  const found: { name: string }[] = [];
  for (let at = 0; at < texts.length; at += SCREEN_COLUMNS) {
    const batch = texts.slice(at, at + SCREEN_COLUMNS);
    const list = batch.map((column) => ident(column.name)).join(', ');
    const head = await db.all(
      `SELECT ${list} FROM ${ident(DATA_RELATION)} ORDER BY rowid LIMIT ${SCREEN_ROWS}`,
      signal,
    );
    if (head.rows.length === 0) return [];
    found.push(...batch.filter((_, i) => looksLabelled(head.rows.map((row) => row[i]))));
  }
  return found;
}

/** Reads each text column of period labels as TIMESTAMP; one warning per column converted. */
async function readTextLabels(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const warnings: string[] = [];
  for (const column of await candidates(db, signal)) {
    const text = `trim(${ident(column.name)}, ' ')`;
    const checks = KINDS.flatMap((kind) => judgeSql(kind, text));
    const result = await db.all(`SELECT ${checks.join(', ')} FROM ${ident(DATA_RELATION)}`, signal);
    const row = result.rows[0] ?? [];
    const k = KINDS.findIndex((_, i) => {
      const [n = 0, labels, readable] = [0, 1, 2].map((j) => Number(row[i * 4 + j] ?? 0));
      return n > 0 && labels === n && readable !== n;
    });
    const kind = KINDS[k];
    if (!kind) continue;
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${ident(column.name)} SET DATA TYPE TIMESTAMP USING ${startSql(kind, text)}`,
      signal,
    );
    const first = row[k * 4 + 3];
    const example = JSON.stringify(typeof first === 'string' ? first : '');
    warnings.push(
      `read ${JSON.stringify(column.name)} as dates: each ${kind.unit} (such as ${example}) as its ${kind.unit === 'week' ? 'Monday' : 'first day'}`,
    );
  }
  return warnings;
}

const WHOLE_TYPE =
  /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|DOUBLE|DECIMAL)/;

/** Reads each column named as a month or period whose every value writes a month as YYYYMM. */
async function readMonthNumbers(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const warnings: string[] = [];
  for (const column of await describeData(db, signal)) {
    if (!MONTH_NUMBER_NAME.test(column.name) || !WHOLE_TYPE.test(column.type)) continue;
    const c = `CAST(${ident(column.name)} AS DOUBLE)`;
    const [facts = {}] = await db.objects(
      `SELECT count(${c}) AS n, count(DISTINCT ${c}) AS distinct_n, count(*) FILTER (WHERE ${c} = floor(${c}) AND ${c} BETWEEN 190001 AND 210012 AND ${c} % 100 BETWEEN 1 AND 12) AS months FROM ${ident(DATA_RELATION)}`,
      signal,
    );
    const n = Number(facts.n);
    if (!(n > 0) || Number(facts.months) !== n || Number(facts.distinct_n) < 2) continue;
    const whole = `CAST(${c} AS BIGINT)`;
    await db.run(
      `ALTER TABLE ${ident(DATA_RELATION)} ALTER COLUMN ${ident(column.name)} SET DATA TYPE TIMESTAMP USING make_timestamp(${whole} // 100, ${whole} % 100, 1, 0, 0, 0)`,
      signal,
    );
    warnings.push(
      `read ${JSON.stringify(column.name)} as dates: its numbers write each month as YYYYMM`,
    );
  }
  return warnings;
}

/** Reads the period labels of `data` as dates (text labels, then YYYYMM numbers); their warnings. */
export async function readLabels(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  return [...(await readTextLabels(db, signal)), ...(await readMonthNumbers(db, signal))];
}
