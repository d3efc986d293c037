/**
 * Deep mode: a ReAct loop as an async generator of events. The model calls
 * tools (get_data_info, run_code, plan_analysis, execute_analysis,
 * final_answer), sees real output and errors, and corrects itself. Charts and
 * tables of every step accumulate. Hard caps: model turns, tool calls per
 * turn, output tokens; on a cap the run ends with what it has and says so.
 */
import type { ChatMessage, ChatModel } from '../llm/index.js';
import { ModelCallError } from '../llm/index.js';
import type { RenderedItem } from '../report/render.js';
import { analysisLibraries } from '../sandbox/libraries.js';
import type { Library } from '../sandbox/libraries.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { countIds, specIds } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';
import { count } from '../util/plural.js';
import { compilePlan } from './compile-plan.js';
import { deepSystemPrompt } from './deep-prompt.js';
import { parseToolArguments, runCodeResult, toolSpecs } from './deep-tools.js';
import type { TokenUsage } from './events.js';
import { executeProgram } from './execute-program.js';
import { getDataInfo } from './fast-pipeline.js';
import type { Emission } from './fast-pipeline.js';
import { heuristicPlan } from './heuristic-planner.js';
import type { Plan } from './plan.js';
import type { DataProfile } from './profile.js';
import { profileText } from './profile-text.js';
import { artifactAdded, programFinished, stepFiles } from './step-record.js';
import { tokenUsage } from './usage.js';

/** Options of a deep run. */
export interface DeepOptions {
  sandbox: Sandbox;
  model: ChatModel;
  question: string;
  sourceName: string;
  /** The conversation so far (follow-ups), without the system prompt. */
  history?: ChatMessage[];
  /** Numbering continues after earlier turns and steps of the session. */
  firstTurn?: number;
  firstStep?: number;
  /** Declaration ids earlier steps of the session used (new ones continue after them). */
  usedIds?: IdCounts;
  /** Bytes of artifacts the session has stored so far, read before each program run (its frame budget counts them). */
  storedBytes?: () => number;
  maxTurns?: number;
  maxToolCallsPerTurn?: number;
  maxOutputTokens?: number;
  stream?: boolean;
  signal?: AbortSignal;
  onTextDelta?: (text: string) => void;
}

/** What a deep run produced. */
export interface DeepResult {
  answer: string | null;
  stoppedBy: 'answer' | 'step_cap' | 'text' | 'error';
  error: ModelCallError | null;
  items: RenderedItem[];
  code: { title: string; code: string }[];
  usage: (TokenUsage | null)[];
  lastStep: number;
  lastTurn: number;
}

interface State {
  step: number;
  ids: IdCounts;
  profile: DataProfile | null;
  /** What the sandbox's Python can import: in the system prompt and in the hint after an ImportError. */
  libraries: Library[];
  plan: Plan | null;
  items: RenderedItem[];
  code: { title: string; code: string }[];
}

async function* runProgram(opts: DeepOptions, state: State, turn: number, code: string, title: string): AsyncGenerator<Emission, string> {
  const step = state.step;
  const outcome = await executeProgram(opts.sandbox, { code, scriptName: `step${step}.py`, ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.storedBytes ? { storedBytes: opts.storedBytes() } : {}) }, state.ids);
  state.ids = countIds(state.ids, specIds(outcome.spec));
  yield { event: programFinished(step, outcome.run), files: stepFiles(outcome.run, outcome.spec, outcome.items) };
  yield { event: artifactAdded(step, outcome.spec) };
  state.items.push(...outcome.items.filter((i) => i.built).map((i) => ({ ...i, step })));
  state.code.push({ title: `step ${step} (turn ${turn}): ${title}`, code });
  return runCodeResult(outcome.run, outcome.items, outcome.warnings, state.libraries);
}

async function* callTool(opts: DeepOptions, state: State, turn: number, tool: string, args: Record<string, unknown>): AsyncGenerator<Emission, { content: string; answer?: string }> {
  switch (tool) {
    case 'get_data_info': {
      state.profile ??= (await getDataInfo(opts.sandbox, opts.sourceName, opts.signal)).profile;
      return { content: profileText(state.profile) };
    }
    case 'run_code':
      return { content: yield* runProgram(opts, state, turn, String(args.code), typeof args.purpose === 'string' ? args.purpose : 'run_code') };
    case 'plan_analysis': {
      state.profile ??= (await getDataInfo(opts.sandbox, opts.sourceName, opts.signal)).profile;
      state.plan = heuristicPlan(state.profile, typeof args.question === 'string' ? args.question : opts.question);
      return { content: `plan (run it with execute_analysis):\n${state.plan.analyses.map((a, i) => `${i + 1}. ${a.chart}: ${a.title} — ${a.why}`).join('\n')}` };
    }
    case 'execute_analysis': {
      if (!state.plan || !state.profile) return { content: 'error: no plan yet; call plan_analysis first' };
      return { content: yield* runProgram(opts, state, turn, compilePlan(state.plan, state.profile, 'heuristic'), 'execute_analysis') };
    }
    default:
      return { content: 'the answer was recorded', answer: String(args.answer) };
  }
}

