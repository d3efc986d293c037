/** The session store a command uses: --db, then $OPSMIND_DB, then $OPSMIND_HOME or the XDG data dir. */
import type { Command } from 'commander';
import { defaultDbPath } from '../store/paths.js';
import { SessionStore } from '../store/session-store.js';

/** The database path for this invocation. */
export function dbPath(program: Command): string {
  return program.opts<{ db?: string }>().db || process.env.OPSMIND_DB || defaultDbPath();
}

/** Opens the store for this invocation (migrating it and sweeping dead runners' sessions). */
export function openStore(program: Command): SessionStore {
  return SessionStore.open(dbPath(program));
}

/** Opens the store to read it: like `openStore` where it is writable, read-only where it is not (a read-only mount, an immutable file). */
export function openStoreForReading(program: Command): SessionStore {
  return SessionStore.openForReading(dbPath(program));
}
