/**
 * A sandbox for one session over one dataset: the strongest isolation
 * available, resource limits, and a worker that loaded the data once (warm)
 * or once per run (cold). Each run gets a fresh work dir that no other run
 * sees; its files come back over the worker's pipe into a host-only
 * directory, so the host never opens a path the sandbox can write. A result
 * says which limit was hit, in words.
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { preambleDir } from '../util/package-root.js';
import { processAlive } from '../util/process-alive.js';
import { removeTree } from '../util/remove-tree.js';
import { createPidsCgroup } from './cgroup.js';
import type { PidsCgroup } from './cgroup.js';
import { MAX_ARTIFACT_BYTES } from './artifacts.js';
import { FileSink } from './file-sink.js';
import { sandboxIdentity } from './identity.js';
import { detectIsolation, sandboxEnv, sandboxPaths, wrapCommand } from './isolation.js';
import type { IsolationInfo, SandboxMounts } from './isolation.js';
import { limitHit } from './limit-hit.js';
import { pythonLimits } from './limits.js';
import type { Limits } from './limits.js';
import type { PythonInfo } from './python.js';
import { spawnSandboxed } from './spawn.js';
import { stageData, stagePreamble, stagingBase } from './staging.js';
import { withTruncationMarker } from './truncate.js';
import { WarmWorker, WorkerLost } from './worker.js';
import type { WorkerDone } from './worker.js';

/** How to open a sandbox. */
/**
 * How the host read the data file's numbers (and, with `dates`, that its numeric dates read day
 * first), passed to the worker's reader so `df` holds the same numbers and dates.
 */
export interface SandboxNumbers {
  decimal: '.' | ',';
  thousands: string | null;
  dates?: 'DMY';
  /** A JSON wrapper's key whose records the host read (--records: "nodes", hits.hits). */
  records?: string;
}

export interface SandboxOptions {
  python: PythonInfo;
  dataPath: string;
  limits: Limits;
  /** 'strict' refuses to run below bubblewrap. */
  isolation?: 'auto' | 'strict';
  /** Keep a warm worker (default true); false starts a worker per run. */
  warm?: boolean;
  /** Have the warm worker profile the data (under this source name) before forking, for get_data_info. */
  profileName?: string;
  /** How the host's engine reads the file's numbers and numeric dates, so pandas converts the same text columns. */
  numbers?: SandboxNumbers;
}

/** One program to run. */
export interface SandboxRequest {
  code: string;
  scriptName: string;
  signal?: AbortSignal;
}

/** How a run ended, where its files are (on the host), and what was in force. */
export interface SandboxRun {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** The limit that ended or constrained the run, in words; null when none. */
  limitHit: string | null;
  /** Set when the data file could not be read. */
  dataError: string | null;
  /** The host-only directory holding this run's render_spec.json, artifacts/ and .opsmind/program.py. */
  workdir: string;
  /** Files of the run that were not handed back (links, FIFOs, over the budget), with the reason. */
  skippedFiles: string[];
  isolation: IsolationInfo['level'];
  warm: boolean;
}

/** The bytes of files one run may hand back to the host. */
export const MAX_RUN_FILES_BYTES = 256 * 1024 * 1024;
/** The largest single file a run may hand back (a frame, a figure); larger ones are skipped and named. */
export const MAX_RUN_FILE_BYTES = MAX_ARTIFACT_BYTES;
/** Control files are small; a larger one is hostile and is never read (render_spec.json, profile, insights). */
export const MAX_CONTROL_FILE_BYTES = 16 * 1024 * 1024;
const CONTROL_FILES = ['render_spec.json', 'profile.json', 'insights.json'];
const START_GRACE_MS = 10_000;

let sweptDirs = false;

/** Removes sandbox dirs left by OpsMind processes that died without cleaning up (kill -9); once per process, never fails. */
function sweepDeadSandboxDirs(bases: string[]): void {
  if (sweptDirs) return;
  sweptDirs = true;
  for (const base of new Set(bases)) sweepIn(base);
}

function sweepIn(base: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const entry of names) {
    const owner = Number(/^opsmind-sandbox-(\d+)-/.exec(entry)?.[1]);
    if (!owner || owner === process.pid || processAlive(owner)) continue;
    removeTree(join(base, entry));
  }
}

/** A session's sandbox. Call `close()` when done; it never outlives the CLI process. */
export class Sandbox {
  private worker: WarmWorker | undefined;
  private starting: Promise<unknown> | undefined;
  private cgroup: PidsCgroup | undefined;
  private counter = 0;
  private readonly root: string;
  private readonly mounts: SandboxMounts;
  /** Set when the data had to be copied for the sandbox's identity to read it (until taken). */
  private dataNote: string | null;
  private closed = false;
  private readonly onExit = () => this.close();

