/**
 * `opsmind chat <file>` (and `opsmind analyze <file> -i`): the interactive
 * terminal. One session for the whole chat; each question runs fast mode or
 * deep mode (the mode shown on screen, stored with each question), its events
 * stored before they are shown, and the report rewritten after every step.
 */
import { basename, extname, resolve } from 'node:path';
import type { Command } from 'commander';
import type { StoredEvent } from '../shared/events.js';
import { llmConfig, llmConfigured } from '../llm/config.js';
import { createChatModel } from '../llm/index.js';
import { checkSummaryTarget, summaryTarget } from '../report/summary-file.js';
import type { SummaryTarget } from '../report/summary-file.js';
import { checkDataFile } from '../sandbox/data-file.js';
import { findPython } from '../sandbox/python.js';
import { AnalysisSession } from '../session/analysis-session.js';
import type { ChatAction, ChatArtifact, ChatMode } from '../ui/chat/chat-state.js';
import type { ChatController } from '../ui/chat/ChatApp.js';
import { miniChart } from '../ui/chat/mini-chart.js';
import { opsmindVersion } from '../util/version.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import {
  addSandboxOptions,
  engineMemoryFrom,
  isolationFrom,
  limitsFrom,
} from './sandbox-options.js';
import { engineName } from '../engine/engine.js';
import type { SandboxFlags } from './sandbox-options.js';
import { openStore } from './store-option.js';
import { importEsm } from '../util/esm-import.js';
import type * as Ink from 'ink';
import type * as React from 'react';

/** Chat flags (the same as analyze's). */
export interface ChatFlags extends SandboxFlags {
  mode: string;
  output?: string;
  summary?: string;
  llm: boolean;
  model?: string;
  baseUrl?: string;
  llmTimeout?: string;
}

/** Runs questions for the chat screen against one session (its sandbox, model and report model). */
export class SessionChatController implements ChatController {
  private listener: ((event: StoredEvent) => void) | undefined;
  private session: AnalysisSession | undefined;

  constructor(
    private readonly outPath: string,
    private readonly summary: SummaryTarget = summaryTarget(outPath, undefined),
  ) {}

  /** Events of the open session, as they are stored; the screen sees those of the question being answered. */
  readonly relay = (event: StoredEvent): void => this.listener?.(event);

  /** Attaches the open session (created with `relay` as its onEvent). */
  attach(session: AnalysisSession): void {
    this.session = session;
  }

  /** Runs one question; never throws for model or program failures (they become the result's error). */
  async ask(
    question: string,
    mode: ChatMode,
    signal: AbortSignal,
    update: (action: ChatAction) => void,
  ): Promise<{ reportPath: string | null; error?: string }> {
    const session = this.session;
    if (!session) return { reportPath: null, error: 'the session is not open' };
    if (mode === 'deep' && !session.model)
      return {
        reportPath: null,
        error:
          'deep mode needs an LLM: set OPENAI_API_KEY or OPENAI_BASE_URL (and OPSMIND_MODEL), or press Tab for fast mode',
      };
    this.listener = (stored) => update({ type: 'event', event: stored });
    try {
      const steps =
        mode === 'fast'
          ? session.fast({ question, signal })
          : session.deep({ question, signal, onStream: update });
      // The pictures and the report follow each step: the report model has folded the step in already.
      for (let next = await steps.next(); !next.done; next = await steps.next()) {
        if (next.value.type === 'artifact_added')
          update({ type: 'artifacts', artifacts: await this.rewriteReport(session) });
      }
      return { reportPath: this.outPath };
    } catch (error) {
      const message = signal.aborted
        ? 'cancelled; the session and everything computed so far are kept'
        : error instanceof Error
          ? error.message
          : String(error);
      await session.emit({ type: 'warning', message });
      return { reportPath: this.outPath, error: message };
    } finally {
      this.listener = undefined;
    }
  }

