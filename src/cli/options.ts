/** Parsing of option values shared by subcommands; bad values are usage errors (exit 2). */
import type { PlotlySource } from '../report/html.js';
import { ExitCode, OpsmindError } from './exit-codes.js';

/** A positive number of seconds. */
export function parseSeconds(value: string, flag: string): number {
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new OpsmindError(`${flag} must be a positive number of seconds, got "${value}"`, ExitCode.BAD_INPUT);
  return seconds;
}

/** `inline` or an http(s) URL of a Plotly bundle. */
export function parsePlotlyOption(value: string): PlotlySource {
  if (value === 'inline') return { mode: 'inline' };
  if (/^https?:\/\/\S+$/.test(value)) return { mode: 'link', url: value };
  throw new OpsmindError(`--plotly must be "inline" or an http(s) URL, got "${value}"`, ExitCode.BAD_INPUT);
}
