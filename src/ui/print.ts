/**
 * The plain and JSON printers: everything the CLI writes to stdout or stderr
 * goes through here, so no terminal control from data, a program or a model
 * reaches the person's terminal (see util/terminal-text.ts).
 */
import { terminalJson, terminalText } from '../util/terminal-text.js';

/** Writes text for a person to stdout, terminal controls removed. */
export function printOut(text: string): void {
  process.stdout.write(terminalText(text));
}

/** Writes diagnostics (warnings, progress, errors) to stderr, terminal controls removed. */
export function printErr(text: string): void {
  process.stderr.write(terminalText(text));
}

/** Writes one JSON object and a newline to stdout: strings cleaned, DEL/C1/U+2028/U+2029 escaped. */
export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}
