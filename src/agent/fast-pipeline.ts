/**
 * Fast mode: get_data_info → plan_analysis → execute_analysis, as an async
 * generator of events (each with the files its step leaves). Consumers store
 * then show; the generator never prints.
 */
import { z } from 'zod';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { readArtifactBytes } from '../sandbox/artifacts.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { MAX_JSON_DEPTH, MAX_JSON_FILE_BYTES } from '../spec/host-limits.js';
import { readWorkdirJson } from '../spec/load.js';
import type { IdCounts } from '../spec/session-ids.js';
import { parseJsonBounded } from '../util/json-depth.js';
import { count } from '../util/plural.js';
import { compilePlan } from './compile-plan.js';
import { FailedAnalysisSchema, FindingSchema } from '../shared/events.js';
import type { Finding, SessionEvent } from '../shared/events.js';
import { executeProgram } from './execute-program.js';
import type { ProgramOutcome } from './execute-program.js';
import type { Plan } from './plan.js';
import { DataProfileSchema } from './profile.js';
import type { DataProfile } from './profile.js';
import { artifactAdded, programFinished, stepFiles } from './step-record.js';

/** An event and the files to store with it (atomically). */
export interface Emission {
  event: SessionEvent;
  files?: { name: string; content: Buffer }[];
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
  code: string;
  outcome: ProgramOutcome;
  findings: Finding[];
  failed: { analysis: number; title: string; error: string }[];
}

/** insights.json as the program compiled from the plan writes it (compile-plan.ts): the findings' schema, `numbers` optional. */
const InsightsFileSchema = z.object({
  insights: z.array(FindingSchema.extend({ numbers: FindingSchema.shape.numbers.optional() })),
  failed: z.array(FailedAnalysisSchema),
});
type InsightsFile = z.infer<typeof InsightsFileSchema> & { problem?: string };

function profileProgram(name: string): string {
  return `import opsmind_profile\nopsmind_profile.write_profile(df, DATA_INFO, "profile.json", ${JSON.stringify(name)})\n`;
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}

/** Runs get_data_info in the sandbox: the parsed profile and its JSON text. */
export async function getDataInfo(
  sandbox: Sandbox,
  name: string,
  signal?: AbortSignal,
): Promise<{ profile: DataProfile; text: string }> {
  const run = await sandbox.run({
    code: profileProgram(name),
    scriptName: 'get_data_info.py',
    ...(signal ? { signal } : {}),
  });
  if (run.dataError)
    throw new OpsmindError(`cannot read ${name}: ${run.dataError}`, ExitCode.BAD_INPUT);
  if (run.exitCode !== 0) {
    throw new OpsmindError(
      `profiling ${name} failed: ${run.limitHit ?? (tail(run.stderr) || 'no output')}`,
      run.limitHit ? ExitCode.SANDBOX : ExitCode.INTERNAL,
    );
  }
  const text = readArtifactBytes(run.workdir, 'profile.json', MAX_JSON_FILE_BYTES).toString('utf8');
  const profile = DataProfileSchema.parse(parseJsonBounded(text, MAX_JSON_DEPTH));
  if (profile.columns === 0) throw new OpsmindError(`${name} has no columns`, ExitCode.BAD_INPUT);
  if (profile.rows === 0)
    throw new OpsmindError(`${name} has a header but no data rows`, ExitCode.BAD_INPUT);
  return { profile, text };
}

function readInsights(workdir: string): InsightsFile {
  let json: unknown;
  try {
    json = readWorkdirJson(workdir, 'insights.json');
  } catch {
    return { insights: [], failed: [] }; // no usable file: the program died early, and program_finished says why
  }
  const parsed = InsightsFileSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return {
    insights: [],
    failed: [],
    problem: `insights.json does not match the host's schema, so no findings are shown: ${z.prettifyError(parsed.error).slice(0, 400)}`,
  };
}

/** Options of a fast run. */
export interface FastOptions {
  sandbox: Sandbox;
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
  const signal = opts.signal ? { signal: opts.signal } : {};
  const base = opts.firstStep ?? 0;
  const [s1, s2, s3] = [base + 1, base + 2, base + 3];
  let started = performance.now();
  yield {
    event: { type: 'step_started', step: s1, tool: 'get_data_info', title: 'Profile the data' },
  };
  const { profile, text } = await getDataInfo(opts.sandbox, opts.sourceName, opts.signal);
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
  const code = compilePlan(planned.plan, profile, planned.planner);
  const outcome = await executeProgram(
    opts.sandbox,
    {
      code,
      scriptName: 'analysis.py',
      ...signal,
      ...(opts.storedBytes ? { storedBytes: opts.storedBytes() } : {}),
    },
    opts.usedIds,
  );
  const found = readInsights(outcome.run.workdir);
  const files = stepFiles(outcome.run, outcome.spec, outcome.items);
  try {
    files.push({
      name: 'insights.json',
      content: readArtifactBytes(outcome.run.workdir, 'insights.json', MAX_JSON_FILE_BYTES),
    });
  } catch {
    /* no insights file: the program died early; the failure is in program_finished */
  }
  yield { event: programFinished(s3, outcome.run), files };
  yield { event: artifactAdded(s3, outcome.spec) };
  for (const message of outcome.warnings) yield { event: { type: 'warning', step: s3, message } };
  if (found.problem) yield { event: { type: 'warning', step: s3, message: found.problem } };
  const seen = new Set<string>();
  const findings: Finding[] = found.insights
    .filter((i) => !seen.has(i.text) && seen.add(i.text))
    .map((i) => ({ text: i.text, kind: i.kind, analysis: i.analysis, numbers: i.numbers ?? {} }));
  yield {
    event: { type: 'insights_computed', step: s3, insights: findings, failed: found.failed },
  };
  const drawn = outcome.items.filter((i) => i.built).length;
  yield {
    event: {
      type: 'step_finished',
      step: s3,
      tool: 'execute_analysis',
      duration_ms: performance.now() - started,
      summary: `${drawn} of ${count(outcome.items.length, 'chart or table', 'charts and tables')} rendered`,
    },
  };
  return { profile, planned, code, outcome, findings, failed: found.failed };
}
