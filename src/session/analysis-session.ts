/**
 * The application core: one analysis session over one data file, the same
 * for every front end (CLI, chat, batch, MCP). It owns the sandbox, the store
 * row and its lock, the model, and the report model; it runs fast, deep and
 * script steps as async streams of stored events (each event is committed,
 * then folded into the report, then yielded), can be cancelled through an
 * AbortSignal, continued later, and writes the report from the event log.
 * Front ends parse flags and print; nothing else.
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { DuckDbEngine } from '../engine/duckdb-engine.js';
import { engineName } from '../engine/engine.js';
import type { AnalysisEngine, EngineName } from '../engine/engine.js';
import { PandasEngine } from '../engine/pandas-engine.js';
import { numberLocaleOf } from '../engine/source.js';
import { findPython } from '../sandbox/python.js';
import { removeTree } from '../util/remove-tree.js';
import { deepLoop } from '../agent/deep-loop.js';
import type { DeepResult } from '../agent/deep-loop.js';
import { executeProgram } from '../agent/execute-program.js';
import type { ProgramOutcome } from '../agent/execute-program.js';
import { fastPipeline } from '../agent/fast-pipeline.js';
import type { Emission, FastResult, Planner } from '../agent/fast-pipeline.js';
import { historyFromEvents } from '../agent/history.js';
import { heuristicPlanner, llmPlanner } from '../agent/llm-planner.js';
import { artifactAdded, programFinished, stepFiles } from '../agent/step-record.js';
import { executeTool } from '../agent/tools/call-tool.js';
import type { AnyTool, AnyToolResult } from '../agent/tools/registry.js';
import type { ToolContext, ToolMemory } from '../agent/tools/tool.js';
import { analysisLibraries } from '../sandbox/libraries.js';
import type { Library } from '../sandbox/libraries.js';
import type { ChatModel } from '../llm/index.js';
import { writeReport } from '../report/write.js';
import type { ReportSummary, WriteReportInput } from '../report/write.js';
import type { RenderedItem } from '../report/render.js';
import { refuseBinary, scanDataFile } from '../sandbox/data-file.js';
import type { DataFacts } from '../sandbox/data-file.js';
import type { Limits } from '../sandbox/limits.js';
import type { PythonInfo } from '../sandbox/python.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxNumbers } from '../sandbox/sandbox.js';
import type { SessionEvent, StoredEvent, StreamEvent } from '../shared/events.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { HeldLock } from '../store/lock.js';
import type { SessionRow, SessionStore } from '../store/session-store.js';
import { SessionNumbers } from './numbers.js';
import { ReportModel } from './report-model.js';

/** How a session's programs run. */
export interface SandboxSettings {
  /** The Python to run programs with; found on first use when not given (fast mode on DuckDB needs none). */
  python?: PythonInfo;
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
  command: 'analyze' | 'chat' | 'run' | 'mcp' | 'batch';
  mode: 'fast' | 'deep' | 'interactive' | 'script' | 'mcp';
  sandbox: SandboxSettings;
  model: ChatModel | null;
  title?: string | null;
  question?: string;
  /** Continue this stored session instead of creating one (its history, numbering and report continue too). */
  continueId?: string;
  /** Fast mode's engine (default DuckDB) and, for Excel files, the sheet to read. */
  engine?: { name: EngineName; sheet?: string; memoryMb?: number; threads?: number };
  /** For a JSON file that is one object: the key whose records are the table (--records), in the engine and in `df`. */
  records?: string;
  /** Called with every event once it is stored and folded into the report (progress views, chat). */
  onEvent?: (event: StoredEvent) => void;
  /** The dataset's name in profiles and reports (default: the file's name), e.g. `sub/x.csv`. */
  sourceName?: string;
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
  'outPath' | 'title' | 'meta' | 'plotly' | 'summary' | 'provenance' | 'changesSlot'
>;

/** Runs a step's stream to its end (its events reach `onEvent` as they are stored) and returns its result. */
export async function finish<R>(steps: AsyncGenerator<StoredEvent, R>): Promise<R> {
  for (let next = await steps.next(); ; next = await steps.next()) if (next.done) return next.value;
}

/** Opens fast mode's engine for `settings`: DuckDB over the data file, or pandas in the sandbox `sandbox` gives. */
async function startEngine(
  settings: OpenSessionOptions,
  facts: Promise<DataFacts>,
  sandbox?: () => Promise<Sandbox>,
): Promise<AnalysisEngine> {
  const choice = settings.engine ?? { name: engineName(undefined) };
  if (choice.name === 'pandas') {
    if (!sandbox) throw new OpsmindError('the pandas engine needs the sandbox', ExitCode.INTERNAL);
    return new PandasEngine(sandbox);
  }
  const limits = settings.sandbox.limits;
  return DuckDbEngine.open({
    dataPath: settings.dataPath,
    memoryMb: choice.memoryMb ?? limits.memoryMb,
    maxTempMb: Math.max(limits.diskMb, Math.ceil((statSync(settings.dataPath).size / 2 ** 20) * 4)),
    scratchDir: mkdtempSync(join(tmpdir(), 'opsmind-engine-')),
    ...(choice.sheet ? { sheet: choice.sheet } : {}),
    ...(settings.records !== undefined ? { records: settings.records } : {}),
    ...(choice.threads ? { threads: choice.threads } : {}),
    facts,
  });
}

/** An open session. Close it with `close()`. */
export class AnalysisSession {
  private closed = false;
  private readonly numbers: SessionNumbers;
  private sandboxOpening: Promise<Sandbox> | null = null;
  private openedSandbox: Sandbox | null = null;
  private engineOpening: Promise<AnalysisEngine> | null = null;
  private openedEngine: AnalysisEngine | null = null;
  /** What tools called one at a time (the MCP server) remember between calls. */
  private readonly memory: ToolMemory = { profile: null, plan: null, ids: {} };
  private libraries: Library[] | null = null;

