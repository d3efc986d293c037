/**
 * Running one recorded session from the CLI: create it with its lock, store
 * every event before it is shown, and end it as done, failed or interrupted
 * (Ctrl-C, SIGTERM) — never left "running" by a process that is still alive
 * to say otherwise. A kill -9 leaves the lock, which the next open sweeps.
 */
import type { SessionEvent, StoredEvent } from '../agent/events.js';
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
    end('failed', error instanceof Error ? error.message : String(error));
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
