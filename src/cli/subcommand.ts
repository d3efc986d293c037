/** Which subcommand a command line names, found before Commander parses it (so only its module loads). */

/** The subcommands, in the order `--help` lists them (main.ts has a module for each). */
export const SUBCOMMANDS = [
  'analyze',
  'run',
  'ask',
  'chat',
  'doctor',
  'sessions',
  'mcp',
  'batch',
] as const;

/** One of SUBCOMMANDS. */
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** The global options that take a value, so the subcommand is found after them. */

const VALUED_GLOBALS: ReadonlySet<string> = new Set(['--db']);

/** The subcommand named on the line (the first word that is not a global option), if any. */
export function subcommandOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] ?? '';
    if (word === '--') return argv[i + 1];
    if (VALUED_GLOBALS.has(word)) i += 1;
    else if (!word.startsWith('-')) return word;
  }
  return undefined;
}
