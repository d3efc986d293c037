/**
 * What the data is, before anything is planned: what one row is (the table's grain), which column
 * is time and which names the entity, and a role for every column — decided from evidence in the
 * profile and, when the engine can look (DuckDB), from a few facts measured over all rows
 * (`TableFacts`). A column's name only breaks ties. The aggregation of every chart follows the
 * role (`aggregationFor`), and `semanticProblems` turns a plan that breaks the rules into errors
 * a model can act on.
 */
import { z } from 'zod';
import type { ColumnProfile, DataProfile } from './profile.js';

/** What one row of the table is. */
export const GRAINS = ['event', 'series', 'panel', 'cross_section'] as const;
export type Grain = (typeof GRAINS)[number];

/** What a column is to an analyst. */
export const ROLES = [
  'amount', // additive per row: revenue, deaths, generation — summed
  'count', // a whole number of things per row — summed
  'level', // price, rate, temperature, size, score — averaged, never summed
  'stock', // headcount, population: summable across entities within one period, never across time
  'cumulative', // a running total: the last value per entity
  'ratio', // a share or percentage — averaged
  'identifier', // a key
  'code', // numbers that are labels: zip, FIPS, cluster ids, 0/1 flags
  'year', // whole years
  'latitude',
  'longitude',
  'category',
  'text',
  'date',
  'empty', // every value missing, or one value throughout
] as const;
export type Role = (typeof ROLES)[number];

/** pandas offset aliases for the data's own spacing. */
const FREQ_ALIAS: Record<string, string> = {
  min: 'min',
  H: 'h',
  D: 'D',
  W: 'W',
  M: 'MS',
  Q: 'QS',
  Y: 'YS',
};

export const ColumnRoleSchema = z.object({
  name: z.string(),
  role: z.enum(ROLES),
  /** Why, in a sentence a reader can check against the data. */
  evidence: z.string(),
  /** False when the evidence could not settle it and the safe choice was taken. */
  settled: z.boolean(),
});
export type ColumnRole = z.infer<typeof ColumnRoleSchema>;

export const SemanticsSchema = z.object({
  table: z.object({
    grain: z.enum(GRAINS),
    /** The column(s) naming the entity of a panel or cross-section, most significant first. */
    entity: z.string().nullable(),
    keys: z.array(z.string()),
    time: z
      .object({
        column: z.string(),
        /** pandas offset alias of the data's own spacing, or "none" when irregular. */
        freq: z.string(),
        kind: z.enum(['date', 'year']),
      })
      .nullable(),
    evidence: z.array(z.string()),
  }),
  columns: z.array(ColumnRoleSchema),
  skipped: z.array(z.object({ column: z.string(), reason: z.string() })),
  /** Category values that are the total of the others (left out of charts of their parts). */
  totals: z.array(z.object({ column: z.string(), value: z.string(), measure: z.string() })),
  /** Columns computed from others: a total of two parts, or a category made of ranges of a measure. */
  derived: z.array(
    z.object({
      column: z.string(),
      from: z.array(z.string()),
      how: z.enum(['sum', 'bins']),
      evidence: z.string(),
    }),
  ),
});
export type Semantics = z.infer<typeof SemanticsSchema>;

/** Facts only the rows can tell, measured by the engine (all optional: absent means unknown). */
export interface TableFacts {
  /** Distinct values of the time column. */
  timeDistinct?: number;
  /** For each candidate key (entity columns joined with " × "): distinct (key…, time) combinations. */
  keyDistinct?: Record<string, number>;
  /** Per number column: the share of steps, per entity in time order, that do not decrease. */
  nonDecreasing?: Record<string, number>;
  /** Category values whose measure equals the sum of the other values' in (nearly) every period. */
  totals?: { column: string; value: string; measure: string }[];
  /** Number columns equal to the sum of two others on (nearly) every complete row: total = a + b. */
  sums?: { total: string; parts: [string, string] }[];
  /** Per candidate category, per measure: the [min, max] of the measure in each category value. */
  ranges?: Record<string, Record<string, [number, number][]>>;
}

/** At most this many number columns are tried as totals and parts (pairs of them: 28). */
export const DERIVED_MEASURES = 8;

