/**
 * The session store: sessions, their append-only numbered events, and the
 * artifacts of each step, in one SQLite file shared safely by many processes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type Database from 'better-sqlite3';
import { parseEventPayload } from '../shared/events.js';
import type { SessionEvent, StoredEvent } from '../shared/events.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { notWritable, openDatabase } from './db.js';
import { asStoreError, storeFailure } from './errors.js';
import { acquireLock, sweepStale } from './lock.js';
import type { HeldLock } from './lock.js';
import { openReadOnly } from './read-only.js';

/** A session row. */
export interface SessionRow {
  id: string;
  created_at: string;
  updated_at: string;
  command: string;
  mode: string;
  model: string | null;
  data_path: string;
  data_sha256: string;
  data_size: number;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  title: string | null;
}

/** What a new session records about itself. */
export interface NewSession {
  command: string;
  mode: string;
  model?: string | null;
  dataPath: string;
  dataSha256: string;
  dataSize: number;
  title?: string | null;
}

/** One stored artifact of a step. */
export interface StoredArtifact {
  step: number;
  name: string;
  sha256: string;
  bytes: number;
  content: Buffer;
}

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A short, unambiguous, typeable session id (8 characters, ~40 bits). */
export function newSessionId(): string {
  return [...randomBytes(8)].map((b) => ALPHABET[b % ALPHABET.length]).join('');
}

/** SHA-256 of a buffer, hex. */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * The store. Open with `SessionStore.open(path)` (to write) or `openForReading`; close when
 * done. Every storage failure (a full disk, a damaged file, a read-only location) is thrown
 * as one OpsmindError (exit 3) naming the store (errors.ts); other errors are bugs.
 */
export class SessionStore {
  private constructor(
    readonly db: Database.Database,
    readonly path: string,
    private readonly closeDb: () => void = () => db.close(),
  ) {}

  /** Opens the database at `path` to write, migrates it, and marks sessions of dead runners interrupted. */
  static open(path: string): SessionStore {
    const store = new SessionStore(openDatabase(path), path);
    store.guard(() => sweepStale(store.db));
    return store;
  }

  /**
   * Opens the store to read it (sessions list, show, replay, export): as `open` does when the
   * location is writable (sweeping dead runners' sessions when it can), read-only when it is not.
   */
  static openForReading(path: string): SessionStore {
    if (notWritable(path)) {
      const opened = openReadOnly(path);
      return new SessionStore(opened.db, path, () => opened.close());
    }
    const store = new SessionStore(openDatabase(path), path);
    try {
      sweepStale(store.db);
    } catch {
      /* reading still works: a full or locked store only delays the sweep to the next open */
    }
    return store;
  }

