/** Deep mode from the CLI: `opsmind analyze --mode deep` and `opsmind ask <session> "question"`. */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { DeepResult } from '../agent/deep-loop.js';
import { sumUsage } from '../agent/usage.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import type { LlmFlags } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import type { ChatModel } from '../llm/index.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import type { ReportSummary } from '../report/write.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { AnalysisSession, finish } from '../session/analysis-session.js';
import type { SandboxSettings } from '../session/analysis-session.js';
import type { SessionStore } from '../store/session-store.js';
import { createProgress } from '../ui/create-progress.js';
import { printErr, printJson, printOut } from '../ui/print.js';
import { chartsAndTables, count } from '../util/plural.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { parseMaxSteps, parsePlotlyOption } from './options.js';
import { addSandboxOptions, isolationFrom, limitsFrom } from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { guarded } from './session-guard.js';
import { openStore } from './store-option.js';

/** Flags shared by deep analyze and ask. */
export interface DeepFlags extends SandboxFlags {
  output?: string;
  summary?: string;
  json?: boolean;
  model?: string;
  baseUrl?: string;
  llmTimeout?: string;
  plotly: string;
  maxSteps: string;
  stream: boolean;
  records?: string;
}

/** The model for deep mode; exits 3 with how to configure one when none is. */
export function requireModel(flags: LlmFlags): ChatModel {
  const config = llmConfig(flags);
  if (!llmConfigured(config)) {
    throw new OpsmindError(
      'deep mode needs an LLM, and none is configured',
      ExitCode.CONFIG,
      'set OPENAI_API_KEY (OpenAI, DeepSeek, Qwen…) or OPENAI_BASE_URL (Ollama, vLLM, LM Studio: e.g. http://localhost:11434/v1) and OPSMIND_MODEL; or use --mode fast',
    );
  }
  return createChatModel(config);
}

/** Where a deep run writes its report: `-o`, else `<data>-deep-report.html`. */
function deepOutPath(dataPath: string, flags: Pick<DeepFlags, 'output'>): string {
  return resolve(flags.output ?? `${basename(dataPath, extname(dataPath))}-deep-report.html`);
}

const DEFAULT_QUESTION =
  'Explore this dataset and report the most important findings, with the numbers behind them.';

interface DeepRun {
  store: SessionStore;
  dataPath: string;
  question: string;
  model: ChatModel;
  flags: DeepFlags;
  settings: SandboxSettings;
  continueId?: string;
}

/** Runs the loop as (or within) a recorded session, writes the report of the whole session, prints the result. */
export async function runDeep(run: DeepRun): Promise<number> {
  const { store, dataPath, question, model, flags } = run;
  const progress = await createProgress({ json: flags.json === true });
  try {
    const session = await AnalysisSession.open({
      store,
      dataPath,
      command: 'analyze',
      mode: 'deep',
      sandbox: run.settings,
      model,
      question,
      onEvent: (event) => progress.show(event),
      ...(run.continueId ? { continueId: run.continueId } : {}),
      ...(flags.records !== undefined ? { records: flags.records } : {}),
    });
    return await guarded(session, async () => {
      const result = await finish(
        session.deep({
          question,
          maxTurns: parseMaxSteps(flags.maxSteps),
          stream: flags.stream,
        }),
      );
      const outPath = deepOutPath(dataPath, flags);
      const report = await session.writeReport(
        {
          outPath,
          summary: summaryTarget(outPath, flags.summary),
          title: `Deep analysis of ${basename(dataPath)}`,
          plotly: parsePlotlyOption(flags.plotly),
          meta: {
            tool: `opsmind ${opsmindVersion()}`,
            mode: 'deep',
            model: model.model,
            session: session.id,
            isolation: session.isolationLevel,
          },
        },
        { builtOnly: true },
      );
      await progress.close();
      printDeep(report, result, session.id, flags.json === true);
      if (result.error)
        printErr(
          `opsmind: ${result.error.message}\n${result.error.hint ? `  hint: ${result.error.hint}\n` : ''}`,
        );
      return {
        status: result.error ? 'failed' : 'done',
        value: result.error ? ExitCode.CONFIG : ExitCode.OK,
      };
    });
  } finally {
    await progress.close();
  }
}

