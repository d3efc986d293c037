/** Progress views for a running pipeline: they only reduce events, never drive the agent. */
import type { StoredEvent } from '../shared/events.js';
import { count } from '../util/plural.js';
import { printErr } from './print.js';

/** Something that shows events as they are stored, and closes when the run ends. */
export interface ProgressView {
  show(event: StoredEvent): void;
  close(): Promise<void>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

/** One line per event on stderr (not a TTY, CI): `[2/3] plan_analysis: 9 analyses … (0.01 s)`. */
export class PlainProgress implements ProgressView {
  constructor(private readonly write: (line: string) => void = (line) => printErr(`${line}\n`)) {}

  show(event: StoredEvent): void {
    const line = plainLine(event);
    if (line) this.write(line);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The plain text of an event, or null for events that need no line. */
export function plainLine(event: StoredEvent): string | null {
  switch (event.type) {
    case 'session_started':
      return `opsmind: ${event.command} ${event.data.name} (mode ${event.mode}, isolation ${event.isolation ?? 'n/a'}, session ${event.session_id})`;
    case 'step_started':
      return `[${event.step}/3] ${event.tool}: ${event.title}…`;
    case 'step_finished':
      return `[${event.step}/3] ${event.tool}: ${event.summary} (${seconds(event.duration_ms)})`;
    case 'plan_created':
      return `      planner: ${event.planner}${event.model ? ` (${event.model})` : ''}${event.fallback ? ` — ${event.fallback}` : ''}`;
    case 'question_asked':
      return `question: ${event.text}`;
    case 'model_turn':
      return `[turn ${event.turn}] ${event.tool_calls.length ? event.tool_calls.map((c) => c.name).join(', ') : 'answer'}${event.usage ? ` (${count(event.usage.total, 'token')})` : ''}`;
    case 'tool_result':
      return `  step ${event.step} ${event.tool}: ${event.ok ? 'ok' : 'error'} — ${
        event.content
          .split('\n')
          .find((l) => l.trim() && !l.startsWith('status:'))
          ?.slice(0, 100) ?? ''
      }`;
    case 'warning':
      return `warning: ${event.message}`;
    // Results go to stdout after the run, not into the progress lines.
    case 'answer':
    case 'artifact_added':
    case 'insights_computed':
    case 'program_finished':
    case 'report_written':
    case 'session_finished':
    case 'summary_written':
      return null;
  }
}

/** A view that shows nothing (--json: stdout carries only the result). */
export class SilentProgress implements ProgressView {
  show(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}
