/**
 * `opsmind chat <file>` (and `opsmind analyze <file> -i`): the interactive
 * terminal. One session for the whole chat; each question runs fast mode or
 * deep mode (the mode shown on screen, stored with each question), its events
 * stored before they are shown, and the report rewritten after every step.
 */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import { deepLoop } from '../agent/deep-loop.js';
import type { StoredEvent } from '../agent/events.js';
import { fastPipeline } from '../agent/fast-pipeline.js';
import type { Emission } from '../agent/fast-pipeline.js';
import { historyFromEvents } from '../agent/history.js';
import { heuristicPlanner, llmPlanner } from '../agent/llm-planner.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import type { ChatModel } from '../llm/index.js';
import { replaySession } from '../report/replay.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import type { SummaryTarget } from '../report/summary-file.js';
import { writeReport } from '../report/write.js';
import { checkDataFile, hashFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SessionStore } from '../store/session-store.js';
import type { HeldLock } from '../store/lock.js';
import type { ChatAction, ChatArtifact, ChatMode } from '../ui/chat/chat-state.js';
import type { ChatController } from '../ui/chat/ChatApp.js';
import { miniChart } from '../ui/chat/mini-chart.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from './exit-codes.js';
import { addSandboxOptions, isolationFrom, limitsFrom } from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { lastNumbers, recordAll } from './session-lifecycle.js';
import { openStore } from './store-option.js';

/** Chat flags (the same as analyze's). */
export interface ChatFlags extends SandboxFlags {
  mode: string;
  output?: string;
  summary?: string;
  llm: boolean;
  model?: string;
  baseUrl?: string;
}

/** Runs questions for the chat screen against one session, one sandbox and (optionally) one model. */
export class SessionChatController implements ChatController {
  private session: { id: string; lock: HeldLock } | undefined;

  constructor(private readonly store: SessionStore, private readonly sandbox: Sandbox, private readonly dataPath: string, private readonly model: ChatModel | null, private readonly outPath: string, private readonly summary: SummaryTarget = summaryTarget(outPath, undefined)) {}

  private async open(): Promise<string> {
    if (this.session) return this.session.id;
    const { sha256, size } = await hashFile(this.dataPath);
    const { session, lock } = this.store.createSession({ command: 'chat', mode: 'interactive', model: this.model?.model ?? null, dataPath: this.dataPath, dataSha256: sha256, dataSize: size, title: basename(this.dataPath) });
    this.session = { id: session.id, lock };
    this.store.append(session.id, { type: 'session_started', command: 'chat', mode: 'interactive', data: { path: this.dataPath, name: basename(this.dataPath), sha256, size }, isolation: this.sandbox.isolation.level });
    return session.id;
  }

  /** Runs one question; never throws for model or program failures (they become the result's error). */
  async ask(question: string, mode: ChatMode, signal: AbortSignal, update: (action: ChatAction) => void): Promise<{ reportPath: string | null; error?: string }> {
    if (mode === 'deep' && !this.model) return { reportPath: null, error: 'deep mode needs an LLM: set OPENAI_API_KEY or OPENAI_BASE_URL (and OPSMIND_MODEL), or press Tab for fast mode' };
    const id = await this.open();
    const earlier = this.store.events(id);
    const { turn, step, ids } = lastNumbers(earlier);
    const name = basename(this.dataPath);
    const storedBytes = () => this.store.artifactBytes(id);
    const run: AsyncGenerator<Emission, unknown> = mode === 'fast'
      ? fastPipeline({ sandbox: this.sandbox, sourceName: name, planner: this.model ? llmPlanner(this.model) : heuristicPlanner, question, signal, firstStep: step, usedIds: ids, storedBytes })
      : deepLoop({ sandbox: this.sandbox, model: this.model as ChatModel, question, sourceName: name, history: historyFromEvents(earlier, name), firstTurn: turn + 1, firstStep: step, usedIds: ids, storedBytes, signal,
        onTextDelta: (text) => update({ type: 'text_delta', text }) });
    try {
      // The pictures and the report follow each step, so they are refreshed after each artifact_added.
      let refresh = Promise.resolve();
      await recordAll(this.store, id, run, (stored: StoredEvent) => {
        update({ type: 'event', event: stored });
        if (stored.type === 'artifact_added') refresh = refresh.then(async () => update({ type: 'artifacts', artifacts: await this.rewriteReport(id) }));
      });
      await refresh;
      return { reportPath: this.outPath };
    } catch (error) {
      const message = signal.aborted ? 'cancelled; the session and everything computed so far are kept' : error instanceof Error ? error.message : String(error);
      this.store.append(id, { type: 'warning', message });
      return { reportPath: this.outPath, error: message };
    }
  }

