/** Deep mode from the CLI: `opsmind analyze --mode deep` and `opsmind ask <session> "question"`. */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { deepLoop } from '../agent/deep-loop.js';
import type { DeepResult } from '../agent/deep-loop.js';
import type { StoredEvent } from '../agent/events.js';
import { historyFromEvents } from '../agent/history.js';
import { sumUsage } from '../agent/usage.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import type { ChatModel } from '../llm/index.js';
import { replaySession } from '../report/replay.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import { writeReport } from '../report/write.js';
import { checkDataFile, hashFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SessionStore } from '../store/session-store.js';
import { createProgress } from '../ui/create-progress.js';
import { printErr, printJson, printOut } from '../ui/print.js';
import { chartsAndTables, count } from '../util/plural.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from './exit-codes.js';
import { parsePlotlyOption } from './options.js';
import { addSandboxOptions, isolationFrom, limitsFrom } from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { lastNumbers, recordAll, withRecordedSession } from './session-lifecycle.js';
import { openStore } from './store-option.js';

/** Flags shared by deep analyze and ask. */
export interface DeepFlags extends SandboxFlags {
  output?: string;
  summary?: string;
  json?: boolean;
  model?: string;
  baseUrl?: string;
  plotly: string;
  maxSteps: string;
  stream: boolean;
}

/** The model for deep mode; exits 3 with how to configure one when none is. */
export function requireModel(flags: { model?: string; baseUrl?: string }): ChatModel {
  const config = llmConfig({ ...(flags.model ? { model: flags.model } : {}), ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}) });
  if (!llmConfigured(config)) {
    throw new OpsmindError('deep mode needs an LLM, and none is configured', ExitCode.CONFIG, 'set OPENAI_API_KEY (OpenAI, DeepSeek, Qwen…) or OPENAI_BASE_URL (Ollama, vLLM, LM Studio: e.g. http://localhost:11434/v1) and OPSMIND_MODEL; or use --mode fast');
  }
  return createChatModel({ ...config, timeoutMs: 120_000 });
}

/** Where a deep run writes its report: `-o`, else `<data>-deep-report.html`. */
function deepOutPath(dataPath: string, flags: Pick<DeepFlags, 'output'>): string {
  return resolve(flags.output ?? `${basename(dataPath, extname(dataPath))}-deep-report.html`);
}

const DEFAULT_QUESTION = 'Explore this dataset and report the most important findings, with the numbers behind them.';

interface DeepRun { store: SessionStore; sandbox: Sandbox; dataPath: string; question: string; model: ChatModel; flags: DeepFlags; continueId?: string }

/** Runs the loop as (or within) a recorded session, writes the report of the whole session, prints the result. */
export async function runDeep(run: DeepRun): Promise<number> {
  const { store, sandbox, dataPath, question, model, flags } = run;
  const { sha256, size } = await hashFile(dataPath);
  const progress = await createProgress({ json: flags.json === true });
  const input = run.continueId ? { continue: run.continueId } : { command: 'analyze', mode: 'deep', model: model.model, dataPath, dataSha256: sha256, dataSize: size, title: question };
  try {
    return await withRecordedSession(store, input, async ({ session, emit }) => {
      const show = (event: StoredEvent) => progress.show(event);
      const earlier = store.events(session.id);
      const { turn, step, ids } = lastNumbers(earlier);
      if (!run.continueId) show(emit({ type: 'session_started', command: 'analyze', mode: 'deep', data: { path: dataPath, name: basename(dataPath), sha256, size }, question, isolation: sandbox.isolation.level }));
      const loop = deepLoop({ sandbox, model, question, sourceName: basename(dataPath), history: historyFromEvents(earlier, basename(dataPath)), firstTurn: turn + 1, firstStep: step, usedIds: ids, storedBytes: () => store.artifactBytes(session.id),
        maxTurns: Math.max(1, Number(flags.maxSteps) || 20), stream: flags.stream });
      const result = await recordAll(store, session.id, loop, show);
      const replayed = await replaySession(store, session.id);
      const outPath = deepOutPath(dataPath, flags);
      const report = writeReport({
        outPath, summary: summaryTarget(outPath, flags.summary), title: `Deep analysis of ${basename(dataPath)}`, spec: replayed.specs.at(-1) ?? null, items: replayed.items.filter((i) => i.built),
        output: '', warnings: replayed.warnings, plotly: parsePlotlyOption(flags.plotly),
        meta: { tool: `opsmind ${opsmindVersion()}`, mode: 'deep', model: model.model, session: session.id, isolation: sandbox.isolation.level },
        extras: { answers: replayed.extras.answers, code: replayed.extras.code },
      });
      show(emit({ type: 'report_written', path: outPath, charts: report.charts.length, tables: report.tables.length }));
      await progress.close();
      printDeep(report, result, session.id, flags.json === true);
      if (result.error) printErr(`opsmind: ${result.error.message}\n${result.error.hint ? `  hint: ${result.error.hint}\n` : ''}`);
      return { status: result.error ? 'failed' : 'done', value: result.error ? ExitCode.CONFIG : ExitCode.OK };
    });
  } finally {
    await progress.close();
  }
}