  private constructor(
    readonly row: SessionRow,
    private readonly lock: HeldLock,
    readonly store: SessionStore,
    private readonly settings: OpenSessionOptions,
    readonly model: ChatModel | null,
    readonly report: ReportModel,
    readonly dataPath: string,
    private readonly facts: Promise<DataFacts>,
    private readonly onEvent: ((event: StoredEvent) => void) | undefined,
  ) {
    this.numbers = SessionNumbers.of(store.events(row.id));
  }

  /**
   * Creates — or continues — the stored session and opens what its mode needs first: the engine
   * for fast mode on DuckDB (no Python), the sandbox (warming it up) for everything else. The
   * other one opens on first use.
   */
  static async open(options: OpenSessionOptions): Promise<AnalysisSession> {
    const { dataPath } = options;
    const name = basename(dataPath);
    const engineFirst =
      (options.mode === 'fast' || options.mode === 'mcp') &&
      (options.engine?.name ?? 'duckdb') === 'duckdb';
    // The one pass over the file's bytes (its hash, a NUL byte, its encoding) runs on this thread
    // while DuckDB reads the file on its own, guessing the encoding from the file's start and
    // checking it against the pass before its table is used. A failure to open is awaited, and
    // recorded, once the session exists. Not for --continue: a session another process holds is
    // refused before the file is read.
    const facts = scanDataFile(dataPath);
    facts.catch(() => undefined);
    const early = engineFirst && !options.continueId ? startEngine(options, facts) : null;
    early?.catch(() => undefined);
    try {
      return await AnalysisSession.create(options, name, facts, engineFirst, early);
    } catch (error) {
      void early?.then(
        (engine) => engine.close(),
        () => undefined,
      );
      throw error;
    }
  }

