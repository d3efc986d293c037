/**
 * The facts about rows that a profile cannot tell (semantics.ts's TableFacts), measured over all
 * rows of `data`: how many distinct periods, whether a candidate entity key makes (key, period)
 * unique, which number columns never decrease per entity in time order (running totals), and
 * which category value is the total of the others in every period (a "total" row).
 */
import type { DataProfile } from '../agent/profile.js';
import {
  aliasCandidates,
  attributeEntities,
  binCategories,
  candidateKeys,
  derivedMeasures,
  describeData,
  groupCategory,
  keyLabel,
  measurePairs,
  LOOSE_SHARE,
  REPEATED_GROUPS,
  REPORTED_PERIODS,
  splitCandidates,
  sumTriples,
  withinCandidates,
  headerEntities,
  headerMeasures,
  headerWithin,
} from '../agent/semantics.js';
import { rangesOverlap } from '../agent/semantics-derived.js';
import { NAMES_DISTINCT, NAMES_MIN } from '../agent/semantics-aggregates.js';
import type { Repeated, TableFacts } from '../agent/semantics.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import { finiteOf } from './profile-columns.js';
import { NUMBER_TYPE, numberTextSql } from './profile-details.js';
import { quotientFacts } from './profile-quotients.js';
import { balanceFacts } from './profile-balances.js';
import { reportedYears } from './profile-latest.js';
import { timeExpr } from './sql-rows.js';
import type { SourceLocale } from './types.js';
import { DATA_RELATION } from './types.js';

const data = ident(DATA_RELATION);

/**
 * Past this many rows the facts screen an even sample of them first (every n-th by a hash of the
 * row): what the sample rules out (a measure varying within an entity, two categories' ranges
 * overlapping) holds for all rows, and only what it leaves is measured again over every row; a
 * running total's steps and the pairs' correlations per group, which only choose what to draw,
 * are read from it.
 */
export const FACTS_ROWS = 100_000;

/** Every how many rows the facts' sample takes one (1: every row). */
function sampleEvery(rows: number): number {
  return Math.ceil(rows / FACTS_ROWS);
}

/** At most this many number columns are checked for running totals and total rows. */
const CHECKED_MEASURES = 12;

/** The facts of `data` that decide its grain and its columns' roles (all rows; a few scans). */
export async function tableFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  order: SourceLocale['dateOrder'],
  signal?: AbortSignal,
): Promise<TableFacts> {
  if (profile.rows === 0) return {};
  // Independent scans, side by side on the database's connections.
  const [derived, timed, grouped, repeated, splits, aliases, quotients, balances] =
    await Promise.all([
      derivedFacts(db, profile, types, signal),
      timeFacts(db, profile, types, order, signal),
      groupPairFacts(db, profile, types, signal),
      repeatedFacts(db, profile, types, signal),
      splitFacts(db, profile, signal),
      aliasFacts(db, profile, signal),
      quotientFacts(db, profile, types, signal),
      balanceFacts(db, profile, signal),
    ]);
  return {
    ...derived,
    ...timed,
    ...grouped,
    ...repeated,
    ...splits,
    ...aliases,
    ...quotients,
    ...balances,
  };
}

/**
 * The candidate pairs (aliasCandidates) that pair their values one to one: as many distinct
 * (a, b) combinations, missing ones included, as a has distinct values (each a has one b), and
 * where b is present as many as b has (each b has one a; b may be missing for some groups of a).
 */
