/** Parsing of option values shared by subcommands; bad values are usage errors (exit 2). */
import type { PlotlySource } from '../report/html.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** `inline` or an http(s) URL of a Plotly bundle. */
export function parsePlotlyOption(value: string): PlotlySource {
  if (value === 'inline') return { mode: 'inline' };
  if (/^https?:\/\/\S+$/.test(value)) return { mode: 'link', url: value };
  throw new OpsmindError(
    `--plotly must be "inline" or an http(s) URL, got "${value}"`,
    ExitCode.BAD_INPUT,
  );
}

/** Model turns deep mode allows at most. */
export const MAX_STEPS = 200;

/** --max-steps: a whole number of model turns, 1 to MAX_STEPS. */
export function parseMaxSteps(value: string): number {
  const steps = Number(value);
  if (Number.isInteger(steps) && steps >= 1 && steps <= MAX_STEPS) return steps;
  throw new OpsmindError(
    `--max-steps must be a whole number from 1 to ${MAX_STEPS}, got "${value}"`,
    ExitCode.BAD_INPUT,
  );
}
