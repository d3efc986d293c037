/**
 * The application core: one analysis session over one data file, the same
 * for every front end (CLI, chat, batch, MCP). It owns the sandbox, the store
 * row and its lock, the model, and the report model; it runs fast, deep and
 * script steps as async streams of stored events (each event is committed,
 * then folded into the report, then yielded), can be cancelled through an
 * AbortSignal, continued later, and writes the report from the event log.
 * Front ends parse flags and print; nothing else.
 */
import { basename } from 'node:path';
import { deepLoop } from '../agent/deep-loop.js';
import type { DeepResult } from '../agent/deep-loop.js';
import { executeProgram } from '../agent/execute-program.js';
import type { ProgramOutcome } from '../agent/execute-program.js';
import { fastPipeline } from '../agent/fast-pipeline.js';
import type { Emission, FastResult, Planner } from '../agent/fast-pipeline.js';
import { historyFromEvents } from '../agent/history.js';
import { heuristicPlanner, llmPlanner } from '../agent/llm-planner.js';
import { artifactAdded, programFinished, stepFiles } from '../agent/step-record.js';
import type { ChatModel } from '../llm/index.js';
import { writeReport } from '../report/write.js';
import type { ReportSummary, WriteReportInput } from '../report/write.js';
import { hashFile } from '../sandbox/data-file.js';
import type { Limits } from '../sandbox/limits.js';
import type { PythonInfo } from '../sandbox/python.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SessionEvent, StoredEvent, StreamEvent } from '../shared/events.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { HeldLock } from '../store/lock.js';
import type { SessionRow, SessionStore } from '../store/session-store.js';
import { SessionNumbers } from './numbers.js';
import { ReportModel } from './report-model.js';

/** How a session's programs run. */
export interface SandboxSettings {
  python: PythonInfo;
  limits: Limits;
  isolation: 'auto' | 'strict';
  /** Keep a warm worker for many steps (false: one interpreter per step, as `opsmind run`). */
  warm: boolean;
}

/** What to open a session over. */
export interface OpenSessionOptions {
  store: SessionStore;
  /** A checked data file (sandbox/data-file.ts `checkDataFile`). */
  dataPath: string;
  command: 'analyze' | 'chat' | 'run';
  mode: 'fast' | 'deep' | 'interactive' | 'script';
  sandbox: SandboxSettings;
  model: ChatModel | null;
  title?: string | null;
  question?: string;
  /** Continue this stored session instead of creating one (its history, numbering and report continue too). */
  continueId?: string;
  /** Called with every event once it is stored and folded into the report (progress views, chat). */
  onEvent?: (event: StoredEvent) => void;
}

/** A deep step's options. */
export interface DeepStepOptions {
  question: string;
  signal?: AbortSignal;
  maxTurns?: number;
  stream?: boolean;
  /** Streamed text of each turn, and its withdrawal when a failed attempt is retried. */
  onStream?: (event: StreamEvent) => void;
}

/** Report settings a front end chooses; the content comes from the event log. */
export type ReportSettings = Pick<
  WriteReportInput,
  'outPath' | 'title' | 'meta' | 'plotly' | 'summary'
>;

/** Runs a step's stream to its end (its events reach `onEvent` as they are stored) and returns its result. */
export async function finish<R>(steps: AsyncGenerator<StoredEvent, R>): Promise<R> {
  for (let next = await steps.next(); ; next = await steps.next()) if (next.done) return next.value;
}

/** An open session. Close it with `close()`. */
export class AnalysisSession {
  private closed = false;
  private readonly numbers: SessionNumbers;

  private constructor(
    readonly row: SessionRow,
    private readonly lock: HeldLock,
    readonly store: SessionStore,
    readonly sandbox: Sandbox,
    readonly model: ChatModel | null,
    readonly report: ReportModel,
    readonly dataPath: string,
    private readonly onEvent: ((event: StoredEvent) => void) | undefined,
  ) {
    this.numbers = SessionNumbers.of(store.events(row.id));
  }

  /** Opens the sandbox (warming it up) and creates — or continues — the stored session. */
  static async open(options: OpenSessionOptions): Promise<AnalysisSession> {
    const { store, dataPath } = options;
    const name = basename(dataPath);
    const { sha256, size } = await hashFile(dataPath);
    const sandbox = await Sandbox.open({
      python: options.sandbox.python,
      dataPath,
      limits: options.sandbox.limits,
      isolation: options.sandbox.isolation,
      warm: options.sandbox.warm,
      ...(options.sandbox.warm ? { profileName: name } : {}),
    });
    if (options.sandbox.warm) sandbox.warmUp();
    try {
      const { session: row, lock } = options.continueId
        ? resume(store, options.continueId)
        : store.createSession({
            command: options.command,
            mode: options.mode,
            model: options.model?.model ?? null,
            dataPath,
            dataSha256: sha256,
            dataSize: size,
            title: options.title ?? options.question ?? null,
          });
      const report = options.continueId
        ? await ReportModel.of(store, row.id)
        : new ReportModel(store, row.id);
      const session = new AnalysisSession(
        row,
        lock,
        store,
        sandbox,
        options.model,
        report,
        dataPath,
        options.onEvent,
      );
      if (!options.continueId) {
        await session.emit({
          type: 'session_started',
          command: options.command,
          mode: options.mode,
          data: { path: dataPath, name, sha256, size },
          isolation: sandbox.isolation.level,
          ...(options.question ? { question: options.question } : {}),
        });
      }
      return session;
    } catch (error) {
      sandbox.close();
      throw error;
    }
  }

