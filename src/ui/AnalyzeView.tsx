/** The ink view of a running analysis: each step with its status and timing, the plan, then the findings. */
import { Box, Text } from 'ink';
import type { StoredEvent } from '../shared/events.js';
import { terminalText } from '../util/terminal-text.js';

/** What the view shows, reduced from events. */
export interface AnalyzeState {
  title: string;
  steps: {
    step: number;
    tool: string;
    title: string;
    done: boolean;
    summary?: string;
    ms?: number;
  }[];
  planner?: string;
  analyses: string[];
  warnings: string[];
}

/** The empty state. */
export const initialAnalyzeState: AnalyzeState = {
  title: '',
  steps: [],
  analyses: [],
  warnings: [],
};

/** Reduces one event into the state (appending; nothing replaces what was shown). */
export function reduceAnalyze(state: AnalyzeState, event: StoredEvent): AnalyzeState {
  switch (event.type) {
    case 'session_started':
      return {
        ...state,
        title: `${event.data.name} · ${event.mode} mode · session ${event.session_id}`,
      };
    case 'step_started':
      return {
        ...state,
        steps: [
          ...state.steps,
          { step: event.step, tool: event.tool, title: event.title, done: false },
        ],
      };
    case 'step_finished':
      return {
        ...state,
        steps: state.steps.map((s) =>
          s.step === event.step
            ? { ...s, done: true, summary: event.summary, ms: event.duration_ms }
            : s,
        ),
      };
    case 'plan_created':
      return {
        ...state,
        planner: `${event.planner}${event.model ? ` (${event.model})` : ''}${event.fallback ? ` — ${event.fallback}` : ''}`,
        analyses: [
          ...state.analyses,
          ...event.analyses.map((a) => `${a.chart.padEnd(9)} ${a.title}`),
        ],
      };
    case 'warning':
      return { ...state, warnings: [...state.warnings, event.message] };
    // Deep-mode turns, program output and findings are not part of this view (the result is printed after it).
    case 'answer':
    case 'artifact_added':
    case 'insights_computed':
    case 'model_turn':
    case 'program_finished':
    case 'question_asked':
    case 'report_written':
    case 'session_finished':
    case 'summary_written':
    case 'tool_result':
      return state;
  }
}

/** Renders the state; every string from an event is cleaned of terminal controls. */
export function AnalyzeView({ state }: { state: AnalyzeState }) {
  return (
    <Box flexDirection="column">
      <Text bold>opsmind analyze · {terminalText(state.title)}</Text>
      {state.steps.map((s) => (
        <Text key={s.step} color={s.done ? 'green' : 'yellow'}>
          {s.done ? '✔' : '…'} {terminalText(s.tool.padEnd(17))}{' '}
          {terminalText(
            s.done ? `${s.summary ?? ''} (${((s.ms ?? 0) / 1000).toFixed(2)} s)` : s.title,
          )}
        </Text>
      ))}
      {state.planner ? <Text dimColor> planner: {terminalText(state.planner)}</Text> : null}
      {state.analyses.map((a, i) => (
        <Text key={i} dimColor>
          {' '}
          {terminalText(a)}
        </Text>
      ))}
      {state.warnings.map((w, i) => (
        <Text key={`w${i}`} color="yellow">
          warning: {terminalText(w)}
        </Text>
      ))}
    </Box>
  );
}
