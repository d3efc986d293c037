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
