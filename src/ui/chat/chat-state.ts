/**
 * The chat screen's state and its reducer. Events from the store are folded
 * in as they arrive; charts and tables are appended, never replaced
 * (DESIGN.md rule 4). UI actions (submit, mode toggle, run end) are folded in
 * the same way, so the whole screen is a pure function of what happened.
 */
import { z } from 'zod';
import type { StoredEvent, StreamEvent } from '../../shared/events.js';
import { count } from '../../util/plural.js';

/** fast: the fixed pipeline; deep: the ReAct agent. */
export type ChatMode = 'fast' | 'deep';

/** One line of the timeline. */
export interface TimelineEntry {
  kind: 'question' | 'step' | 'tool' | 'text' | 'output' | 'warning' | 'answer' | 'info';
  text: string;
  /** Code of a tool call, shown indented. */
  code?: string;
}

/** A chart or table added to the report, with its terminal picture. */
export interface ChatArtifact {
  key: string;
  kind: string;
  title: string;
  picture: string[];
}

/** Everything the chat screen shows. */
export interface ChatState {
  mode: ChatMode;
  running: boolean;
  timeline: TimelineEntry[];
  artifacts: ChatArtifact[];
  streaming: string;
  reportPath: string | null;
  history: string[];
}

/** What can happen to the screen. */
export type ChatAction =
  | { type: 'event'; event: StoredEvent }
  | { type: 'artifacts'; artifacts: ChatArtifact[] }
  | { type: 'submitted'; question: string }
  | { type: 'toggle_mode' }
  | StreamEvent
  | { type: 'run_finished'; reportPath: string | null; error?: string }
  | { type: 'cancelled' };

/** The state of a new chat. */
export function initialChatState(mode: ChatMode): ChatState {
  return {
    mode,
    running: false,
    timeline: [],
    artifacts: [],
    streaming: '',
    reportPath: null,
    history: [],
  };
}

function eventEntries(event: StoredEvent): TimelineEntry[] {
  switch (event.type) {
    case 'step_finished':
      return [
        {
          kind: 'step',
          text: `✔ ${event.tool}: ${event.summary} (${(event.duration_ms / 1000).toFixed(2)} s)`,
        },
      ];
    case 'plan_created':
      return [
        {
          kind: 'info',
          text: `plan by the ${event.planner} planner: ${event.analyses.map((a) => a.title).join(' · ')}`,
        },
      ];
    case 'model_turn':
      return [
        ...(event.text ? [{ kind: 'text' as const, text: event.text }] : []),
        ...event.tool_calls.map((c) => ({
          kind: 'tool' as const,
          text: `→ ${c.name}`,
          ...(c.name === 'run_code' ? { code: codeOf(c.arguments) } : {}),
        })),
      ];
    case 'tool_result':
      return [
        {
          kind: 'output',
          text: `  ${event.ok ? '✔' : '✖'} ${event.content
            .split('\n')
            .filter((l) => l.trim() && !l.startsWith('status:'))
            .slice(0, 3)
            .join(' | ')
            .slice(0, 160)}`,
        },
      ];
    case 'insights_computed':
      return [
        ...event.insights
          .slice(0, SHOWN_FINDINGS)
          .map((i) => ({ kind: 'answer' as const, text: `• ${i.text}` })),
        ...(event.insights.length > SHOWN_FINDINGS
          ? [
              {
                kind: 'info' as const,
                text: `(${SHOWN_FINDINGS} of ${count(event.insights.length, 'finding')}; all of them are in the report)`,
              },
            ]
          : []),
      ];
    case 'answer':
      return event.text ? [{ kind: 'answer', text: event.text }] : [];
    case 'warning':
      return [{ kind: 'warning', text: `warning: ${event.message}` }];
    // Shown elsewhere (artifacts, the run's end) or not at all (bookkeeping).
    case 'artifact_added':
    case 'program_finished':
    case 'question_asked':
    case 'report_written':
    case 'session_finished':
    case 'session_started':
    case 'step_started':
    case 'summary_written':
      return [];
  }
}

/** How many findings of a step the timeline lists. */
const SHOWN_FINDINGS = 5;

/** The heading over the charts and tables, saying when only the last `shown` of them are listed. */
export function artifactsHeading(total: number, shown: number): string {
  return `charts and tables (${total})${total > shown ? ` — the last ${shown} shown; all of them are in the report` : ''}`;
}

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

/** Folds one action into the state. */
export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'event': {
      const entries = eventEntries(action.event);
      const streaming = action.event.type === 'model_turn' ? '' : state.streaming;
      return entries.length || streaming !== state.streaming
        ? { ...state, streaming, timeline: [...state.timeline, ...entries] }
        : state;
    }
    case 'artifacts': {
      const known = new Set(state.artifacts.map((a) => a.key));
      return {
        ...state,
        artifacts: [...state.artifacts, ...action.artifacts.filter((a) => !known.has(a.key))],
      };
    }
    case 'submitted':
      return {
        ...state,
        running: true,
        streaming: '',
        history: [...state.history, action.question],
        timeline: [
          ...state.timeline,
          { kind: 'question', text: `[${state.mode}] ${action.question}` },
        ],
      };
    case 'toggle_mode':
      return { ...state, mode: state.mode === 'fast' ? 'deep' : 'fast' };
    case 'text_delta':
      return { ...state, streaming: state.streaming + action.text };
    case 'text_retracted':
      return {
        ...state,
        streaming: '',
        timeline: [
          ...state.timeline,
          {
            kind: 'info',
            text: `model call retried (${action.reason}); its partial answer was dropped`,
          },
        ],
      };
    case 'run_finished':
      return {
        ...state,
        running: false,
        streaming: '',
        reportPath: action.reportPath ?? state.reportPath,
        timeline: action.error
          ? [...state.timeline, { kind: 'warning', text: action.error }]
          : state.timeline,
      };
    case 'cancelled':
      return {
        ...state,
        timeline: [...state.timeline, { kind: 'warning', text: 'cancelling the running step…' }],
      };
  }
}
