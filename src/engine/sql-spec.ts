/**
 * What the preamble's Recorder does, for declarations computed in SQL: ids
 * (c1…, t1…) and report positions, the `data` block of each declaration,
 * one `{columns, data}` frame file per declaration (NaN → null, timestamps
 * ISO), and render_spec.json at the end.
 */
import type { ExactStats } from './profile-exact.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Scales } from '../agent/compile-plan.js';
import type { Analysis } from '../agent/plan.js';
import type { ColumnDtype, ColumnInfo, Declaration, RenderSpec } from '../spec/schema.js';
import { SPEC_VERSION } from '../spec/schema.js';
import type { DuckDb, QueryResult } from './duckdb.js';
import type { Insight } from './insights.js';
import type { Rows } from './sql-rows.js';
import { coarseType, cteText, withQuery } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';
import type { SourceInfo } from './types.js';

type Reduction = Declaration['data']['reductions'][number];

/** One declaration as a transform computed it. */
export interface Declared {
  kind: string;
  table: boolean;
  /** Parameters as compile-plan.ts declares them, plus the ones the preparer fills in. */
  params: Record<string, unknown>;
  /** The query whose result is the frame. */
  sql: string;
  /** The frame; null when the preparer reports a data problem (`error`). */
  frame: QueryResult | null;
  sourceColumns: ColumnInfo[];
  sourceRows: number;
  reductions: Reduction[];
  sampled: boolean;
  cap: number | null;
  error: string | null;
  /** Frame column dtypes that differ from the SQL type's, as pandas infers them for mixed columns. */
  dtypes?: Readonly<Record<string, ColumnDtype>>;
}

/**
 * What one analysis produced: its declaration, and its findings to compute after it is declared
 * (as the compiled program declares first, so a finding that fails never takes the chart with it).
 */
export interface Outcome {
  declared: Declared;
  findings: () => Promise<Insight[]>;
}

/** No findings. */
export const noFindings = (): Promise<Insight[]> => Promise.resolve([]);

/** What a transform computes with. */
export interface Ctx {
  db: DuckDb;
  rows: Rows;
  analysis: Analysis;
  /** The columns that name a panel's entity (gapKeys): a period an entity lacks is a gap, not 0. */
  entityKeys?: readonly string[];
  /** The stocks and interval levels of the table (compile-plan's Scales), for the findings. */
  scales?: Scales;
  /** Whether a row is an event (compile-plan's eventLog): a period without rows may be a quiet one. */
  eventLog?: boolean;
  signal?: AbortSignal;
  /** CTEs answered from kept tables (`keeping`): the CTE as written, and as run. */
  kept?: readonly (readonly [string, string])[];
  /** The kept tables of the analysis, dropped when it is done (shared by its contexts). */
  keptTables?: string[];
  /** What the profile found of `data`'s number columns, exactly (profile-exact). */
  known?: ExactStats;
  /** The profile's distinct count of each column: a guide to how a query is written, never a figure. */
  distinct?: ReadonlyMap<string, number>;
  /** The table's row count (the profile's): with `distinct`, a guide to how a query is written. */
  tableRows?: number;
  /** Tables kept for the whole plan (`keepingShared`), read by every analysis that asks again. */
  shared?: SharedTables;
}

/**
 * CTEs kept as tables for the whole run of a plan, by the query that fills them: the first
 * analysis to ask makes the table, the others (on other connections, at the same time) wait for
 * it. Dropped with `dropShared` once every analysis is done.
 */
export type SharedTables = Map<string, Promise<string>>;

/** Runs a query of the analysis (a kept CTE read from its table). */
export function query(ctx: Ctx, sql: string): Promise<QueryResult> {
  return ctx.db.all(runnable(ctx, sql), ctx.signal);
}

/** A query of the analysis as it runs: each kept CTE reading its table. */
function runnable(ctx: Ctx, sql: string): string {
  let run = sql;
  for (const [written, kept] of ctx.kept ?? []) run = run.replaceAll(written, kept);
  return run;
}

