/** Which subcommand a command line names, found before Commander parses it (so only its module loads). */

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
