/**
 * Numbers that are labels by what stands beside them: a `parent` 1–231 beside a unique `id` of
 * 252 rows (flare.json's tree) names a row, and a "Source subcategory" 0–15 beside "Source
 * subcategory name" (budget.json) is named by it, so their medians or skews mean nothing.
 */
import type { ColumnProfile, DataProfile } from './profile.js';
import {
  integral,
  isNumberColumn,
  nameWords,
  number,
  statsOf,
  words,
} from './semantics-evidence.js';
import type { ColumnRole } from './semantics-types.js';

/** Last words that name a pointer to another row of the same table: its parent, manager, predecessor. */
const REFERENCE_WORDS = words(
  'parent manager supervisor boss predecessor successor ancestor referrer',
);
/** Whole names that do: an employee's reports_to, a customer's referred_by. */
const REFERENCE_NAMES = new Set(['reports to', 'referred by']);

/** Named as a reference: ending in one of its words (a manager_rating is the manager's rating). */
function referenceName(name: string): boolean {
  const parts = nameWords(name);
  return (
    parts.length <= 3 &&
    (REFERENCE_WORDS.has(parts.at(-1) ?? '') || REFERENCE_NAMES.has(parts.slice(-2).join(' ')))
  );
}

/** Last words of a column that names the values of another: "Source subcategory name", "dept_label". */
const NAME_WORDS = words('name label desc description title');

/**
 * The whole-number columns whose values another column names, as a name with one of NAME_WORDS
 * after it: budget.json's "Source subcategory" 0–8 beside "Source subcategory name" — labels
 * with their names beside them, so a code.
 */
function namedNumbers(columns: readonly ColumnRole[], profile: DataProfile): ColumnRole[] {
  const texts = profile.column_profiles.filter(
    (c) => c.semantic === 'category' || c.semantic === 'text',
  );
  const key = (name: string): string => nameWords(name).join(' ');
  const namers = new Map<string, string>();
  for (const t of texts) {
    const parts = nameWords(t.name);
    if (parts.length >= 2 && NAME_WORDS.has(parts.at(-1) ?? ''))
      namers.set(parts.slice(0, -1).join(' '), t.name);
  }
  return columns.map((role, i) => {
    const c = profile.column_profiles[i];
    const s = c ? statsOf(c) : null;
    const namer = c ? namers.get(key(c.name)) : undefined;
    if (!c || !s || !namer || role.role === 'code' || !isNumberColumn(c) || !integral(c))
      return role;
    if (role.role === 'identifier' || role.role === 'year') return role;
    return {
      name: role.name,
      role: 'code',
      evidence: `whole numbers ${number(s.min)} to ${number(s.max)} beside "${namer}", which names them`,
      settled: true,
    };
  });
}

/** A key of whole numbers, unique on every row: what a reference points at. */
function wholeKey(c: ColumnProfile, role: ColumnRole | undefined, rows: number): boolean {
  return role?.role === 'identifier' && integral(c) && c.distinct === rows && c.missing === 0;
}

/**
 * The columns with each reference to another row made a code: a column named as one, of whole
 * numbers from 0 up to the row count (where a key numbering the rows from 0 or 1 lies; the
 * profile keeps no range of a key), in a table with a whole-number key unique on every row.
 */
export function rowReferences(given: readonly ColumnRole[], profile: DataProfile): ColumnRole[] {
  const columns = namedNumbers(given, profile);
  const profiles = profile.column_profiles;
  const key = profiles.find((c, i) => wholeKey(c, columns[i], profile.rows));
  if (!key) return columns;
  return columns.map((role, i) => {
    const c = profiles[i];
    const s = c ? statsOf(c) : null;
    if (!c || !s || c === key || role.role === 'identifier' || !isNumberColumn(c)) return role;
    if (!referenceName(c.name)) return role;
    if (!integral(c) || s.min < 0 || s.max > profile.rows) return role;
    return {
      name: role.name,
      role: 'code',
      evidence: `whole numbers ${number(s.min)} to ${number(s.max)} named as a reference to another row, beside "${key.name}", a whole-number key of the ${number(profile.rows)} rows`,
      settled: true,
    };
  });
}
