/** `opsmind run <script.py> --data <file>`: run a person's analysis script with the preamble and write the report. */
import { readFileSync, rmSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { executeProgram } from '../agent/execute-program.js';
import { writeReport } from '../report/write.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from './exit-codes.js';
import { parsePlotlyOption, parseSeconds } from './options.js';

interface RunOptions {
  data: string;
  output?: string;
  json?: boolean;
  timeout: string;
  plotly: string;
  keepWorkdir?: boolean;
}

function readScript(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new OpsmindError(`cannot read script: ${path}`, ExitCode.BAD_INPUT, 'check the path of the .py file');
  }
}

async function runCommand(scriptPath: string, options: RunOptions): Promise<number> {
  const code = readScript(scriptPath);
  const dataPath = checkDataFile(options.data);
  const timeoutMs = parseSeconds(options.timeout, '--timeout') * 1000;
  const plotly = parsePlotlyOption(options.plotly);
  const python = await findPython();
  const outcome = await executeProgram({ python: python.path, code, scriptName: basename(scriptPath), dataPath, timeoutMs });
  try {
    const outPath = resolve(options.output ?? `${basename(scriptPath, extname(scriptPath))}-report.html`);
    const summary = writeReport({
      outPath, title: `${basename(scriptPath)} on ${basename(dataPath)}`, spec: outcome.spec, items: outcome.items,
      output: outcome.run.stdout, warnings: outcome.warnings, plotly,
      meta: { tool: `opsmind ${opsmindVersion()}`, command: 'run', python: `${python.version} (pandas ${python.pandas})` },
    });
    const failed = outcome.run.exitCode !== 0;
    if (outcome.run.stderr) process.stderr.write(outcome.run.stderr);
    if (options.json) {
      const { issues: _issues, ...rest } = summary;
      process.stdout.write(`${JSON.stringify(rest)}\n`);
    } else {
      process.stdout.write(outcome.run.stdout);
      for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
      process.stderr.write(`${failed ? 'report (partial)' : 'report'}: ${outPath} (${summary.charts.length} charts, ${summary.tables.length} tables)\n`);
    }
    return failed ? ExitCode.INTERNAL : ExitCode.OK;
  } finally {
    if (!options.keepWorkdir) rmSync(outcome.workdir, { recursive: true, force: true });
  }
}

/** Registers `run` on the program; the action sets process.exitCode. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a Python analysis script with df, declare_chart and declare_table, and write an HTML report')
    .argument('<script>', 'the Python script to run')
    .requiredOption('-d, --data <file>', 'the dataset the script analyses (csv, tsv, json, jsonl)')
    .option('-o, --output <file>', 'where to write the HTML report (default: <script>-report.html); a .json summary is written beside it')
    .option('--json', 'print one JSON object on stdout instead of the script output')
    .option('--timeout <seconds>', 'wall-clock limit for the script', '120')
    .option('--plotly <inline|URL>', 'inline Plotly (works offline) or link it from a URL', 'inline')
    .option('--keep-workdir', 'keep the run directory (spec and data artifacts) for debugging')
    .action(async (script: string, options: RunOptions) => {
      process.exitCode = await runCommand(script, options);
    });
}
