/**
 * One file of a batch, in a worker process: open a session over it (stored like any other,
 * command "batch"), run the batch's step — fast mode with the deterministic planner, the
 * person's script (the `opsmind run` path), or deep mode — write its report beside the others
 * (Plotly linked from the folder's one copy, a slot left for what changed), and measure its
 * snapshot on the DuckDB engine. Every failure is a result, never a crash of the worker.
 */
import type { FastResult, Planner } from '../agent/fast-pipeline.js';
import { heuristicPlanner } from '../agent/llm-planner.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import { checkDataFile } from '../sandbox/data-file.js';
import type { Limits } from '../sandbox/limits.js';
import { AnalysisSession, finish } from '../session/analysis-session.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { SessionStore } from '../store/session-store.js';
import { opsmindVersion } from '../util/version.js';
import { snapshotOf } from './snapshot.js';
import type { Snapshot } from './types.js';
import { warningSentence } from '../util/sentence.js';

/** What the coordinator asks a worker to do. */
export interface Job {
  id: number;
  file: string;
  name: string;
  /** The report's absolute path. */
  outPath: string;
  /** The Plotly script's URL relative to the report. */
  plotlyUrl: string;
  mode: 'fast' | 'deep' | 'script';
  question?: string;
  script?: { code: string; name: string };
  /** What in the file is the table (a config's sheet or records). */
  sheet?: string;
  records?: string;
  limits: Limits;
  isolation: 'auto' | 'strict';
  engineMemoryMb: number;
  /** DuckDB threads of this worker: the cores shared among the workers. */
  engineThreads: number;
  /** The batch run (named in the report's header). */
  run: string;
}

/** What came of it. */
export type JobResult =
  | {
      ok: true;
      session: string;
      rows: number;
      columns: number;
      findings: string[];
      snapshot: Snapshot | null;
      seconds: number;
    }
  | { ok: false; error: string; session: string | null; report: boolean; seconds: number };

/** How many findings an index entry keeps. */
const KEPT_FINDINGS = 5;

/**
 * Points of each scatter in a batch report (a standalone report draws up to 5,000): a batch of
 * a hundred files stays small, and the correlation findings are still computed over all rows.
 */
export const BATCH_SCATTER_POINTS = 2000;

/** The deterministic planner, with lighter scatters. */
const batchPlanner: Planner = async (profile, question, signal) => {
  const planned = await heuristicPlanner(profile, question, signal);
  const analyses = planned.plan.analyses.map((a) =>
    a.transform.type === 'relationship'
      ? { ...a, options: { ...a.options, max_points: BATCH_SCATTER_POINTS } }
      : a,
  );
  return { ...planned, plan: { ...planned.plan, analyses } };
};

function message(error: unknown): string {
  if (error instanceof OpsmindError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

async function step(
  session: AnalysisSession,
  job: Job,
): Promise<{ findings: string[]; failure: string | null; fast: FastResult | null }> {
  if (job.mode === 'script') {
    const script = job.script;
    if (!script) throw new OpsmindError('a script job without its script', ExitCode.INTERNAL);
    const outcome = await finish(session.script(script.code, script.name));
    const last = outcome.run.stderr.trim().split('\n').at(-1) ?? '';
    const failure =
      outcome.run.exitCode === 0
        ? null
        : `the script failed (exit ${outcome.run.exitCode ?? outcome.run.signal ?? '?'})${outcome.run.limitHit ? `: ${outcome.run.limitHit}` : last ? `: ${last}` : ''}`;
    return { findings: [], failure, fast: null };
  }
  if (job.mode === 'deep') {
    const result = await finish(
      session.deep({ question: job.question ?? 'What matters in this data?', stream: false }),
    );
    return {
      findings: result.answer ? [result.answer] : [],
      failure: result.answer ? null : `deep mode ended without an answer (${result.stoppedBy})`,
      fast: null,
    };
  }
  const result = await finish(
    session.fast({
      planner: batchPlanner,
      ...(job.question ? { question: job.question } : {}),
    }),
  );
  return {
    findings: [
      ...result.findings.map((f) => f.text),
      ...result.profile.warnings.map(warningSentence),
    ],
    failure: result.executed.spec === null ? 'the analysis produced no charts' : null,
    fast: result,
  };
}

/** Runs one job; never throws. */
export async function runJob(store: SessionStore, job: Job): Promise<JobResult> {
  const started = performance.now();
  const seconds = (): number => Math.round(performance.now() - started) / 1000;
  let session: AnalysisSession | null = null;
  let report = false;
  try {
    const dataPath = checkDataFile(job.file, { scan: 'head' }); // the session checks the rest
    const model = job.mode === 'deep' ? deepModel() : null;
    session = await AnalysisSession.open({
      store,
      dataPath,
      command: 'batch',
      mode: job.mode === 'script' ? 'script' : job.mode,
      title: `batch ${job.run}: ${job.name}`,
      sandbox: { limits: job.limits, isolation: job.isolation, warm: job.mode === 'deep' },
      engine: {
        name: 'duckdb',
        memoryMb: job.engineMemoryMb,
        threads: job.engineThreads,
        ...(job.sheet ? { sheet: job.sheet } : {}),
      },
      model,
      ...(job.question ? { question: job.question } : {}),
      ...(job.records ? { records: job.records } : {}),
    });
    const done = await step(session, job);
    await session.writeReport(
      {
        outPath: job.outPath,
        title: `${job.name}: ${job.mode === 'script' ? (job.script?.name ?? 'script') : 'analysis'}`,
        plotly: { mode: 'link', url: job.plotlyUrl },
        changesSlot: true,
        ...(done.fast ? { provenance: done.fast.provenance } : {}),
        meta: {
          tool: `opsmind ${opsmindVersion()}`,
          mode: job.mode,
          batch: job.run,
          session: session.id,
        },
      },
      { builtOnly: job.mode === 'deep' },
    );
    report = true;
    const engine = await session.engine();
    const profile = done.fast?.profile ?? (await engine.profile(job.name)).profile;
    const snapshot = await snapshotOf(engine, profile);
    if (done.failure) {
      session.close('failed', done.failure);
      return { ok: false, error: done.failure, session: session.id, report, seconds: seconds() };
    }
    session.close('done');
    return {
      ok: true,
      session: session.id,
      rows: profile.rows,
      columns: profile.columns,
      findings: done.findings.slice(0, KEPT_FINDINGS),
      snapshot,
      seconds: seconds(),
    };
  } catch (error) {
    const text = message(error);
    try {
      session?.close('failed', text);
    } catch {
      /* the store failed too: the error below says what went wrong first */
    }
    return { ok: false, error: text, session: session?.id ?? null, report, seconds: seconds() };
  }
}

function deepModel() {
  const config = llmConfig({});
  if (!llmConfigured(config))
    throw new OpsmindError('deep mode needs an LLM, and none is configured', ExitCode.CONFIG);
  return createChatModel(config);
}
