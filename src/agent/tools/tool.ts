/**
 * What a tool is: a snake_case name and a description for the model, one zod
 * schema for its arguments (the JSON schema sent to the model and the
 * TypeScript type both come from it), and `execute`, which returns what the
 * model reads apart from what a person sees (STYLE.md rules 3 and 4). A tool
 * needs nothing but its arguments and a ToolContext, so the deep loop and an
 * MCP server can call the same objects.
 */
import type { z } from 'zod';
import type { AnalysisEngine } from '../../engine/engine.js';
import type { Sandbox } from '../../sandbox/sandbox.js';
import type { Library } from '../../sandbox/libraries.js';
import type { IdCounts } from '../../spec/session-ids.js';
import type { Emission } from '../fast-pipeline.js';
import type { Plan } from '../plan.js';
import type { DataProfile } from '../profile.js';

/** What a session's tools remember between calls; tools update it, callers keep one per session. */
export interface ToolMemory {
  /** The profile, once get_data_info (or plan_analysis) computed it. */
  profile: DataProfile | null;
  /** The last plan_analysis plan, which execute_analysis runs. */
  plan: Plan | null;
  /** Declaration ids the session's steps used so far; a program's new ids continue after them. */
  ids: IdCounts;
}

/** Everything a tool may use: the session's sandbox and numbering, the abort signal and a hook for events. */
export interface ToolContext {
  /** The session's sandbox, or how to open it on first use (an MCP call that only profiles needs no Python). */
  readonly sandbox: Sandbox | (() => Promise<Sandbox>);
  /** The session's engine: get_data_info profiles with it (without one, in the sandbox). */
  readonly engine?: AnalysisEngine;
  /** The dataset's name as the model and the report show it (e.g. "sales.csv"). */
  readonly sourceName: string;
  /** The question of the run: plan_analysis plans for it when the model gives none. */
  readonly question: string;
  /** The session's step number of this call (script names, event steps). */
  readonly step: number;
  /** What the sandbox's Python can import (named in the hint after an ImportError). */
  readonly libraries: readonly Library[];
  readonly memory: ToolMemory;
  readonly signal?: AbortSignal;
  /** Bytes of artifacts the session has stored so far (a program's frame budget counts them). */
  readonly storedBytes?: () => number;
  /** Receives the events (with their files) the call produces, in order, to be stored before they are shown. */
  readonly emit: (emission: Emission) => void;
}

/** The context's sandbox, opened if it is not yet. */
export function sandboxOf(ctx: Pick<ToolContext, 'sandbox'>): Promise<Sandbox> {
  return typeof ctx.sandbox === 'function' ? ctx.sandbox() : Promise.resolve(ctx.sandbox);
}

/** A tool problem the model can fix (bad arguments, an unknown tool, a missing prerequisite). */
export interface ToolErrorDisplay {
  kind: 'tool_error';
  message: string;
  /** The schema problems, when the arguments did not match it. */
  issues: { path: string; message: string }[];
}

/** The result of one call. */
export interface ToolResult<D> {
  /** What the model reads (bounded). */
  forModel: string;
  /** What a person sees and the report folds; never sent to the model. */
  forDisplay: D;
  /** Whether the tool did what was asked; false for tool errors and failed programs. */
  ok: boolean;
  /** Set only by final_answer: the run ends after this turn with this answer. */
  end?: { answer: string };
}

/**
 * A tool. `execute` is declared as a method so every tool fits the registry's
 * erased `AnyTool`; callers validate with the same tool's `schema` first
 * (call-tool.ts), which is what makes that safe.
 */
export interface Tool<N extends string, S extends z.ZodType, D> {
  /** The snake_case name the model sees. */
  readonly name: N;
  /** What the model reads to decide when to call it. */
  readonly description: string;
  readonly schema: S;
  /** Valid arguments, shown to the model when it sends arguments that are not JSON. */
  readonly example: z.infer<S>;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult<D>>;
}

/** A tool error result: `error: …` for the model, the same message (and issues) for a person. */
export function toolError(
  message: string,
  issues: ToolErrorDisplay['issues'] = [],
): ToolResult<ToolErrorDisplay> {
  return {
    forModel: `error: ${message}`,
    forDisplay: { kind: 'tool_error', message, issues },
    ok: false,
  };
}
