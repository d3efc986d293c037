/**
 * One runner per session: a lock row holding the runner's pid and a
 * heartbeat. A second process gets a clear message; a lock whose process is
 * dead (or whose heartbeat stopped) is stale, and its session is marked
 * interrupted.
 */
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { processAlive } from '../util/process-alive.js';

/** How often the holder refreshes its heartbeat, and when silence makes a lock stale. */
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 60_000;

interface LockRow {
  session_id: string;
  pid: number;
  host: string;
  heartbeat_at: string;
}

/** True when the lock's process is gone (same host) or its heartbeat is older than STALE_AFTER_MS. */
export function isStale(lock: LockRow, now = Date.now()): boolean {
  if (lock.host === hostname() && !processAlive(lock.pid)) return true;
  return now - Date.parse(lock.heartbeat_at) > STALE_AFTER_MS;
}

/** A held lock: keeps its heartbeat fresh until released. */
export interface HeldLock {
  release(): void;
}

/** Takes the session's lock for this process, or throws OpsmindError naming the holder. A stale lock is taken over. */
export function acquireLock(db: Database.Database, sessionId: string): HeldLock {
  const now = () => new Date().toISOString();
  db.transaction(() => {
    const held = db.prepare('SELECT * FROM session_locks WHERE session_id = ?').get(sessionId) as
      LockRow | undefined;
    if (held && held.pid !== process.pid && !isStale(held)) {
      throw new OpsmindError(
        `session ${sessionId} is being run by process ${held.pid} on ${held.host}`,
        ExitCode.BAD_INPUT,
        "wait for it to finish, or stop that process; a dead process's lock is taken over automatically",
      );
    }
    db.prepare(
      'INSERT OR REPLACE INTO session_locks (session_id, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
    ).run(sessionId, process.pid, hostname(), now(), now());
  }).immediate();
  const beat = setInterval(() => {
    try {
      db.prepare('UPDATE session_locks SET heartbeat_at = ? WHERE session_id = ? AND pid = ?').run(
        now(),
        sessionId,
        process.pid,
      );
    } catch {
      /* the next beat retries; a missed beat only makes the lock look older */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  return {
    release() {
      clearInterval(beat);
      db.prepare('DELETE FROM session_locks WHERE session_id = ? AND pid = ?').run(
        sessionId,
        process.pid,
      );
    },
  };
}

/** Marks every running session whose runner is gone as interrupted; returns their ids. */
export function sweepStale(db: Database.Database): string[] {
  const running = db
    .prepare(
      `SELECT s.id, l.pid, l.host, l.heartbeat_at, l.session_id FROM sessions s LEFT JOIN session_locks l ON l.session_id = s.id WHERE s.status = 'running'`,
    )
    .all() as (LockRow & { id: string; pid: number | null })[];
  const stale = running.filter((row) => row.pid === null || isStale(row));
  if (stale.length === 0) return [];
  db.transaction(() => {
    for (const row of stale) {
      db.prepare(
        `UPDATE sessions SET status = 'interrupted', updated_at = ? WHERE id = ? AND status = 'running'`,
      ).run(new Date().toISOString(), row.id);
      db.prepare('DELETE FROM session_locks WHERE session_id = ?').run(row.id);
    }
  }).immediate();
  return stale.map((row) => row.id);
}
