/**
 * The profile's dataset warnings, worded exactly as opsmind_profile._warnings words them, plus
 * the one the DuckDB profile adds when some of its figures are approximate.
 */
import type { DataProfile } from '../agent/profile.js';
import { names, pct, thousands } from './profile-format.js';

type ColumnProfile = DataProfile['column_profiles'][number];

/** The columns mostly missing, as the profile's warning names them (mostlyMissing). */
const MOSTLY_MISSING = 'column{s} more than 50% missing';
const mostly = (c: ColumnProfile): boolean => c.semantic !== 'empty' && c.missing_share > 0.5;

const GROUPS: readonly [string, (c: ColumnProfile) => boolean][] = [
  ['empty column{s} (every value missing)', (c) => c.semantic === 'empty'],
  [MOSTLY_MISSING, mostly],
  ['constant column{s}', (c) => c.semantic === 'constant'],
];

/** A warning of a group of columns: "2 constant columns: a, b". */
function grouped(label: string, group: readonly string[]): string {
  return `${group.length} ${label.replace('{s}', group.length !== 1 ? 's' : '')}: ${names(group)}`;
}

/**
 * The warning of the columns more than 50% missing, but for `apart` (blanks that are something
 * else: a statement's money in and out, semantics-balances.ts), as datasetWarnings words it; null
 * without such columns.
 */
export function mostlyMissing(
  columns: readonly ColumnProfile[],
  apart: readonly string[],
): string | null {
  const group = columns.filter((c) => mostly(c) && !apart.includes(c.name)).map((c) => c.name);
  return group.length ? grouped(MOSTLY_MISSING, group) : null;
}

/** Whether a warning is the one of the columns more than 50% missing (mostlyMissing). */
export function isMostlyMissing(warning: string): boolean {
  return /^\d+ columns? more than 50% missing: /.test(warning);
}
const STORED_AS_TEXT: readonly [string, ColumnProfile['semantic']][] = [
  ['numbers stored as text in', 'numeric_text'],
  ['dates stored as text in', 'datetime'],
];

/** A column's note that its numbers are written in several currencies, the currencies captured. */
const MIXED = /^in \d+ currencies \(([^)]*)\)/;
/** A column's note of the values that did not parse as its numbers, their count captured. */
const NOT_NUMBERS = /^([\d,]+) values are not numbers$/;

/** The first capture of `pattern` among a column's notes. */
function notesMatching(column: ColumnProfile, pattern: RegExp): string | undefined {
  return column.notes.map((note) => pattern.exec(note)?.[1]).find(Boolean);
}

/** The warning that says which figures are approximate, for profiles of more than `limit` rows. */
export function approximateWarning(limit: number): string {
  return `more than ${thousands(limit)} rows: medians, quartiles and outlier counts are approximate`;
}

/** Data-quality warnings about the whole dataset. */
export function datasetWarnings(profile: Omit<DataProfile, 'warnings'>): string[] {
  const out: string[] = [];
  const { rows, duplicate_rows: duplicates, column_profiles: columns } = profile;
  if (rows === 0) out.push('the dataset has no rows');
  else if (duplicates)
    out.push(
      `${thousands(duplicates)} duplicate row${duplicates !== 1 ? 's' : ''} (${pct(duplicates / rows)} of rows)`,
    );
  for (const [label, test] of GROUPS) {
    const group = columns.filter(test).map((c) => c.name);
    if (group.length && rows) out.push(grouped(label, group));
  }
  for (const [label, semantic] of STORED_AS_TEXT) {
    const group = columns.filter((c) => c.semantic === semantic && c.dtype === 'object');
    if (group.length) out.push(`${label}: ${names(group.map((c) => c.name))}`);
  }
  const dropped = columns.flatMap((c) => {
    const found = c.semantic === 'numeric_text' ? notesMatching(c, NOT_NUMBERS) : undefined;
    return found ? [`${c.name} (${found})`] : [];
  });
  if (dropped.length)
    out.push(`values that are not numbers, left out of the numbers of: ${names(dropped)}`);
  const mixed = columns.flatMap((c) => {
    const found = notesMatching(c, MIXED);
    return found ? [`${c.name} (${found})`] : [];
  });
  if (mixed.length)
    out.push(`numbers in several currencies in: ${names(mixed)}; their sums and means mix them`);
  const later = futureDates(columns);
  if (later) out.push(later);
  if (profile.omitted_columns.count) out.push(detailWarning(profile));
  return out;
}

/**
 * The date columns whose latest value is after today (UTC): a schedule or a forecast, or a year
 * mistyped or read from two digits as 20xx (movies.json's release dates run to 2046), which a
 * chart over time would draw as the future. `today` is an ISO date.
 */
export function futureDates(
  columns: readonly ColumnProfile[],
  today = new Date().toISOString().slice(0, 10),
): string | null {
  const later = columns.flatMap((c) => {
    const latest = c.datetime?.max.slice(0, 10);
    return latest && latest > today ? [`${c.name} (the latest ${latest})`] : [];
  });
  return later.length ? `dates after today in: ${names(later)}` : null;
}

/** A pandas dtype profiled as numbers: ints, floats, complex, durations (not booleans). */
const NUMBER_DTYPE = /^(u?int|U?Int|float|Float|complex|timedelta)/;

/** Which columns a wide file's profile details (profile.ts detailOf), said from the profile alone. */
function detailWarning(profile: Omit<DataProfile, 'warnings'>): string {
  const { column_profiles: detailed, omitted_columns: omitted } = profile;
  const numbers = detailed.filter((c) => NUMBER_DTYPE.test(c.dtype)).length;
  const others = detailed.length - numbers;
  const leftOthers = Object.entries(omitted.by_dtype)
    .filter(([dtype]) => !NUMBER_DTYPE.test(dtype))
    .reduce((sum, [, n]) => sum + n, 0);
  const head = `only ${thousands(detailed.length)} of ${thousands(profile.columns)} columns are profiled in detail: `;
  if (leftOthers)
    return `${head}the first ${thousands(others)} of the ${thousands(others + leftOthers)} columns that hold no numbers`;
  const every = others ? 'every column that holds no numbers and ' : '';
  return `${head}${every}the first ${thousands(numbers)} of the ${thousands(numbers + omitted.count)} number columns`;
}
