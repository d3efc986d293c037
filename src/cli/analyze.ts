/** `opsmind analyze <file>`: the main job. Fast mode profiles, plans and renders a full report; offline by default. */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Finding } from '../shared/events.js';
import type { FastResult } from '../agent/fast-pipeline.js';
import { summarizeFindings } from '../agent/llm-summary.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import type { ChatModel } from '../llm/index.js';
import { preloadPlotly } from '../report/plotly-validate.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import type { ReportSummary } from '../report/write.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { AnalysisSession, finish } from '../session/analysis-session.js';
import type { ReportSettings, SandboxSettings } from '../session/analysis-session.js';
import type { SessionStore } from '../store/session-store.js';
import { createProgress } from '../ui/create-progress.js';
import { printErr, printJson, printOut } from '../ui/print.js';
import { findingLines } from '../ui/timeline-text.js';
import { chartsAndTables } from '../util/plural.js';
import { warningSentence } from '../util/sentence.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { parsePlotlyOption } from './options.js';
import {
  addSandboxOptions,
  engineMemoryFrom,
  isolationFrom,
  limitsFrom,
} from './sandbox-options.js';
import { engineName } from '../engine/engine.js';
import type { EngineName } from '../engine/engine.js';
import type { DeepFlags } from './deep.js';
import { guarded } from './session-guard.js';
import { openStore } from './store-option.js';

interface AnalyzeOptions extends DeepFlags {
  interactive?: boolean;
  mode: string;
  question?: string;
  output?: string;
  json?: boolean;
  llm: boolean;
  model?: string;
  baseUrl?: string;
  plotly: string;
  engine?: string;
  sheet?: string;
  records?: string;
}

function chooseModel(options: AnalyzeOptions): ChatModel | null {
  const config = llmConfig(options);
  if (!options.llm || !llmConfigured(config)) return null;
  return createChatModel(config);
}

function findingTexts(result: FastResult): string[] {
  return [...result.findings.map((f) => f.text), ...result.profile.warnings.map(warningSentence)];
}

function fastOutPath(dataPath: string, options: Pick<AnalyzeOptions, 'output'>): string {
  return resolve(options.output ?? `${basename(dataPath, extname(dataPath))}-report.html`);
}

function reportSettings(
  session: AnalysisSession,
  result: FastResult,
  outPath: string,
  options: AnalyzeOptions,
): ReportSettings {
  const { planned, profile } = result;
  return {
    outPath,
    provenance: result.provenance,
    summary: summaryTarget(outPath, options.summary),
    title: `Analysis of ${profile.source.name}`,
    plotly: parsePlotlyOption(options.plotly),
    meta: {
      tool: `opsmind ${opsmindVersion()}`,
      mode: 'fast',
      planner: `${planned.planner}${planned.model && planned.planner === 'llm' ? ` (${planned.model})` : ''}`,
      session: session.id,
      isolation: session.isolationLevel,
    },
  };
}

/** The model-written summary of the findings, kept only when every number it cites is in them. */
async function writeSummary(
  session: AnalysisSession,
  model: ChatModel,
  result: FastResult,
  question: string | undefined,
): Promise<string | null> {
  const written = await summarizeFindings(model, result.findings, question);
  if ('text' in written) {
    await session.emit({
      type: 'summary_written',
      step: 4,
      text: written.text,
      model: model.model,
    });
    return written.text;
  }
  await session.emit({ type: 'warning', step: 4, message: written.skipped });
  return null;
}

async function runFast(
  store: SessionStore,
  dataPath: string,
  options: AnalyzeOptions,
  model: ChatModel | null,
  settings: SandboxSettings,
  engine: { name: EngineName; sheet?: string; memoryMb?: number },
): Promise<number> {
  if (engine.name === 'pandas') setImmediate(preloadPlotly); // about a second of jsdom work, done while the sandbox reads the data
  const progress = await createProgress({ json: options.json === true });
  try {
    const session = await AnalysisSession.open({
      store,
      dataPath,
      command: 'analyze',
      mode: 'fast',
      sandbox: settings,
      engine,
      model,
      onEvent: (event) => progress.show(event),
      ...(options.question ? { question: options.question } : {}),
      ...(options.records !== undefined ? { records: options.records } : {}),
    });
    return await guarded(session, async () => {
      const result = await finish(
        session.fast(options.question ? { question: options.question } : {}),
      );
      const summary = model ? await writeSummary(session, model, result, options.question) : null;
      const report = await session.writeReport(
        reportSettings(session, result, fastOutPath(dataPath, options), options),
      );
      await progress.close();
      printResult(report, result, {
        session_id: session.id,
        json: options.json === true,
        summary,
        isolation: session.isolationLevel,
      });
      const crashed = result.executed.spec === null;
      return {
        status: crashed ? 'failed' : 'done',
        value: crashed ? ExitCode.INTERNAL : ExitCode.OK,
      };
    });
  } finally {
    await progress.close();
  }
}

/** How many findings the terminal lists; the report has all of them. */
const SHOWN_FINDINGS = 12;

