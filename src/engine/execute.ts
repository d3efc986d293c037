/**
 * execute_analysis on DuckDB: every analysis of a plan compiled to SQL over
 * the table `data`, leaving in the work dir exactly what the preamble leaves
 * for the pandas program compile-plan.ts writes — render_spec.json, one
 * frame file per declaration, insights.json — plus the SQL behind each
 * declaration. Each analysis runs on its own: one that fails is recorded in
 * `failed` and skipped, never the whole report.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis, Plan } from '../agent/plan.js';
import type { DataProfile } from '../agent/profile.js';
import { asRun, entityKeys, eventLog, scalesOf } from '../agent/compile-plan.js';
import type { Scales } from '../agent/compile-plan.js';
import { RenderSpecSchema } from '../spec/schema.js';
import type { DuckDb } from './duckdb.js';
import { distributionAnalysis } from './sql-distribution.js';
import { groupAnalysis } from './sql-group.js';
import { correlationAnalysis, relationshipAnalysis } from './sql-pairs.js';
import { dataColumns, planCleaning, rowsFor } from './sql-rows.js';
import type { Cleaning } from './sql-rows.js';
import { dropShared, over, queryRow, SpecWriter } from './sql-spec.js';
import type { Ctx, Outcome, SharedTables } from './sql-spec.js';
import { summaryAnalysis } from './sql-summary.js';
import { missingAnalysis, topRowsAnalysis } from './sql-tables.js';
import { seasonAnalysis } from './sql-season.js';
import { resampleAnalysis } from './sql-time.js';
import type { EngineOutcome, InsightsFile, SourceInfo } from './types.js';
import type { ExactStats } from './profile-exact.js';

/** Where and for which source a plan is executed. */
export interface ExecuteOptions {
  /** The directory that receives render_spec.json, artifacts/ and insights.json. */
  workdir: string;
  source: SourceInfo;
  signal?: AbortSignal;
  /** The profile's exact statistics of `data`'s number columns, when it was profiled here. */
  known?: ExactStats;
}

function transformOf(ctx: Ctx): Promise<Outcome> {
  const t = asRun(ctx.analysis.transform);
  switch (t.type) {
    case 'group':
      return groupAnalysis(ctx, t);
    case 'resample':
      return resampleAnalysis(ctx, t);
    case 'season':
      return seasonAnalysis(ctx, t);
    case 'distribution':
      return distributionAnalysis(ctx, t);
    case 'relationship':
      return relationshipAnalysis(ctx, t);
    case 'correlation':
      return correlationAnalysis(ctx, t);
    case 'summary':
      return summaryAnalysis(ctx, t);
    case 'missing':
      return missingAnalysis(ctx);
    case 'top_rows':
      return topRowsAnalysis(ctx, t);
    default: {
      const never: never = t;
      throw new Error(`unknown transform ${JSON.stringify(never)}`);
    }
  }
}

/** One line saying why an analysis failed, as the compiled program's `_failed` records it. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').trim() || 'the analysis failed';
}

interface Run {
  db: DuckDb;
  cleaning: Cleaning;
  entityKeys: readonly string[];
  eventLog: boolean;
  scales: Scales;
  writer: SpecWriter;
  file: InsightsFile;
  signal?: AbortSignal;
  known?: ExactStats;
  distinct: ReadonlyMap<string, number>;
  tableRows: number;
  shared: SharedTables;
}

type Ran =
  | { ok: true; outcome: Outcome; found: Awaited<ReturnType<Outcome['findings']>>; rows: number }
  | { ok: false; error: unknown };

/** An analysis' declaration and findings, or why it failed; only cancellation throws. */
async function runAnalysis(run: Run, analysis: Analysis): Promise<Ran> {
  const keptTables: string[] = [];
  try {
    const rows = rowsFor(run.cleaning, analysis);
    const ctx: Ctx = {
      db: run.db,
      rows,
      analysis,
      entityKeys: run.entityKeys,
      eventLog: run.eventLog,
      scales: run.scales,
      keptTables,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.known ? { known: run.known } : {}),
      distinct: run.distinct,
      tableRows: run.tableRows,
      shared: run.shared,
    };
    const outcome = await transformOf(ctx);
    const used = await queryRow(ctx, over(ctx, [], 'SELECT count(*) AS n FROM source'));
    return { ok: true, outcome, found: await outcome.findings(), rows: Number(used.n ?? 0) };
  } catch (error) {
    if (run.signal?.aborted) throw error;
    return { ok: false, error };
  } finally {
    if (!run.signal?.aborted) await run.db.dropKept(keptTables);
  }
}