/** Runs the loop, yielding every event; returns the answer and the accumulated report items. */
export async function* deepLoop(opts: DeepOptions): AsyncGenerator<Emission, DeepResult> {
  const maxTurns = opts.maxTurns ?? 20;
  const perTurn = opts.maxToolCallsPerTurn ?? 4;
  const state: State = { step: opts.firstStep ?? 0, ids: opts.usedIds ?? {}, profile: null, libraries: [], plan: null, items: [], code: [] };
  const result: DeepResult = { answer: null, stoppedBy: 'step_cap', error: null, items: state.items, code: state.code, usage: [], lastStep: state.step, lastTurn: 0 };
  const firstTurn = opts.firstTurn ?? 1;
  yield { event: { type: 'question_asked', turn: firstTurn, text: opts.question } };
  const probed = await analysisLibraries(opts.sandbox, opts.signal);
  state.libraries = probed.libraries;
  if (probed.error) yield { event: { type: 'warning', message: probed.error } };
  const messages: ChatMessage[] = [{ role: 'system', content: deepSystemPrompt(state.libraries) }, ...(opts.history ?? []), { role: 'user', content: `Dataset: ${opts.sourceName}\nQuestion: ${opts.question}` }];
  for (let turn = firstTurn; turn < firstTurn + maxTurns; turn += 1) {
    result.lastTurn = turn;
    let response;
    try {
      response = await opts.model.chat({ messages, tools: toolSpecs(), maxOutputTokens: opts.maxOutputTokens ?? 4000, temperature: 0.1,
        ...(opts.signal ? { signal: opts.signal } : {}), ...(opts.stream !== false ? { onTextDelta: opts.onTextDelta ?? (() => undefined) } : {}) });
    } catch (error) {
      if (!(error instanceof ModelCallError)) throw error;
      result.error = error;
      result.stoppedBy = 'error';
      yield { event: { type: 'warning', message: error.message } };
      break;
    }
    const usage = tokenUsage(opts.model.model, response.usage);
    result.usage.push(usage);
    const calls = response.toolCalls.slice(0, perTurn);
    yield { event: { type: 'model_turn', turn, text: response.text, tool_calls: calls, usage, finish_reason: response.finishReason } };
    messages.push({ role: 'assistant', content: response.text, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) {
      result.answer = response.text;
      result.stoppedBy = 'text';
      break;
    }
    for (const call of calls) {
      state.step += 1;
      const parsed = parseToolArguments(call.name, call.arguments);
      let content: string;
      if (!parsed.ok) content = `error: ${parsed.message}`;
      else {
        const outcome = yield* callTool(opts, state, turn, parsed.tool, parsed.args);
        content = outcome.content;
        if (outcome.answer !== undefined) {
          result.answer = outcome.answer;
          result.stoppedBy = 'answer';
        }
      }
      yield { event: { type: 'tool_result', turn, step: state.step, tool: call.name, call_id: call.id, ok: parsed.ok && !content.startsWith('error:') && !content.startsWith('status: failed'), content } };
      messages.push({ role: 'tool', tool_call_id: call.id, content });
    }
    if (response.toolCalls.length > perTurn) {
      yield { event: { type: 'warning', message: `turn ${turn}: only the first ${perTurn} of ${response.toolCalls.length} tool calls were run (the per-turn cap)` } };
    }
    if (result.stoppedBy === 'answer') break;
  }
  result.lastStep = state.step;
  if (result.stoppedBy === 'step_cap') yield { event: { type: 'warning', message: `stopped after ${count(maxTurns, 'model turn')} (the step cap) without a final answer; the report shows what was computed` } };
  yield { event: { type: 'answer', turn: result.lastTurn, text: result.answer ?? '', model: opts.model.model, stopped_by: result.stoppedBy } };
  return result;
}