function printResult(
  report: ReportSummary,
  result: FastResult,
  extra: { session_id: string; json: boolean; summary: string | null; isolation: string },
): void {
  if (extra.json) {
    const { issues: _issues, ...rest } = report;
    const insights: (Finding | { text: string; kind: string; analysis: number })[] = [
      ...result.findings,
      ...result.profile.warnings.map((text) => ({ text, kind: 'quality', analysis: 0 })),
    ];
    printJson({
      ...rest,
      session_id: extra.session_id,
      mode: 'fast',
      planner: result.planned.planner,
      planner_fallback: result.planned.fallback,
      isolation: extra.isolation,
      summary: extra.summary,
      insights,
    });
    return;
  }
  const lines = [`Key findings for ${result.profile.source.name}:`];
  if (extra.summary) lines.push(`  ${extra.summary}`, '');
  const shown = findingLines(findingTexts(result), SHOWN_FINDINGS);
  lines.push(...shown.items.map((item) => `  ${item}`), ...(shown.more ? [`  ${shown.more}`] : []));
  for (const warning of report.warnings) printErr(`warning: ${warning}\n`);
  lines.push(
    '',
    `report: ${report.report_path} (${chartsAndTables(report.charts.length, report.tables.length, report.images.length)}; planner ${result.planned.planner}; session ${extra.session_id})`,
  );
  printOut(`${lines.join('\n')}\n`);
}

async function analyzeCommand(
  program: Command,
  file: string,
  options: AnalyzeOptions,
): Promise<number> {
  if (options.interactive)
    return (await import('./chat.js')).chatCommand(program, file, {
      ...options,
      mode: options.mode,
    });
  if (options.mode === 'deep') {
    if (!options.llm)
      throw new OpsmindError(
        '--mode deep needs an LLM, and --no-llm forbids calling one',
        ExitCode.BAD_INPUT,
      );
    return (await import('./deep.js')).deepCommand(program, file, options.question, options);
  }
  if (options.mode !== 'fast')
    throw new OpsmindError(
      `--mode must be "fast" or "deep", got "${options.mode}"`,
      ExitCode.BAD_INPUT,
    );
  // The file's start here, for a fast refusal; the session's one pass over it checks the rest.
  const dataPath = checkDataFile(file, { scan: 'head' });
  checkSummaryTarget(
    summaryTarget(fastOutPath(dataPath, options), options.summary),
    fastOutPath(dataPath, options),
    [dataPath],
  );
  const limits = limitsFrom(options);
  const isolation = isolationFrom(options);
  parsePlotlyOption(options.plotly);
  const model = chooseModel(options);
  const engine = engineName(options.engine);
  // DuckDB needs no Python: look for it only when the pandas engine will run.
  const python = engine === 'pandas' ? await findPython() : undefined;
  const store = openStore(program);
  try {
    return await runFast(
      store,
      dataPath,
      options,
      model,
      { ...(python ? { python } : {}), limits, isolation, warm: true },
      {
        name: engine,
        memoryMb: engineMemoryFrom(options),
        ...(options.sheet ? { sheet: options.sheet } : {}),
      },
    );
  } finally {
    store.close();
  }
}

/** Registers `analyze`. */
export function registerAnalyze(program: Command): void {
  const command = program
    .command('analyze')
    .description(
      'profile a dataset, plan the right charts, and write an interactive HTML report with the key findings',
    )
    .argument(
      '<file>',
      'the dataset (csv, tsv, json, jsonl, parquet, xlsx; .gz for compressed csv)',
    )
    .option(
      '--engine <name>',
      'what computes fast mode: duckdb (embedded, no Python) or pandas (in the sandbox) (default: $OPSMIND_ENGINE, else duckdb)',
    )
    .option('--sheet <name>', 'the sheet of an Excel file to read (default: the first)')
    .option(
      '--records <key>',
      'for a JSON file that is one object: the key whose records are the table, when several are ("nodes"; hits.hits for a key one object down)',
    )
    .option(
      '--mode <mode>',
      'fast (profile → plan → execute) or deep (an LLM agent that writes and runs code)',
      'fast',
    )
    .option('-q, --question <text>', 'a question the report should answer first')
    .option(
      '-o, --output <file>',
      'where to write the HTML report (default: <file>-report.html); a .json summary is written beside it',
    )
    .option(
      '--summary <file>',
      'where to write the JSON summary (default: the report path with .json)',
    )
    .option('--json', 'print one JSON object on stdout (no progress output)')
    .option('--no-llm', 'never call a model, even when one is configured (heuristic planner)')
    .option('--model <name>', 'the model for the LLM planner (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option(
      '--llm-timeout <seconds>',
      'time limit of one model call attempt (default: $OPSMIND_LLM_TIMEOUT, else 120)',
    )
    .option(
      '--plotly <inline|URL>',
      'inline Plotly (works offline) or link it from a URL',
      'inline',
    )
    .option('--max-steps <n>', 'deep mode: cap on model turns', '20')
    .option('--no-stream', 'deep mode: do not stream model output (for servers without streaming)')
    .option('-i, --interactive', 'open the interactive chat on this file (same as opsmind chat)');
  addSandboxOptions(command).action(async (file: string, options: AnalyzeOptions) => {
    process.exitCode = await analyzeCommand(program, file, options);
  });
}