/**
 * The analysis' context with `cte` (over its rows) computed once and kept as a table: every query
 * of the analysis that holds the CTE reads the table instead of aggregating all rows again. The
 * queries are shown (and exported) as written; only the ones run differ, in that CTE's body.
 */
export async function keeping(ctx: Ctx, cte: Cte): Promise<Ctx> {
  const all = runnable(ctx, over(ctx, [cte], `SELECT * FROM ${cte[0]}`));
  const table = await ctx.db.keep(all, ctx.signal);
  ctx.keptTables?.push(table);
  const kept = [cteText(cte), cteText([cte[0], `SELECT * FROM ${table}`])] as const;
  return { ...ctx, kept: [...(ctx.kept ?? []), kept] };
}

/**
 * `keeping` for CTEs that depend on nothing of the analysis but its rows (a column's ranks over
 * every row): each kept once for the plan, so another analysis over the same rows reads the same
 * table. A CTE's key is its body over the rows' CTEs, whatever it is called. Without
 * `ctx.shared` the CTEs run as written.
 */
export async function keepingShared(ctx: Ctx, ctes: readonly Cte[]): Promise<Ctx> {
  const shared = ctx.shared;
  if (!shared || ctes.length === 0) return ctx;
  const kept = await Promise.all(
    ctes.map(async (cte) => {
      const key = runnable(ctx, over(ctx, [['shared', cte[1]]], 'SELECT * FROM shared'));
      let table = shared.get(key);
      if (!table) {
        table = ctx.db.keep(key, ctx.signal);
        table.catch(() => undefined);
        shared.set(key, table);
      }
      return [cteText(cte), cteText([cte[0], `SELECT * FROM ${await table}`])] as const;
    }),
  );
  return { ...ctx, kept: [...(ctx.kept ?? []), ...kept] };
}

/** Drops the plan's shared tables (those that were made). */
export async function dropShared(db: DuckDb, shared: SharedTables, signal?: AbortSignal) {
  const made = await Promise.allSettled(shared.values());
  const names = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []));
  shared.clear();
  await db.dropKept(names, signal);
}

/** The first row of a query as an object. */
export async function queryRow(ctx: Ctx, sql: string): Promise<Record<string, unknown>> {
  const result = await query(ctx, sql);
  const row = result.rows[0] ?? [];
  return Object.fromEntries(result.columns.map((name, i) => [name, row[i] ?? null]));
}

/** A query over the analysis' rows: its CTEs, more CTEs, then `body`. */
export function over(ctx: Ctx, ctes: readonly Cte[], body: string): string {
  return withQuery([...ctx.rows.ctes, ...ctes], body);
}

/** The number of rows a query returns. */
export async function countOf(ctx: Ctx, sql: string): Promise<number> {
  const row = await queryRow(ctx, `SELECT count(*) AS n FROM (\n${sql}\n)`);
  return Number(row.n ?? 0);
}

/** Parameters without the unset ones, as the preamble drops None. */
export function params(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(entries).filter(([, v]) => v !== undefined && v !== null),
  );
}

/** Column infos of typed columns. */
export function infos(columns: readonly Column[]): ColumnInfo[] {
  return columns.map((c) => ({ name: c.name, dtype: coarseType(c.type) }));
}

/** The declared rows' columns (the whole data, for declarations of `data`). */
export function sourceInfos(ctx: Ctx): ColumnInfo[] {
  return infos(ctx.rows.columns);
}

/** A declaration whose preparer raised: no frame, the error in words (as Recorder._prepare). */
export function failedDeclaration(
  base: Pick<Declared, 'kind' | 'table' | 'params' | 'sql' | 'sourceColumns' | 'sourceRows'>,
  error: string,
): Declared {
  return { ...base, frame: null, reductions: ['none'], sampled: false, cap: null, error };
}

/**
 * A frame as the preamble writes it ({columns, data}; NaN and infinities null, as JSON has neither);
 * in a table an infinite value is the text "∞" or "-∞" (opsmind_frames.infinities_as_text), since
 * null would show it as missing.
 */
