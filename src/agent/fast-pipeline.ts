/**
 * Fast mode: get_data_info → plan_analysis → execute_analysis, as an async
 * generator of events (each with the files its step leaves). Consumers store
 * then show; the generator never prints.
 */
import type { AnalysisEngine, Executed } from '../engine/engine.js';
import type { RenderedItem } from '../report/render.js';
import type { IdCounts } from '../spec/session-ids.js';
import { count } from '../util/plural.js';
import type { Finding, SessionEvent } from '../shared/events.js';
import type { Plan } from './plan.js';
import type { DataProfile } from './profile.js';
import { artifactAdded } from './step-record.js';
import { provenanceOf } from './provenance.js';
import { findingScope } from './question-values.js';
import type { Provenance } from './provenance.js';

/** An event and the files to store with it (atomically). */
export interface Emission {
  event: SessionEvent;
  files?: { name: string; content: Buffer }[];
  /** With artifact_added: the step's items as the live run rendered them (the report model takes them instead of rendering again). */
  rendered?: RenderedItem[];
}

/** What a planner returns. */
export interface PlanResult {
  plan: Plan;
  planner: 'heuristic' | 'llm';
  model: string | null;
  attempts: number;
  /** Why the heuristic plan was used although an LLM is configured. */
  fallback: string | null;
}

/** Plans an analysis of a profile (optionally answering a question). */
export type Planner = (
  profile: DataProfile,
  question: string | undefined,
  signal?: AbortSignal,
) => Promise<PlanResult>;

/** Everything fast mode produced. */
export interface FastResult {
  profile: DataProfile;
  planned: PlanResult;
  /** The code shown as the program (SQL for DuckDB, pandas for the pandas engine). */
  code: string;
  executed: Executed;
  findings: Finding[];
  failed: { analysis: number; title: string; error: string }[];
  /** The table's grain, column roles, skipped columns and each chart's derivation. */
  provenance: Provenance;
}

/** Options of a fast run. */
export interface FastOptions {
  engine: AnalysisEngine;
  sourceName: string;
  planner: Planner;
  question?: string;
  signal?: AbortSignal;
  /** Step numbers continue after this one (a chat session runs several pipelines). */
  firstStep?: number;
  /** Declaration ids earlier steps of the session used (new ones continue after them). */
  usedIds?: IdCounts;
  /** Bytes of artifacts the session has stored so far (a chat session runs several pipelines). */
  storedBytes?: () => number;
}

/** Runs fast mode, yielding every event; returns the result for the report. */
export async function* fastPipeline(opts: FastOptions): AsyncGenerator<Emission, FastResult> {
  const base = opts.firstStep ?? 0;
  const [s1, s2, s3] = [base + 1, base + 2, base + 3];
  let started = performance.now();
  yield {
    event: { type: 'step_started', step: s1, tool: 'get_data_info', title: 'Profile the data' },
  };
  const { profile, text } = await opts.engine.profile(opts.sourceName, opts.signal);
  yield {
    event: {
      type: 'step_finished',
      step: s1,
      tool: 'get_data_info',
      duration_ms: performance.now() - started,
      summary: `${count(profile.rows, 'row')} × ${count(profile.columns, 'column')}`,
    },
    files: [{ name: 'profile.json', content: Buffer.from(text) }],
  };

  started = performance.now();
  yield {
    event: { type: 'step_started', step: s2, tool: 'plan_analysis', title: 'Plan the analyses' },
  };
  const planned = await opts.planner(profile, opts.question, opts.signal);
  opts.signal?.throwIfAborted(); // a planner that finished anyway (the heuristic one) must not start step 3
  const analyses = planned.plan.analyses.map((a) => ({
    title: a.title,
    chart: a.chart,
    why: a.why,
  }));
  yield {
    event: {
      type: 'plan_created',
      step: s2,
      planner: planned.planner,
      model: planned.model,
      attempts: planned.attempts,
      fallback: planned.fallback,
      analyses,
      notes: planned.plan.notes,
    },
  };
  yield {
    event: {
      type: 'step_finished',
      step: s2,
      tool: 'plan_analysis',
      duration_ms: performance.now() - started,
      summary: `${count(analyses.length, 'analysis', 'analyses')} by the ${planned.planner} planner`,
    },
  };

  started = performance.now();
  yield {
    event: {
      type: 'step_started',
      step: s3,
      tool: 'execute_analysis',
      title: 'Run the analyses and render',
    },
  };
  const executed = await opts.engine.execute(planned.plan, profile, {
    planner: planned.planner,
    step: s3,
    usedIds: opts.usedIds ?? {},
    storedBytes: opts.storedBytes?.() ?? 0,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const provenance = provenanceOf(
    profile,
    planned.plan,
    executed.spec,
    executed.insights.failed,
    executed.rowsUsed,
  );
  const provenanceFile = {
    name: 'provenance.json',
    content: Buffer.from(JSON.stringify(provenance)),
  };
  yield { event: executed.finished, files: [...executed.files, provenanceFile] };
  yield { event: artifactAdded(s3, executed.spec), rendered: executed.items };
  for (const message of executed.warnings) yield { event: { type: 'warning', step: s3, message } };
  // A program that stopped (a part of it the engine could not run) is said, not only drawn in the report.
  const stopped = executed.spec?.error;
  if (stopped)
    yield {
      event: {
        type: 'warning',
        step: s3,
        message: `the analysis program stopped with ${stopped.type}${stopped.line ? ` at line ${stopped.line}` : ''}: ${stopped.message}; the ${count(stopped.declarations_before, 'chart or table', 'charts and tables')} declared before it ${stopped.declarations_before === 1 ? 'is' : 'are'} in the report`,
      },
    };
  const found = executed.insights;
  const seen = new Set<string>();
  const findings: Finding[] = found.insights
    .filter((i) => !seen.has(i.text) && seen.add(i.text))
    .map((i) => ({
      text: `${findingScope(planned.plan.analyses[i.analysis - 1], profile)}${i.text}`,
      kind: i.kind,
      analysis: i.analysis,
      numbers: i.numbers ?? {},
    }));
  yield {
    event: { type: 'insights_computed', step: s3, insights: findings, failed: found.failed },
  };
  const drawn = executed.items.filter((i) => i.built).length;
  yield {
    event: {
      type: 'step_finished',
      step: s3,
      tool: 'execute_analysis',
      duration_ms: performance.now() - started,
      summary: `${drawn} of ${count(executed.items.length, 'chart or table', 'charts and tables')} rendered`,
    },
  };
  return {
    profile,
    planned,
    code: executed.code,
    executed,
    findings,
    failed: found.failed,
    provenance,
  };
}