  private async rewriteReport(session: AnalysisSession): Promise<ChatArtifact[]> {
    await session.writeReport(
      {
        outPath: this.outPath,
        summary: this.summary,
        title: `Chat about ${basename(session.dataPath)}`,
        meta: {
          tool: `opsmind ${opsmindVersion()}`,
          mode: 'interactive',
          session: session.id,
          isolation: session.isolationLevel,
        },
      },
      { builtOnly: true },
    );
    const items = session.report.report.items.filter((i) => i.built);
    return items.map((i) => ({
      key: `${i.step ?? 0}:${i.decl.id}`,
      kind: i.decl.kind,
      title: typeof i.decl.params.title === 'string' ? i.decl.params.title : i.label,
      picture: i.built ? miniChart(i.built) : [],
    }));
  }

  /** Ends the session (done) and releases its lock and sandbox; idempotent. */
  close(): Promise<void> {
    this.session?.close('done');
    this.session = undefined;
    return Promise.resolve();
  }
}

/** Starts the chat screen on a dataset (needs a terminal). */
export async function chatCommand(
  program: Command,
  file: string,
  flags: ChatFlags,
): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY)
    throw new OpsmindError(
      'opsmind chat needs an interactive terminal',
      ExitCode.BAD_INPUT,
      'use opsmind analyze (fast or --mode deep) in scripts',
    );
  if (flags.mode !== 'fast' && flags.mode !== 'deep')
    throw new OpsmindError(
      `--mode must be "fast" or "deep", got "${flags.mode}"`,
      ExitCode.BAD_INPUT,
    );
  const dataPath = checkDataFile(file);
  const outPath = resolve(
    flags.output ?? `${basename(dataPath, extname(dataPath))}-chat-report.html`,
  );
  const summary = summaryTarget(outPath, flags.summary);
  checkSummaryTarget(summary, outPath, [dataPath]);
  const config = llmConfig(flags);
  const model = flags.llm && llmConfigured(config) ? createChatModel(config) : null;
  const python = await findPython();
  const store = openStore(program);
  const controller = new SessionChatController(outPath, summary);
  try {
    controller.attach(
      await AnalysisSession.open({
        store,
        dataPath,
        command: 'chat',
        mode: 'interactive',
        title: basename(dataPath),
        model,
        onEvent: controller.relay,
        sandbox: { python, limits: limitsFrom(flags), isolation: isolationFrom(flags), warm: true },
        engine: { name: engineName(undefined), memoryMb: engineMemoryFrom(flags) },
      }),
    );
    // A person is typing at a terminal, so render live even where CI is set (ink would only draw the last frame).
    delete process.env.CI;
    // ink first: ChatApp imports it (esm-import.ts).
    const [{ render }, { createElement }] = await Promise.all([
      importEsm<typeof Ink>('ink'),
      importEsm<typeof React>('react'),
    ]);
    const { ChatApp } = await import('../ui/chat/ChatApp.js');
    const app = render(
      createElement(ChatApp, { controller, initialMode: flags.mode, title: basename(dataPath) }),
      { exitOnCtrlC: false },
    );
    await app.waitUntilExit();
    return ExitCode.OK;
  } finally {
    await controller.close();
    store.close();
  }
}

/** Registers `chat`. */
export function registerChat(program: Command): void {
  const command = program
    .command('chat')
    .description(
      'ask question after question about a dataset in an interactive terminal (Tab switches fast/deep)',
    )
    .argument('<file>', 'the dataset (csv, tsv, json, jsonl)')
    .option('--mode <mode>', 'the mode of the first question: fast or deep', 'fast')
    .option(
      '-o, --output <file>',
      'the report, rewritten after every step (default: <file>-chat-report.html)',
    )
    .option(
      '--summary <file>',
      'where to write the JSON summary (default: the report path with .json)',
    )
    .option('--no-llm', 'never call a model (fast mode with the heuristic planner only)')
    .option('--model <name>', 'the model (default: $OPSMIND_MODEL)')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)')
    .option(
      '--llm-timeout <seconds>',
      'time limit of one model call attempt (default: $OPSMIND_LLM_TIMEOUT, else 120)',
    );
  addSandboxOptions(command).action(async (file: string, flags: ChatFlags) => {
    process.exitCode = await chatCommand(program, file, flags);
  });
}