function printDeep(
  report: ReportSummary,
  result: DeepResult,
  sessionId: string,
  json: boolean,
): void {
  const usage = { per_turn: result.usage, total: sumUsage(result.usage) };
  if (json) {
    const { issues: _issues, ...rest } = report;
    printJson({
      ...rest,
      session_id: sessionId,
      mode: 'deep',
      answer: result.answer,
      stopped_by: result.stoppedBy,
      usage,
    });
    return;
  }
  const cost = usage.total.cost_usd === null ? '' : `, about $${usage.total.cost_usd.toFixed(4)}`;
  printOut(
    `${result.answer ?? '(no final answer)'}\n\nreport: ${report.report_path} (${chartsAndTables(report.charts.length, report.tables.length, report.images.length)}; ${count(usage.total.total, 'token')}${cost}; session ${sessionId})\n`,
  );
}

/** Opens what a deep run needs and runs it. */
export async function deepCommand(
  program: Command,
  file: string,
  question: string | undefined,
  flags: DeepFlags,
  continueId?: string,
): Promise<number> {
  // A bad value is a usage error (exit 2), before the missing model (exit 3).
  parseMaxSteps(flags.maxSteps);
  const model = requireModel(flags);
  const dataPath = checkDataFile(file);
  checkSummaryTarget(
    summaryTarget(deepOutPath(dataPath, flags), flags.summary),
    deepOutPath(dataPath, flags),
    [dataPath],
  );
  const limits = limitsFrom(flags);
  const isolation = isolationFrom(flags);
  parsePlotlyOption(flags.plotly);
  const python = await findPython();
  const store = openStore(program);
  try {
    const settings: SandboxSettings = { python, limits, isolation, warm: true };
    return await runDeep({
      store,
      dataPath,
      question: question ?? DEFAULT_QUESTION,
      model,
      flags,
      settings,
      ...(continueId ? { continueId } : {}),
    });
  } finally {
    store.close();
  }
}

/** Registers `ask <session> <question>`: a follow-up in a deep session, with its history and data. */
export function registerAsk(program: Command): void {
  const command = program
    .command('ask')
    .description(
      'ask a follow-up question in a deep session (its history, trimmed to a token budget, and the same data)',
    )
    .argument('<session>', 'session id (or a unique prefix)')
    .argument('<question>', 'the follow-up question')
    .option('-o, --output <file>', 'where to write the updated report')
    .option(
      '--summary <file>',
      'where to write the JSON summary (default: the report path with .json)',
    )
    .option('--json', 'print one JSON object on stdout')
    .option('--model <name>', 'the model (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option(
      '--llm-timeout <seconds>',
      'time limit of one model call attempt (default: $OPSMIND_LLM_TIMEOUT, else 120)',
    )
    .option('--max-steps <n>', 'cap on model turns', '20')
    .option('--no-stream', 'do not stream model output (for servers without streaming)')
    .option('--plotly <inline|URL>', 'inline Plotly or link it from a URL', 'inline');
  addSandboxOptions(command).action(async (id: string, question: string, flags: DeepFlags) => {
    const store = openStore(program);
    const session = store.session(id);
    store.close();
    if (session.mode !== 'deep')
      throw new OpsmindError(
        `session ${session.id} is a ${session.mode} session; follow-ups need a deep session`,
        ExitCode.BAD_INPUT,
        'start one with: opsmind analyze <file> --mode deep -q "…"',
      );
    process.exitCode = await deepCommand(program, session.data_path, question, flags, session.id);
  });
}
