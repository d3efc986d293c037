/**
 * Execute one program in a session's sandbox and turn what it declared into
 * validated, rendered items. Used by `opsmind run`, fast mode's
 * execute_analysis and deep mode's run_code.
 */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { renderSpec } from '../report/render.js';
import type { RenderedItem } from '../report/render.js';
import type { Sandbox, SandboxRun } from '../sandbox/sandbox.js';
import { FrameBudget } from '../spec/frame-budget.js';
import { loadSpec } from '../spec/load.js';
import type { RenderSpec } from '../spec/schema.js';
import { renumberSpec } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';

/** A program to execute. */
export interface ProgramRequest {
  code: string;
  /** The name shown in tracebacks, e.g. "report.py". */
  scriptName: string;
  signal?: AbortSignal;
  /** Bytes of artifacts the session stored before this run, counted against its frame budget (spec/host-limits.ts). */
  storedBytes?: number;
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

/** A declaration whose data file the sandbox refused to hand back (a link, a FIFO, over budget) says why. */
function refusedFiles(items: RenderedItem[], skipped: string[]): RenderedItem[] {
  for (const item of items) {
    const file = item.decl.data.file;
    const reason = file ? skipped.find((s) => s.startsWith(`${file}: `)) : undefined;
    if (!reason || item.built) continue;
    item.issues = [
      {
        id: item.decl.id,
        kind: item.decl.kind,
        code: 'render_failed',
        message: `${item.label}: data file refused: ${reason}`,
        suggestions: [],
      },
    ];
  }
  return items;
}

/**
 * Runs the program and renders its declarations, their ids moved past the `used` ones of
 * earlier steps (session-ids.ts). Throws OpsmindError (exit 2) when the data cannot be read.
 */
export async function executeProgram(
  sandbox: Sandbox,
  req: ProgramRequest,
  used: IdCounts = {},
): Promise<ProgramOutcome> {
  const run = await sandbox.run(req);
  if (run.dataError)
    throw new OpsmindError(
      `cannot read ${sandbox.options.dataPath}: ${run.dataError}`,
      ExitCode.BAD_INPUT,
    );
  const warnings = [...sandbox.takeNotes(), ...runWarnings(run)];
  const loaded = loadSpec(run.workdir);
  if (!loaded.ok) {
    const refused = run.skippedFiles.find((f) => f.startsWith('render_spec.json: '));
    if (!run.timedOut && !run.aborted && !run.limitHit)
      warnings.push(refused ? `render_spec.json was refused: ${refused.slice(18)}` : loaded.reason);
    return { run, spec: null, items: [], warnings };
  }
  const spec = renumberSpec(loaded.spec, used);
  const items = refusedFiles(
    await renderSpec(spec, run.workdir, { budget: new FrameBudget(req.storedBytes ?? 0) }),
    run.skippedFiles,
  );
  return { run, spec, items, warnings };
}
