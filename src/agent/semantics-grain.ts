/**
 * What one row is: the time column (dates, or whole-number years), the entity key that makes
 * (key, time) unique, and the grain they make — series, panel, event or cross-section.
 */
import type { ColumnProfile, DataProfile } from './profile.js';
import { integral, isNumberColumn, KEY_WORDS, named, yearEvidence } from './semantics-evidence.js';
import type { Grain, TableFacts } from './semantics-types.js';

/** The time column: a date column with a span, else a year column; with why. */
export function timeColumn(
  profile: DataProfile,
): { column: ColumnProfile; kind: 'date' | 'year'; evidence: string } | null {
  const usable = profile.column_profiles.filter((c) => c.missing_share < 0.95);
  const dates = usable.filter((c) => c.semantic === 'datetime' && (c.datetime?.span_days ?? 0) > 0);
  const hinted = (c: ColumnProfile): number =>
    Number(/date|time|day|month|week|period/i.test(c.name));
  const dated = dates.sort(
    (a, b) =>
      Number(a.missing_share > 0.5) - Number(b.missing_share > 0.5) || hinted(b) - hinted(a),
  )[0];
  if (dated)
    return {
      column: dated,
      kind: 'date',
      evidence: `"${dated.name}" holds dates from ${dated.datetime?.min ?? '?'} to ${dated.datetime?.max ?? '?'}`,
    };
  for (const c of usable) {
    const why = yearEvidence(c);
    if (why && c.distinct >= 3)
      return { column: c, kind: 'year', evidence: `"${c.name}" is a year column: ${why}` };
  }
  return null;
}

/** Columns that could name an entity: categories (and short text keys) with repeated values. */
export function entityCandidates(profile: DataProfile, time: string | null): ColumnProfile[] {
  return profile.column_profiles
    .filter(
      (c) =>
        c.name !== time &&
        (c.semantic === 'category' ||
          c.semantic === 'boolean' ||
          (c.semantic === 'identifier' && c.distinct < profile.rows) ||
          (c.semantic === 'text' &&
            c.distinct < profile.rows &&
            (c.text?.mean_length ?? 99) < 40) ||
          // Numbers name an entity only when they are labels: a measure can make (value, time)
          // unique by chance, so the name must say so (age groups, sex codes, cluster ids).
          (isNumberColumn(c) && integral(c) && c.distinct <= 200 && named(c.name, KEY_WORDS))) &&
        c.distinct >= 2 &&
        // An entity is observed again and again: at least three rows each on average.
        c.distinct * 3 <= profile.rows &&
        c.missing_share < 0.05,
    )
    .sort(
      (a, b) => Number(isNumberColumn(a)) - Number(isNumberColumn(b)) || a.distinct - b.distinct,
    )
    .slice(0, 4);
}

/** The key combinations worth measuring (single candidates, then pairs, then the first three). */
export function candidateKeys(profile: DataProfile): string[][] {
  const time = timeColumn(profile)?.column.name ?? null;
  const names = entityCandidates(profile, time).map((c) => c.name);
  const keys: string[][] = names.map((n) => [n]);
  for (let i = 0; i < names.length; i += 1)
    for (let j = i + 1; j < names.length; j += 1) keys.push([names[i] ?? '', names[j] ?? '']);
  if (names.length >= 3) keys.push(names.slice(0, 3));
  return keys;
}

/** The key's label in `TableFacts.keyDistinct`. */
export const keyLabel = (key: readonly string[]): string => key.join(' × ');

export interface Grained {
  grain: Grain;
  keys: string[];
  evidence: string[];
}

/**
 * A written index: whole numbers under pandas' name for an unnamed column or "index", which the
 * profile makes an identifier only when they count the rows out (epil.csv's R row numbers 1 to
 * 236). They number the rows; they name no entity (a column of names under "" still does).
 */
const rowNumbers = (c: ColumnProfile): boolean =>
  /^(unnamed: \d+|index)$/i.test(c.name) && /^u?int/i.test(c.dtype);

export function decideGrain(
  profile: DataProfile,
  time: ReturnType<typeof timeColumn>,
  facts: TableFacts,
): Grained {
  const rows = profile.rows;
  if (!time) {
    const key = profile.column_profiles.find(
      (c) =>
        c.distinct === rows && rows > 0 && c.missing === 0 && !isNumberColumn(c) && !rowNumbers(c),
    );
    return {
      grain: 'cross_section',
      keys: key ? [key.name] : [],
      evidence: [
        'no date or year column: each row is one entity (or one observation), not a moment in time',
        ...(key ? [`"${key.name}" is unique on every row`] : []),
      ],
    };
  }
  const t = time.column;
  const present = rows - t.missing;
  const timeDistinct = facts.timeDistinct ?? t.distinct;
  const regular = time.kind === 'year' || (t.datetime?.frequency ?? null) !== null;
  if (timeDistinct === present && present > 1 && regular)
    return {
      grain: 'series',
      keys: [],
      evidence: [
        time.evidence,
        `each of the ${present} rows has its own ${time.kind}: one row per period`,
      ],
    };
  // A key is needed only where periods repeat; with every time unique, any column would do.
  const keyed =
    timeDistinct < present
      ? candidateKeys(profile)
          .map((key) => ({ key, distinct: facts.keyDistinct?.[keyLabel(key)] }))
          .find((k) => k.distinct !== undefined && k.distinct >= present * 0.995)
      : undefined;
  // A panel observes its entities again and again: its rows fill a good share of entity × period
  // (stocks: 91%, sparse disasters: 62%). Order lines of a few combinations a day fill 7%: events.
  const combos = (key: readonly string[]): number =>
    key.reduce(
      (n, name) => n * (profile.column_profiles.find((c) => c.name === name)?.distinct ?? 1),
      1,
    );
  const coverage = keyed ? present / (combos(keyed.key) * timeDistinct) : 0;
  if (keyed && coverage >= 0.3)
    return {
      grain: 'panel',
      keys: keyed.key,
      evidence: [
        time.evidence,
        `${keyLabel(keyed.key)} × ${t.name} is unique on ${keyed.distinct === present ? 'every row' : 'nearly every row'}: one row per ${keyLabel(keyed.key)} per ${time.kind === 'year' ? 'year' : 'period'}, ${Math.round(coverage * 100)}% of the combinations present`,
      ],
    };
  if (facts.keyDistinct === undefined && timeDistinct < present) {
    // Without the rows' facts: a category whose members times the periods make up the rows.
    const fit = entityCandidates(profile, t.name).find(
      (c) => Math.abs(c.distinct * timeDistinct - present) <= present * 0.1 && c.distinct > 1,
    );
    if (fit)
      return {
        grain: 'panel',
        keys: [fit.name],
        evidence: [
          time.evidence,
          `${fit.distinct} ${fit.name} values × ${timeDistinct} periods ≈ ${present} rows (a panel, assumed from the counts)`,
        ],
      };
  }
  return {
    grain: 'event',
    keys: [],
    evidence: [
      time.evidence,
      keyed
        ? `${present - timeDistinct} rows share a ${time.kind}; ${keyLabel(keyed.key)} × ${t.name} is unique but only ${Math.round(coverage * 100)}% of its combinations occur: each row is an event (an order line, an incident), not a panel`
        : `${present - timeDistinct} rows share a ${time.kind} with another row, and no category makes them unique: each row is an event`,
    ],
  };
}
