/**
 * The `opsmind` command line: parses arguments and dispatches to one file per subcommand.
 *
 * Only the module of the subcommand being run is loaded (each pulls in its own part of the
 * application: the MCP SDK, ink, the batch pool…); a line without a known subcommand (`--help`,
 * a typo) loads them all, so help lists every command and a typo gets its suggestion.
 */
import './zod-config.js';
import { Command } from 'commander';
import { opsmindVersion } from '../util/version.js';
import { reportError } from './errors.js';
import { routeUsageErrors } from './usage-errors.js';
import { SUBCOMMANDS, subcommandOf } from './subcommand.js';
import type { Subcommand } from './subcommand.js';

type Register = (program: Command) => void;

/** Each subcommand's module (SUBCOMMANDS has the order `--help` lists them in). */
const COMMANDS: Record<Subcommand, () => Promise<Register>> = {
  analyze: async () => (await import('./analyze.js')).registerAnalyze,
  run: async () => (await import('./run.js')).registerRun,
  ask: async () => (await import('./deep.js')).registerAsk,
  chat: async () => (await import('./chat.js')).registerChat,
  doctor: async () => (await import('./doctor.js')).registerDoctor,
  sessions: async () => (await import('./sessions.js')).registerSessions,
  mcp: async () => (await import('./mcp.js')).registerMcp,
  batch: async () => (await import('./batch.js')).registerBatch,
};

const program = new Command()
  .name('opsmind')
  .description('Turn a dataset into a self-contained interactive HTML report.')
  .version(opsmindVersion())
  .option('--verbose', 'show stack traces and debug detail on errors')
  .option(
    '--db <file>',
    'the session database (default: $OPSMIND_DB, else $OPSMIND_HOME/sessions.db or the XDG data dir)',
  )
  .exitOverride();

/** How long a failed command may take to drain before the process is ended. */
const EXIT_GRACE_MS = 3_000;

/**
 * Ends the process once nothing but the standard streams is left, without tearing down V8's
 * heap page by page (~30 ms at the end of every `analyze`, after its work is done). Writes to
 * stdout and stderr are synchronous on Linux; the 'exit' handlers (the code cache) still run.
 * Anything still in flight (a sandbox's worker exiting, a timer) lets the process drain as usual.
 */
async function exitWhenIdle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  const left = process.getActiveResourcesInfo();
  const streams = left.filter((r) => r === 'PipeWrap' || r === 'TTYWrap').length;
  if (process.platform === 'linux' && streams === left.length && streams <= 3) process.exit();
}

/** Loads the subcommand's module (every one's for help or a typo), then parses the command line. */
async function main(): Promise<void> {
  try {
    const args = process.argv.slice(2);
    const named = subcommandOf(args);
    const versionOnly = named === undefined && args.some((a) => a === '-V' || a === '--version');
    const known = SUBCOMMANDS.find((name) => name === named);
    const wanted = known ? [known] : versionOnly ? [] : SUBCOMMANDS;
    const registers = await Promise.all(wanted.map((name) => COMMANDS[name]()));
    for (const register of registers) register(program);
    routeUsageErrors(program);
    await program.parseAsync(process.argv);
    if (known === 'analyze') await exitWhenIdle();
  } catch (error) {
    process.exitCode = reportError(error, Boolean(program.opts<{ verbose?: boolean }>().verbose));
    // A failure can leave work in flight (a query the engine was running beside the one that
    // failed): the error is out, so the process ends even if that never settles. Unref'd: a run
    // that drains on its own exits at once, as before.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  }
}

// Not a top-level await: the bundle is CommonJS (src/build/bundle.ts), which V8's code cache needs.
void main();
