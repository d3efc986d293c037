/**
 * From a validated spec to rendered items: validate each declaration, load
 * its frame, build it, and check every Plotly figure with Plotly.validate.
 * A declaration that fails becomes an error item; it never fails the report.
 */
import { rendererFor } from '../../renderers/index.js';
import type { Built } from '../../renderers/types.js';
import { loadFrame } from '../spec/load.js';
import { declarationsInOrder } from '../spec/schema.js';
import type { Declaration, RenderSpec } from '../spec/schema.js';
import { declarationLabel, validateDeclaration } from '../spec/validate.js';
import type { ValidationIssue } from '../spec/validate.js';
import { validateFigure } from './plotly-validate.js';

/** One declaration after validation and rendering. */
export interface RenderedItem {
  decl: Declaration;
  /** The step that declared it, in multi-step sessions. */
  step?: number;
  /** e.g. `chart 2 (bar)`. */
  label: string;
  /** The built figure or table; undefined when the declaration failed. */
  built?: Built;
  issues: ValidationIssue[];
  warnings: string[];
}

/** Options for rendering. */
export interface RenderOptions {
  /** Run Plotly.validate on every figure (default true). */
  validateFigures?: boolean;
}

function issue(decl: Declaration, code: ValidationIssue['code'], detail: string): ValidationIssue {
  return { id: decl.id, kind: decl.kind, code, message: `${declarationLabel(decl)}: ${detail}`, suggestions: [] };
}

async function renderOne(decl: Declaration, workdir: string, options: RenderOptions): Promise<RenderedItem> {
  const label = declarationLabel(decl);
  const check = validateDeclaration(decl);
  const renderer = rendererFor(decl.kind);
  if (check.issues.length || !renderer || !check.params || decl.data.file === null) {
    return { decl, label, issues: check.issues, warnings: check.warnings };
  }
  let built: Built;
  try {
    built = renderer.build(loadFrame(workdir, decl.data.file), check.params);
  } catch (error) {
    return { decl, label, issues: [issue(decl, 'render_failed', (error as Error).message)], warnings: check.warnings };
  }
  if (built.type === 'plotly' && options.validateFigures !== false) {
    const problems = await validateFigure(built.figure);
    if (problems.length) {
      const detail = `the built figure is not valid Plotly: ${problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join('; ')}`;
      return { decl, label, issues: [issue(decl, 'invalid_figure', detail)], warnings: check.warnings };
    }
  }
  return { decl, label, built, issues: [], warnings: check.warnings };
}

/** Renders every declaration of `spec` in report order. */
export async function renderSpec(spec: RenderSpec, workdir: string, options: RenderOptions = {}): Promise<RenderedItem[]> {
  const items: RenderedItem[] = [];
  for (const decl of declarationsInOrder(spec)) items.push(await renderOne(decl, workdir, options));
  return items;
}