  /** Runs a database operation, turning storage failures into the person-facing error. */
  private guard<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      throw asStoreError(error, this.path);
    }
  }

  private guardLock(lock: HeldLock): HeldLock {
    return { release: () => this.guard(() => lock.release()) };
  }

  /** Creates a running session and takes its lock, in one transaction. */
  createSession(input: NewSession): { session: SessionRow; lock: HeldLock } {
    const id = newSessionId();
    const now = new Date().toISOString();
    return this.guard(() => {
      this.db
        .transaction(() => {
          this.db
            .prepare(
              `INSERT INTO sessions (id, created_at, updated_at, command, mode, model, data_path, data_sha256, data_size, status, title)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)`,
            )
            .run(
              id,
              now,
              now,
              input.command,
              input.mode,
              input.model ?? null,
              input.dataPath,
              input.dataSha256,
              input.dataSize,
              input.title ?? null,
            );
          this.db
            .prepare(
              'INSERT INTO session_locks (session_id, pid, host, acquired_at, heartbeat_at) VALUES (?, ?, ?, ?, ?)',
            )
            .run(id, process.pid, hostname(), now, now);
        })
        .immediate();
      return { session: this.session(id), lock: this.guardLock(acquireLock(this.db, id)) };
    });
  }

  /** Takes the lock of an existing session (to continue it), or throws naming the holder. */
  lockSession(id: string): HeldLock {
    return this.guard(() => this.guardLock(acquireLock(this.db, id)));
  }

  /** Appends an event with the next number; the row is committed before this returns. */
  append(sessionId: string, event: SessionEvent): StoredEvent {
    const created_at = new Date().toISOString();
    const seq = this.guard(() =>
      this.db
        .transaction(() => {
          const next = (
            this.db
              .prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM events WHERE session_id = ?')
              .get(sessionId) as { next: number }
          ).next;
          this.db
            .prepare(
              'INSERT INTO events (session_id, seq, type, payload, created_at) VALUES (?, ?, ?, ?, ?)',
            )
            .run(sessionId, next, event.type, JSON.stringify(event), created_at);
          this.db
            .prepare('UPDATE sessions SET updated_at = ? WHERE id = ?')
            .run(created_at, sessionId);
          return next;
        })
        .immediate(),
    );
    return { ...event, session_id: sessionId, seq, created_at };
  }

  /** Stores a step's artifacts and appends an event, atomically (both or neither). */
  appendWithArtifacts(
    sessionId: string,
    step: number,
    files: { name: string; content: Buffer }[],
    event: SessionEvent,
  ): StoredEvent {
    let stored: StoredEvent | undefined;
    this.guard(() =>
      this.db
        .transaction(() => {
          const insert = this.db.prepare(
            'INSERT OR REPLACE INTO artifacts (session_id, step, name, sha256, bytes, content) VALUES (?, ?, ?, ?, ?, ?)',
          );
          for (const file of files)
            insert.run(
              sessionId,
              step,
              file.name,
              sha256(file.content),
              file.content.length,
              file.content,
            );
          stored = this.append(sessionId, event);
        })
        .immediate(),
    );
    if (!stored) throw new Error('append failed');
    return stored;
  }

  /** Sets the final status. */
  finish(sessionId: string, status: SessionRow['status']): void {
    this.guard(() =>
      this.db
        .prepare('UPDATE sessions SET status = ?, updated_at = ? WHERE id = ?')
        .run(status, new Date().toISOString(), sessionId),
    );
  }

  /** The session with this id, or the only one whose id starts with it; throws OpsmindError (exit 2) otherwise. */
  session(idOrPrefix: string): SessionRow {
    const rows = this.guard(
      () =>
        this.db
          .prepare('SELECT * FROM sessions WHERE id = ? OR id LIKE ? ORDER BY id = ? DESC LIMIT 3')
          .all(idOrPrefix, `${idOrPrefix.replace(/[%_]/g, '')}%`, idOrPrefix) as SessionRow[],
    );
    const exact = rows.find((r) => r.id === idOrPrefix);
    if (exact) return exact;
    if (rows.length === 1 && rows[0]) return rows[0];
    if (rows.length === 0)
      throw new OpsmindError(
        `no session "${idOrPrefix}"`,
        ExitCode.BAD_INPUT,
        'run `opsmind sessions list` to see the sessions',
      );
    throw new OpsmindError(
      `"${idOrPrefix}" matches several sessions (${rows.map((r) => r.id).join(', ')}, …)`,
      ExitCode.BAD_INPUT,
      'give more characters of the id',
    );
  }

  /** Sessions, newest first. */
  list(limit = 50): (SessionRow & { events: number; charts: number })[] {
    return this.guard(
      () =>
        this.db
          .prepare(
            `SELECT s.*, (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id) AS events,
        (SELECT COALESCE(SUM(json_array_length(e.payload, '$.charts') + json_array_length(e.payload, '$.tables')), 0) FROM events e WHERE e.session_id = s.id AND e.type = 'artifact_added') AS charts
      FROM sessions s ORDER BY s.created_at DESC, s.id LIMIT ?`,
          )
          .all(limit) as (SessionRow & { events: number; charts: number })[],
    );
  }

  /** A session's events in order. */
  events(sessionId: string): StoredEvent[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare('SELECT seq, payload, created_at FROM events WHERE session_id = ? ORDER BY seq')
          .all(sessionId) as { seq: number; payload: string; created_at: string }[],
    );
    return rows.map((row) => ({
      ...this.payloadOf(row.payload, row.seq),
      session_id: sessionId,
      seq: row.seq,
      created_at: row.created_at,
    }));
  }

  /**
   * A stored event, parsed. A payload that is no JSON object — no text, not JSON, or a null,
   * which garbage over a page of the file has SQLite return — means the store is damaged (exit
   * 3), as SQLITE_CORRUPT does; an object this version does not know stays a bug to report.
   */
  private payloadOf(payload: unknown, seq: number): SessionEvent {
    let json: unknown = null;
    try {
      json = typeof payload === 'string' ? JSON.parse(payload) : null;
    } catch {
      /* not JSON: damaged, below */
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      throw storeFailure('damaged', this.path, `event ${seq} of a session is not a JSON object`);
    return parseEventPayload(payload as string);
  }

  /** The artifacts of a session (optionally of one step), ordered by step and name. */
  artifacts(sessionId: string, step?: number): StoredArtifact[] {
    const sql = `SELECT step, name, sha256, bytes, content FROM artifacts WHERE session_id = ?${step === undefined ? '' : ' AND step = ?'} ORDER BY step, name`;
    return this.guard(
      () =>
        this.db
          .prepare(sql)
          .all(...(step === undefined ? [sessionId] : [sessionId, step])) as StoredArtifact[],
    );
  }

  /** Bytes of all artifacts a session has stored (what its frame budget counts). */
  artifactBytes(sessionId: string): number {
    return this.guard(
      () =>
        (
          this.db
            .prepare('SELECT COALESCE(SUM(bytes), 0) AS bytes FROM artifacts WHERE session_id = ?')
            .get(sessionId) as { bytes: number }
        ).bytes,
    );
  }

  /** Deletes a session with its events and artifacts; refuses while another live process runs it. */
  remove(sessionId: string): void {
    const lock = this.lockSession(sessionId);
    lock.release();
    this.guard(() => this.db.prepare('DELETE FROM sessions WHERE id = ?').run(sessionId));
  }

  /** Closes the database (and removes a private read-only copy, if one was made). */
  close(): void {
    this.closeDb();
  }
}
