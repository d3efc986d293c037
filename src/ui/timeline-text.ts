/**
 * The wording of timeline entries that more than one view shows: a step, the
 * planner, a warning, a model turn, a tool result, a capped list of findings.
 * Each view adds its own marks (`[1/3] `, `✔ `, colours) around these texts,
 * so the same event never reads two ways on two screens.
 */
import { count } from '../util/plural.js';
import type { TimelineEntry } from './step-timeline.js';

type Entry<K extends TimelineEntry['kind']> = Extract<TimelineEntry, { kind: K }>;

/** A duration for people: `0.11 s`, `12.3 s`. */
export function secondsText(seconds: number): string {
  return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
}

/** `get_data_info: Profile the data…` while it runs; `get_data_info: 5,019 rows × 10 columns (0.11 s)` once done. */
export function stepText(entry: Entry<'step_started' | 'step_finished'>): string {
  return entry.kind === 'step_started'
    ? `${entry.tool}: ${entry.title}…`
    : `${entry.tool}: ${entry.summary} (${secondsText(entry.seconds)})`;
}

/** Who planned: `heuristic`, `llm (gpt-4o)`, `heuristic (m) — the model's plan was invalid twice …`. */
export function plannerText(entry: Entry<'plan'>): string {
  return `${entry.planner}${entry.model ? ` (${entry.model})` : ''}${entry.fallback ? ` — ${entry.fallback}` : ''}`;
}

/** `warning: …`. */
export function warningText(entry: Entry<'warning'>): string {
  return `warning: ${entry.message}`;
}

/** `question: …`. */
export function questionText(entry: Entry<'question'>): string {
  return `question: ${entry.text}`;
}

/** `[turn 2] run_code (1,234 tokens)`; a turn without tool calls is the answer. */
export function turnText(entry: Entry<'model_turn'>): string {
  const tools = entry.calls.length ? entry.calls.map((c) => c.tool).join(', ') : 'answer';
  return `[turn ${entry.turn}] ${tools}${entry.tokens !== null ? ` (${count(entry.tokens, 'token')})` : ''}`;
}

/** `  step 3 run_code: ok — stdout:` — the first line of what the tool returned. */
export function resultText(entry: Entry<'tool_result'>): string {
  return `  step ${entry.step} ${entry.tool}: ${entry.ok ? 'ok' : 'error'} — ${entry.lines[0]?.slice(0, 100) ?? ''}`;
}

/**
 * The first `shown` findings as `• …` items, and when there are more, the line that says so:
 * `(12 of 15 findings; all of them are in the report)`. An item is one line: a line break in a
 * finding (a column named on two lines, as a spreadsheet's header cell "Revenue⏎(USD)") is shown
 * as a space, so the list keeps its shape; the report and --json keep the name as it is.
 */
export function findingLines(
  texts: readonly string[],
  shown: number,
): { items: string[]; more: string | null } {
  return {
    items: texts.slice(0, shown).map((text) => `• ${text.replace(/\s*\n\s*/g, ' ')}`),
    more:
      texts.length > shown
        ? `(${shown} of ${count(texts.length, 'finding')}; all of them are in the report)`
        : null,
  };
}