  private constructor(
    readonly options: SandboxOptions,
    readonly isolation: IsolationInfo,
  ) {
    const identity = sandboxIdentity();
    const base = stagingBase(identity);
    if (!base)
      throw new OpsmindError(
        `no temp directory is reachable by the sandbox's unprivileged user (uid ${identity.uid})`,
        ExitCode.SANDBOX,
        'set TMPDIR to a directory every user may enter, such as /tmp',
      );
    sweepDeadSandboxDirs([tmpdir(), base]);
    this.root = mkdtempSync(join(base, `opsmind-sandbox-${process.pid}-`));
    chmodSync(this.root, 0o711);
    mkdirSync(join(this.root, 'out'), { mode: 0o700 });
    const workroot = join(this.root, 'work');
    mkdirSync(workroot, { mode: 0o700 });
    if (identity.drops) chownSync(workroot, identity.uid, identity.gid);
    const data = stageData(this.root, options.dataPath, identity);
    this.dataNote = data.note;
    this.mounts = {
      python: options.python.path,
      preambleDir: stagePreamble(this.root, preambleDir()),
      dataPath: data.path,
      workroot,
    };
    process.once('exit', this.onExit);
  }

  /** Detects isolation, enforces `strict`, and returns a sandbox (the worker starts on the first run). */
  static async open(options: SandboxOptions): Promise<Sandbox> {
    const isolation = await detectIsolation(options.python.path, preambleDir());
    if (options.isolation === 'strict' && isolation.level !== 'bubblewrap') {
      throw new OpsmindError(
        `--isolation strict needs bubblewrap, but only "${isolation.level}" is available: ${isolation.reason}`,
        ExitCode.SANDBOX,
        'install bubblewrap (apt-get install bubblewrap) or drop --isolation strict',
      );
    }
    return new Sandbox(options, isolation);
  }

  private processRlimit(): number | null {
    return this.isolation.processLimit === 'rlimit' ? this.options.limits.processes : null;
  }

  private workerCommand(oneshot: boolean): string[] {
    const { limits } = this.options;
    const paths = sandboxPaths(this.isolation.level, this.mounts);
    const inner = [
      this.options.python.path,
      '-I',
      '-X',
      'utf8',
      join(paths.preambleDir, 'opsmind_worker.py'),
      '--data',
      paths.dataPath,
      '--workroot',
      paths.workroot,
      '--source-path',
      basename(this.options.dataPath),
      '--limits',
      JSON.stringify(pythonLimits(limits, this.processRlimit())),
      ...(this.isolation.level !== 'rlimits' ? ['--own-pid-namespace'] : []),
      ...(this.options.profileName ? ['--profile-name', this.options.profileName] : []),
      ...(this.options.numbers ? ['--numbers', JSON.stringify(this.options.numbers)] : []),
      ...(oneshot ? ['--oneshot'] : []),
    ];
    return [
      ...(this.cgroup?.enterPrefix ?? []),
      ...wrapCommand(this.isolation, this.mounts, limits, inner),
    ];
  }

  private async startWorker(oneshot: boolean): Promise<WarmWorker> {
    this.dropWorker();
    const cgroup =
      this.isolation.processLimit === 'cgroup'
        ? createPidsCgroup(this.options.limits.processes + 8)
        : undefined;
    this.cgroup = cgroup && !('error' in cgroup) ? cgroup : undefined;
    const bwrap = this.isolation.level === 'bubblewrap';
    const child = spawnSandboxed(this.workerCommand(oneshot), {
      env: sandboxEnv(this.mounts.workroot),
      seccomp: bwrap && this.isolation.seccomp,
      stdin: 'pipe',
      stdout: 'pipe',
      cwd: bwrap ? '/' : this.mounts.workroot,
    });
    const worker = new WarmWorker(child);
    this.worker = worker;
    const ready = await worker
      .ready(this.options.limits.wallSeconds * 1000 + START_GRACE_MS)
      .catch((error: unknown) => {
        this.dropWorker();
        const reason =
          error instanceof WorkerLost && error.reason === 'timeout'
            ? `the data file did not load within the ${this.options.limits.wallSeconds} s wall-clock limit`
            : error instanceof WorkerLost && error.crashed
              ? // pandas' C reader dies on a failed allocation instead of raising MemoryError
                `the Python worker crashed while loading it, most likely out of memory under the ${this.options.limits.memoryMb} MB memory limit (raise it with --memory-mb, or use the DuckDB engine, which spills to disk)`
              : `the sandbox did not start: ${(error as Error).message}`;
        throw new OpsmindError(
          `cannot read ${this.options.dataPath}: ${reason}`,
          error instanceof WorkerLost && error.reason === 'timeout'
            ? ExitCode.BAD_INPUT
            : ExitCode.SANDBOX,
        );
      });
    if (ready.op === 'data_error') {
      this.dropWorker();
      throw new OpsmindError(
        `cannot read ${this.options.dataPath}: ${ready.message}`,
        ExitCode.BAD_INPUT,
      );
    }
    return worker;
  }