function frameJson(frame: QueryResult, table: boolean): string {
  const data = table
    ? frame.rows.map((row) =>
        row.map((v) =>
          typeof v === 'number' && !Number.isFinite(v) && !Number.isNaN(v)
            ? v > 0
              ? '∞'
              : '-∞'
            : v,
        ),
      )
    : frame.rows;
  return JSON.stringify({ columns: frame.columns, data });
}

/** Collects the declarations of one plan and writes their frames and the spec. */
export class SpecWriter {
  private readonly charts: Declaration[] = [];
  private readonly tables: Declaration[] = [];
  /** The SQL behind each declaration, by id. */
  readonly queries: Record<string, string> = {};

  constructor(private readonly workdir: string) {
    mkdirSync(join(workdir, 'artifacts'), { recursive: true });
  }

  /** Records a declaration (and writes its frame); returns its id. */
  declare(d: Declared): string {
    const items = d.table ? this.tables : this.charts;
    const id = `${d.table ? 't' : 'c'}${items.length + 1}`;
    const seq = this.charts.length + this.tables.length + 1;
    let data: Declaration['data'] = {
      file: null,
      columns: [],
      source_columns: d.sourceColumns,
      rows: 0,
      source_rows: d.sourceRows,
      sampled: false,
      reductions: ['none'],
      cap: null,
      error: d.error,
    };
    if (d.frame && d.error === null) {
      const file = `artifacts/${id}.json`;
      writeFileSync(join(this.workdir, file), frameJson(d.frame, d.table));
      const columns = d.frame.columns.map((name, i) => ({ name, type: d.frame?.types[i] ?? '' }));
      data = {
        ...data,
        file,
        columns: infos(columns).map((c) => ({ ...c, dtype: d.dtypes?.[c.name] ?? c.dtype })),
        rows: d.frame.rows.length,
        sampled: d.sampled,
        reductions: d.reductions.length ? d.reductions : ['none'],
        cap: d.cap,
      };
    }
    items.push({ id, seq, kind: d.kind, params: d.params, inferred: [], data });
    this.queries[id] = d.sql;
    return id;
  }

  /** The spec of every declaration so far (what render_spec.json holds). */
  spec(source: SourceInfo): RenderSpec {
    return {
      version: SPEC_VERSION,
      source: {
        path: source.path,
        name: source.name,
        format: source.format,
        encoding: source.encoding,
        delimiter: source.delimiter,
        rows: source.rows,
        columns: source.columns,
        size_bytes: source.sizeBytes,
      },
      charts: this.charts,
      tables: this.tables,
      images: [],
      warnings: [...source.warnings],
      error: null,
    };
  }
}

/** The columns and types a query returns (run with LIMIT 0). */
export async function columnsOf(ctx: Ctx, sql: string): Promise<Column[]> {
  const result = await query(ctx, `SELECT * FROM (\n${sql}\n) LIMIT 0`);
  return result.columns.map((name, i) => ({ name, type: result.types[i] ?? '' }));
}

/**
 * A table of the rows `sql` returns (in its order), as opsmind_chart_table prepares one: the first
 * `maxRows` rows and at most the columns cap (the query selects them), "truncated" when rows or
 * columns were left out.
 */
export async function tableOf(
  ctx: Ctx,
  sql: string,
  maxRows: number,
  options: { sourceRows?: number; sourceColumns?: ColumnInfo[]; columnsLeftOut?: boolean } = {},
): Promise<Declared> {
  const sourceRows = options.sourceRows ?? (await countOf(ctx, sql));
  const limited = `${sql}\nLIMIT ${maxRows}`;
  const frame = await query(ctx, limited);
  const columns = frame.columns.map((name, i) => ({ name, type: frame.types[i] ?? '' }));
  const over = sourceRows > maxRows;
  return {
    kind: 'table',
    table: true,
    params: params({ title: ctx.analysis.title, max_rows: maxRows, note: ctx.analysis.why }),
    sql: limited,
    frame,
    sourceColumns: options.sourceColumns ?? infos(columns),
    sourceRows,
    reductions: over || options.columnsLeftOut ? ['truncated'] : [],
    sampled: over,
    cap: maxRows,
    error: null,
  };
}
