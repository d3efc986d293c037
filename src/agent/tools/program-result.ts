/**
 * What the model reads after a program ran (run_code, execute_analysis):
 * the status, printed output, the traceback trimmed to the program's own
 * frames (with what can be imported instead after an ImportError),
 * declarations accepted and rejected, lost figures, limits. Bounded.
 */
import type { RenderedItem } from '../../report/render.js';
import { availableList } from '../../sandbox/libraries.js';
import type { Library } from '../../sandbox/libraries.js';
import type { SandboxRun } from '../../sandbox/sandbox.js';

const MAX_TOOL_TEXT = 6000;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… [${(text.length - max).toLocaleString('en-US')} more characters cut]`;
}

/** The useful end of a traceback: the program's own frames and the error line. */
export function trimTraceback(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  const start = lines.findIndex((l) => l.startsWith('Traceback'));
  const relevant = start >= 0 ? lines.slice(start) : lines;
  return relevant.length > 24
    ? [...relevant.slice(0, 4), '  …', ...relevant.slice(-16)].join('\n')
    : relevant.join('\n');
}

/** The message of a program that failed on an import (`No module named 'xgboost'`), if it did. */
export function importFailure(stderr: string): string | undefined {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  return /^(?:ModuleNotFoundError|ImportError): (.+)$/.exec(last)?.[1];
}

function declarationParts(items: readonly RenderedItem[]): string[] {
  const parts: string[] = [];
  const drawn = items
    .filter((i) => i.built)
    .map(
      (i) =>
        `${i.decl.id} ${i.decl.kind}${typeof i.decl.params.title === 'string' ? ` "${i.decl.params.title}"` : ''}`,
    );
  if (drawn.length) parts.push(`declared and valid (added to the report): ${drawn.join('; ')}`);
  const problems = items
    .filter((i) => i.decl.kind !== 'image')
    .flatMap((i) => i.issues.map((x) => x.message));
  if (problems.length)
    parts.push(
      `declarations rejected (fix and declare again):\n${problems.map((p) => `- ${p}`).join('\n')}`,
    );
  const lost = items
    .filter((i) => i.decl.kind === 'image')
    .flatMap((i) => i.issues.map((x) => x.message));
  if (lost.length)
    parts.push(`figures not in the report:\n${lost.map((p) => `- ${p}`).join('\n')}`);
  return parts;
}

/** What the model reads after a program: output, the error (with what can be imported instead), validation problems, what was declared, limits. */
export function programResultText(
  run: SandboxRun,
  items: readonly RenderedItem[],
  warnings: readonly string[],
  libraries: readonly Library[] = [],
): string {
  const parts: string[] = [];
  parts.push(
    run.exitCode === 0
      ? 'status: ok'
      : `status: failed (exit ${run.exitCode ?? run.signal ?? '?'})`,
  );
  if (run.limitHit) parts.push(`limit: ${run.limitHit}`);
  if (run.stdout.trim()) parts.push(`stdout:\n${clip(run.stdout.trimEnd(), 3500)}`);
  if (run.exitCode !== 0 && run.stderr.trim())
    parts.push(`error:\n${clip(trimTraceback(run.stderr), 2500)}`);
  const missing = run.exitCode !== 0 ? importFailure(run.stderr) : undefined;
  if (missing && libraries.length)
    parts.push(
      `hint: ${missing}. Available analysis libraries: ${availableList(libraries)}. Nothing else can be installed; use one of these.`,
    );
  parts.push(...declarationParts(items));
  const other = warnings.filter((w) => w !== run.limitHit);
  if (other.length) parts.push(`warnings: ${other.join('; ')}`);
  return clip(parts.join('\n\n'), MAX_TOOL_TEXT);
}