/** Analyses run this many at a time (the database runs each on its own connection). */
const CONCURRENT_ANALYSES = 2;

/**
 * How long an analysis takes, roughly, to start the longest first: a scatter ranks both columns
 * and joins every row to its ranks, a box sorts every group's values, a histogram bins them; the
 * others are a group-by. The last to finish then are short ones beside each other, not a scatter's
 * chain of queries alone on the machine.
 */
function weight(analysis: Analysis): number {
  if (analysis.chart === 'scatter') return 3;
  if (analysis.chart === 'box') return 2;
  return analysis.chart === 'histogram' ? 1 : 0;
}

/** `work` over `items`, heaviest first, at most `limit` at a time; results in item order. */
async function inTurn<T, R>(
  items: readonly T[],
  limit: number,
  heavy: (item: T) => number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  const order = items.map((_, i) => i).sort((a, b) => heavy(items[b] as T) - heavy(items[a] as T));
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < order.length) {
      const i = order[next++] as number;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

/** Findings with the same sentence once (the first keeps its analysis), as fast mode shows them. */
function unique(insights: InsightsFile['insights']): InsightsFile['insights'] {
  const seen = new Set<string>();
  return insights.filter((i) => !seen.has(i.text) && seen.add(i.text));
}

/**
 * Executes every analysis of `plan` over the table `data` and writes the work dir; returns the
 * spec, the findings, the failures and each declaration's SQL (by id). Throws only when cancelled
 * or when the data cannot be read at all.
 */
export async function executePlan(
  db: DuckDb,
  plan: Plan,
  profile: DataProfile,
  options: ExecuteOptions,
): Promise<EngineOutcome> {
  const started = performance.now();
  const { workdir, source, signal, known } = options;
  const columns = await dataColumns(db, signal);
  const run: Run = {
    db,
    cleaning: planCleaning(plan, profile, columns, source.locale.dateOrder),
    entityKeys: entityKeys(profile),
    eventLog: eventLog(profile),
    scales: scalesOf(profile),
    writer: new SpecWriter(workdir),
    file: { insights: [], failed: [] },
    ...(signal ? { signal } : {}),
    ...(known ? { known } : {}),
    distinct: new Map(profile.column_profiles.map((c) => [c.name, c.distinct])),
    tableRows: profile.rows,
    shared: new Map(),
  };
  // Run side by side, recorded in plan order: the spec and the findings do not depend on timing.
  let ran: Ran[];
  try {
    ran = await inTurn(plan.analyses, CONCURRENT_ANALYSES, weight, (a) => runAnalysis(run, a));
  } finally {
    // The tables the analyses shared (a column's ranks): once all are done.
    if (!signal?.aborted) await dropShared(db, run.shared, signal);
  }
  const rowsUsed: Record<number, number> = {};
  for (const [i, r] of ran.entries()) {
    const analysis = i + 1;
    if (r.ok) rowsUsed[analysis] = r.rows;
    try {
      if (!r.ok) throw r.error;
      run.writer.declare(r.outcome.declared);
      run.file.insights.push(...r.found.map((insight) => ({ ...insight, analysis })));
    } catch (error) {
      const title = plan.analyses[i]?.title ?? '';
      run.file.failed.push({ analysis, title, error: errorText(error) });
    }
  }
  const insights: InsightsFile = { insights: unique(run.file.insights), failed: run.file.failed };
  const spec = RenderSpecSchema.parse(run.writer.spec(source));
  writeFileSync(join(workdir, 'render_spec.json'), JSON.stringify(spec));
  writeFileSync(join(workdir, 'insights.json'), JSON.stringify(insights));
  return {
    workdir,
    spec,
    insights,
    queries: { ...run.writer.queries },
    rowsUsed,
    durationMs: performance.now() - started,
    warnings: [],
  };
}