function printDeep(report: ReturnType<typeof writeReport>, result: DeepResult, sessionId: string, json: boolean): void {
  const usage = { per_turn: result.usage, total: sumUsage(result.usage) };
  if (json) {
    const { issues: _issues, ...rest } = report;
    printJson({ ...rest, session_id: sessionId, mode: 'deep', answer: result.answer, stopped_by: result.stoppedBy, usage });
    return;
  }
  const cost = usage.total.cost_usd === null ? '' : `, about $${usage.total.cost_usd.toFixed(4)}`;
  printOut(`${result.answer ?? '(no final answer)'}\n\nreport: ${report.report_path} (${chartsAndTables(report.charts.length, report.tables.length, report.images.length)}; ${count(usage.total.total, 'token')}${cost}; session ${sessionId})\n`);
}

/** Opens what a deep run needs and runs it. */
export async function deepCommand(program: Command, file: string, question: string | undefined, flags: DeepFlags, continueId?: string): Promise<number> {
  const model = requireModel(flags);
  const dataPath = checkDataFile(file);
  checkSummaryTarget(summaryTarget(deepOutPath(dataPath, flags), flags.summary), deepOutPath(dataPath, flags));
  const limits = limitsFrom(flags);
  const isolation = isolationFrom(flags);
  parsePlotlyOption(flags.plotly);
  const python = await findPython();
  const store = openStore(program);
  const sandbox = await Sandbox.open({ python, dataPath, limits, isolation, warm: true, profileName: basename(dataPath) });
  sandbox.warmUp();
  try {
    return await runDeep({ store, sandbox, dataPath, question: question ?? DEFAULT_QUESTION, model, flags, ...(continueId ? { continueId } : {}) });
  } finally {
    sandbox.close();
    store.close();
  }
}

/** Registers `ask <session> <question>`: a follow-up in a deep session, with its history and data. */
export function registerAsk(program: Command): void {
  const command = program
    .command('ask')
    .description('ask a follow-up question in a deep session (its history, trimmed to a token budget, and the same data)')
    .argument('<session>', 'session id (or a unique prefix)')
    .argument('<question>', 'the follow-up question')
    .option('-o, --output <file>', 'where to write the updated report')
    .option('--summary <file>', 'where to write the JSON summary (default: the report path with .json)')
    .option('--json', 'print one JSON object on stdout')
    .option('--model <name>', 'the model (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option('--max-steps <n>', 'cap on model turns', '20')
    .option('--no-stream', 'do not stream model output (for servers without streaming)')
    .option('--plotly <inline|URL>', 'inline Plotly or link it from a URL', 'inline');
  addSandboxOptions(command).action(async (id: string, question: string, flags: DeepFlags) => {
    const store = openStore(program);
    const session = store.session(id);
    store.close();
    if (session.mode !== 'deep') throw new OpsmindError(`session ${session.id} is a ${session.mode} session; follow-ups need a deep session`, ExitCode.BAD_INPUT, 'start one with: opsmind analyze <file> --mode deep -q "…"');
    process.exitCode = await deepCommand(program, session.data_path, question, flags, session.id);
  });
}
