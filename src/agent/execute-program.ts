/**
 * Execute one program in a session's sandbox and turn what it declared into
 * validated, rendered items. Used by `opsmind run`, fast mode's
 * execute_analysis and deep mode's run_code.
 */
import { ExitCode, OpsmindError } from '../cli/exit-codes.js';
import { renderSpec } from '../report/render.js';
import type { RenderedItem } from '../report/render.js';
import type { Sandbox, SandboxRun } from '../sandbox/sandbox.js';
import { loadSpec } from '../spec/load.js';
import type { RenderSpec } from '../spec/schema.js';

/** A program to execute. */
export interface ProgramRequest {
  code: string;
  /** The name shown in tracebacks, e.g. "report.py". */
  scriptName: string;
  signal?: AbortSignal;
}

/** The run, the spec it left (if any) and its rendered declarations. */
export interface ProgramOutcome {
  run: SandboxRun;
  spec: RenderSpec | null;
  items: RenderedItem[];
  /** Problems of the run itself: no spec, a limit hit, truncated output. */
  warnings: string[];
}

function runWarnings(run: SandboxRun): string[] {
  const warnings: string[] = [];
  if (run.limitHit) warnings.push(run.limitHit);
  if (run.aborted) warnings.push('the program was cancelled');
  return warnings;
}

/** Runs the program and renders its declarations. Throws OpsmindError (exit 2) when the data cannot be read. */
export async function executeProgram(sandbox: Sandbox, req: ProgramRequest): Promise<ProgramOutcome> {
  const run = await sandbox.run(req);
  if (run.dataError) throw new OpsmindError(`cannot read ${sandbox.options.dataPath}: ${run.dataError}`, ExitCode.BAD_INPUT);
  const warnings = runWarnings(run);
  const loaded = loadSpec(run.workdir);
  if (!loaded.ok) {
    if (!run.timedOut && !run.aborted && !run.limitHit) warnings.push(loaded.reason);
    return { run, spec: null, items: [], warnings };
  }
  const items = await renderSpec(loaded.spec, run.workdir);
  return { run, spec: loaded.spec, items, warnings };
}
