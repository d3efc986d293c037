/** `opsmind run <script.py> --data <file>`: run a person's analysis script in the sandbox and write the report. */
import { mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import type { ReportSummary } from '../report/write.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { AnalysisSession, finish } from '../session/analysis-session.js';
import type { SandboxRun } from '../sandbox/sandbox.js';
import { printErr, printJson, printOut } from '../ui/print.js';
import { chartsAndTables } from '../util/plural.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { parsePlotlyOption } from './options.js';
import { addSandboxOptions, isolationFrom, limitsFrom } from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { guarded } from './session-guard.js';
import { openStore } from './store-option.js';
import { checkRecordsChoice } from '../engine/source-wrapper.js';

interface RunOptions extends SandboxFlags {
  data: string;
  output?: string;
  json?: boolean;
  plotly: string;
  summary?: string;
  keepWorkdir?: boolean;
  records?: string;
}

function readScript(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new OpsmindError(
      `cannot read script: ${path}`,
      ExitCode.BAD_INPUT,
      'check the path of the .py file',
    );
  }
}

/**
 * Moves a finished run's work dir out of the sandbox (which removes its own
 * files on close) into a fresh `opsmind-workdir-*` dir in the temp dir. A
 * rename, never a copy: the content is the program's, and a copy could follow
 * its symlinks or block on its FIFOs. Returns the new path, or null (with a
 * warning) when the move failed.
 */
function keepWorkdir(workdir: string): string | null {
  const dest = mkdtempSync(join(tmpdir(), 'opsmind-workdir-'));
  try {
    renameSync(workdir, dest); // replaces the empty dest dir
    return dest;
  } catch (error) {
    rmSync(dest, { recursive: true, force: true });
    printErr(`warning: could not keep the work dir ${workdir}: ${(error as Error).message}\n`);
    return null;
  }
}

async function runCommand(
  program: Command,
  scriptPath: string,
  options: RunOptions,
): Promise<number> {
  const code = readScript(scriptPath);
  const dataPath = checkDataFile(options.data);
  checkRecordsChoice(dataPath, options.records);
  const outPath = resolve(
    options.output ?? `${basename(scriptPath, extname(scriptPath))}-report.html`,
  );
  const summaryFile = summaryTarget(outPath, options.summary);
  checkSummaryTarget(summaryFile, outPath, [dataPath, scriptPath]);
  const limits = limitsFrom(options);
  const isolation = isolationFrom(options);
  const plotly = parsePlotlyOption(options.plotly);
  const python = await findPython();
  const store = openStore(program);
  try {
    // One program per invocation: a warm worker would load the data just the same, so run cold.
    const session = await AnalysisSession.open({
      store,
      dataPath,
      command: 'run',
      mode: 'script',
      title: basename(scriptPath),
      sandbox: { python, limits, isolation, warm: false },
      model: null,
      ...(options.records !== undefined ? { records: options.records } : {}),
    });
    return await guarded(session, async () => {
      const outcome = await finish(session.script(code, basename(scriptPath)));
      const summary = await session.writeReport({
        outPath,
        summary: summaryFile,
        title: `${basename(scriptPath)} on ${basename(dataPath)}`,
        plotly,
        meta: {
          tool: `opsmind ${opsmindVersion()}`,
          command: 'run',
          session: session.id,
          python: `${python.version} (pandas ${python.pandas})`,
          isolation: session.isolationLevel,
        },
      });
      const failed = outcome.run.exitCode !== 0;
      const workdir = options.keepWorkdir ? keepWorkdir(outcome.run.workdir) : null;
      printRunResult(
        outcome.run,
        summary,
        options.json === true,
        {
          session_id: session.id,
          isolation: session.isolationLevel,
          ...(workdir ? { workdir } : {}),
        },
        failed,
      );
      return {
        status: failed ? 'failed' : 'done',
        value: failed ? ExitCode.INTERNAL : ExitCode.OK,
      };
    });
  } finally {
    store.close();
  }
}

function printRunResult(
  run: SandboxRun,
  summary: ReportSummary,
  json: boolean,
  extra: Record<string, string>,
  failed: boolean,
): void {
  if (run.stderr) printErr(run.stderr);
  if (extra.workdir) printErr(`workdir: ${extra.workdir} (kept; remove it when done)\n`);
  if (json) {
    const { issues: _issues, ...rest } = summary;
    printJson({ ...rest, ...extra });
    return;
  }
  printOut(run.stdout);
  for (const warning of summary.warnings) printErr(`warning: ${warning}\n`);
  printErr(
    `${failed ? 'report (partial)' : 'report'}: ${summary.report_path} (${chartsAndTables(summary.charts.length, summary.tables.length, summary.images.length)}; session ${extra.session_id ?? ''})\n`,
  );
}

/** Registers `run` on the program; the action sets process.exitCode. */
export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description(
      'run a Python analysis script with df, declare_chart and declare_table in the sandbox, and write an HTML report',
    )
    .argument('<script>', 'the Python script to run')
    .requiredOption('-d, --data <file>', 'the dataset the script analyses (csv, tsv, json, jsonl)')
    .option(
      '-o, --output <file>',
      'where to write the HTML report (default: <script>-report.html); a .json summary is written beside it',
    )
    .option(
      '--summary <file>',
      'where to write the JSON summary (default: the report path with .json)',
    )
    .option('--json', 'print one JSON object on stdout instead of the script output')
    .option(
      '--records <key>',
      'for a JSON file that is one object: the key whose records are df, when several are ("links")',
    )
    .option(
      '--plotly <inline|URL>',
      'inline Plotly (works offline) or link it from a URL',
      'inline',
    )
    .option(
      '--keep-workdir',
      "keep the run's work dir (program, output, artifacts) and print its path on stderr",
    );
  addSandboxOptions(command).action(async (script: string, options: RunOptions) => {
    process.exitCode = await runCommand(program, script, options);
  });
}
