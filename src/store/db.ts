/** Opening the session database: WAL, a busy timeout, foreign keys, migrations; storage failures in words (errors.ts). */
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { asStoreError, storeFailure } from './errors.js';
import { migrate } from './migrations.js';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 15_000;

/**
 * Why OpsMind may not write the store at `path` (the file, if it exists, and its directory),
 * e.g. EROFS on a read-only mount or EPERM on an immutable file; null when it may. Checked
 * with access(2), which also holds for root, before SQLite silently opens a file read-only.
 */
export function notWritable(path: string): NodeJS.ErrnoException | null {
  const targets = existsSync(path)
    ? [path, dirname(path)]
    : existsSync(dirname(path))
      ? [dirname(path)]
      : [];
  for (const target of targets) {
    try {
      accessSync(target, constants.W_OK);
    } catch (error) {
      return error as NodeJS.ErrnoException;
    }
  }
  return null;
}

/** Opens (creating if needed) and migrates the database at `path` to write it. Throws OpsmindError (exit 3) naming the path and the cause. */
export function openDatabase(path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const denied = notWritable(path);
    if (denied) throw storeFailure('read_only', path, denied.code ?? denied.message);
    db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    const mapped = asStoreError(error, path);
    if (mapped instanceof OpsmindError) throw mapped;
    throw new OpsmindError(
      `cannot open the session store ${path}: ${(error as Error).message}`,
      ExitCode.CONFIG,
      'set OPSMIND_HOME to a writable directory, or pass --db <file>',
    );
  }
}
