/** The one predicate that decides interactive (ink) versus plain output. */

/** True when a person is watching a terminal: stdout and stderr are TTYs, not CI, not --json. */
export function isInteractive(
  options: { json?: boolean },
  env: NodeJS.ProcessEnv = process.env,
  streams = { out: process.stdout, err: process.stderr },
): boolean {
  if (options.json) return false;
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return false;
  if (env.OPSMIND_PLAIN) return false;
  return Boolean(streams.out.isTTY && streams.err.isTTY);
}