  private async ensureWorker(): Promise<WarmWorker> {
    if (this.options.warm === false) return this.startWorker(true);
    if (this.worker && !this.worker.dead) return this.worker;
    return this.startWorker(false);
  }

  private dropWorker(): void {
    this.worker?.kill();
    this.worker = undefined;
    this.cgroup?.remove();
    this.cgroup = undefined;
  }

  /** Notes about how the sandbox was set up that a person should see once (a copied data file). */
  takeNotes(): string[] {
    const notes = this.dataNote ? [this.dataNote] : [];
    this.dataNote = null;
    return notes;
  }

  /** Starts the warm worker now (it loads the data in the background); the first run waits for it. */
  warmUp(): void {
    this.starting ??= this.ensureWorker()
      .catch(() => undefined)
      .finally(() => {
        this.starting = undefined;
      });
  }

  /** Runs one program; never rejects for the program's own failures (a data file that cannot be read throws, exit 2). */
  async run(request: SandboxRequest): Promise<SandboxRun> {
    if (this.closed) throw new Error('the sandbox is closed');
    const id = `r${(this.counter += 1)}`;
    const outDir = join(this.root, 'out', id);
    mkdirSync(join(outDir, '.opsmind'), { recursive: true, mode: 0o700 });
    writeFileSync(join(outDir, '.opsmind', 'program.py'), request.code, {
      flag: 'wx',
      mode: 0o600,
    });
    if (this.starting) await this.starting;
    const worker = await this.ensureWorker();
    const sink = new FileSink(outDir, MAX_RUN_FILES_BYTES);
    const run = await this.runOn(worker, id, request, sink);
    if (this.options.warm === false) this.dropWorker();
    return run;
  }

  private async runOn(
    worker: WarmWorker,
    id: string,
    request: SandboxRequest,
    sink: FileSink,
  ): Promise<SandboxRun> {
    const { limits } = this.options;
    const started = performance.now();
    const eventsBefore = this.cgroup?.hitLimit() ?? false;
    let aborted = false;
    const onAbort = () => {
      aborted = true;
      this.dropWorker();
    };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    if (request.signal?.aborted) onAbort(); // a listener added to an aborted signal never fires
    let done: WorkerDone | undefined;
    let lost: WorkerLost | undefined;
    try {
      done = await worker.run(
        {
          id,
          name: request.scriptName,
          code: request.code,
          timeout_s: limits.wallSeconds,
          limits: pythonLimits(limits, this.processRlimit()),
          output_bytes: limits.outputBytes,
          max_bundle_bytes: MAX_RUN_FILES_BYTES,
          max_file_bytes: MAX_RUN_FILE_BYTES,
          file_caps: Object.fromEntries(CONTROL_FILES.map((f) => [f, MAX_CONTROL_FILE_BYTES])),
        },
        sink,
        (limits.wallSeconds + 30) * 1000,
      );
    } catch (error) {
      this.dropWorker();
      lost = error instanceof WorkerLost ? error : new WorkerLost(String(error), 'exited');
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
    const processesHit = !eventsBefore && (this.cgroup?.hitLimit() ?? false);
    const base = {
      exitCode: done?.exit_code ?? null,
      signal: done ? done.signal : 'SIGKILL',
      stdout: withTruncationMarker(done?.stdout ?? '', done?.stdout_dropped ?? 0),
      stderr: withTruncationMarker(done?.stderr ?? '', done?.stderr_dropped ?? 0),
      stdoutTruncated: (done?.stdout_dropped ?? 0) > 0,
      stderrTruncated: (done?.stderr_dropped ?? 0) > 0,
      timedOut: done?.timed_out ?? (!aborted && lost?.reason === 'timeout'),
      aborted,
      durationMs: performance.now() - started,
    };
    const hit =
      lost?.reason === 'exited' && !aborted
        ? 'the sandbox worker died during the run (the program may have killed it); the next run starts a new one'
        : limitHit(base, sink.root, limits, processesHit);
    const skippedFiles = [...(done?.skipped ?? []), ...sink.problems];
    return {
      ...base,
      workdir: sink.root,
      skippedFiles,
      isolation: this.isolation.level,
      warm: this.options.warm !== false,
      dataError: null,
      limitHit: hit,
    };
  }

  /** Stops the worker, kills anything left, removes the sandbox's files. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.onExit);
    this.dropWorker();
    removeTree(this.root);
  }
}
