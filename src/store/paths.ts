/** Where OpsMind keeps its data: $OPSMIND_HOME, else the XDG data dir. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The directory for the session database and stored artifacts. */
export function dataHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.OPSMIND_HOME) return env.OPSMIND_HOME;
  const xdg = env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(xdg, 'opsmind');
}

/** The default session database path. */
export function defaultDbPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataHome(env), 'sessions.db');
}