/** The number columns tried as totals of two others: numeric dtype, first in column order. */
export function derivedMeasures(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter((c) => c.semantic === 'numeric' && /^(u?int|float)/i.test(c.dtype) && c.distinct > 2)
    .slice(0, DERIVED_MEASURES)
    .map((c) => c.name);
}

/**
 * The (total, a, b) triples worth trying, in a fixed order both engines follow. Where all three
 * are nearly complete, total = a + b on every row implies mean(total) ≈ mean(a) + mean(b): the
 * triples whose means cannot add up are not tried (most of them, in most tables).
 */
export function sumTriples(
  measures: readonly string[],
  profile?: DataProfile,
): [string, string, string][] {
  const stats = (name: string) => {
    const c = profile?.column_profiles.find((x) => x.name === name);
    return c && c.missing_share < 0.05 ? statsOf(c) : null;
  };
  const possible = (total: string, a: string, b: string): boolean => {
    const [t, x, y] = [stats(total), stats(a), stats(b)];
    if (!t || !x || !y) return true;
    return Math.abs(t.mean - (x.mean + y.mean)) <= 0.05 * Math.max(Math.abs(t.mean), 1e-9);
  };
  const out: [string, string, string][] = [];
  for (const total of measures)
    for (let i = 0; i < measures.length; i += 1)
      for (let j = i + 1; j < measures.length; j += 1) {
        const [a, b] = [measures[i] ?? '', measures[j] ?? ''];
        if (a !== total && b !== total && possible(total, a, b)) out.push([total, a, b]);
      }
  return out;
}

/** Categories tried as bins of a measure: 3 to 20 values. */
export function binCategories(profile: DataProfile): string[] {
  return profile.column_profiles
    .filter((c) => c.semantic === 'category' && c.distinct >= 3 && c.distinct <= 20)
    .slice(0, 6)
    .map((c) => c.name);
}

/** Whether the categories' ranges of a measure never overlap: the category is computed from it. */
export function disjointRanges(ranges: readonly [number, number][]): boolean {
  if (ranges.length < 3) return false;
  const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
  return sorted.every((r, i) => i === 0 || (sorted[i - 1]?.[1] ?? Infinity) < r[0]);
}

// Names only break ties: a column is never summed because of its name alone. Matched against the
// name's words ("net_generation" is not a ratio; "Body Mass (g)" is a mass).
const LEVEL_WORDS = words(
  'price prices preis prix precio unit rate rates ratio temp temperature humidity pressure speed latency duration age score rating level concentration avg average mean median density margin index weight height length width depth mass size displacement horsepower acceleration mpg miles gallon expect expectancy fertility pm25 pm10 aqi wind lat lon runtime running durchschnitt moyenne promedio',
);
const ADDITIVE_WORDS = words(
  'revenue revenues sales turnover income profit amount spend gmv units qty quantity volume orders visits deaths cases count number generation production consumption births total sum people population pop employment employed jobs headcount flights passengers votes umsatz erlös erloes menge anzahl kunden betrag ventes chiffre ventas ingresos importe cantidad',
);
const STOCK_WORDS = words(
  'population pop people headcount employment employed inventory stock balance',
);
const RATIO_WORDS = words('percent pct share ratio rate proportion perc %');
const YEAR_WORDS = words('year years yr jahr annee année anno año');
const LAT_WORDS = words('lat latitude');
const LON_WORDS = words('lon lng long longitude');
const KEY_WORDS = words(
  'age sex gender group class cluster id code zip fips region district county state station site store unit grade rank',
);
const CODE_WORDS = words('zip zipcode postal postcode fips code cluster group class id flag type');

function words(list: string): ReadonlySet<string> {
  return new Set(list.split(' '));
}

/** A name's words, lower case: split at non-letters and at camelCase ("MilesPerGallon" → miles, per, gallon). */
function nameWords(name: string): string[] {
  return (
    name
      // A control character joins, it does not split ("rev\u0007enue" is revenue).
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^\p{L}\p{N}%]+/u)
      .filter(Boolean)
  );
}

const named = (name: string, set: ReadonlySet<string>): boolean =>
  nameWords(name).some((w) => set.has(w));

