/**
 * Reading a session store where it cannot be written (a read-only mount, an
 * immutable file): `sessions list` and `show` still work. SQLite opens a WAL
 * database read-only only when its -shm file exists or can be created, so a
 * store cleanly closed on a read-only location is read from a private copy in
 * the temp dir (with its -wal, if one was left); nothing is written where the
 * store is.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { BUSY_TIMEOUT_MS } from './db.js';
import { asStoreError } from './errors.js';
import { SCHEMA_VERSION } from './migrations.js';

/** A database opened to read, and how to close it (removing a private copy, if one was made). */
export interface ReadOnlyDatabase {
  db: Database.Database;
  close(): void;
}

function checkVersion(db: Database.Database, path: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION)
    throw new OpsmindError(
      `the session store ${path} has schema version ${version}, newer than this OpsMind (${SCHEMA_VERSION})`,
      ExitCode.CONFIG,
      'upgrade OpsMind',
    );
  if (version < SCHEMA_VERSION) {
    throw new OpsmindError(
      `the session store ${path} is read-only and has an older schema (version ${version} of ${SCHEMA_VERSION})`,
      ExitCode.CONFIG,
      'open it once with OpsMind where it is writable, so it can be upgraded',
    );
  }
}

function openInPlace(path: string): ReadOnlyDatabase {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS });
  try {
    checkVersion(db, path);
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, close: () => db.close() };
}

function openCopy(path: string): ReadOnlyDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'opsmind-store-'));
  try {
    const copy = join(dir, 'sessions.db');
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const opened = openInPlace(copy);
    return {
      db: opened.db,
      close: () => {
        opened.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Opens the store at `path` read-only, in place or from a private copy. Throws OpsmindError (exit 3) naming the path and the cause. */
export function openReadOnly(path: string): ReadOnlyDatabase {
  if (!existsSync(path))
    throw new OpsmindError(
      `there is no session store at ${path}, and none can be created there (the location is read-only)`,
      ExitCode.CONFIG,
      'pass --db <file> (or set OPSMIND_HOME) to use a store elsewhere',
    );
  try {
    try {
      return openInPlace(path);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_CANTOPEN') throw error;
      return openCopy(path);
    }
  } catch (error) {
    throw asStoreError(error, path);
  }
}
