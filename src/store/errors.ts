/**
 * What a failing session store means for a person: a full disk, a damaged
 * file, a read-only location, a lock held too long. Each becomes one message
 * naming the store, a hint saying what to do, and exit 3 (ExitCode.CONFIG),
 * never an "internal error".
 */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** What went wrong with the store. */
export type StoreErrorKind = 'full' | 'damaged' | 'read_only' | 'busy' | 'io';
type Kind = StoreErrorKind;

/** SQLite result codes (extended codes start with their primary code) and errno codes, by what they mean here. */
const KINDS: readonly [RegExp, Kind][] = [
  [/^(SQLITE_FULL|ENOSPC|EDQUOT)/, 'full'],
  [/^(SQLITE_CORRUPT|SQLITE_NOTADB)/, 'damaged'],
  [/^(SQLITE_READONLY|SQLITE_PERM|SQLITE_AUTH|EROFS|EACCES|EPERM)/, 'read_only'],
  [/^(SQLITE_BUSY|SQLITE_LOCKED)/, 'busy'],
  [/^(SQLITE_IOERR|SQLITE_CANTOPEN|SQLITE_PROTOCOL|EIO|ENOENT|ENOTDIR|EISDIR)/, 'io'],
];

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** What `error` means for the store, or null when it is not a storage problem (a bug). */
export function storeErrorKind(error: unknown): Kind | null {
  const code = codeOf(error);
  return KINDS.find(([pattern]) => pattern.test(code))?.[1] ?? null;
}

function detail(error: unknown): string {
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  const code = codeOf(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

const ELSEWHERE = 'or pass --db <file> (or set OPSMIND_HOME) to use a store elsewhere';

/** Per kind: the message (given the store path and the cause) and the hint. */
const TEXTS: Readonly<
  Record<Kind, { message: (path: string, why: string) => string; hint: (path: string) => string }>
> = {
  full: {
    message: (p, why) => `the session store ${p} is full: no space left on its disk (${why})`,
    hint: () =>
      `free some disk space, remove old sessions with \`opsmind sessions rm <id>\`, ${ELSEWHERE}`,
  },
  damaged: {
    message: (p, why) => `the session store ${p} is damaged: ${why}`,
    hint: (p) => `move it aside (mv '${p}' '${p}.damaged') to start an empty store, ${ELSEWHERE}`,
  },
  read_only: {
    message: (p, why) => `the session store ${p} is read-only: ${why}`,
    hint: () =>
      `make it writable, ${ELSEWHERE}; \`opsmind sessions list\` and \`show\` can still read it`,
  },
  busy: {
    message: (p, why) => `the session store ${p} stayed locked by another process: ${why}`,
    hint: () => 'wait for the other opsmind process to finish, then run this again',
  },
  io: {
    message: (p, why) => `cannot use the session store ${p}: ${why}`,
    hint: () => `check the disk and the path, ${ELSEWHERE}`,
  },
};

/** The person-facing error (exit 3) for a store failure of `kind` at `path`, caused by `why`. */
export function storeFailure(kind: Kind, path: string, why: string): OpsmindError {
  return new OpsmindError(TEXTS[kind].message(path, why), ExitCode.CONFIG, TEXTS[kind].hint(path));
}

/** `error` as the person-facing store error when it is a storage problem; other errors are returned as they are. */
export function asStoreError(error: unknown, path: string): unknown {
  if (error instanceof OpsmindError) return error;
  const kind = storeErrorKind(error);
  return kind ? storeFailure(kind, path, detail(error)) : error;
}
