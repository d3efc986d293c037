/**
 * One program step of a tool (run_code, execute_analysis): run it in the
 * session's sandbox, move its declaration ids past the session's, emit the
 * step's program_finished and artifact_added events with its files, and
 * return what the model reads apart from what a person sees.
 */
import type { RenderedItem } from '../../report/render.js';
import { countIds, specIds } from '../../spec/session-ids.js';
import { executeProgram } from '../execute-program.js';
import { artifactAdded, programFinished, stepFiles } from '../step-record.js';
import { programResultText } from './program-result.js';
import { sandboxOf } from './tool.js';
import type { ToolContext, ToolResult } from './tool.js';

/** What a person sees of a program step: its code and what it declared (rejected ones with their issues). */
export interface ProgramDisplay {
  kind: 'program';
  /** One line: what the step computes. */
  title: string;
  code: string;
  exitCode: number | null;
  limitHit: string | null;
  /** Every declaration, tagged with the step; the report keeps the built ones. */
  items: RenderedItem[];
  warnings: string[];
}

/** Runs `code` as step `ctx.step`; ok when the program exited 0. Throws only when the data cannot be read. */
export async function runProgram(
  ctx: ToolContext,
  code: string,
  title: string,
): Promise<ToolResult<ProgramDisplay>> {
  const request = {
    code,
    scriptName: `step${ctx.step}.py`,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.storedBytes ? { storedBytes: ctx.storedBytes() } : {}),
  };
  const outcome = await executeProgram(await sandboxOf(ctx), request, ctx.memory.ids);
  ctx.memory.ids = countIds(ctx.memory.ids, specIds(outcome.spec));
  ctx.emit({
    event: programFinished(ctx.step, outcome.run),
    files: stepFiles(outcome.run, outcome.spec, outcome.items),
  });
  ctx.emit({ event: artifactAdded(ctx.step, outcome.spec), rendered: outcome.items });
  const { run } = outcome;
  return {
    forModel: programResultText(run, outcome.items, outcome.warnings, ctx.libraries),
    forDisplay: {
      kind: 'program',
      title,
      code,
      exitCode: run.exitCode,
      limitHit: run.limitHit,
      items: outcome.items.map((i) => ({ ...i, step: ctx.step })),
      warnings: outcome.warnings,
    },
    ok: run.exitCode === 0,
  };
}
