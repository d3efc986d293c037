/** `opsmind analyze <file>`: the main job. Fast mode profiles, plans and renders a full report; offline by default. */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { Finding, StoredEvent } from '../agent/events.js';
import { fastPipeline } from '../agent/fast-pipeline.js';
import type { FastResult, Planner } from '../agent/fast-pipeline.js';
import { heuristicPlanner, llmPlanner } from '../agent/llm-planner.js';
import { summarizeFindings } from '../agent/llm-summary.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import type { ChatModel } from '../llm/index.js';
import { preloadPlotly } from '../report/plotly-validate.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import { writeReport } from '../report/write.js';
import type { ReportSummary } from '../report/write.js';
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
import { chatCommand } from './chat.js';
import { deepCommand } from './deep.js';
import type { DeepFlags } from './deep.js';
import { recordAll, withRecordedSession } from './session-lifecycle.js';
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
}

function chooseModel(options: AnalyzeOptions): ChatModel | null {
  const config = llmConfig({ ...(options.model ? { model: options.model } : {}), ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
  if (!options.llm || !llmConfigured(config)) return null;
  return createChatModel({ ...config, timeoutMs: 60_000 });
}

function findingTexts(result: FastResult): string[] {
  return [...result.findings.map((f) => f.text), ...result.profile.warnings];
}

function fastOutPath(dataPath: string, options: Pick<AnalyzeOptions, 'output'>): string {
  return resolve(options.output ?? `${basename(dataPath, extname(dataPath))}-report.html`);
}

function writeAnalysisReport(result: FastResult, outPath: string, extra: { sessionId: string; isolation: string; summary: { text: string; model: string } | null; plotly: string; warnings: string[]; summaryFile?: string }): ReportSummary {
  const { outcome, planned, profile } = result;
  const failed = result.failed.map((f) => `analysis ${f.analysis} (${f.title}) failed: ${f.error}`);
  return writeReport({
    outPath, summary: summaryTarget(outPath, extra.summaryFile), title: `Analysis of ${profile.source.name}`, spec: outcome.spec, items: outcome.items, output: outcome.run.stdout,
    warnings: [...extra.warnings, ...outcome.warnings, ...failed], plotly: parsePlotlyOption(extra.plotly),
    meta: { tool: `opsmind ${opsmindVersion()}`, mode: 'fast', planner: `${planned.planner}${planned.model && planned.planner === 'llm' ? ` (${planned.model})` : ''}`, session: extra.sessionId, isolation: extra.isolation },
    extras: { findings: findingTexts(result), summary: extra.summary, notes: [...(planned.fallback ? [`Planner: ${planned.fallback}.`] : []), ...planned.plan.notes], code: [{ title: 'analysis.py — the program that computed every chart and number', code: result.code }] },
  });
}

async function runFast(store: SessionStore, sandbox: Sandbox, dataPath: string, options: AnalyzeOptions, model: ChatModel | null): Promise<number> {
  const { sha256, size } = await hashFile(dataPath);
  setImmediate(preloadPlotly); // about a second of jsdom work, done while the sandbox reads the data
  const progress = await createProgress({ json: options.json === true });
  const planner: Planner = model ? llmPlanner(model) : heuristicPlanner;
  try {
    return await withRecordedSession(store, { command: 'analyze', mode: 'fast', model: model?.model ?? null, dataPath, dataSha256: sha256, dataSize: size, title: options.question ?? null }, async ({ session, emit }) => {
      const show = (event: StoredEvent) => progress.show(event);
      show(emit({ type: 'session_started', command: 'analyze', mode: 'fast', data: { path: dataPath, name: basename(dataPath), sha256, size }, isolation: sandbox.isolation.level, ...(options.question ? { question: options.question } : {}) }));
      const pipeline = fastPipeline({ sandbox, sourceName: basename(dataPath), planner, ...(options.question ? { question: options.question } : {}) });
      const result = await recordAll(store, session.id, pipeline, show);
      const warnings: string[] = [];
      let summary: { text: string; model: string } | null = null;
      if (model) {
        const written = await summarizeFindings(model, result.findings, options.question);
        if ('text' in written) {
          summary = { text: written.text, model: model.model };
          show(emit({ type: 'summary_written', step: 4, text: written.text, model: model.model }));
        } else {
          warnings.push(written.skipped);
          show(emit({ type: 'warning', step: 4, message: written.skipped }));
        }
      }
      const outPath = fastOutPath(dataPath, options);
      const report = writeAnalysisReport(result, outPath, { sessionId: session.id, isolation: sandbox.isolation.level, summary, plotly: options.plotly, warnings, ...(options.summary ? { summaryFile: options.summary } : {}) });
      show(emit({ type: 'report_written', path: outPath, charts: report.charts.length, tables: report.tables.length }));
      await progress.close();
      printResult(report, result, { session_id: session.id, json: options.json === true, summary: summary?.text ?? null, isolation: sandbox.isolation.level });
      const crashed = result.outcome.spec === null;
      return { status: crashed ? 'failed' : 'done', value: crashed ? ExitCode.INTERNAL : ExitCode.OK };
    });
  } finally {
    await progress.close();
  }
}

/** How many findings the terminal lists; the report has all of them. */
const SHOWN_FINDINGS = 12;

function printResult(report: ReportSummary, result: FastResult, extra: { session_id: string; json: boolean; summary: string | null; isolation: string }): void {
  if (extra.json) {
    const { issues: _issues, ...rest } = report;
    const insights: (Finding | { text: string; kind: string; analysis: number })[] = [...result.findings, ...result.profile.warnings.map((text) => ({ text, kind: 'quality', analysis: 0 }))];
    printJson({ ...rest, session_id: extra.session_id, mode: 'fast', planner: result.planned.planner, planner_fallback: result.planned.fallback, isolation: extra.isolation, summary: extra.summary, insights });
    return;
  }
  const lines = [`Key findings for ${result.profile.source.name}:`];
  if (extra.summary) lines.push(`  ${extra.summary}`, '');
  const findings = findingTexts(result);
  for (const text of findings.slice(0, SHOWN_FINDINGS)) lines.push(`  • ${text}`);
  if (findings.length > SHOWN_FINDINGS) lines.push(`  (${SHOWN_FINDINGS} of ${count(findings.length, 'finding')}; all of them are in the report)`);
  for (const warning of report.warnings) printErr(`warning: ${warning}\n`);
  lines.push('', `report: ${report.report_path} (${chartsAndTables(report.charts.length, report.tables.length, report.images.length)}; planner ${result.planned.planner}; session ${extra.session_id})`);
  printOut(`${lines.join('\n')}\n`);
}

async function analyzeCommand(program: Command, file: string, options: AnalyzeOptions): Promise<number> {
  if (options.interactive) return chatCommand(program, file, { ...options, mode: options.mode });
  if (options.mode === 'deep') {
    if (!options.llm) throw new OpsmindError('--mode deep needs an LLM, and --no-llm forbids calling one', ExitCode.BAD_INPUT);
    return deepCommand(program, file, options.question, options);
  }
  if (options.mode !== 'fast') throw new OpsmindError(`--mode must be "fast" or "deep", got "${options.mode}"`, ExitCode.BAD_INPUT);
  const dataPath = checkDataFile(file);
  checkSummaryTarget(summaryTarget(fastOutPath(dataPath, options), options.summary), fastOutPath(dataPath, options));
  const limits = limitsFrom(options);
  const isolation = isolationFrom(options);
  parsePlotlyOption(options.plotly);
  const model = chooseModel(options);
  const python = await findPython();
  const store = openStore(program);
  const sandbox = await Sandbox.open({ python, dataPath, limits, isolation, warm: true, profileName: basename(dataPath) });
  sandbox.warmUp();
  try {
    return await runFast(store, sandbox, dataPath, options, model);
  } finally {
    sandbox.close();
    store.close();
  }
}

/** Registers `analyze`. */
export function registerAnalyze(program: Command): void {
  const command = program
    .command('analyze')
    .description('profile a dataset, plan the right charts, and write an interactive HTML report with the key findings')
    .argument('<file>', 'the dataset (csv, tsv, json, jsonl)')
    .option('--mode <mode>', 'fast (profile → plan → execute) or deep (an LLM agent that writes and runs code)', 'fast')
    .option('-q, --question <text>', 'a question the report should answer first')
    .option('-o, --output <file>', 'where to write the HTML report (default: <file>-report.html); a .json summary is written beside it')
    .option('--summary <file>', 'where to write the JSON summary (default: the report path with .json)')
    .option('--json', 'print one JSON object on stdout (no progress output)')
    .option('--no-llm', 'never call a model, even when one is configured (heuristic planner)')
    .option('--model <name>', 'the model for the LLM planner (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option('--plotly <inline|URL>', 'inline Plotly (works offline) or link it from a URL', 'inline')
    .option('--max-steps <n>', 'deep mode: cap on model turns', '20')
    .option('--no-stream', 'deep mode: do not stream model output (for servers without streaming)')
    .option('-i, --interactive', 'open the interactive chat on this file (same as opsmind chat)');
  addSandboxOptions(command).action(async (file: string, options: AnalyzeOptions) => {
    process.exitCode = await analyzeCommand(program, file, options);
  });
}
