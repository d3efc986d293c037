/**
 * get_data_info in SQL: the dataset profile (src/agent/profile.ts) computed by DuckDB over the
 * data relation, with the rules and words of the pandas profile (preamble/opsmind_profile.py).
 * A handful of scans regardless of width: a GROUP BY per column for its top values and exact
 * distinct count, one wide scan of every column's aggregates; then, side by side, a sample of each
 * text column with one parse of those that look like dates or numbers, the quartiles of the number
 * columns and the gaps between the timestamps of the date columns; a second scan for centred
 * moments; correlations and duplicate rows. An evenly spaced date column (profile-series.ts) is
 * neither grouped nor sorted: one scan proves its counts and gaps. Above EXACT_ROWS the
 * quartiles of columns with many distinct values are approximate (the profile's `approximate`
 * says so).
 */
import type { ColumnProfile, DataProfile } from '../agent/profile.js';
import { DataProfileSchema } from '../agent/profile.js';
import type { DuckDb } from './duckdb.js';
import { ident } from './duckdb.js';
import type { SourceInfo } from './types.js';
import { DATA_RELATION } from './types.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { ColumnFacts, Decision } from './profile-classify.js';
import { columnProfile, decide, decideAll } from './profile-classify.js';
import type { ProfileColumn } from './profile-columns.js';
import { detailOf, dtypeOf, readColumns, timestampSql } from './profile-columns.js';
import { dropParsed, PARSED_RELATION } from './profile-details.js';
import type { FrequencyRequest } from './profile-frequency.js';
import { frequencies } from './profile-frequency.js';
import { judgeTexts } from './profile-judge.js';
import type { MomentRequest } from './profile-moments.js';
import { momentScan } from './profile-moments.js';
import { CORR_ROWS, correlations, duplicateRows } from './profile-relations.js';
import { interpolateQuartiles, quartiles } from './profile-quartiles.js';
import type { NumberScan } from './profile-numbers.js';
import { firstScan, missingCounts } from './profile-scan.js';
import { topValues } from './profile-top.js';
import { evenSeries, seriesFrequency } from './profile-series.js';
import type { ExactStats } from './profile-exact.js';
import { exactStats } from './profile-exact.js';
import { approximateWarning, datasetWarnings } from './profile-warnings.js';

/** The typical spacing of timestamps, as the profile infers it (re-exported for the insights port). */
export { inferFrequency } from './profile-dates.js';
export type { Frequency } from './profile-dates.js';
import type { Frequency } from './profile-dates.js';

/**
 * Up to this many rows every figure is exact; beyond it the quartiles of columns with many
 * distinct values (and the medians and outlier counts that use them) are approximate.
 */
export const EXACT_ROWS = 1_000_000;

async function countRows(db: DuckDb, signal?: AbortSignal): Promise<number> {
  const result = await db.all(`SELECT count(*) FROM ${ident(DATA_RELATION)}`, signal);
  return Number(result.rows[0]?.[0] ?? 0);
}

/** Past this many columns, the profile's independent scans run one after the other. */
const WIDE_COLUMNS = 500;

/** Two independent queries: side by side, or (`together` false) one after the other. */
async function both<A, B>(
  together: boolean,
  a: () => Promise<A>,
  b: () => Promise<B>,
): Promise<[A, B]> {
  if (together) return Promise.all([a(), b()]);
  const first = await a();
  return [first, await b()];
}

/** A column's facts from the first scans (and, for a text column, its judgement). */
function factOf(
  column: ProfileColumn,
  rows: number,
  source: SourceInfo,
  scans: ReadonlyMap<number, ColumnFacts['scan']>,
  tops: ReadonlyMap<number, NonNullable<ColumnFacts['top']>>,
  judgement?: { verdict: ColumnFacts['verdict']; detail: ColumnFacts['detail'] },
): ColumnFacts {
  const scan = scans.get(column.index);
  if (!scan)
    throw new OpsmindError(`profile: column ${column.index} was not scanned`, ExitCode.INTERNAL);
  return {
    column,
    rows,
    format: source.format,
    scan,
    top: tops.get(column.index),
    verdict: judgement?.verdict ?? null,
    detail: judgement?.detail ?? null,
  };
}

