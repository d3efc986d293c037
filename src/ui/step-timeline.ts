/**
 * The one fold of stored session events into what a person sees. The plain
 * progress lines, the ink progress view and the chat timeline all render the
 * entries of this fold (their wording is in timeline-text.ts), so a step, a
 * plan, a warning or a tool result reads the same in each of them. The report
 * has its own model (session/report-model.ts); this is the screen's.
 *
 * The fold is pure and incremental: each event appends the entries it means,
 * nothing already there changes, and folding events one at a time gives the
 * same state as folding them all (DESIGN.md, Events: every event is a delta).
 */
import { z } from 'zod';
import type { StoredEvent } from '../shared/events.js';

/** A tool call of a model turn, with the code it runs when it runs any. */
export interface TimelineCall {
  tool: string;
  code: string | null;
}

/** One thing a person is shown, in the order it happened. */
export type TimelineEntry =
  | {
      kind: 'session';
      session: string;
      command: string;
      source: string;
      mode: string;
      isolation: string | null;
    }
  | { kind: 'step_started'; step: number; tool: string; title: string }
  | {
      kind: 'step_finished';
      step: number;
      tool: string;
      /** The title the step started with ('' when its start was not folded). */
      title: string;
      summary: string;
      seconds: number;
    }
  | {
      kind: 'plan';
      step: number;
      planner: 'heuristic' | 'llm';
      model: string | null;
      fallback: string | null;
      analyses: { title: string; chart: string }[];
    }
  | { kind: 'warning'; step: number | null; message: string }
  /** Every finding of a step; views list the first few (timeline-text.ts `findingLines`). */
  | { kind: 'findings'; step: number; texts: string[] }
  | { kind: 'question'; turn: number; text: string }
  | {
      kind: 'model_turn';
      turn: number;
      text: string | null;
      calls: TimelineCall[];
      tokens: number | null;
    }
  | {
      kind: 'tool_result';
      turn: number;
      step: number;
      tool: string;
      ok: boolean;
      /** The first lines of what the tool returned, without its status line (each cut to 160 characters). */
      lines: string[];
    }
  | { kind: 'answer'; turn: number; text: string };

/** What the events of a session have added to the screen so far. */
export interface TimelineState {
  readonly entries: readonly TimelineEntry[];
}

/** The timeline before any event. */
export const emptyTimeline: TimelineState = { entries: [] };

/** How many lines of a tool result the timeline keeps, and how long each may be. */
const RESULT_LINES = 3;
const RESULT_LINE_CHARS = 160;

const CodeArgumentsSchema = z.object({ code: z.string() });

/** The code of a run_code call's raw arguments, or the raw text when they hold none. */
function codeOf(args: string): string {
  try {
    const parsed = CodeArgumentsSchema.safeParse(JSON.parse(args));
    return parsed.success ? parsed.data.code : args;
  } catch {
    return args;
  }
}

function resultLines(content: string): string[] {
  return content
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('status:'))
    .slice(0, RESULT_LINES)
    .map((l) => l.slice(0, RESULT_LINE_CHARS));
}

function startedTitle(state: TimelineState, step: number): string {
  const started = state.entries.findLast((e) => e.kind === 'step_started' && e.step === step);
  return started?.kind === 'step_started' ? started.title : '';
}

type TurnEvent = Extract<
  StoredEvent,
  { type: 'question_asked' | 'model_turn' | 'tool_result' | 'answer' }
>;

/** The entries of a deep question's events: the question, the model's turns, their results, the answer. */
function turnEntries(event: TurnEvent): TimelineEntry[] {
  switch (event.type) {
    case 'question_asked':
      return [{ kind: 'question', turn: event.turn, text: event.text }];
    case 'model_turn':
      return [
        {
          kind: 'model_turn',
          turn: event.turn,
          text: event.text || null,
          calls: event.tool_calls.map((c) => ({
            tool: c.name,
            code: c.name === 'run_code' ? codeOf(c.arguments) : null,
          })),
          tokens: event.usage?.total ?? null,
        },
      ];
    case 'tool_result':
      return [
        {
          kind: 'tool_result',
          turn: event.turn,
          step: event.step,
          tool: event.tool,
          ok: event.ok,
          lines: resultLines(event.content),
        },
      ];
    case 'answer':
      return event.text ? [{ kind: 'answer', turn: event.turn, text: event.text }] : [];
  }
}

/** The entries one event adds, given what was folded before it. */
function entriesOf(state: TimelineState, event: StoredEvent): TimelineEntry[] {
  switch (event.type) {
    case 'session_started':
      return [
        {
          kind: 'session',
          session: event.session_id,
          command: event.command,
          source: event.data.name,
          mode: event.mode,
          isolation: event.isolation ?? null,
        },
      ];
    case 'step_started':
      return [{ kind: 'step_started', step: event.step, tool: event.tool, title: event.title }];
    case 'step_finished':
      return [
        {
          kind: 'step_finished',
          step: event.step,
          tool: event.tool,
          title: startedTitle(state, event.step),
          summary: event.summary,
          seconds: event.duration_ms / 1000,
        },
      ];
    case 'plan_created':
      return [
        {
          kind: 'plan',
          step: event.step,
          planner: event.planner,
          model: event.model,
          fallback: event.fallback,
          analyses: event.analyses.map((a) => ({ title: a.title, chart: a.chart })),
        },
      ];
    case 'warning':
      return [{ kind: 'warning', step: event.step ?? null, message: event.message }];
    case 'insights_computed':
      return event.insights.length
        ? [{ kind: 'findings', step: event.step, texts: event.insights.map((i) => i.text) }]
        : [];
    case 'question_asked':
    case 'model_turn':
    case 'tool_result':
    case 'answer':
      return turnEntries(event);
    // The report shows these (session/report-model.ts); the screen has nothing to add for them.
    case 'artifact_added':
    case 'program_finished':
    case 'report_written':
    case 'session_finished':
    case 'summary_written':
      return [];
  }
}

/**
 * Folds one stored event in (events in their stored order). Returns `state` itself when
 * the event adds nothing, so a view can tell "nothing new" by identity.
 */
export function foldTimeline(state: TimelineState, event: StoredEvent): TimelineState {
  const added = entriesOf(state, event);
  return added.length ? { entries: [...state.entries, ...added] } : state;
}

/** The timeline of a sequence of stored events (a stored session's replay). */
export function timelineOf(events: Iterable<StoredEvent>): TimelineState {
  let state = emptyTimeline;
  for (const event of events) state = foldTimeline(state, event);
  return state;
}

/** The entries `after` has that `before` (an earlier state of the same fold) had not. */
export function newEntries(before: TimelineState, after: TimelineState): readonly TimelineEntry[] {
  return before === after ? [] : after.entries.slice(before.entries.length);
}
