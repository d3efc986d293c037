/**
 * Execute one program against a dataset and turn what it declared into
 * validated, rendered items. Used by `opsmind run`, fast mode's
 * execute_analysis and deep mode's run_code.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode, OpsmindError } from '../cli/exit-codes.js';
import { renderSpec } from '../report/render.js';
import type { RenderedItem } from '../report/render.js';
import { runPython } from '../sandbox/run-python.js';
import type { RunResult } from '../sandbox/run-python.js';
import { loadSpec } from '../spec/load.js';
import type { RenderSpec } from '../spec/schema.js';

/** A program to execute. */
export interface ProgramRequest {
  python: string;
  code: string;
  scriptName: string;
  dataPath: string;
  /** Where the run's files go; a fresh temp dir when omitted. */
  workdir?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

/** The run, the spec it left (if any) and its rendered declarations. */
export interface ProgramOutcome {
  run: RunResult;
  workdir: string;
  spec: RenderSpec | null;
  items: RenderedItem[];
  /** Problems of the run itself: no spec, timeout, truncated output. */
  warnings: string[];
}

function runWarnings(run: RunResult, timeoutMs: number | undefined): string[] {
  const warnings: string[] = [];
  if (run.timedOut) warnings.push(`the program was stopped after the ${Math.round((timeoutMs ?? 0) / 1000)} s time limit`);
  if (run.aborted) warnings.push('the program was cancelled');
  if (run.stdoutTruncated) warnings.push('the program printed more than the output limit; the rest was cut');
  return warnings;
}

/** Runs the program and renders its declarations. Throws OpsmindError (exit 2) when the data cannot be read. */
export async function executeProgram(req: ProgramRequest): Promise<ProgramOutcome> {
  const workdir = req.workdir ?? mkdtempSync(join(tmpdir(), 'opsmind-run-'));
  const run = await runPython({ ...req, workdir });
  if (run.dataError) throw new OpsmindError(`cannot read ${req.dataPath}: ${run.dataError}`, ExitCode.BAD_INPUT);
  const warnings = runWarnings(run, req.timeoutMs);
  const loaded = loadSpec(workdir);
  if (!loaded.ok) {
    if (!run.timedOut && !run.aborted) warnings.push(loaded.reason);
    return { run, workdir, spec: null, items: [], warnings };
  }
  const items = await renderSpec(loaded.spec, workdir);
  return { run, workdir, spec: loaded.spec, items, warnings };
}
