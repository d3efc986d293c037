/**
 * The engine seam: what fast mode needs from whatever computes its numbers —
 * profile the data, execute a plan, say what it is. Two engines implement it:
 * DuckDB, embedded and the default (engine/duckdb-engine.ts), and pandas in
 * the sandbox (engine/pandas-engine.ts), kept as `--engine pandas` and as the
 * oracle of the differential tests. Both leave the same files: a profile,
 * render_spec.json with its frames, insights.json, and the code behind them.
 */
import type { Plan } from '../agent/plan.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { DataProfile } from '../agent/profile.js';
import type { RenderedItem } from '../report/render.js';
import type { SessionEvent } from '../shared/events.js';
import type { RenderSpec } from '../spec/schema.js';
import type { IdCounts } from '../spec/session-ids.js';
import type { InsightsFile } from './types.js';

/** The engines `--engine` accepts. */
export const ENGINE_NAMES = ['duckdb', 'pandas'] as const;
/** An engine's name. */
export type EngineName = (typeof ENGINE_NAMES)[number];

/** A profile and its stored JSON text. */
export interface Profiled {
  profile: DataProfile;
  text: string;
}

/** What executing a plan needs from the session. */
export interface ExecuteContext {
  /** Who planned it (named in the code's header). */
  planner: string;
  step: number;
  signal?: AbortSignal;
  /** Declaration ids earlier steps of the session used (new ones continue after them). */
  usedIds: IdCounts;
  /** Bytes of artifacts the session stored so far (counted against its frame budget). */
  storedBytes: number;
}

/** A file a step stores with its events. */
export interface StepFile {
  name: string;
  content: Buffer;
}

/** What executing a plan produced, ready to store and show. */
export interface Executed {
  /** The event that says how the computation ran (program_finished). */
  finished: SessionEvent;
  /** Every file of the step: the code, the spec, the frames that rendered, insights.json. */
  files: StepFile[];
  spec: RenderSpec | null;
  items: RenderedItem[];
  insights: InsightsFile;
  warnings: string[];
  /** The code shown as the step's program (SQL for DuckDB, pandas for pandas). */
  code: string;
  /** Rows each analysis read after its filters, by analysis number (DuckDB; empty for pandas). */
  rowsUsed?: Record<number, number>;
}

/** The rows of a read-only query: at most the rows asked for, and whether more were left unread. */
export interface SelectResult {
  columns: string[];
  types: string[];
  rows: unknown[][];
  more: boolean;
}

/** An engine over one session's data source. */
export interface AnalysisEngine {
  readonly name: EngineName;
  /** e.g. "DuckDB v1.5.6" or "pandas 1.5.3 in bubblewrap". */
  readonly label: string;
  /** get_data_info: the profile of the data source. */
  profile(sourceName: string, signal?: AbortSignal): Promise<Profiled>;
  /** execute_analysis: run every analysis of the plan. */
  execute(plan: Plan, profile: DataProfile, ctx: ExecuteContext): Promise<Executed>;
  /** run_sql: one read-only SELECT over the table "data", at most `maxRows` rows (DuckDB only). */
  select?(sql: string, maxRows: number, signal?: AbortSignal): Promise<SelectResult>;
  close(): void;
}

/** The --engine value, checked. */
export function engineName(value: string | undefined): EngineName {
  const name = value ?? process.env.OPSMIND_ENGINE ?? 'duckdb';
  if ((ENGINE_NAMES as readonly string[]).includes(name)) return name as EngineName;
  throw new OpsmindError(
    `--engine must be one of ${ENGINE_NAMES.join(', ')}, got "${name}"`,
    ExitCode.BAD_INPUT,
  );
}