/** Every column's facts, and the gaps between the timestamps of the columns read as dates. */
async function gatherFacts(
  db: DuckDb,
  detailed: readonly ProfileColumn[],
  rows: number,
  source: SourceInfo,
  signal?: AbortSignal,
): Promise<{
  facts: ColumnFacts[];
  approximate: boolean;
  nativeGaps: () => Promise<Map<number, Frequency | null>>;
}> {
  const approximate = rows > EXACT_ROWS;
  // Independent scans run side by side (the database has a connection per thread once locked),
  // but one after the other on a wide table, whose scans each hold thousands of aggregate states.
  const together = detailed.length <= WIDE_COLUMNS;
  // An evenly spaced date column's value counts and gaps follow from one scan (profile-series).
  const series = await evenSeries(db, detailed, rows, source.format, signal);
  const [tops, scans] = await both(
    together,
    () =>
      topValues(
        db,
        detailed.filter((c) => !series.has(c.index)),
        rows,
        source.format,
        signal,
      ),
    () => firstScan(db, detailed, signal),
  );
  for (const [index, { top }] of series) tops.set(index, top);
  // A number or date column is decided by its scan and value counts alone (decide() reads a
  // judgement only for text), so its quartiles, and the gaps of a date column, need not wait for
  // the text columns to be judged: they run beside it.
  const native = detailed
    .filter((c) => c.kind !== 'text')
    .map((c) => factOf(c, rows, source, scans, tops));
  const gapsOf = async (): Promise<Map<number, Frequency | null>> => {
    const requests = frequencyRequests(native, native.map(decide));
    const measured = await frequencies(
      db,
      requests.filter((r) => !series.has(r.key)),
      signal,
    );
    for (const { key } of requests) {
      const found = series.get(key);
      if (found) measured.set(key, seriesFrequency(found));
    }
    return measured;
  };
  const started = together ? gapsOf() : null;
  started?.catch(() => undefined); // awaited by the caller, where a failure surfaces
  const [judgements, direct] = await both(
    together,
    () => judgeTexts(db, detailed, scans, tops, signal),
    () => completeQuartiles(db, native, rows, approximate, signal),
  );
  const byIndex = new Map(native.map((fact) => [fact.column.index, fact]));
  const facts = detailed.map(
    (column) =>
      byIndex.get(column.index) ??
      factOf(column, rows, source, scans, tops, judgements.get(column.index)),
  );
  // A wide table's gaps are measured when asked for, after its other scans.
  return { facts, approximate: approximate && direct, nativeGaps: () => started ?? gapsOf() };
}

async function completeQuartiles(
  db: DuckDb,
  facts: ColumnFacts[],
  rows: number,
  approximate: boolean,
  signal?: AbortSignal,
): Promise<boolean> {
  const scans = new Map<number, NumberScan>();
  const wanted = facts.flatMap((fact) => {
    const numbers = fact.scan.numbers;
    if (!numbers || decide(fact).numbers !== 'own') return [];
    // Picked while its values were counted (profile-top): no second grouping.
    const picks = fact.top?.picks;
    if (picks) scans.set(fact.column.index, interpolateQuartiles(picks, numbers));
    return picks ? [] : [{ column: fact.column, scan: numbers, distinct: fact.top?.distinct ?? 0 }];
  });
  const found = await quartiles(db, wanted, rows, approximate, signal);
  for (const [index, scan] of found.scans) scans.set(index, scan);
  const direct = found.direct;
  for (const fact of facts) {
    const numbers = scans.get(fact.column.index);
    if (numbers) fact.scan = { ...fact.scan, numbers };
  }
  return direct;
}

function momentRequests(
  facts: readonly ColumnFacts[],
  decisions: readonly Decision[],
): MomentRequest[] {
  return facts.flatMap((fact, i): MomentRequest[] => {
    const from = decisions[i]?.numbers;
    const scan = from === 'own' ? fact.scan.numbers : from === 'text' ? fact.detail?.numbers : null;
    const fromText = from === 'text';
    return scan ? [{ column: fact.column, fromText, scan, allFinite: fact.scan.allFinite }] : [];
  });
}

function frequencyRequests(
  facts: readonly ColumnFacts[],
  decisions: readonly Decision[],
): FrequencyRequest[] {
  return facts.flatMap(({ column }, i): FrequencyRequest[] => {
    const key = column.index;
    const from = decisions[i]?.dates;
    if (from === 'own')
      return [
        { key, timestamps: `SELECT ${timestampSql(column)} AS ts FROM ${ident(DATA_RELATION)}` },
      ];
    if (from === 'text')
      return [
        { key, timestamps: `SELECT t AS ts FROM ${ident(PARSED_RELATION)} WHERE k = ${key}` },
      ];
    return [];
  });
}

async function omittedColumns(
  db: DuckDb,
  omitted: readonly ProfileColumn[],
  rows: number,
  signal?: AbortSignal,
): Promise<DataProfile['omitted_columns']> {
  const gaps = omitted.filter((c) => c.kind === 'int' || c.kind === 'bool');
  const missing = await missingCounts(db, gaps, rows, signal);
  const counts = new Map<string, number>();
  for (const column of omitted) {
    const dtype = dtypeOf(column, (missing.get(column.index) ?? 0) > 0);
    counts.set(dtype, (counts.get(dtype) ?? 0) + 1);
  }
  const byDtype = [...counts].sort((a, b) => b[1] - a[1]);
  return { count: omitted.length, by_dtype: Object.fromEntries(byDtype) };
}

