/** The `opsmind` command line: parses arguments and dispatches to one file per subcommand. */
import { Command } from 'commander';
import { opsmindVersion } from '../util/version.js';
import { reportError } from './errors.js';
import { registerAnalyze } from './analyze.js';
import { registerChat } from './chat.js';
import { registerBatch } from './batch.js';
import { registerAsk } from './deep.js';
import { registerDoctor } from './doctor.js';
import { registerMcp } from './mcp.js';
import { registerRun } from './run.js';
import { registerSessions } from './sessions.js';
import { routeUsageErrors } from './usage-errors.js';

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

registerAnalyze(program);
registerRun(program);
registerAsk(program);
registerChat(program);
registerDoctor(program);
registerSessions(program);
registerMcp(program);
registerBatch(program);
routeUsageErrors(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error, Boolean(program.opts<{ verbose?: boolean }>().verbose));
}
