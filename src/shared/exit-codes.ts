/** Process exit statuses, documented in the README; scripts depend on them. */
export const ExitCode = {
  OK: 0,
  /** An internal error (a bug): reported with a hint to rerun with --verbose. */
  INTERNAL: 1,
  /** Bad input or usage: missing/unreadable data file, unknown option, bad script path. */
  BAD_INPUT: 2,
  /** LLM or configuration error. */
  CONFIG: 3,
  /** No usable Python/pandas sandbox. */
  SANDBOX: 4,
} as const;
/** One of the documented exit statuses. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error meant for a person: a one-line message (what happened, where),
 * an optional hint (what to do next) and the exit status it maps to.
 */
export class OpsmindError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'OpsmindError';
  }
}
