/**
 * Deep mode: a ReAct loop as an async generator of events. The model calls
 * the registry's tools (tools/registry.ts), sees real output and errors, and
 * corrects itself. Charts and tables of every step accumulate. Hard caps:
 * model turns, tool calls per turn, output tokens; on a cap the run ends with
 * what it has and says so. The run ends with an answer only when a tool
 * result says so (final_answer's `end`) or the model answers in plain text.
 */
import type { ChatMessage, ChatModel, ChatResponse, ToolCall } from '../llm/index.js';
import { ModelCallError } from '../llm/index.js';
import { analysisLibraries } from '../sandbox/libraries.js';
import type { Library } from '../sandbox/libraries.js';
import type { AnalysisEngine } from '../engine/engine.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { IdCounts } from '../spec/session-ids.js';
import { count } from '../util/plural.js';
import { deepSystemPrompt } from './deep-prompt.js';
import type { StreamEvent, TokenUsage } from '../shared/events.js';
import type { Emission } from './fast-pipeline.js';
import { callTool } from './tools/call-tool.js';
import { toolSpecs } from './tools/registry.js';
import type { AnyToolResult, ToolDisplay } from './tools/registry.js';
import type { ToolContext, ToolMemory } from './tools/tool.js';
import { turnStream } from './turn-stream.js';
import { tokenUsage } from './usage.js';

/** Options of a deep run. */
export interface DeepOptions {
  sandbox: Sandbox;
  /** The session's engine: get_data_info profiles with it. */
  engine?: AnalysisEngine;
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
  /** Streamed text of each turn, and its withdrawal when the attempt that streamed it is retried. */
  onStream?: (event: StreamEvent) => void;
}

/** What a deep run produced (its charts and tables are in the session's events and report model). */
export interface DeepResult {
  answer: string | null;
  stoppedBy: 'answer' | 'step_cap' | 'text' | 'error';
  error: ModelCallError | null;
  code: { title: string; code: string }[];
  usage: (TokenUsage | null)[];
}

interface State {
  step: number;
  /** The model turn under way. */
  turn: number;
  memory: ToolMemory;
  /** What the sandbox's Python can import: in the system prompt and in the hint after an ImportError. */
  libraries: Library[];
  result: DeepResult;
}

