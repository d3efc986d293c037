/**
 * Running one recorded session from the CLI: create it with its lock, store
 * every event before it is shown, and end it as done, failed or interrupted
 * (Ctrl-C, SIGTERM) — never left "running" by a process that is still alive
 * to say otherwise. A kill -9 leaves the lock, which the next open sweeps.
 */
import type { SessionEvent, StoredEvent } from '../agent/events.js';
import type { Emission } from '../agent/fast-pipeline.js';
import { countIds } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';
import type { NewSession, SessionRow, SessionStore } from '../store/session-store.js';

/** What the body of a session gets. */
export interface SessionContext {
  session: SessionRow;
  store: SessionStore;
  /** Stores the event (committed) and returns it; show it only after this returns. */
  emit: (event: SessionEvent) => StoredEvent;
}

function resume(store: SessionStore, id: string): { session: SessionRow; lock: ReturnType<SessionStore['lockSession']> } {
  const lock = store.lockSession(id);
  store.finish(id, 'running');
  return { session: store.session(id), lock };
}

/** Runs `body` as a recorded session; its returned status ends the session. */
export async function withRecordedSession<T>(
  store: SessionStore,
  input: NewSession | { continue: string },
  body: (ctx: SessionContext) => Promise<{ status: 'done' | 'failed'; value: T }>,
): Promise<T> {
  const { session, lock } = 'continue' in input ? resume(store, input.continue) : store.createSession(input);
  const emit = (event: SessionEvent) => store.append(session.id, event);
  const end = (status: 'done' | 'failed' | 'interrupted', error?: string) => {
    emit({ type: 'session_finished', status, ...(error ? { error } : {}) });
    store.finish(session.id, status);
    lock.release();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    end('interrupted', `stopped by ${signal}`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { status, value } = await body({ session, store, emit });
    end(status);
    return value;
  } catch (error) {
    try {
      end('failed', error instanceof Error ? error.message : String(error));
    } catch {
      /* the store itself failed (a full disk, say): the original error reports it; the next open sweeps the lock */
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/**
 * Drains a pipeline or loop into the session: each event is stored (with its
 * step's files, atomically) and only then shown. Returns the generator's result.
 */
export async function recordAll<R>(store: SessionStore, sessionId: string, run: AsyncGenerator<Emission, R>, show: (event: StoredEvent) => void): Promise<R> {
  for (let next = await run.next(); ; next = await run.next()) {
    if (next.done) return next.value;
    const { event, files } = next.value;
    const step = 'step' in event && typeof event.step === 'number' ? event.step : 0;
    show(files ? store.appendWithArtifacts(sessionId, step, files, event) : store.append(sessionId, event));
  }
}

/** The highest turn and step numbers and the declaration ids a session's events use, so a new run continues the numbering. */
export function lastNumbers(events: readonly StoredEvent[]): { turn: number; step: number; ids: IdCounts } {
  let turn = 0;
  let step = 0;
  let ids: IdCounts = {};
  for (const e of events) {
    if (e.type === 'artifact_added') ids = countIds(ids, [...e.charts, ...e.tables, ...(e.images ?? [])].map((r) => r.id));
    if ('turn' in e && typeof e.turn === 'number') turn = Math.max(turn, e.turn);
    if ('step' in e && typeof e.step === 'number') step = Math.max(step, e.step);
  }
  return { turn, step, ids };
}
