/** Turning any thrown value into one or two lines on stderr and a documented exit status. */
import { CommanderError } from 'commander';
import { ExitCode, OpsmindError } from './exit-codes.js';

/** Prints the error for a person and returns the exit status to use. Stack traces only with `verbose`. */
export function reportError(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? ExitCode.OK : ExitCode.BAD_INPUT;
  }
  if (error instanceof OpsmindError) {
    process.stderr.write(`opsmind: ${error.message}\n`);
    if (error.hint) process.stderr.write(`  hint: ${error.hint}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`opsmind: internal error: ${message.split('\n')[0] ?? ''}\n`);
  if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  else process.stderr.write('  hint: rerun with --verbose for details, and please report it\n');
  return ExitCode.INTERNAL;
}
