/** Opening the session database: WAL, a busy timeout, foreign keys, migrations. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ExitCode, OpsmindError } from '../cli/exit-codes.js';
import { migrate } from './migrations.js';

/** How long a writer waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 15_000;

/** Opens (creating if needed) and migrates the database at `path`. Throws OpsmindError (exit 3) with the path on failure. */
export function openDatabase(path: string): Database.Database {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    if (error instanceof OpsmindError) throw error;
    throw new OpsmindError(`cannot open the session store ${path}: ${(error as Error).message}`, ExitCode.CONFIG, 'set OPSMIND_HOME to a writable directory, or pass --db <file>');
  }
}