async function aliasFacts(
  db: DuckDb,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'aliases'>> {
  const pairs = aliasCandidates(profile);
  if (pairs.length === 0) return {};
  const distinct = (names: string[], where = ''): string =>
    `(SELECT count(*) FROM (SELECT DISTINCT ${names.map(ident).join(', ')} FROM ${data}${where}))`;
  const counts = pairs.map(([a, b], i) => {
    const present = ` WHERE ${ident(b)} IS NOT NULL`;
    return `${distinct([a, b])} AS p${i}, ${distinct([a])} AS a${i}, ${distinct([a, b], present)} AS q${i}, ${distinct([b], present)} AS b${i}`;
  });
  const [row = {}] = await db.objects(`SELECT ${counts.join(', ')}`, signal);
  const same = (x: string, y: string): boolean => Number(row[x] ?? -1) === Number(row[y] ?? -2);
  return { aliases: pairs.filter((_, i) => same(`p${i}`, `a${i}`) && same(`q${i}`, `b${i}`)) };
}

/**
 * For each candidate text column (splitCandidates), the values whose sum of a measure is within
 * LOOSE_SHARE of the sum of the column's other rows (missing values among them): one grouping per
 * column, in one query. semantics-totals.ts decides which of them are totals. The same grouping
 * lists the values of a column that has NAMES_MIN to NAMES_DISTINCT (semantics-aggregates.ts).
 */
async function splitFacts(
  db: DuckDb,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<TableFacts> {
  const { columns, measures } = splitCandidates(profile);
  if (columns.length === 0) return {};
  const sums = measures.map((m, j) => `sum(CAST(${ident(m)} AS DOUBLE)) AS p${j}`);
  const groups = columns.map(
    (c, k) =>
      `SELECT ${k} AS k, CAST(${ident(c)} AS VARCHAR) AS v, ${sums.join(', ')} FROM ${data} GROUP BY ALL`,
  );
  const wholes = measures.map((_, j) => `p${j}, sum(p${j}) OVER (PARTITION BY k) AS w${j}`);
  const near = (j: number) =>
    `(p${j} <> 0 AND abs(p${j} - (w${j} - p${j})) <= ${LOOSE_SHARE} * abs(p${j}) + 1e-9)`;
  const blanks = measures.map((_, j) => `NULL AS p${j}, NULL AS w${j}`);
  const rows = await db.objects(
    `WITH grouped AS MATERIALIZED (SELECT k, v, ${wholes.join(', ')} FROM (${groups.join('\nUNION ALL\n')}))
    SELECT *, NULL AS names FROM (SELECT * FROM grouped WHERE v IS NOT NULL AND (${measures.map((_, j) => near(j)).join(' OR ')}) ORDER BY k, v LIMIT 100)
    UNION ALL BY NAME
    SELECT k, NULL AS v, ${blanks.join(', ')}, CAST(to_json(list(v ORDER BY v)) AS VARCHAR) AS names FROM grouped WHERE v IS NOT NULL GROUP BY k HAVING count(*) BETWEEN ${NAMES_MIN} AND ${NAMES_DISTINCT}`,
    signal,
  );
  const names: Record<string, string[]> = {};
  for (const row of rows)
    if (typeof row.names === 'string')
      names[columns[Number(row.k)] as string] = (JSON.parse(row.names) as unknown[]).map(String);
  const splits = rows.flatMap((row) =>
    (typeof row.names === 'string' ? [] : measures).flatMap((measure, j) => {
      const [part, whole] = [Number(row[`p${j}`]), Number(row[`w${j}`])];
      const rest = whole - part;
      const near = part !== 0 && Math.abs(part - rest) <= LOOSE_SHARE * Math.abs(part) + 1e-9;
      return near && Number.isFinite(part) && Number.isFinite(whole)
        ? [{ column: columns[Number(row.k)] as string, value: String(row.v), measure, part, whole }]
        : [];
    }),
  );
  return { splits, ...(Object.keys(names).length ? { names } : {}) };
}

/**
 * The measures with one value per entity, repeated on its rows (a grouping per entity column).
 * Past FACTS_ROWS the facts' even sample of rows is read first: a measure that varies within
 * an entity there varies over all rows, so only the others are measured again over every row.
 */
async function repeatedFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'repeated'>> {
  const measures = derivedMeasures(profile).filter((m) => NUMBER_TYPE.test(types.get(m) ?? ''));
  const entities = measures.length ? attributeEntities(profile) : [];
  const every = sampleEvery(profile.rows);
  const found = await Promise.all(
    entities.map(async (entity) => {
      const sampled = every > 1 ? await perEntity(db, entity, measures, every, signal) : null;
      const left = sampled ? measures.filter((_, i) => sampled.varies[i] === 0) : measures;
      if (left.length === 0) return [];
      const all = await perEntity(db, entity, left, 1, signal);
      const repeated = left.filter(
        (_, i) => (all.groups[i] ?? 0) >= REPEATED_GROUPS && all.varies[i] === 0,
      );
      const within = repeated.length
        ? await constantWithin(db, withinCandidates(profile, entity), entity, signal)
        : [];
      return repeated.map((measure) => ({ measure, entity, rows: all.rows, within }));
    }),
  );
  return { repeated: [...found.flat(), ...(await headerFacts(db, profile, types, signal))] };
}

/**
 * The sparse measures written once per entity, on its first row, its other rows blank (an order's
 * total above its line items): for each header entity (headerEntities), the measures never on two
 * rows of one value, never on a row but its first, and on REPEATED_GROUPS values of two rows or more.
 */
async function headerFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Repeated[]> {
  const entities = headerMeasures(profile).length ? headerEntities(profile) : [];
  const found = await Promise.all(
    entities.map(async (entity) => {
      const measures = headerMeasures(profile, entity).filter((m) =>
        NUMBER_TYPE.test(types.get(m) ?? ''),
      );
      if (measures.length === 0) return [];
      const e = ident(entity);
      const per = measures.flatMap((m, i) => [
        `count(${ident(m)}) AS n${i}`,
        `min(rowid) FILTER (WHERE ${ident(m)} IS NOT NULL) AS f${i}`,
      ]);
      const counts = measures.flatMap((_, i) => [
        `count_if(n${i} >= 2 OR (n${i} = 1 AND f${i} <> f)) AS b${i}`,
        `count_if(r >= 2 AND n${i} = 1) AS g${i}`,
      ]);
      const [row = {}] = await db.objects(
        `SELECT avg(r) AS rows, ${counts.join(', ')} FROM (SELECT count(*) AS r, min(rowid) AS f, ${per.join(', ')} FROM ${data} WHERE ${e} IS NOT NULL GROUP BY ${e})`,
        signal,
      );
      const once = measures.filter(
        (_, i) => Number(row[`b${i}`] ?? 1) === 0 && Number(row[`g${i}`] ?? 0) >= REPEATED_GROUPS,
      );
      const within = once.length
        ? await constantWithin(db, headerWithin(profile, entity), entity, signal)
        : [];
      const rows = Number(row.rows ?? 0);
      return once.map((measure) => ({ measure, entity, rows, within, once: true }));
    }),
  );
  return found.flat();
}

/**
 * Per measure, over every `every`-th row of the even sample (1: all rows): the values of `entity`
 * holding two or more of its values (groups), and those among them where it varies; and the
 * entity's rows on average.
 */
async function perEntity(
  db: DuckDb,
  entity: string,
  measures: readonly string[],
  every: number,
  signal?: AbortSignal,
): Promise<{ rows: number; groups: number[]; varies: number[] }> {
  const per = measures.flatMap((m, i) => [
    `count(${ident(m)}) AS n${i}`,
    `min(${ident(m)}) AS lo${i}`,
    `max(${ident(m)}) AS hi${i}`,
  ]);
  const counts = measures.flatMap((_, i) => [
    `count(*) FILTER (WHERE n${i} >= 2) AS g${i}`,
    `count(*) FILTER (WHERE n${i} >= 2 AND lo${i} < hi${i}) AS v${i}`,
  ]);
  const e = ident(entity);
  const sampled = every > 1 ? ` AND hash(rowid) % ${every} = 0` : '';
  const [row = {}] = await db.objects(
    `SELECT avg(r) AS rows, ${counts.join(', ')} FROM (SELECT count(*) AS r, ${per.join(', ')} FROM ${data} WHERE ${e} IS NOT NULL${sampled} GROUP BY ${e})`,
    signal,
  );
  return {
    rows: Number(row.rows ?? 0),
    groups: measures.map((_, i) => Number(row[`g${i}`] ?? 0)),
    varies: measures.map((_, i) => Number(row[`v${i}`] ?? 1)),
  };
}

/** The `candidates` (withinCandidates, headerWithin) with one value in each value of `entity`. */
async function constantWithin(
  db: DuckDb,
  candidates: readonly string[],
  entity: string,
  signal?: AbortSignal,
): Promise<string[]> {
  if (candidates.length === 0) return [];
  const e = ident(entity);
  const per = candidates.map((c, i) => `min(${ident(c)}) < max(${ident(c)}) AS m${i}`);
  const counts = candidates.map((_, i) => `count_if(m${i}) AS v${i}`);
  const [row = {}] = await db.objects(
    `SELECT ${counts.join(', ')} FROM (SELECT ${per.join(', ')} FROM ${data} WHERE ${e} IS NOT NULL GROUP BY ${e})`,
    signal,
  );
  return candidates.filter((_, i) => Number(row[`v${i}`] ?? 1) === 0);
}

/** Pearson r of each pair of measures, pooled and per value of the small category (one scan). */
async function groupPairFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'groupPairs'>> {
  const by = groupCategory(profile);
  const measures = derivedMeasures(profile).filter((m) => NUMBER_TYPE.test(types.get(m) ?? ''));
  const pairs = measurePairs(measures);
  if (!by || pairs.length === 0) return {};
  const x = (name: string): string => `x${measures.indexOf(name)}`;
  // Finite values only: DuckDB's corr() fails the whole query on an infinity ("out of range").
  const projection = [
    `${ident(by)} AS g`,
    ...measures.map((m, i) => `${finiteOf(`CAST(${ident(m)} AS DOUBLE)`)} AS x${i}`),
  ];
  const aggregates = pairs.flatMap(([a, b], i) => [
    `corr(${x(a)}, ${x(b)}) AS r${i}`,
    `regr_count(${x(a)}, ${x(b)}) AS n${i}`,
  ]);
  // These facts only choose which scatter to draw (its finding is measured over all rows): past
  // FACTS_ROWS they come from the facts' even sample of rows.
  const every = sampleEvery(profile.rows);
  const where = every > 1 ? ` WHERE hash(rowid) % ${every} = 0` : '';
  const rows = await db.objects(
    `SELECT grouping(g) AS pooled, g IS NULL AS unnamed, ${aggregates.join(', ')} FROM (SELECT ${projection.join(', ')} FROM ${data}${where}) GROUP BY GROUPING SETS ((g), ())`,
    signal,
  );
  const r = (row: Record<string, unknown>, i: number): number | null => {
    const v = row[`r${i}`];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  const pooled = rows.find((row) => Number(row.pooled) === 1) ?? {};
  const groups = rows.filter((row) => Number(row.pooled) === 0 && row.unnamed !== true);
  return {
    groupPairs: {
      by,
      pairs: pairs.map(([a, b], i) => ({
        a,
        b,
        overall: r(pooled, i),
        groups: groups.map((g) => ({ n: Number(g[`n${i}`] ?? 0), r: r(g, i) })),
      })),
    },
  };
}

/** Totals of two other columns, and each candidate category's ranges of each measure. */
async function derivedFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  signal?: AbortSignal,
): Promise<Pick<TableFacts, 'sums' | 'ranges'>> {
  const measures = derivedMeasures(profile).filter((m) => NUMBER_TYPE.test(types.get(m) ?? ''));
  const facts: Pick<TableFacts, 'sums' | 'ranges'> = { sums: [], ranges: {} };
  const triples = sumTriples(measures, profile);
  if (triples.length) {
    // Each column cast once, in a projection; a missing value makes the difference NULL.
    const x = (name: string): string => `x${measures.indexOf(name)}`;
    const projection = measures.map((m, i) => `CAST(${ident(m)} AS DOUBLE) AS x${i}`);
    const aggregates = triples.flatMap(([total, a, b], i) => {
      const gap = `abs(${x(total)} - (${x(a)} + ${x(b)}))`;
      return [
        `count(${gap}) AS n${i}`,
        `count_if(${gap} <= 1e-6 * abs(${x(total)}) + 1e-6) AS h${i}`,
      ];
    });
    const [row = {}] = await db.objects(
      `SELECT ${aggregates.join(', ')} FROM (SELECT ${projection.join(', ')} FROM ${data})`,
      signal,
    );
    facts.sums = triples.flatMap(([total, a, b], i) => {
      const [n, h] = [Number(row[`n${i}`] ?? 0), Number(row[`h${i}`] ?? 0)];
      return n >= 10 && h >= n * 0.99 ? [{ total, parts: [a, b] as [string, string] }] : [];
    });
  }
  const categories = measures.length ? binCategories(profile) : [];
  // Past FACTS_ROWS the facts' even sample of rows is read first: where it already shows two
  // categories' ranges overlapping, all rows do too, so only a measure whose sampled ranges are
  // apart is measured again over every row (the evidence names the ranges of all rows).
  const every = sampleEvery(profile.rows);
  const ranges = await Promise.all(
    categories.map(async (category) => {
      const byMeasure = await categoryRanges(db, category, measures, every, signal);
      const apart = every > 1 ? measures.filter((m) => !rangesOverlap(byMeasure[m] ?? [])) : [];
      if (apart.length)
        Object.assign(byMeasure, await categoryRanges(db, category, apart, 1, signal));
      return [category, byMeasure] as const;
    }),
  );
  facts.ranges = Object.fromEntries(ranges);
  return facts;
}

/** Each value of `category`'s min and max of each measure, over every `every`-th row of the even sample (1: all rows). */
async function categoryRanges(
  db: DuckDb,
  category: string,
  measures: readonly string[],
  every: number,
  signal?: AbortSignal,
): Promise<Record<string, [number, number][]>> {
  const c = ident(category);
  const cols = measures.flatMap((m, i) => [
    `min(${ident(m)}) AS lo${i}`,
    `max(${ident(m)}) AS hi${i}`,
  ]);
  const sampled = every > 1 ? ` AND hash(rowid) % ${every} = 0` : '';
  const groups = await db.objects(
    `SELECT ${cols.join(', ')} FROM ${data} WHERE ${c} IS NOT NULL${sampled} GROUP BY ${c}`,
    signal,
  );
  const byMeasure = measures.map((m, i): [string, [number, number][]] => [
    m,
    groups.flatMap((g): [number, number][] =>
      g[`lo${i}`] === null || g[`hi${i}`] === null
        ? []
        : [[Number(g[`lo${i}`]), Number(g[`hi${i}`])]],
    ),
  ]);
  return Object.fromEntries(byMeasure);
}

/**
 * The time column's distinct and present values. A column read as dates is its own period, and
 * the profile counted both exactly (its top values group every value); text dates are counted
 * as parsed.
 */
async function periodCount(
  db: DuckDb,
  profile: DataProfile,
  t: string,
  name: string,
  signal?: AbortSignal,
): Promise<{ distinct: number; present: number }> {
  const column = profile.column_profiles.find((c) => c.name === name);
  const present = column ? profile.rows - column.missing : 0;
  const counted = t === ident(name) && column && profile.approximate?.distinct !== true;
  if (counted && (column.distinct > 0 || present === 0))
    return { distinct: column.distinct, present };
  const [row = {}] = await db.objects(
    `SELECT count(DISTINCT ${t}) AS t, count(${t}) AS present FROM ${data}`,
    signal,
  );
  return { distinct: Number(row.t ?? 0), present: Number(row.present ?? 0) };
}

/** Distinct periods, unique keys, running totals and total rows (nothing without a time column). */
async function timeFacts(
  db: DuckDb,
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  order: SourceLocale['dateOrder'],
  signal?: AbortSignal,
): Promise<TableFacts> {
  const first = describeData(profile);
  const time = first.table.time;
  if (!time || profile.rows === 0) return {};
  const column = profile.column_profiles.find((c) => c.name === time.column);
  const t = timeExpr(time.column, types.get(time.column) ?? 'VARCHAR', column?.semantic, order);
  const { distinct: timeDistinct, present } = await periodCount(
    db,
    profile,
    t,
    time.column,
    signal,
  );
  // Keys matter only where periods repeat (semantics.ts looks for one only then).
  const keys = timeDistinct < present ? candidateKeys(profile) : [];
  const parts = [
    `${timeDistinct} AS t`,
    ...keys.map(
      (key, i) =>
        `(SELECT count(*) FROM (SELECT DISTINCT ${[...key.map(ident), t].join(', ')} FROM ${data} WHERE ${t} IS NOT NULL)) AS k${i}`,
    ),
  ];
  // Without keys the periods are all there is to say: no query.
  const [row = {}] = keys.length
    ? await db.objects(`SELECT ${parts.join(', ')}`, signal)
    : [{ t: timeDistinct }];
  const facts: TableFacts = {
    timeDistinct: Number(row.t ?? 0),
    keyDistinct: Object.fromEntries(
      keys.map((key, i) => [keyLabel(key), Number(row[`k${i}`] ?? 0)]),
    ),
  };
  const grained = describeData(profile, facts).table;
  if (grained.grain !== 'panel' && grained.grain !== 'series') return facts;
  const values = factMeasures(profile, types, [time.column, ...grained.keys]);
  const measures = [...values.keys()];
  const value = (m: string): string => values.get(m) ?? ident(m);
  if (measures.length === 0) return facts;
  const partition = grained.keys.length
    ? `PARTITION BY ${grained.keys.map(ident).join(', ')} `
    : '';
  const lags = measures.map(
    (m, i) => `${value(m)} AS v${i}, lag(${value(m)}) OVER (${partition}ORDER BY ${t}) AS p${i}`,
  );
  const shares = measures.flatMap((_, i) => {
    const [v, p] = [`CAST(v${i} AS DOUBLE)`, `CAST(p${i} AS DOUBLE)`];
    const larger = `greatest(abs(${v}), abs(${p}))`;
    return [
      `avg(CASE WHEN v${i} >= p${i} THEN 1.0 ELSE 0.0 END) FILTER (WHERE v${i} IS NOT NULL AND p${i} IS NOT NULL) AS s${i}`,
      `median(abs(${v} - ${p}) / ${larger}) FILTER (WHERE isfinite(${v}) AND isfinite(${p}) AND ${larger} > 0) AS r${i}`,
    ];
  });
  // A running total never decreases along any subset of its rows either, while other measures
  // still rise and fall about half the time: past FACTS_ROWS rows, the steps between the rows of the
  // profile's even sample decide (a sort of every row costs ~0.2 s per million).
  const every = sampleEvery(profile.rows);
  const sampled = every > 1 ? ` AND hash(rowid) % ${every} = 0` : '';
  const [steps = {}] = await db.objects(
    `SELECT ${shares.join(', ')} FROM (SELECT ${lags.join(', ')} FROM ${data} WHERE ${t} IS NOT NULL${sampled})`,
    signal,
  );
  if (every > 1) facts.stepsSampled = true;
  const measured = (prefix: string): Record<string, number> =>
    Object.fromEntries(
      measures.flatMap((m, i) => {
        const value = steps[`${prefix}${i}`];
        return typeof value === 'number' ? [[m, value]] : [];
      }),
    );
  facts.nonDecreasing = measured('s');
  facts.typicalStep = measured('r');
  if (grained.keys.length === 1)
    facts.totals = await totalRows(db, grained.keys[0] ?? '', t, measures, value, signal);
  if (grained.keys.length === 1 && time.kind === 'year')
    if (NUMBER_TYPE.test(types.get(time.column) ?? ''))
      facts.reported = await reportedYears(db, time.column, measures, value, signal);
  // A dated panel's periods too (one row per store and month): by its times as read.
  if (
    grained.keys.length === 1 &&
    time.kind === 'date' &&
    (facts.timeDistinct ?? 0) <= REPORTED_PERIODS
  )
    facts.reported = await reportedYears(db, t, measures, value, signal, true);
  return facts;
}

/**
 * The measures the time facts check, but `skip` (the time, the keys), at most CHECKED_MEASURES:
 * each as SQL of its numbers, numbers stored as text ("1,085.56", "-" for none) read as the
 * cleaning reads them.
 */
function factMeasures(
  profile: DataProfile,
  types: ReadonlyMap<string, string>,
  skip: readonly string[],
): Map<string, string> {
  const checked = profile.column_profiles.filter(
    (c) =>
      !skip.includes(c.name) &&
      ((c.semantic === 'numeric' && NUMBER_TYPE.test(types.get(c.name) ?? '')) ||
        c.semantic === 'numeric_text'),
  );
  return new Map(
    checked
      .slice(0, CHECKED_MEASURES)
      .map((c) => [c.name, numberValue(c.name, types.get(c.name) ?? '')]),
  );
}

/** A measure's numbers: its own, or its text read as numbers (numeric_text, as the cleaning reads it). */
function numberValue(name: string, type: string): string {
  return NUMBER_TYPE.test(type) ? ident(name) : numberTextSql(`CAST(${ident(name)} AS VARCHAR)`);
}

/**
 * Values of `entity` whose measure equals the sum of every other value's in at least 90% of the
 * (three or more) periods where others exist: "All natural disasters", "Total", "World".
 */
async function totalRows(
  db: DuckDb,
  entity: string,
  t: string,
  measures: readonly string[],
  value: (m: string) => string,
  signal?: AbortSignal,
): Promise<NonNullable<TableFacts['totals']>> {
  const found: NonNullable<TableFacts['totals']> = [];
  for (const measure of measures.slice(0, 4)) {
    const m = value(measure);
    const rows = await db.objects(
      `WITH p AS (SELECT CAST(${ident(entity)} AS VARCHAR) AS k, ${t} AS t, sum(${m}) AS m FROM ${data} WHERE ${t} IS NOT NULL AND ${m} IS NOT NULL GROUP BY ALL),
        tot AS (SELECT t, sum(m) AS s, count(*) AS n FROM p GROUP BY t)
      SELECT k, avg(CASE WHEN abs(p.m - (tot.s - p.m)) <= 1e-6 * abs(p.m) + 1e-9 THEN 1.0 ELSE 0.0 END) AS share, count(*) AS periods
      FROM p JOIN tot USING (t) WHERE tot.n > 2 AND p.m <> 0 GROUP BY k HAVING share >= 0.9 AND count(*) >= 3 ORDER BY share DESC, k LIMIT 1`,
      signal,
    );
    const hit = rows[0];
    if (hit && typeof hit.k === 'string') {
      found.push({ column: entity, value: hit.k, measure });
      break;
    }
  }
  return found;
}
