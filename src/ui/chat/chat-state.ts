/**
 * The chat screen's state and its reducer. Events from the store go through
 * the shared fold (step-timeline.ts) as they arrive, and the entries they add
 * become timeline lines; charts and tables are appended, never replaced
 * (DESIGN.md rule 4). UI actions (submit, mode toggle, streamed text, run end)
 * are folded in beside them, so the whole screen is a pure function of what
 * happened.
 */
import type { StoredEvent, StreamEvent } from '../../shared/events.js';
import { emptyTimeline, foldTimeline, newEntries } from '../step-timeline.js';
import type { TimelineEntry, TimelineState } from '../step-timeline.js';
import { findingLines, stepText, warningText } from '../timeline-text.js';

/** fast: the fixed pipeline; deep: the ReAct agent. */
export type ChatMode = 'fast' | 'deep';

/** One line of the chat's timeline: the chat's own (question, cancel, run end) or an entry's. */
export interface ChatLine {
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
  /** The session's events as the shared fold has them (step-timeline.ts). */
  events: TimelineState;
  timeline: ChatLine[];
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
    events: emptyTimeline,
    timeline: [],
    artifacts: [],
    streaming: '',
    reportPath: null,
    history: [],
  };
}

/** How many findings of a step the timeline lists. */
const SHOWN_FINDINGS = 5;

/** The chat's lines of a timeline entry; the question itself is the chat's own line (`submitted`). */
function chatLines(entry: TimelineEntry): ChatLine[] {
  switch (entry.kind) {
    case 'step_finished':
      return [{ kind: 'step', text: `✔ ${stepText(entry)}` }];
    case 'plan':
      return [
        {
          kind: 'info',
          text: `plan by the ${entry.planner} planner: ${entry.analyses.map((a) => a.title).join(' · ')}`,
        },
      ];
    case 'model_turn':
      return [
        ...(entry.text ? [{ kind: 'text' as const, text: entry.text }] : []),
        ...entry.calls.map((c) => ({
          kind: 'tool' as const,
          text: `→ ${c.tool}`,
          ...(c.code !== null ? { code: c.code } : {}),
        })),
      ];
    case 'tool_result':
      return [
        {
          kind: 'output',
          text: `  ${entry.ok ? '✔' : '✖'} ${entry.lines.join(' | ').slice(0, 160)}`,
        },
      ];
    case 'findings': {
      const { items, more } = findingLines(entry.texts, SHOWN_FINDINGS);
      return [
        ...items.map((text) => ({ kind: 'answer' as const, text })),
        ...(more ? [{ kind: 'info' as const, text: more }] : []),
      ];
    }
    case 'answer':
      return [{ kind: 'answer', text: entry.text }];
    case 'warning':
      return [{ kind: 'warning', text: warningText(entry) }];
    // The header names the data and the mode; a step shows once it is done.
    case 'question':
    case 'session':
    case 'step_started':
      return [];
  }
}

/** The heading over the charts and tables, saying when only the last `shown` of them are listed. */
export function artifactsHeading(total: number, shown: number): string {
  return `charts and tables (${total})${total > shown ? ` — the last ${shown} shown; all of them are in the report` : ''}`;
}

/** Folds a stored event in: the entries the shared fold adds become lines of the timeline. */
function foldEvent(state: ChatState, event: StoredEvent): ChatState {
  const events = foldTimeline(state.events, event);
  const added = newEntries(state.events, events);
  if (added.length === 0) return state;
  // The stored turn is the truth; the text streamed for it is done with.
  const streaming = added.some((e) => e.kind === 'model_turn') ? '' : state.streaming;
  return {
    ...state,
    events,
    streaming,
    timeline: [...state.timeline, ...added.flatMap(chatLines)],
  };
}

/** Folds one action into the state. */
export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'event':
      return foldEvent(state, action.event);
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