  private static async create(
    options: OpenSessionOptions,
    name: string,
    facts: Promise<DataFacts>,
    engineFirst: boolean,
    early: Promise<AnalysisEngine> | null,
  ): Promise<AnalysisSession> {
    const { store, dataPath } = options;
    const scanned = await facts;
    // checkDataFile may have looked at the file's start only; a NUL byte further on is refused here.
    refuseBinary(scanned, dataPath);
    const { sha256, size } = scanned;
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
      options,
      options.model,
      report,
      dataPath,
      facts,
      options.onEvent,
    );
    if (early) session.engineOpening = session.adopt(early);
    try {
      const first = engineFirst ? await session.engine() : await session.sandbox();
      if (!options.continueId) {
        await session.emit({
          type: 'session_started',
          command: options.command,
          mode: options.mode,
          data: { path: dataPath, name, sha256, size },
          isolation: first instanceof Sandbox ? first.isolation.level : first.label,
          ...(options.question ? { question: options.question } : {}),
        });
      }
      return session;
    } catch (error) {
      session.close('failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /** The session's sandbox, opened (and warmed up) on first use. */
  sandbox(): Promise<Sandbox> {
    this.sandboxOpening ??= (async () => {
      const s = this.settings.sandbox;
      const numbers = await this.numberLocale();
      const sandbox = await Sandbox.open({
        python: s.python ?? (await findPython()),
        dataPath: this.dataPath,
        ...(numbers ? { numbers } : {}),
        limits: s.limits,
        isolation: s.isolation,
        warm: s.warm,
        ...(s.warm ? { profileName: basename(this.dataPath) } : {}),
      });
      if (this.closed) {
        sandbox.close();
        throw new OpsmindError('the session is closed', ExitCode.INTERNAL);
      }
      if (s.warm) sandbox.warmUp();
      this.openedSandbox = sandbox;
      return sandbox;
    })();
    return this.sandboxOpening;
  }

  /**
   * How the data file writes its numbers and numeric dates, when not the plain way: the engine's
   * reading, else a sniff. Day-first dates are parsed in `df` too, the pandas engine's as well: a
   * German export's `31.01.2024` is a date in both engines' reports, not text in one of them.
   */
  private async numberLocale(): Promise<SandboxNumbers | null> {
    const engine = this.openedEngine;
    let locale: { decimal: '.' | ','; thousands: string | null; dayFirst: boolean } | null =
      engine instanceof DuckDbEngine
        ? { ...engine.source.locale, dayFirst: engine.source.locale.dateOrder === 'DMY' }
        : null;
    if (!locale) {
      const scratch = mkdtempSync(join(tmpdir(), 'opsmind-sniff-'));
      try {
        locale = await numberLocaleOf(this.dataPath, join(scratch, 'sniff'), this.facts);
      } finally {
        removeTree(scratch);
      }
    }
    const records = this.settings.records;
    if (!locale) return records === undefined ? null : { decimal: '.', thousands: null, records };
    const dayFirst = locale.dayFirst;
    if (locale.decimal === '.' && locale.thousands === null && !dayFirst && records === undefined)
      return null;
    return {
      decimal: locale.decimal,
      thousands: locale.thousands,
      ...(dayFirst ? { dates: 'DMY' as const } : {}),
      ...(records !== undefined ? { records } : {}),
    };
  }

  /** Fast mode's engine, opened on first use: DuckDB over the data file, or pandas in the sandbox. */
  engine(): Promise<AnalysisEngine> {
    this.engineOpening ??= this.adopt(startEngine(this.settings, this.facts, () => this.sandbox()));
    return this.engineOpening;
  }

  /** The session's engine once `opening` gives it (closed instead if the session ended first). */
  private async adopt(opening: Promise<AnalysisEngine>): Promise<AnalysisEngine> {
    const engine = await opening;
    if (this.closed) {
      engine.close();
      throw new OpsmindError('the session is closed', ExitCode.INTERNAL);
    }
    this.openedEngine = engine;
    return engine;
  }

  /** What computes the session's numbers, as reports name it: the sandbox's isolation, else the engine. */
  get isolationLevel(): string {
    return this.openedSandbox?.isolation.level ?? this.openedEngine?.label ?? 'none';
  }

  /** The dataset's name as profiles and reports show it. */
  get sourceName(): string {
    return this.settings.sourceName ?? basename(this.dataPath);
  }

  /** The session id. */
  get id(): string {
    return this.row.id;
  }

  /** Stores an event, folds it into the report, and returns it as stored (show it only after this). */
  async emit(
    event: SessionEvent,
    files?: { name: string; content: Buffer }[],
    rendered?: RenderedItem[],
  ): Promise<StoredEvent> {
    const step = 'step' in event && typeof event.step === 'number' ? event.step : 0;
    const stored = files
      ? this.store.appendWithArtifacts(this.id, step, files, event)
      : this.store.append(this.id, event);
    this.numbers.add(stored);
    await this.report.apply(stored, rendered);
    this.onEvent?.(stored);
    return stored;
  }

  private async *drain<R>(run: AsyncGenerator<Emission, R>): AsyncGenerator<StoredEvent, R> {
    for (let next = await run.next(); ; next = await run.next()) {
      if (next.done) return next.value;
      yield await this.emit(next.value.event, next.value.files, next.value.rendered);
    }
  }

  /** Fast mode: profile, plan (the model's planner when there is a model, else the heuristic one), execute. */
  fast(
    options: { question?: string; signal?: AbortSignal; planner?: Planner } = {},
  ): AsyncGenerator<StoredEvent, FastResult> {
    const planner = options.planner ?? (this.model ? llmPlanner(this.model) : heuristicPlanner);
    return this.drain(this.fastSteps(planner, options));
  }

  private async *fastSteps(
    planner: Planner,
    options: { question?: string; signal?: AbortSignal },
  ): AsyncGenerator<Emission, FastResult> {
    return yield* fastPipeline({
      engine: await this.engine(),
      sourceName: this.sourceName,
      planner,
      firstStep: this.numbers.step,
      usedIds: this.numbers.ids,
      storedBytes: () => this.store.artifactBytes(this.id),
      ...(options.question ? { question: options.question } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Deep mode: the ReAct loop over the session's history. Needs a model (exit 3 otherwise). */
  deep(options: DeepStepOptions): AsyncGenerator<StoredEvent, DeepResult> {
    const model = this.model;
    if (!model)
      throw new OpsmindError('deep mode needs an LLM, and none is configured', ExitCode.CONFIG);
    return this.drain(this.deepSteps(model, options));
  }

  private async *deepSteps(
    model: ChatModel,
    options: DeepStepOptions,
  ): AsyncGenerator<Emission, DeepResult> {
    const name = basename(this.dataPath);
    // get_data_info profiles in the sandbox, so the profile describes `df` exactly as the model's
    // pandas code sees it (DuckDB types dates and locale numbers that pandas reads as text).
    const sandbox = await this.sandbox();
    return yield* deepLoop({
      sandbox,
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
    });
  }

  /**
   * One registry tool called from outside (the MCP server) as a stored step: `step_started`, the
   * events the tool emits with their files, and `tool_result` with what the caller reads. Tools
   * that profile or query get the engine (DuckDB, no Python); run_code opens the warm sandbox.
   * The session's profile and plan carry over between calls.
   */
  tool(
    tool: AnyTool,
    args: unknown,
    options: { callId: string; signal?: AbortSignal },
  ): AsyncGenerator<StoredEvent, AnyToolResult> {
    return this.drain(this.toolSteps(tool, args, options));
  }

  private async *toolSteps(
    tool: AnyTool,
    args: unknown,
    options: { callId: string; signal?: AbortSignal },
  ): AsyncGenerator<Emission, AnyToolResult> {
    const step = this.numbers.step + 1;
    const usesSandbox = tool.name === 'run_code';
    const engine = usesSandbox ? undefined : await this.engine();
    if (usesSandbox && !this.libraries) {
      const probed = await analysisLibraries(await this.sandbox(), options.signal);
      this.libraries = probed.libraries;
    }
    yield { event: { type: 'step_started', step, tool: tool.name, title: tool.name } };
    this.memory.ids = this.numbers.ids;
    const emitted: Emission[] = [];
    const ctx: ToolContext = {
      sandbox: () => this.sandbox(),
      ...(engine ? { engine } : {}),
      sourceName: this.sourceName,
      question: this.settings.question ?? '',
      step,
      libraries: this.libraries ?? [],
      memory: this.memory,
      storedBytes: () => this.store.artifactBytes(this.id),
      ...(options.signal ? { signal: options.signal } : {}),
      emit: (emission) => void emitted.push(emission),
    };
    let result: AnyToolResult;
    try {
      result = await executeTool(tool, args, ctx);
    } finally {
      yield* emitted;
    }
    yield {
      event: {
        type: 'tool_result',
        turn: 0,
        step,
        tool: tool.name,
        call_id: options.callId,
        ok: result.ok,
        content: result.forModel,
      },
    };
    return result;
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
      await this.sandbox(),
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
    yield { event: artifactAdded(step, outcome.spec), rendered: outcome.items };
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
      this.openedSandbox?.close();
      this.openedEngine?.close();
      void this.sandboxOpening?.then(
        (sandbox) => sandbox.close(),
        () => undefined,
      );
      void this.engineOpening?.then(
        (engine) => engine.close(),
        () => undefined,
      );
      this.report.dispose();
    }
  }
}

function resume(store: SessionStore, id: string): { session: SessionRow; lock: HeldLock } {
  const lock = store.lockSession(id);
  store.finish(id, 'running');
  return { session: store.session(id), lock };
}