  /** The session id. */
  get id(): string {
    return this.row.id;
  }

  /** Stores an event, folds it into the report, and returns it as stored (show it only after this). */
  async emit(
    event: SessionEvent,
    files?: { name: string; content: Buffer }[],
  ): Promise<StoredEvent> {
    const step = 'step' in event && typeof event.step === 'number' ? event.step : 0;
    const stored = files
      ? this.store.appendWithArtifacts(this.id, step, files, event)
      : this.store.append(this.id, event);
    this.numbers.add(stored);
    await this.report.apply(stored);
    this.onEvent?.(stored);
    return stored;
  }

  private async *drain<R>(run: AsyncGenerator<Emission, R>): AsyncGenerator<StoredEvent, R> {
    for (let next = await run.next(); ; next = await run.next()) {
      if (next.done) return next.value;
      yield await this.emit(next.value.event, next.value.files);
    }
  }

  /** Fast mode: profile, plan (the model's planner when there is a model, else the heuristic one), execute. */
  fast(
    options: { question?: string; signal?: AbortSignal; planner?: Planner } = {},
  ): AsyncGenerator<StoredEvent, FastResult> {
    const planner = options.planner ?? (this.model ? llmPlanner(this.model) : heuristicPlanner);
    return this.drain(
      fastPipeline({
        sandbox: this.sandbox,
        sourceName: basename(this.dataPath),
        planner,
        firstStep: this.numbers.step,
        usedIds: this.numbers.ids,
        storedBytes: () => this.store.artifactBytes(this.id),
        ...(options.question ? { question: options.question } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
    );
  }

  /** Deep mode: the ReAct loop over the session's history. Needs a model (exit 3 otherwise). */
  deep(options: DeepStepOptions): AsyncGenerator<StoredEvent, DeepResult> {
    const model = this.model;
    if (!model)
      throw new OpsmindError('deep mode needs an LLM, and none is configured', ExitCode.CONFIG);
    const name = basename(this.dataPath);
    return this.drain(
      deepLoop({
        sandbox: this.sandbox,
        model,
        question: options.question,
        sourceName: name,
        history: historyFromEvents(this.store.events(this.id), name),
        firstTurn: this.numbers.turn + 1,
        firstStep: this.numbers.step,
        usedIds: this.numbers.ids,
        storedBytes: () => this.store.artifactBytes(this.id),
        ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
        ...(options.stream !== undefined ? { stream: options.stream } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onStream ? { onStream: options.onStream } : {}),
      }),
    );
  }

  /** A person's script as one step (`opsmind run`). */
  script(
    code: string,
    scriptName: string,
    signal?: AbortSignal,
  ): AsyncGenerator<StoredEvent, ProgramOutcome> {
    return this.drain(this.scriptSteps(code, scriptName, signal));
  }

  private async *scriptSteps(
    code: string,
    scriptName: string,
    signal?: AbortSignal,
  ): AsyncGenerator<Emission, ProgramOutcome> {
    const step = this.numbers.step + 1;
    yield { event: { type: 'step_started', step, tool: 'run_script', title: scriptName } };
    const outcome = await executeProgram(
      this.sandbox,
      {
        code,
        scriptName,
        ...(signal ? { signal } : {}),
        storedBytes: this.store.artifactBytes(this.id),
      },
      this.numbers.ids,
    );
    yield {
      event: programFinished(step, outcome.run),
      files: stepFiles(outcome.run, outcome.spec, outcome.items),
    };
    yield { event: artifactAdded(step, outcome.spec) };
    for (const message of outcome.warnings) yield { event: { type: 'warning', step, message } };
    return outcome;
  }

  /**
   * Writes the session's report from its report model, and records that it did.
   * Sessions a model drives (deep, chat) leave out declarations that failed (the model retried them).
   */
  async writeReport(
    settings: ReportSettings,
    options: { builtOnly?: boolean } = {},
  ): Promise<ReportSummary> {
    const content = this.report.report;
    const items = options.builtOnly ? content.items.filter((i) => i.built) : content.items;
    const summary = writeReport({
      ...settings,
      spec: content.spec,
      items,
      output: content.output,
      warnings: content.warnings,
      extras: content.extras,
    });
    await this.emit({
      type: 'report_written',
      path: settings.outPath,
      charts: summary.charts.length,
      tables: summary.tables.length,
    });
    return summary;
  }

  /** Ends the session with its status and releases everything; idempotent. */
  close(status: 'done' | 'failed' | 'interrupted' = 'done', error?: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.store.append(this.id, { type: 'session_finished', status, ...(error ? { error } : {}) });
      this.store.finish(this.id, status);
    } finally {
      this.lock.release();
      this.sandbox.close();
      this.report.dispose();
    }
  }
}

function resume(store: SessionStore, id: string): { session: SessionRow; lock: HeldLock } {
  const lock = store.lockSession(id);
  store.finish(id, 'running');
  return { session: store.session(id), lock };
}
