/** `opsmind run <script.py> --data <file>`: run a person's analysis script in the sandbox and write the report. */
import { readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { executeProgram } from '../agent/execute-program.js';
import { writeReport } from '../report/write.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { Sandbox } from '../sandbox/sandbox.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from './exit-codes.js';
import { parsePlotlyOption } from './options.js';
import { addSandboxOptions, isolationFrom, limitsFrom } from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';

interface RunOptions extends SandboxFlags {
  data: string;
  output?: string;
  json?: boolean;
  plotly: string;
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
  const limits = limitsFrom(options);
  const isolation = isolationFrom(options);
  const plotly = parsePlotlyOption(options.plotly);
  const python = await findPython();
  // One program per invocation: a warm worker would load the data just the same, so run cold.
  const sandbox = await Sandbox.open({ python, dataPath, limits, isolation, warm: false });
  try {
    const outcome = await executeProgram(sandbox, { code, scriptName: basename(scriptPath) });
    const outPath = resolve(options.output ?? `${basename(scriptPath, extname(scriptPath))}-report.html`);
    const summary = writeReport({
      outPath, title: `${basename(scriptPath)} on ${basename(dataPath)}`, spec: outcome.spec, items: outcome.items,
      output: outcome.run.stdout, warnings: outcome.warnings, plotly,
      meta: { tool: `opsmind ${opsmindVersion()}`, command: 'run', python: `${python.version} (pandas ${python.pandas})`, isolation: sandbox.isolation.level },
    });
    const failed = outcome.run.exitCode !== 0;
    if (outcome.run.stderr) process.stderr.write(outcome.run.stderr);
    if (options.json) {
      const { issues: _issues, ...rest } = summary;
      process.stdout.write(`${JSON.stringify({ ...rest, isolation: sandbox.isolation.level })}\n`);
    } else {
      process.stdout.write(outcome.run.stdout);
      for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
      process.stderr.write(`${failed ? 'report (partial)' : 'report'}: ${outPath} (${summary.charts.length} charts, ${summary.tables.length} tables)\n`);
    }
    return failed ? ExitCode.INTERNAL : ExitCode.OK;
  } finally {
    sandbox.close();
  }
}

/** Registers `run` on the program; the action sets process.exitCode. */
export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('run a Python analysis script with df, declare_chart and declare_table in the sandbox, and write an HTML report')
    .argument('<script>', 'the Python script to run')
    .requiredOption('-d, --data <file>', 'the dataset the script analyses (csv, tsv, json, jsonl)')
    .option('-o, --output <file>', 'where to write the HTML report (default: <script>-report.html); a .json summary is written beside it')
    .option('--json', 'print one JSON object on stdout instead of the script output')
    .option('--plotly <inline|URL>', 'inline Plotly (works offline) or link it from a URL', 'inline');
  addSandboxOptions(command).action(async (script: string, options: RunOptions) => {
    process.exitCode = await runCommand(script, options);
  });
}
