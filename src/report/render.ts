/**
 * From a validated spec to rendered items: validate each declaration, load
 * its frame (once per file, within the frame budgets), build it, escape its
 * text for Plotly, and check every Plotly figure with Plotly.validate;
 * captured figures join them as images, all in `seq` order.
 * A declaration that fails becomes an error item; it never fails the report.
 */
import { rendererFor } from '../../renderers/index.js';
import type { Built, Renderer } from '../../renderers/types.js';
import { escapeFigureText } from '../../renderers/plotly-text.js';
import { FrameBudget } from '../spec/frame-budget.js';
import { FrameCache } from '../spec/frame-cache.js';
import { MAX_DECLARATIONS, MAX_FRAME_ROWS } from '../spec/host-limits.js';
import { declarationsInOrder } from '../spec/schema.js';
import type { Declaration, RenderSpec } from '../spec/schema.js';
import { declarationLabel, validateDeclaration } from '../spec/validate.js';
import type { ValidationIssue } from '../spec/validate.js';
import { renderImage } from './images.js';
import type { BuiltImage } from './images.js';
import { validateFigure } from './plotly-validate.js';

/** One declaration after validation and rendering. */
export interface RenderedItem {
  decl: Declaration;
  /** The step that declared it, in multi-step sessions. */
  step?: number;
  /** e.g. `chart 2 (bar)`. */
  label: string;
  /** The built figure, table or captured image; undefined when the declaration failed. */
  built?: Built | BuiltImage;
  issues: ValidationIssue[];
  warnings: string[];
  /** The SQL that computed it (DuckDB steps), shown under it in the report. */
  sql?: string;
}

/** Options for rendering. */
export interface RenderOptions {
  /** Run Plotly.validate on every figure (default true). */
  validateFigures?: boolean;
  /** The report's frame budgets, shared by the specs of one report (a replayed session); default: a fresh one. */
  budget?: FrameBudget;
  /** Issues the live run stored for declarations it refused, by `seq` (spec/refusals.ts): shown as they were. */
  refused?: ReadonlyMap<number, ValidationIssue[]>;
}

function issue(decl: Declaration, code: ValidationIssue['code'], detail: string): ValidationIssue {
  return {
    id: decl.id,
    kind: decl.kind,
    code,
    message: `${declarationLabel(decl)}: ${detail}`,
    suggestions: [],
  };
}

/** One item standing for every declaration past MAX_DECLARATIONS, none of which is rendered. */
function tooMany(first: Declaration, declared: number): RenderedItem {
  const detail = `this and the ${(declared - MAX_DECLARATIONS - 1).toLocaleString('en-US')} declarations after it were not rendered: a program's report renders at most ${MAX_DECLARATIONS.toLocaleString('en-US')}`;
  return {
    decl: first,
    label: declarationLabel(first),
    issues: [issue(first, 'over_budget', detail)],
    warnings: [],
  };
}

function tooManyRows(file: string, rows: number): string {
  return `its data file "${file}" has ${rows.toLocaleString('en-US')} rows, over the ${MAX_FRAME_ROWS.toLocaleString('en-US')} one chart or table may use; not rendered`;
}

/** The characters a built chart or table adds to a report (what its output budget counts). */
export function outputChars(built: Built): number {
  return built.type === 'plotly' ? JSON.stringify(built.figure).length : built.html.length;
}

/**
 * Builds a declaration that passed validation, within the budgets: its frame is sized before it
 * is read, read once per file, and every figure's text escaped for Plotly (plotly-text.ts).
 */
function buildWithin(
  decl: Declaration,
  file: string,
  renderer: Renderer,
  params: Record<string, unknown>,
  frames: FrameCache,
  budget: FrameBudget,
): { built: Built } | { issue: ValidationIssue } {
  const size = frames.size(file);
  if (!size.ok) return { issue: issue(decl, 'render_failed', size.reason) };
  const refusal = budget.refusal(file, frames.key(file), size.bytes);
  if (refusal) return { issue: issue(decl, 'over_budget', refusal) };
  let built: Built;
  try {
    const frame = frames.frame(file);
    if (frame.data.length > MAX_FRAME_ROWS)
      return { issue: issue(decl, 'over_budget', tooManyRows(file, frame.data.length)) };
    built = renderer.build(frame, params);
  } catch (error) {
    return { issue: issue(decl, 'render_failed', (error as Error).message) };
  }
  if (built.type === 'plotly') built = { type: 'plotly', figure: escapeFigureText(built.figure) };
  const chars = outputChars(built);
  const over = budget.outputRefusal(chars);
  if (over) return { issue: issue(decl, 'over_budget', over) };
  budget.charge(frames.key(file), size.bytes, chars);
  return { built };
}

async function renderOne(
  decl: Declaration,
  frames: FrameCache,
  budget: FrameBudget,
  options: RenderOptions,
): Promise<RenderedItem> {
  const label = declarationLabel(decl);
  const check = validateDeclaration(decl);
  const refused = options.refused?.get(decl.seq);
  if (refused) return { decl, label, issues: refused, warnings: check.warnings };
  const renderer = rendererFor(decl.kind);
  if (check.issues.length || !renderer || !check.params || decl.data.file === null) {
    return { decl, label, issues: check.issues, warnings: check.warnings };
  }
  const result = buildWithin(decl, decl.data.file, renderer, check.params, frames, budget);
  if ('issue' in result) return { decl, label, issues: [result.issue], warnings: check.warnings };
  const { built } = result;
  if (built.type === 'plotly' && options.validateFigures !== false) {
    const problems = await validateFigure(built.figure);
    if (problems.length) {
      const detail = `the built figure is not valid Plotly: ${problems
        .slice(0, 3)
        .map((p) => `${p.path}: ${p.message}`)
        .join('; ')}`;
      return {
        decl,
        label,
        issues: [issue(decl, 'invalid_figure', detail)],
        warnings: check.warnings,
      };
    }
  }
  return { decl, label, built, issues: [], warnings: check.warnings };
}

/** Renders every declaration and captured image of `spec` in report order. */
export async function renderSpec(
  spec: RenderSpec,
  workdir: string,
  options: RenderOptions = {},
): Promise<RenderedItem[]> {
  const items: RenderedItem[] = [];
  const declared = declarationsInOrder(spec);
  const decls = declared.slice(0, MAX_DECLARATIONS);
  const frames = new FrameCache(
    workdir,
    decls.map((d) => d.data.file),
  );
  const budget = options.budget ?? new FrameBudget();
  const over = declared[MAX_DECLARATIONS];
  if (over) items.push(tooMany(over, declared.length));
  for (const decl of decls) {
    try {
      items.push(await renderOne(decl, frames, budget, options));
    } finally {
      if (decl.data.file !== null) frames.release(decl.data.file);
    }
  }
  items.push(...spec.images.map((image) => renderImage(image, workdir)));
  return items.sort((a, b) => a.decl.seq - b.decl.seq);
}
