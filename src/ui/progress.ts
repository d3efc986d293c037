/** Progress views for a running pipeline: they only reduce events, never drive the agent. */
import type { StoredEvent } from '../shared/events.js';
import { printErr } from './print.js';
import { emptyTimeline, foldTimeline, newEntries } from './step-timeline.js';
import type { TimelineEntry, TimelineState } from './step-timeline.js';
import {
  plannerText,
  questionText,
  resultText,
  stepText,
  turnText,
  warningText,
} from './timeline-text.js';

/** Something that shows events as they are stored, and closes when the run ends. */
export interface ProgressView {
  show(event: StoredEvent): void;
  close(): Promise<void>;
}

/** One line per entry on stderr (not a TTY, CI): `[2/3] plan_analysis: 9 analyses … (0.01 s)`. */
export class PlainProgress implements ProgressView {
  private timeline: TimelineState = emptyTimeline;

  constructor(private readonly write: (line: string) => void = (line) => printErr(`${line}\n`)) {}

  show(event: StoredEvent): void {
    const before = this.timeline;
    this.timeline = foldTimeline(before, event);
    for (const entry of newEntries(before, this.timeline))
      for (const line of plainLines(entry)) this.write(line);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The plain lines of a timeline entry (none for what is printed on stdout after the run). */
export function plainLines(entry: TimelineEntry): string[] {
  switch (entry.kind) {
    case 'session':
      return [
        `opsmind: ${entry.command} ${entry.source} (mode ${entry.mode}, isolation ${entry.isolation ?? 'n/a'}, session ${entry.session})`,
      ];
    case 'step_started':
    case 'step_finished':
      return [`[${entry.step}/3] ${stepText(entry)}`];
    case 'plan':
      return [`      planner: ${plannerText(entry)}`];
    case 'question':
      return [questionText(entry)];
    case 'model_turn':
      return [turnText(entry)];
    case 'tool_result':
      return [resultText(entry)];
    case 'warning':
      return [warningText(entry)];
    // Results go to stdout after the run, not into the progress lines.
    case 'answer':
    case 'findings':
      return [];
  }
}

/** The plain text of one event folded on its own, or null for events that need no line. */
export function plainLine(event: StoredEvent): string | null {
  const lines = foldTimeline(emptyTimeline, event).entries.flatMap(plainLines);
  return lines.length ? lines.join('\n') : null;
}

/** A view that shows nothing (--json: stdout carries only the result). */
export class SilentProgress implements ProgressView {
  show(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}
