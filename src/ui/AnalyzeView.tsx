/** The ink view of a running analysis: each step with its status and timing, the plan, warnings, the model's turns. */
import { Box, Text } from 'ink';
import { count } from '../util/plural.js';
import { terminalText } from '../util/terminal-text.js';
import type { TimelineEntry, TimelineState } from './step-timeline.js';
import {
  plannerText,
  questionText,
  resultText,
  stepText,
  turnText,
  warningText,
} from './timeline-text.js';

/** One line of the view. */
export interface AnalyzeRow {
  text: string;
  tone: 'running' | 'done' | 'dim' | 'warning' | 'plain';
}

/** How many rows the view shows (the newest): a taller ink frame than the terminal is redrawn badly. */
const SHOWN_ROWS = 30;

type Finished = Extract<TimelineEntry, { kind: 'step_finished' }>;

/** The rows of one entry; a started step shows as done once its step has finished. */
function entryRows(
  entry: TimelineEntry,
  finished: Map<number, Finished>,
  started: Set<number>,
): AnalyzeRow[] {
  switch (entry.kind) {
    case 'step_started': {
      const done = finished.get(entry.step);
      return [
        done
          ? { text: `✔ ${stepText(done)}`, tone: 'done' }
          : { text: `… ${stepText(entry)}`, tone: 'running' },
      ];
    }
    case 'step_finished':
      return started.has(entry.step) ? [] : [{ text: `✔ ${stepText(entry)}`, tone: 'done' }];
    case 'plan':
      return [
        { text: ` planner: ${plannerText(entry)}`, tone: 'dim' },
        ...entry.analyses.map((a) => ({
          text: ` ${a.chart.padEnd(9)} ${a.title}`,
          tone: 'dim' as const,
        })),
      ];
    case 'warning':
      return [{ text: warningText(entry), tone: 'warning' }];
    case 'question':
      return [{ text: questionText(entry), tone: 'plain' }];
    case 'model_turn':
      return [{ text: turnText(entry), tone: 'dim' }];
    case 'tool_result':
      return [{ text: resultText(entry), tone: 'dim' }];
    // The header; the result is printed on stdout after the view.
    case 'session':
    case 'findings':
    case 'answer':
      return [];
  }
}

/** The rows the view shows for a timeline: the newest `SHOWN_ROWS`, after a line counting the rest. */
export function analyzeRows(state: TimelineState): AnalyzeRow[] {
  const finished = new Map<number, Finished>();
  const started = new Set<number>();
  for (const e of state.entries) {
    if (e.kind === 'step_finished') finished.set(e.step, e);
    if (e.kind === 'step_started') started.add(e.step);
  }
  const rows = state.entries.flatMap((e) => entryRows(e, finished, started));
  if (rows.length <= SHOWN_ROWS) return rows;
  const hidden = rows.length - SHOWN_ROWS + 1;
  return [{ text: `… ${count(hidden, 'earlier line')}`, tone: 'dim' }, ...rows.slice(hidden)];
}

/** The header: `opsmind analyze · sales.csv · fast mode · session 63z9g245`. */
export function analyzeTitle(state: TimelineState): string {
  const session = state.entries.find((e) => e.kind === 'session');
  return session?.kind === 'session'
    ? `opsmind ${session.command} · ${session.source} · ${session.mode} mode · session ${session.session}`
    : 'opsmind';
}

const COLORS: Record<AnalyzeRow['tone'], string | undefined> = {
  running: 'yellow',
  done: 'green',
  warning: 'yellow',
  dim: undefined,
  plain: undefined,
};

/** Renders the timeline; every string from an event is cleaned of terminal controls. */
export function AnalyzeView({ state }: { state: TimelineState }) {
  return (
    <Box flexDirection="column">
      <Text bold>{terminalText(analyzeTitle(state))}</Text>
      {analyzeRows(state).map((row, i) => (
        <Text key={i} color={COLORS[row.tone]} dimColor={row.tone === 'dim'}>
          {terminalText(row.text)}
        </Text>
      ))}
    </Box>
  );
}