  private async rewriteReport(id: string): Promise<ChatArtifact[]> {
    const replayed = await replaySession(this.store, id);
    const items = replayed.items.filter((i) => i.built);
    writeReport({
      outPath: this.outPath, summary: this.summary, title: `Chat about ${basename(this.dataPath)}`, spec: replayed.specs.at(-1) ?? null, items, output: '', warnings: replayed.warnings,
      meta: { tool: `opsmind ${opsmindVersion()}`, mode: 'interactive', session: id, isolation: this.sandbox.isolation.level },
      extras: { answers: replayed.extras.answers, findings: replayed.extras.findings, code: replayed.extras.code },
    });
    return items.map((i) => ({ key: `${i.step ?? 0}:${i.decl.id}`, kind: i.decl.kind, title: typeof i.decl.params.title === 'string' ? i.decl.params.title : i.label, picture: i.built ? miniChart(i.built) : [] }));
  }

  /** Ends the session (done) and releases its lock; idempotent. */
  close(): Promise<void> {
    if (this.session) {
      this.store.append(this.session.id, { type: 'session_finished', status: 'done' });
      this.store.finish(this.session.id, 'done');
      this.session.lock.release();
      this.session = undefined;
    }
    return Promise.resolve();
  }
}

/** Starts the chat screen on a dataset (needs a terminal). */
export async function chatCommand(program: Command, file: string, flags: ChatFlags): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) throw new OpsmindError('opsmind chat needs an interactive terminal', ExitCode.BAD_INPUT, 'use opsmind analyze (fast or --mode deep) in scripts');
  if (flags.mode !== 'fast' && flags.mode !== 'deep') throw new OpsmindError(`--mode must be "fast" or "deep", got "${flags.mode}"`, ExitCode.BAD_INPUT);
  const dataPath = checkDataFile(file);
  const outPath = resolve(flags.output ?? `${basename(dataPath, extname(dataPath))}-chat-report.html`);
  const summary = summaryTarget(outPath, flags.summary);
  checkSummaryTarget(summary, outPath);
  const config = llmConfig({ ...(flags.model ? { model: flags.model } : {}), ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}) });
  const model = flags.llm && llmConfigured(config) ? createChatModel({ ...config, timeoutMs: 120_000 }) : null;
  const python = await findPython();
  const store = openStore(program);
  const sandbox = await Sandbox.open({ python, dataPath, limits: limitsFrom(flags), isolation: isolationFrom(flags), warm: true, profileName: basename(dataPath) });
  sandbox.warmUp();
  const controller = new SessionChatController(store, sandbox, dataPath, model, outPath, summary);
  try {
    // A person is typing at a terminal, so render live even where CI is set (ink would only draw the last frame).
    delete process.env.CI;
    const [{ render }, { createElement }, { ChatApp }] = await Promise.all([import('ink'), import('react'), import('../ui/chat/ChatApp.js')]);
    const app = render(createElement(ChatApp, { controller, initialMode: flags.mode, title: basename(dataPath) }), { exitOnCtrlC: false });
    await app.waitUntilExit();
    return ExitCode.OK;
  } finally {
    await controller.close();
    sandbox.close();
    store.close();
  }
}

/** Registers `chat`. */
export function registerChat(program: Command): void {
  const command = program
    .command('chat')
    .description('ask question after question about a dataset in an interactive terminal (Tab switches fast/deep)')
    .argument('<file>', 'the dataset (csv, tsv, json, jsonl)')
    .option('--mode <mode>', 'the mode of the first question: fast or deep', 'fast')
    .option('-o, --output <file>', 'the report, rewritten after every step (default: <file>-chat-report.html)')
    .option('--summary <file>', 'where to write the JSON summary (default: the report path with .json)')
    .option('--no-llm', 'never call a model (fast mode with the heuristic planner only)')
    .option('--model <name>', 'the model (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)');
  addSandboxOptions(command).action(async (file: string, flags: ChatFlags) => {
    process.exitCode = await chatCommand(program, file, flags);
  });
}
