/**
 * The `opsmind` command line: parses arguments and dispatches to one file per subcommand.
 *
 * Only the module of the subcommand being run is loaded (each pulls in its own part of the
 * application: the MCP SDK, ink, the batch pool…); a line without a known subcommand (`--help`,
 * a typo) loads them all, so help lists every command and a typo gets its suggestion.
 */
import { Command } from 'commander';
import { opsmindVersion } from '../util/version.js';
import { reportError } from './errors.js';
import { routeUsageErrors } from './usage-errors.js';
import { subcommandOf } from './subcommand.js';

type Register = (program: Command) => void;

/** Each subcommand's module, in the order `--help` lists them. */
const COMMANDS: Record<string, () => Promise<Register>> = {
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

try {
  const args = process.argv.slice(2);
  const named = subcommandOf(args);
  const versionOnly = named === undefined && args.some((a) => a === '-V' || a === '--version');
  const wanted =
    named !== undefined && named in COMMANDS ? [named] : versionOnly ? [] : Object.keys(COMMANDS);
  const registers = await Promise.all(wanted.map((name) => COMMANDS[name]!()));
  for (const register of registers) register(program);
  routeUsageErrors(program);
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error, Boolean(program.opts<{ verbose?: boolean }>().verbose));
}