function statsOf(c: ColumnProfile): NonNullable<ColumnProfile['numeric']> | null {
  return c.numeric ?? c.numeric_text?.stats ?? null;
}

const isNumberColumn = (c: ColumnProfile): boolean =>
  (c.semantic === 'numeric' || c.semantic === 'numeric_text') && statsOf(c) !== null;

/** Whether every figure the profile holds is a whole number (integer dtype, or whole quartiles and range). */
function integral(c: ColumnProfile): boolean {
  if (/^u?int/i.test(c.dtype)) return true;
  const s = statsOf(c);
  if (!s) return false;
  return [s.min, s.max, s.q1, s.median, s.q3].every((v) => Number.isInteger(v));
}

/** An integer column that reads as calendar years: whole numbers between 1500 and 2100. */
function yearEvidence(c: ColumnProfile): string | null {
  const s = statsOf(c);
  if (!s || !isNumberColumn(c) || !integral(c)) return null;
  if (s.min < 1500 || s.max > 2100 || c.distinct < 2) return null;
  const span = s.max - s.min + 1;
  const yearNamed = named(c.name, YEAR_WORDS);
  // Without the name, ask more of the values: a tight range, most years present.
  if (!yearNamed && !(span <= 400 && c.distinct >= Math.min(5, span) && c.distinct >= span * 0.3))
    return null;
  return `whole numbers from ${s.min} to ${s.max} (${c.distinct} distinct)${yearNamed ? ', named as a year' : ', spaced like years'}`;
}

