/** Turning any thrown value into one or two lines on stderr and a documented exit status. */
import { CommanderError } from 'commander';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { printErr } from '../ui/print.js';

/** Prints the error for a person and returns the exit status to use. Stack traces only with `verbose`. */
export function reportError(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? ExitCode.OK : ExitCode.BAD_INPUT;
  }
  if (error instanceof OpsmindError) {
    printErr(`opsmind: ${error.message}\n`);
    if (error.hint) printErr(`  hint: ${error.hint}\n`);
    if (verbose && error.stack) printErr(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  printErr(`opsmind: internal error: ${message.split('\n')[0] ?? ''}\n`);
  if (verbose && error instanceof Error && error.stack) printErr(`${error.stack}\n`);
  else printErr('  hint: rerun with --verbose for details, and please report it\n');
  return ExitCode.INTERNAL;
}