async function columnProfiles(
  db: DuckDb,
  detailed: readonly ProfileColumn[],
  rows: number,
  source: SourceInfo,
  signal?: AbortSignal,
): Promise<{
  facts: ColumnFacts[];
  profiles: ColumnProfile[];
  approximate: boolean;
  stats: ExactStats;
}> {
  const { facts, approximate, nativeGaps } = await gatherFacts(db, detailed, rows, source, signal);
  const decisions = decideAll(facts);
  // The date columns of text: their gaps are measured on the parsed table, now it exists.
  const texts = new Set(facts.filter((f) => f.column.kind === 'text').map((f) => f.column.index));
  const textDates = frequencyRequests(facts, decisions).filter((r) => texts.has(r.key));
  const [moments, timing] = await both(
    detailed.length <= WIDE_COLUMNS,
    () => momentScan(db, momentRequests(facts, decisions), signal),
    async () => new Map([...(await nativeGaps()), ...(await frequencies(db, textDates, signal))]),
  );
  const profiles = facts.map((fact, i) =>
    columnProfile(fact, decisions[i] ?? decide(fact), {
      moments: moments.get(fact.column.index),
      frequency: timing.get(fact.column.index) ?? null,
    }),
  );
  const stats = exactStats(facts, decisions, moments, rows, rows > EXACT_ROWS);
  return { facts, profiles, approximate, stats };
}

/** A profile, and the exact statistics of its number columns (profile-exact). */
export interface ProfileAndStats {
  profile: DataProfile;
  stats: ExactStats;
}

async function buildProfile(
  db: DuckDb,
  source: SourceInfo,
  signal?: AbortSignal,
): Promise<ProfileAndStats> {
  const columns = await readColumns(db, signal);
  const rows = await countRows(db, signal);
  const detailed = detailOf(columns);
  const left = columns.filter((c) => !detailed.includes(c));
  const { facts, profiles, approximate, stats } = await columnProfiles(
    db,
    detailed,
    rows,
    source,
    signal,
  );
  const numeric = detailed.filter(
    (_, i) => profiles[i]?.semantic === 'numeric' && profiles[i]?.numeric,
  );
  const unique = rows > 0 && facts.some((f) => f.top?.distinct === rows);
  const [[duplicates, omitted], correlated] = await both(
    columns.length <= WIDE_COLUMNS,
    () =>
      both(
        columns.length <= WIDE_COLUMNS,
        () => (rows < 2 || unique ? Promise.resolve(0) : duplicateRows(db, columns, signal)),
        () => omittedColumns(db, left, rows, signal),
      ),
    () => correlations(db, numeric, rows, signal),
  );
  const result = {
    rows,
    columns: columns.length,
    duplicate_rows: duplicates,
    source: {
      name: source.name || 'data',
      format: source.format,
      encoding: source.encoding,
      delimiter: source.delimiter,
    },
    column_profiles: profiles,
    omitted_columns: omitted,
    correlations: correlated,
  };
  const warnings = datasetWarnings(result);
  // Past CORR_ROWS the profile's r comes from an even sample (the charts' findings give r over all rows).
  const sampledR = rows > CORR_ROWS && correlated.length > 0;
  if (rows <= EXACT_ROWS && !sampledR)
    return { profile: DataProfileSchema.parse({ ...result, warnings }), stats };
  if (approximate && rows > EXACT_ROWS) warnings.push(approximateWarning(EXACT_ROWS));
  const flags = {
    distinct: false,
    quantiles: approximate && rows > EXACT_ROWS,
    ...(sampledR ? { correlations: true } : {}),
  };
  return { profile: DataProfileSchema.parse({ ...result, warnings, approximate: flags }), stats };
}

/**
 * The profile of the data relation (DataProfileSchema), read from `source` as described.
 * Cancelled with `signal` (the running query is interrupted). Leaves no table behind.
 */
export async function profileData(
  db: DuckDb,
  source: SourceInfo,
  signal?: AbortSignal,
): Promise<DataProfile> {
  return (await profileWithStats(db, source, signal)).profile;
}

/** profileData, with the exact statistics the charts can take instead of scanning again. */
export async function profileWithStats(
  db: DuckDb,
  source: SourceInfo,
  signal?: AbortSignal,
): Promise<ProfileAndStats> {
  try {
    return await buildProfile(db, source, signal);
  } finally {
    // Best effort: a closed engine has nothing left to drop, and must not hide the first error.
    await dropParsed(db).catch(() => undefined);
  }
}
