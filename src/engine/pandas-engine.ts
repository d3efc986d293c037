/**
 * The pandas engine: fast mode as it ran before DuckDB — the profile and the
 * compiled pandas program (agent/compile-plan.ts) run in the session's
 * sandbox. Kept as `--engine pandas` and as the differential tests' oracle.
 */
import { z } from 'zod';
import { compilePlan } from '../agent/compile-plan.js';
import { executeProgram } from '../agent/execute-program.js';
import { describeData } from '../agent/semantics.js';
import { statementWarnings } from '../agent/semantics-balances.js';
import { sandboxFacts } from './pandas-facts.js';
import type { Plan } from '../agent/plan.js';
import { DataProfileSchema } from '../agent/profile.js';
import type { DataProfile } from '../agent/profile.js';
import { programFinished, stepFiles } from '../agent/step-record.js';
import { readArtifactBytes } from '../sandbox/artifacts.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { FailedAnalysisSchema, FindingSchema } from '../shared/events.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { MAX_JSON_DEPTH, MAX_JSON_FILE_BYTES } from '../spec/host-limits.js';
import { readWorkdirJson } from '../spec/load.js';
import { parseJsonBounded } from '../util/json-depth.js';
import type { AnalysisEngine, ExecuteContext, Executed, Profiled } from './engine.js';
import type { InsightsFile } from './types.js';

/** insights.json as a compiled program writes it: the findings' schema, `numbers` optional. */
export const InsightsFileSchema = z.object({
  insights: z.array(FindingSchema.extend({ numbers: FindingSchema.shape.numbers.optional() })),
  failed: z.array(FailedAnalysisSchema),
});

function profileProgram(name: string): string {
  return `import opsmind_profile\nopsmind_profile.write_profile(df, DATA_INFO, "profile.json", ${JSON.stringify(name)})\n`;
}

function tail(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}

/** A profile read back from a run and checked: a table with columns and rows. */
export function checkedProfile(text: string, name: string): DataProfile {
  const profile = DataProfileSchema.parse(parseJsonBounded(text, MAX_JSON_DEPTH));
  if (profile.columns === 0) throw new OpsmindError(`${name} has no columns`, ExitCode.BAD_INPUT);
  if (profile.rows === 0)
    throw new OpsmindError(`${name} has a header but no data rows`, ExitCode.BAD_INPUT);
  return profile;
}

/** Runs get_data_info in the sandbox: the parsed profile and its JSON text. */
export async function sandboxProfile(
  sandbox: Sandbox,
  name: string,
  signal?: AbortSignal,
): Promise<Profiled> {
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
  return { profile: checkedProfile(text, name), text };
}

/** insights.json of a work dir; a warning instead when it does not match the schema. */
export function readInsights(workdir: string): InsightsFile & { problem?: string } {
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

/** Fast mode's numbers computed by pandas in the session's sandbox. */
export class PandasEngine implements AnalysisEngine {
  readonly name = 'pandas' as const;

  constructor(private readonly sandbox: () => Promise<Sandbox>) {}

  get label(): string {
    return 'pandas in the sandbox';
  }

  async profile(sourceName: string, signal?: AbortSignal): Promise<Profiled> {
    // The profile, then the facts only rows tell (unique keys, running totals, total rows),
    // measured by pandas as the DuckDB engine measures them in SQL.
    const sandbox = await this.sandbox();
    const { profile: measured } = await sandboxProfile(sandbox, sourceName, signal);
    // Day-first dates are dates in df already (the session's reading); other text dates are read
    // month first, as this engine's own program reads them (compilePlan without dayFirst).
    const facts = await sandboxFacts(sandbox, measured, false, signal);
    const semantics = describeData(measured, facts);
    const profile = { ...measured, warnings: statementWarnings(measured, semantics), semantics };
    return { profile, text: JSON.stringify(profile) };
  }

  async execute(plan: Plan, profile: DataProfile, ctx: ExecuteContext): Promise<Executed> {
    const code = compilePlan(plan, profile, ctx.planner);
    const sandbox = await this.sandbox();
    const outcome = await executeProgram(
      sandbox,
      {
        code,
        scriptName: 'analysis.py',
        storedBytes: ctx.storedBytes,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      },
      ctx.usedIds,
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
    return {
      finished: programFinished(ctx.step, outcome.run),
      files,
      spec: outcome.spec,
      items: outcome.items,
      insights: { insights: found.insights, failed: found.failed },
      warnings: [...outcome.warnings, ...(found.problem ? [found.problem] : [])],
      code,
    };
  }

  close(): void {
    /* the session owns and closes the sandbox */
  }
}
