/**
 * The progress of `opsmind batch`: on a terminal an ink bar (files done of total, failures,
 * ETA, the latest files); otherwise one line per file on stderr; nothing for --json. Names
 * and errors come from files and are cleaned of terminal controls.
 */
import type { BatchProgress } from '../batch/run.js';
import { terminalText } from '../util/terminal-text.js';
import { isInteractive } from './headless.js';
import { importEsm } from '../util/esm-import.js';

/** What the views show, folded from the batch's progress events. */
export interface BatchState {
  total: number;
  reused: number;
  todo: number;
  done: number;
  failed: number;
  started: number;
  jobs: number;
  /** The latest files, newest last. */
  recent: { name: string; ok: boolean; text: string }[];
}

/** The state after one event. */
export function foldBatch(state: BatchState, event: BatchProgress, now = Date.now()): BatchState {
  if (event.type === 'start')
    return {
      ...state,
      total: event.total,
      todo: event.todo,
      reused: event.reused,
      jobs: event.jobs,
      started: now,
    };
  const e = event.entry;
  if (e.reused) return state;
  const ok = e.status === 'done';
  const text = ok
    ? `${e.name}: done${e.seconds !== null ? ` in ${e.seconds.toFixed(1)} s` : ''}${e.rows !== null ? `, ${e.rows.toLocaleString('en-US')} rows` : ''}`
    : `${e.name}: failed: ${e.error ?? ''}`;
  return {
    ...state,
    done: state.done + 1,
    failed: state.failed + (ok ? 0 : 1),
    recent: [...state.recent, { name: e.name, ok, text: terminalText(text) }].slice(-6),
  };
}

/** Seconds left at the pace so far, or null before the first file. */
export function etaSeconds(state: BatchState, now = Date.now()): number | null {
  if (!state.done || state.done >= state.todo) return null;
  const perFile = (now - state.started) / 1000 / state.done;
  return Math.round(perFile * (state.todo - state.done));
}

/** One line: `12/100 files · 1 failed · 88 to go, about 42 s`. */
export function statusLine(state: BatchState, now = Date.now()): string {
  const eta = etaSeconds(state, now);
  const parts = [
    `${state.done + state.reused}/${state.total} files`,
    ...(state.reused ? [`${state.reused} unchanged`] : []),
    `${state.failed} failed`,
    ...(eta !== null
      ? [`ETA ${eta >= 60 ? `${Math.floor(eta / 60)} min ${eta % 60} s` : `${eta} s`}`]
      : []),
  ];
  return parts.join(' · ');
}

/** A batch progress view. */
export interface BatchView {
  show(event: BatchProgress): void;
  close(): Promise<void>;
}

export const EMPTY_BATCH: BatchState = {
  total: 0,
  reused: 0,
  todo: 0,
  done: 0,
  failed: 0,
  started: Date.now(),
  jobs: 1,
  recent: [],
};

/** One line per file on stderr. */
function plainView(): BatchView {
  let state = EMPTY_BATCH;
  return {
    show(event) {
      state = foldBatch(state, event);
      if (event.type === 'start')
        process.stderr.write(
          `batch: ${state.total} files, ${state.todo} to run on ${state.jobs} worker${state.jobs === 1 ? '' : 's'}${state.reused ? `, ${state.reused} unchanged` : ''}\n`,
        );
      else if (!event.entry.reused) {
        const last = state.recent.at(-1);
        if (last) process.stderr.write(`[${state.done}/${state.todo}] ${last.text}\n`);
      }
    },
    close: () => Promise.resolve(),
  };
}

/** The view for this invocation. */
export async function createBatchView(options: { json: boolean }): Promise<BatchView> {
  if (options.json) return { show: () => undefined, close: () => Promise.resolve() };
  if (!isInteractive(options)) return plainView();
  try {
    await importEsm('ink'); // BatchView imports it (esm-import.ts)
    const { inkBatchView } = await import('./BatchView.js');
    return await inkBatchView();
  } catch {
    return plainView();
  }
}