/** Folds what a person sees of one call into the run's code; a new display kind fails to compile here. */
function record(result: DeepResult, turn: number, step: number, display: ToolDisplay): void {
  switch (display.kind) {
    case 'program':
      result.code.push({
        title: `step ${step} (turn ${turn}): ${display.title}`,
        code: display.code,
      });
      return;
    case 'data_info':
    case 'sql':
    case 'plan':
    case 'answer':
    case 'tool_error':
      return;
    default: {
      const unhandled: never = display;
      throw new Error(`unhandled tool display ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Runs one call through the registry; the events it emitted are yielded after it (and before a fatal error). */
async function* runCall(
  opts: DeepOptions,
  state: State,
  call: ToolCall,
): AsyncGenerator<Emission, AnyToolResult> {
  const emitted: Emission[] = [];
  const ctx: ToolContext = {
    sandbox: opts.sandbox,
    ...(opts.engine ? { engine: opts.engine } : {}),
    sourceName: opts.sourceName,
    question: opts.question,
    step: state.step,
    libraries: state.libraries,
    memory: state.memory,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.storedBytes ? { storedBytes: opts.storedBytes } : {}),
    emit: (emission: Emission) => void emitted.push(emission),
  };
  let outcome: AnyToolResult;
  try {
    outcome = await callTool(call.name, call.arguments, ctx);
  } catch (error) {
    yield* emitted;
    throw error;
  }
  yield* emitted;
  return outcome;
}

/** Runs the calls of one turn (already capped); true when a tool result ended the run. */
async function* runTurnCalls(
  opts: DeepOptions,
  state: State,
  turn: number,
  calls: ToolCall[],
  messages: ChatMessage[],
): AsyncGenerator<Emission, boolean> {
  let ended = false;
  for (const call of calls) {
    state.step += 1;
    const outcome = yield* runCall(opts, state, call);
    record(state.result, turn, state.step, outcome.forDisplay);
    if (outcome.end) {
      state.result.answer = outcome.end.answer;
      state.result.stoppedBy = 'answer';
      ended = true;
    }
    yield {
      event: {
        type: 'tool_result',
        turn,
        step: state.step,
        tool: call.name,
        call_id: call.id,
        ok: outcome.ok,
        content: outcome.forModel,
      },
    };
    messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.forModel });
  }
  return ended;
}

/** One model turn; a model call that failed for good ends the run (null) with a warning. */
async function* chatTurn(
  opts: DeepOptions,
  state: State,
  messages: ChatMessage[],
): AsyncGenerator<Emission, ChatResponse | null> {
  try {
    return await opts.model.chat({
      messages,
      tools: toolSpecs(),
      maxOutputTokens: opts.maxOutputTokens ?? 4000,
      temperature: 0.1,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.stream !== false ? turnStream(state.turn, opts.onStream) : {}),
    });
  } catch (error) {
    if (!(error instanceof ModelCallError)) throw error;
    state.result.error = error;
    state.result.stoppedBy = 'error';
    yield { event: { type: 'warning', message: error.message } };
    return null;
  }
}

/** Runs the loop, yielding every event; returns the answer, the code of every step and the usage. */
export async function* deepLoop(opts: DeepOptions): AsyncGenerator<Emission, DeepResult> {
  const maxTurns = opts.maxTurns ?? 20;
  const perTurn = opts.maxToolCallsPerTurn ?? 4;
  const step = opts.firstStep ?? 0;
  const result: DeepResult = {
    answer: null,
    stoppedBy: 'step_cap',
    error: null,
    code: [],
    usage: [],
  };
  const state: State = {
    step,
    turn: opts.firstTurn ?? 1,
    memory: { profile: null, plan: null, ids: opts.usedIds ?? {} },
    libraries: [],
    result,
  };
  const firstTurn = opts.firstTurn ?? 1;
  yield { event: { type: 'question_asked', turn: firstTurn, text: opts.question } };
  const probed = await analysisLibraries(opts.sandbox, opts.signal);
  state.libraries = probed.libraries;
  if (probed.error) yield { event: { type: 'warning', message: probed.error } };
  const messages: ChatMessage[] = [
    { role: 'system', content: deepSystemPrompt(state.libraries) },
    ...(opts.history ?? []),
    { role: 'user', content: `Dataset: ${opts.sourceName}\nQuestion: ${opts.question}` },
  ];
  for (let turn = firstTurn; turn < firstTurn + maxTurns; turn += 1) {
    state.turn = turn;
    const response = yield* chatTurn(opts, state, messages);
    if (!response) break;
    const usage = tokenUsage(opts.model.model, response.usage);
    result.usage.push(usage);
    const calls = response.toolCalls.slice(0, perTurn);
    yield {
      event: {
        type: 'model_turn',
        turn,
        text: response.text,
        tool_calls: calls,
        usage,
        finish_reason: response.finishReason,
      },
    };
    messages.push({
      role: 'assistant',
      content: response.text,
      ...(calls.length ? { tool_calls: calls } : {}),
    });
    if (calls.length === 0) {
      result.answer = response.text;
      result.stoppedBy = 'text';
      break;
    }
    const ended = yield* runTurnCalls(opts, state, turn, calls, messages);
    if (response.toolCalls.length > perTurn) {
      yield {
        event: {
          type: 'warning',
          message: `turn ${turn}: only the first ${perTurn} of ${response.toolCalls.length} tool calls were run (the per-turn cap)`,
        },
      };
    }
    if (ended) break;
  }
  if (result.stoppedBy === 'step_cap')
    yield {
      event: {
        type: 'warning',
        message: `stopped after ${count(maxTurns, 'model turn')} (the step cap) without a final answer; the report shows what was computed`,
      },
    };
  yield {
    event: {
      type: 'answer',
      turn: state.turn,
      text: result.answer ?? '',
      model: opts.model.model,
      stopped_by: result.stoppedBy,
    },
  };
  return result;
}
