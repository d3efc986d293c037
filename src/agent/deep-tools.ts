/**
 * The tools deep mode offers the model: one zod schema each, from which the
 * JSON schema sent to the model and the TypeScript type are derived. Tool
 * failures (bad arguments, tracebacks, validation errors, limits) are data
 * for the model; what the model reads is kept apart from what a person sees.
 */
import { z } from 'zod';
import type { ToolSpec } from '../llm/index.js';
import type { RenderedItem } from '../report/render.js';
import { availableList } from '../sandbox/libraries.js';
import type { Library } from '../sandbox/libraries.js';
import type { SandboxRun } from '../sandbox/sandbox.js';

/** Tool schemas by the snake_case name the model sees. */
export const TOOL_SCHEMAS = {
  get_data_info: z.object({}).describe('Profile of the dataset: columns, types, missing values, statistics, correlations. Call it first.'),
  run_code: z.object({
    code: z.string().min(1).describe('Python using df (the dataset), pd, np, declare_chart(kind, data=None, *, title=None, **params), declare_table(data, *, title=None, max_rows=50) and print()'),
    purpose: z.string().max(200).optional().describe('one line: what this code checks or computes'),
  }).describe('Run pandas/numpy code on the dataset in a sandbox; returns printed output, errors, and the charts/tables it declared (validated).'),
  plan_analysis: z.object({ question: z.string().max(500).optional() }).describe('Fallback: a standard analysis plan for the dataset (what fast mode would chart).'),
  execute_analysis: z.object({}).describe('Fallback: run the last plan_analysis plan and add its charts to the report.'),
  final_answer: z.object({
    answer: z.string().min(1).describe('the answer to the question, in the language of the question, citing only numbers your code printed'),
  }).describe('Finish: give the final answer. Call it once, when the question is answered.'),
} as const;

/** A tool name. */
export type ToolName = keyof typeof TOOL_SCHEMAS;

/** The tool specs sent to the model, derived from the zod schemas. */
export function toolSpecs(): ToolSpec[] {
  return (Object.keys(TOOL_SCHEMAS) as ToolName[]).map((name) => {
    const schema = TOOL_SCHEMAS[name];
    const { $schema: _drop, ...parameters } = z.toJSONSchema(schema) as Record<string, unknown>;
    return { name, description: schema.description ?? name, parameters };
  });
}

/** Parses a tool call's raw arguments; returns the arguments or a message for the model. */
export function parseToolArguments(name: string, raw: string): { ok: true; tool: ToolName; args: Record<string, unknown> } | { ok: false; message: string } {
  if (!Object.hasOwn(TOOL_SCHEMAS, name)) {
    return { ok: false, message: `unknown tool "${name}"; the tools are: ${Object.keys(TOOL_SCHEMAS).join(', ')}` };
  }
  const tool = name as ToolName;
  let json: unknown;
  try {
    json = raw.trim() === '' ? {} : JSON.parse(raw);
  } catch (error) {
    return { ok: false, message: `the arguments of ${tool} are not valid JSON (${(error as Error).message}); send a JSON object like ${JSON.stringify(tool === 'run_code' ? { code: 'print(df.shape)' } : {})}` };
  }
  const parsed = TOOL_SCHEMAS[tool].safeParse(json);
  if (!parsed.success) return { ok: false, message: `invalid arguments for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}` };
  return { ok: true, tool, args: parsed.data };
}

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
  return relevant.length > 24 ? [...relevant.slice(0, 4), '  …', ...relevant.slice(-16)].join('\n') : relevant.join('\n');
}

/** The message of a program that failed on an import (`No module named 'xgboost'`), if it did. */
export function importFailure(stderr: string): string | undefined {
  const last = stderr.trimEnd().split('\n').at(-1) ?? '';
  return /^(?:ModuleNotFoundError|ImportError): (.+)$/.exec(last)?.[1];
}

/** What the model reads after run_code: output, the error (with what can be imported instead), validation problems, what was declared, limits. */
export function runCodeResult(run: SandboxRun, items: readonly RenderedItem[], warnings: readonly string[], libraries: readonly Library[] = []): string {
  const parts: string[] = [];
  parts.push(run.exitCode === 0 ? 'status: ok' : `status: failed (exit ${run.exitCode ?? run.signal ?? '?'})`);
  if (run.limitHit) parts.push(`limit: ${run.limitHit}`);
  if (run.stdout.trim()) parts.push(`stdout:\n${clip(run.stdout.trimEnd(), 3500)}`);
  if (run.exitCode !== 0 && run.stderr.trim()) parts.push(`error:\n${clip(trimTraceback(run.stderr), 2500)}`);
  const missing = run.exitCode !== 0 ? importFailure(run.stderr) : undefined;
  if (missing && libraries.length) parts.push(`hint: ${missing}. Available analysis libraries: ${availableList(libraries)}. Nothing else can be installed; use one of these.`);
  const drawn = items.filter((i) => i.built).map((i) => `${i.decl.id} ${i.decl.kind}${typeof i.decl.params.title === 'string' ? ` "${i.decl.params.title}"` : ''}`);
  if (drawn.length) parts.push(`declared and valid (added to the report): ${drawn.join('; ')}`);
  const problems = items.filter((i) => i.decl.kind !== 'image').flatMap((i) => i.issues.map((x) => x.message));
  if (problems.length) parts.push(`declarations rejected (fix and declare again):\n${problems.map((p) => `- ${p}`).join('\n')}`);
  const lost = items.filter((i) => i.decl.kind === 'image').flatMap((i) => i.issues.map((x) => x.message));
  if (lost.length) parts.push(`figures not in the report:\n${lost.map((p) => `- ${p}`).join('\n')}`);
  const other = warnings.filter((w) => w !== run.limitHit);
  if (other.length) parts.push(`warnings: ${other.join('; ')}`);
  return clip(parts.join('\n\n'), MAX_TOOL_TEXT);
}
