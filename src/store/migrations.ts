/**
 * Schema migrations, keyed on PRAGMA user_version: migration i brings the
 * database from version i to i + 1. Each runs in its own transaction, so a
 * crash leaves the database at a whole version. Never edit a shipped one; add
 * the next.
 */
import type Database from 'better-sqlite3';

/** One schema step. */
export interface Migration {
  description: string;
  sql: string;
}

/** All migrations in order; the schema version is their count. */
export const MIGRATIONS: readonly Migration[] = [
  {
    description: 'sessions and their append-only event log',
    sql: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        command TEXT NOT NULL,
        mode TEXT NOT NULL,
        model TEXT,
        data_path TEXT NOT NULL,
        data_sha256 TEXT NOT NULL,
        data_size INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
        title TEXT
      );
      CREATE INDEX sessions_created ON sessions (created_at);
      CREATE TABLE events (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        type TEXT NOT NULL,
        payload TEXT NOT NULL CHECK (json_valid(payload)),
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
      ) WITHOUT ROWID;`,
  },
  {
    description: 'step artifacts (code, specs, data frames) and the one-runner lock',
    sql: `
      CREATE TABLE artifacts (
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        name TEXT NOT NULL CHECK (name <> '' AND name NOT LIKE '/%' AND name NOT LIKE '%..%'),
        sha256 TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        content BLOB NOT NULL,
        PRIMARY KEY (session_id, step, name)
      ) WITHOUT ROWID;
      CREATE TABLE session_locks (
        session_id TEXT PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        acquired_at TEXT NOT NULL,
        heartbeat_at TEXT NOT NULL
      );`,
  },
  {
    description: 'batch runs and the state of each of their files (opsmind batch)',
    sql: `
      CREATE TABLE batch_runs (
        id TEXT PRIMARY KEY,
        batch_key TEXT NOT NULL,
        out_dir TEXT NOT NULL,
        settings TEXT NOT NULL CHECK (json_valid(settings)),
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
        pid INTEGER NOT NULL
      );
      CREATE INDEX batch_runs_key ON batch_runs (batch_key, started_at);
      CREATE TABLE batch_files (
        run_id TEXT NOT NULL REFERENCES batch_runs (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        sha256 TEXT NOT NULL,
        settings_hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        entry TEXT NOT NULL CHECK (json_valid(entry)),
        updated_at TEXT NOT NULL,
        PRIMARY KEY (run_id, name)
      ) WITHOUT ROWID;`,
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Applies the missing migrations (idempotent); refuses a database newer than this code. Returns the versions applied. */
export function migrate(db: Database.Database, upTo = SCHEMA_VERSION): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `the session store has schema version ${current}, newer than this OpsMind (${SCHEMA_VERSION}); upgrade OpsMind`,
    );
  }
  const applied: number[] = [];
  for (let version = current; version < upTo; version += 1) {
    const migration = MIGRATIONS[version];
    if (!migration) break;
    db.transaction(() => {
      // Re-check inside the write lock: another process may have migrated meanwhile.
      if ((db.pragma('user_version', { simple: true }) as number) !== version) return;
      db.exec(migration.sql);
      db.pragma(`user_version = ${version + 1}`);
      applied.push(version + 1);
    }).immediate();
  }
  return applied;
}
