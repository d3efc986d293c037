/**
 * Usage errors (unknown option, missing argument, unknown command, too many
 * arguments) reported like every other error: `opsmind: <message>` on one
 * line, a hint naming the command's --help, exit 2. Commander itself prints
 * nothing; its error is turned into an OpsmindError for `reportError`.
 */
import type { Command, CommanderError } from 'commander';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** Commander error codes that mean "the command line is wrong". */
const USAGE_CODES: ReadonlySet<string> = new Set([
  'commander.unknownOption',
  'commander.unknownCommand',
  'commander.missingArgument',
  'commander.optionMissingArgument',
  'commander.missingMandatoryOptionValue',
  'commander.excessArguments',
  'commander.invalidArgument',
  'commander.conflictingOption',
]);

/** Commander's message as one line: no `error: ` prefix, a suggestion folded in as `(did you mean --x?)`. */
function usageMessage(raw: string): string {
  const [first = '', ...rest] = raw
    .replace(/^error:\s*/i, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const extra = rest.map((l) => l.replace(/^\(Did you mean/, '(did you mean'));
  return [first, ...extra].join(' ');
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The error to throw for a Commander exit: an OpsmindError for usage errors, the original otherwise (help, version). */
function usageError(error: CommanderError, command: Command): Error {
  if (error.exitCode === 0 || !USAGE_CODES.has(error.code)) return error;
  return new OpsmindError(
    usageMessage(error.message),
    ExitCode.BAD_INPUT,
    `${commandPath(command)} --help`,
  );
}

/** Makes `root` and every subcommand (registered before this call) throw usage errors instead of printing them. */
export function routeUsageErrors(root: Command): void {
  const visit = (command: Command): void => {
    command.configureOutput({ outputError: () => undefined });
    command.exitOverride((error) => {
      throw usageError(error, command);
    });
    command.commands.forEach(visit);
  };
  visit(root);
}