/** The time column: a date column with a span, else a year column; with why. */
function timeColumn(
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
function entityCandidates(profile: DataProfile, time: string | null): ColumnProfile[] {
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

interface Grained {
  grain: Grain;
  keys: string[];
  evidence: string[];
}

function decideGrain(
  profile: DataProfile,
  time: ReturnType<typeof timeColumn>,
  facts: TableFacts,
): Grained {
  const rows = profile.rows;
  if (!time) {
    const key = profile.column_profiles.find(
      (c) => c.distinct === rows && rows > 0 && c.missing === 0 && !isNumberColumn(c),
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

function number(v: number): string {
  return Math.abs(v) >= 1000
    ? Math.round(v).toLocaleString('en-US')
    : String(Number(v.toPrecision(4)));
}

/** The role of a number column, from its values, the table's grain, and (to break ties) its name. */
function numberRole(
  c: ColumnProfile,
  grain: Grain,
  facts: TableFacts,
  timeName: string | null,
): Omit<ColumnRole, 'name'> {
  const s = statsOf(c);
  if (!s) return { role: 'level', evidence: 'no statistics', settled: false };
  const range = `values ${number(s.min)} to ${number(s.max)}`;
  const whole = integral(c);
  if (c.name === timeName)
    return { role: 'year', evidence: `the table's time: ${range}`, settled: true };
  if (s.min >= -90 && s.max <= 90 && named(c.name, LAT_WORDS) && !whole)
    return {
      role: 'latitude',
      evidence: `${range}, within ±90°, named as a latitude`,
      settled: true,
    };
  if (s.min >= -180 && s.max <= 180 && named(c.name, LON_WORDS) && !whole)
    return {
      role: 'longitude',
      evidence: `${range}, within ±180°, named as a longitude`,
      settled: true,
    };
  if (yearEvidence(c) && named(c.name, YEAR_WORDS))
    return { role: 'year', evidence: yearEvidence(c) ?? range, settled: true };
  if (whole && c.distinct <= 2 && s.min >= 0 && s.max <= 1)
    return { role: 'code', evidence: 'only the values 0 and 1: a flag', settled: true };
  if (whole && named(c.name, CODE_WORDS))
    return {
      role: 'code',
      evidence: `whole numbers named as a code or label (${range})`,
      settled: true,
    };
  const share = c.numeric_text?.style === 'percent';
  if (share || (!whole && s.min >= 0 && s.max <= 1 && c.distinct > 2))
    return {
      role: 'ratio',
      evidence: share ? 'written as percentages' : `${range}: a share between 0 and 1`,
      settled: true,
    };
  if (named(c.name, RATIO_WORDS) && s.min >= 0 && s.max <= 100)
    return { role: 'ratio', evidence: `${range}, named as a share or rate`, settled: true };
  const monotone = facts.nonDecreasing?.[c.name];
  if (
    monotone !== undefined &&
    monotone >= 0.99 &&
    (grain === 'panel' || grain === 'series') &&
    s.max > s.min
  )
    return {
      role: 'cumulative',
      evidence: `never decreases from one period to the next${grain === 'panel' ? ' within an entity' : ''} (${Math.round(monotone * 100)}% of steps): a running total`,
      settled: true,
    };
  const mean = s.mean;
  const spread = s.std !== null && mean !== 0 ? Math.abs(s.std / mean) : 0;
  const heavy = s.min >= 0 && ((s.skew ?? 0) > 2 || (s.median > 0 && s.max / s.median > 20));
  const signed = s.min < 0 && s.max > 0 && s.std !== null && Math.abs(mean) < s.std;
  const levelName = named(c.name, LEVEL_WORDS);
  const additiveName = named(c.name, ADDITIVE_WORDS) && !levelName;
  if (signed && !additiveName)
    return {
      role: 'level',
      evidence: `${range} on both sides of zero around a mean of ${number(mean)}: a level or an anomaly, not an amount`,
      settled: true,
    };
  // A heavy tail does not make a price an amount: across entities it only says they differ.
  if (levelName && !additiveName)
    return {
      role: 'level',
      evidence: `${range}, named as a level (a value per unit or per thing, not an amount)`,
      settled: true,
    };
  if (whole && c.distinct <= 8 && !additiveName)
    return {
      role: 'level',
      evidence: `only ${c.distinct} distinct whole numbers (${range}): a discrete attribute, averaged rather than summed`,
      settled: false,
    };
  if (grain === 'cross_section') {
    if (heavy && s.min >= 0)
      return {
        role: named(c.name, STOCK_WORDS) ? 'stock' : 'amount',
        evidence: `${range}, heavy right tail (max ${number(s.max / Math.max(s.median, 1e-12))}× the median): a size that adds up across entities`,
        settled: true,
      };
    if (additiveName && s.min >= 0)
      return {
        role: whole ? 'count' : 'amount',
        evidence: `${range}, named as an amount (the values do not settle it)`,
        settled: true,
      };
    return {
      role: 'level',
      evidence: `${range}: an attribute of each entity (summing it across entities means nothing)`,
      settled: !levelName ? spread < 1 : true,
    };
  }
  if (grain === 'event') {
    if (whole && s.min >= 0 && !levelName)
      return {
        role: 'count',
        evidence: `whole numbers ${number(s.min)} to ${number(s.max)} per event`,
        settled: true,
      };
    if (s.min >= 0 && (heavy || additiveName))
      return {
        role: 'amount',
        evidence: `${range}${heavy ? ', heavy right tail' : ''} per event${additiveName ? ', named as an amount' : ''}`,
        settled: true,
      };
    return {
      role: 'level',
      evidence: `${range} per event, neither heavy-tailed nor named as an amount: averaged (the safe choice)`,
      settled: false,
    };
  }
  // series and panel: one row per period (per entity).
  if (
    s.min >= 0 &&
    (named(c.name, STOCK_WORDS) ||
      (heavy && grain === 'panel' && !additiveName && whole && s.median > 10000))
  )
    return {
      role: 'stock',
      evidence: `${range}, a standing quantity per ${grain === 'panel' ? 'entity and ' : ''}period: summed across entities, never across time`,
      settled: named(c.name, STOCK_WORDS),
    };
  if (s.min >= 0 && (heavy || additiveName))
    return {
      role: whole ? 'count' : 'amount',
      evidence: `${range}${heavy ? ', heavy right tail' : ''}${additiveName ? ', named as an amount' : ''}: adds up across entities and periods`,
      settled: true,
    };
  return {
    role: 'level',
    evidence: `${range}, neither heavy-tailed nor named as an amount: averaged (the safe choice)`,
    settled: false,
  };
}

function otherRole(c: ColumnProfile): Omit<ColumnRole, 'name'> {
  switch (c.semantic) {
    case 'empty':
      return { role: 'empty', evidence: 'every value is missing', settled: true };
    case 'constant':
      return {
        role: 'empty',
        evidence: `one value throughout (${c.top[0]?.value ?? ''})`,
        settled: true,
      };
    case 'datetime':
      return {
        role: 'date',
        evidence: `dates from ${c.datetime?.min ?? '?'} to ${c.datetime?.max ?? '?'}`,
        settled: true,
      };
    case 'identifier':
      return {
        role: 'identifier',
        evidence: `${c.distinct} distinct values in ${c.distinct + c.missing} rows`,
        settled: true,
      };
    case 'text':
      return {
        role: 'text',
        evidence: `free text (mean length ${Math.round(c.text?.mean_length ?? 0)})`,
        settled: true,
      };
    case 'boolean':
      return { role: 'code', evidence: 'two values: a flag', settled: true };
    case 'category':
    case 'numeric':
    case 'numeric_text':
      return {
        role: 'category',
        evidence: `${c.distinct} distinct values, repeated`,
        settled: true,
      };
  }
}

function skipReason(role: ColumnRole, c: ColumnProfile, grain: Grained): string | null {
  if (role.role === 'empty') return role.evidence;
  if (c.missing_share >= 0.95) return `${Math.round(c.missing_share * 100)}% missing`;
  if (role.role === 'identifier') return 'an identifier: one value per row, nothing to aggregate';
  if (role.role === 'text') return 'free text';
  if (role.role === 'code' && isNumberColumn(c))
    return `a code (${role.evidence}): numbers that are labels, never summed or averaged`;
  if (role.role === 'category' && c.distinct > 50 && !grain.keys.includes(c.name))
    return `${c.distinct} distinct values: too many to chart as groups (at most its top 10 are ranked)`;
  return null;
}

/** The table's grain, each column's role and what is not charted, from the profile and the facts. */
export function describeData(profile: DataProfile, facts: TableFacts = {}): Semantics {
  const time = timeColumn(profile);
  const grained = decideGrain(profile, time, facts);
  const timeName = time?.column.name ?? null;
  const columns = profile.column_profiles.map((c): ColumnRole => {
    const decided =
      c.name === timeName && time?.kind === 'date'
        ? { role: 'date' as const, evidence: time.evidence, settled: true }
        : isNumberColumn(c) && !grained.keys.includes(c.name)
          ? numberRole(c, grained.grain, facts, timeName)
          : grained.keys.includes(c.name)
            ? grained.grain === 'cross_section'
              ? {
                  role: 'identifier' as const,
                  evidence: `unique on every row: names each entity`,
                  settled: true,
                }
              : {
                  role: 'category' as const,
                  evidence: `names the entity: ${c.distinct} distinct values`,
                  settled: true,
                }
            : otherRole(c);
    return { name: c.name, ...decided };
  });
  const skipped = profile.column_profiles.flatMap((c, i) => {
    const reason = skipReason(columns[i] as ColumnRole, c, grained);
    return reason ? [{ column: c.name, reason }] : [];
  });
  const freq =
    time?.kind === 'year' ? 'YS' : (FREQ_ALIAS[time?.column.datetime?.frequency ?? ''] ?? 'none');
  return {
    table: {
      grain: grained.grain,
      entity: grained.keys[0] ?? null,
      keys: grained.keys,
      time: time ? { column: time.column.name, freq, kind: time.kind } : null,
      evidence: grained.evidence,
    },
    columns,
    skipped,
    totals: facts.totals ?? [],
    derived: derivedColumns(facts, profile),
  };
}

function derivedColumns(facts: TableFacts, profile: DataProfile): Semantics['derived'] {
  // Where parts are often 0, a = b + c and b = a + c both hold; the total has the largest mean.
  const size = (name: string): number => {
    const c = profile.column_profiles.find((x) => x.name === name);
    return (c && statsOf(c)?.mean) ?? -Infinity;
  };
  const triples = (facts.sums ?? []).filter((s) => s.parts.every((p) => size(p) <= size(s.total)));
  const sums = triples.map((s) => ({
    column: s.total,
    from: [...s.parts],
    how: 'sum' as const,
    evidence: `${s.total} = ${s.parts[0]} + ${s.parts[1]} on every complete row`,
  }));
  const bins = Object.entries(facts.ranges ?? {}).flatMap(([category, byMeasure]) =>
    Object.entries(byMeasure)
      .filter(([, ranges]) => disjointRanges(ranges))
      .map(([measure, ranges]) => ({
        column: category,
        from: [measure],
        how: 'bins' as const,
        evidence: `each of the ${ranges.length} ${category} values covers its own range of ${measure}, none overlapping`,
      })),
  );
  return [...sums, ...bins];
}

/** The semantics of a profile: the engine's, else described from the profile alone. */
export function semanticsOf(profile: DataProfile): Semantics {
  return profile.semantics ?? describeData(profile);
}

/** The role of a column, if the profile has it. */
export function roleOf(
  semantics: Semantics,
  name: string | null | undefined,
): ColumnRole | undefined {
  return name ? semantics.columns.find((c) => c.name === name) : undefined;
}

const ADDITIVE: ReadonlySet<Role> = new Set(['amount', 'count']);

/**
 * How a measure is aggregated per group or period: sum for amounts and counts (and stocks within
 * one period), mean for levels, ratios and stocks over time, max (the last value of a running
 * total) for cumulative columns; count when there is no measure.
 */
export function aggregationFor(
  role: ColumnRole | undefined,
  spansTime: boolean,
): 'sum' | 'mean' | 'max' | 'count' {
  if (!role) return 'count';
  if (ADDITIVE.has(role.role)) return 'sum';
  if (role.role === 'stock') return spansTime ? 'mean' : 'sum';
  if (role.role === 'cumulative') return 'max';
  return 'mean';
}

/** Whether summing this role is wrong (and why, for the model). */
export function sumProblem(role: ColumnRole, spansTime: boolean): string | null {
  switch (role.role) {
    case 'level':
    case 'ratio':
      return `"${role.name}" is a ${role.role} (${role.evidence}); use mean or median, not sum`;
    case 'cumulative':
      return `"${role.name}" is a running total (${role.evidence}); use max (its last value), not sum`;
    case 'stock':
      return spansTime
        ? `"${role.name}" is a stock (${role.evidence}); summing it across periods counts the same things again: use mean, or a resample at the data's own frequency`
        : null;
    case 'year':
    case 'code':
    case 'identifier':
    case 'latitude':
    case 'longitude':
      return `"${role.name}" is a ${role.role} (${role.evidence}); it is not a quantity to sum`;
    case 'amount':
    case 'count':
    case 'category':
    case 'date':
    case 'empty':
    case 'text':
      return null;
  }
}

/**
 * What an analyst would flag before trusting a chart: dates after today, negative counts, and a
 * level whose zeros stand apart from its other values (a 0 that may mean "missing" or "never").
 */
export function qualityFlags(profile: DataProfile, sem: Semantics, now = new Date()): string[] {
  const flags: string[] = [];
  const today = now.toISOString().slice(0, 10);
  for (const c of profile.column_profiles) {
    const role = sem.columns.find((x) => x.name === c.name)?.role;
    const max = c.datetime?.max;
    if (max && max.slice(0, 10) > today)
      flags.push(
        `"${c.name}" has dates after today (up to ${max.slice(0, 10)}): planned dates or placeholders, not history`,
      );
    const s = statsOf(c);
    if (!s) continue;
    const present = profile.rows - c.missing;
    if (role === 'count' && s.negatives > 0)
      flags.push(
        `"${c.name}" counts things but has ${s.negatives.toLocaleString('en-US')} negative value${s.negatives === 1 ? '' : 's'}: impossible as a count`,
      );
    if (
      (role === 'level' || role === 'ratio') &&
      s.min === 0 &&
      s.q1 > 0 &&
      present > 0 &&
      s.zeros / present >= 0.02
    )
      flags.push(
        `${Math.round((s.zeros / present) * 100)}% of "${c.name}" are 0 while its other values start at ${number(s.q1)} (lower quartile): a 0 may mean missing or never, and it pulls the mean down`,
      );
  }
  return flags;
}
