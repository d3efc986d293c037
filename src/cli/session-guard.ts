/**
 * A session run from the CLI ends as done, failed or interrupted (Ctrl-C,
 * SIGTERM) — never left "running" by a process that is still alive to say
 * otherwise. A kill -9 leaves the lock, which the next open sweeps.
 */
import type { AnalysisSession } from '../session/analysis-session.js';

/** Runs `body` in `session`; its returned status ends the session (and closes its sandbox). */
export async function guarded<T>(
  session: AnalysisSession,
  body: () => Promise<{ status: 'done' | 'failed'; value: T }>,
): Promise<T> {
  const onSignal = (signal: NodeJS.Signals) => {
    session.close('interrupted', `stopped by ${signal}`);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const { status, value } = await body();
    session.close(status);
    return value;
  } catch (error) {
    try {
      session.close('failed', error instanceof Error ? error.message : String(error));
    } catch {
      /* the store itself failed (a full disk, say): the original error reports it; the next open sweeps the lock */
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
