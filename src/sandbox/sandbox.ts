/**
 * A sandbox for one session over one dataset: the strongest isolation
 * available, resource limits, a warm worker that loaded the data once (cold
 * one-shot runs when it cannot start), a fresh work dir per run that later
 * runs cannot see, and a result that says which limit was hit in words.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExitCode, OpsmindError } from '../cli/exit-codes.js';
import { preambleDir } from '../util/package-root.js';
import { createPidsCgroup } from './cgroup.js';
import type { PidsCgroup } from './cgroup.js';
import { detectIsolation, sandboxPaths, wrapCommand } from './isolation.js';
import type { IsolationInfo, SandboxMounts } from './isolation.js';
import { limitHit } from './limit-hit.js';
import { pythonLimits } from './limits.js';
import type { Limits } from './limits.js';
import { readBounded, runCold } from './cold.js';
import type { ColdResult } from './cold.js';
import type { PythonInfo } from './python.js';
import { WarmWorker, WorkerLost } from './worker.js';

/** How to open a sandbox. */
export interface SandboxOptions {
  python: PythonInfo;
  dataPath: string;
  limits: Limits;
  /** 'strict' refuses to run below bubblewrap. */
  isolation?: 'auto' | 'strict';
  /** Keep a warm worker (default true); false runs every program cold. */
  warm?: boolean;
  /** Have the warm worker profile the data (under this source name) before forking, for get_data_info. */
  profileName?: string;
}

/** One program to run. */
export interface SandboxRequest {
  code: string;
  scriptName: string;
  signal?: AbortSignal;
}

/** How a run ended, where its files are (on the host), and what was in force. */
export interface SandboxRun extends ColdResult {
  /** The host directory holding render_spec.json and artifacts/ of this run. */
  workdir: string;
  isolation: IsolationInfo['level'];
  warm: boolean;
}

let sweptDirs = false;

/** Removes sandbox dirs left by OpsMind processes that died without cleaning up (kill -9); once per process. */
function sweepDeadSandboxDirs(): void {
  if (sweptDirs) return;
  sweptDirs = true;
  for (const entry of readdirSync(tmpdir())) {
    const owner = Number(/^opsmind-sandbox-(\d+)-/.exec(entry)?.[1]);
    if (!owner || owner === process.pid) continue;
    try {
      process.kill(owner, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(tmpdir(), entry), { recursive: true, force: true });
    }
  }
}

/** Builds the python argv for a worker or a cold run, in the sandbox's paths. */
function workerArgs(python: string, paths: { preambleDir: string; dataPath: string }, sourcePath: string, ownPidNamespace: boolean, profileName?: string): string[] {
  return [python, '-I', '-X', 'utf8', join(paths.preambleDir, 'opsmind_worker.py'), '--data', paths.dataPath, '--source-path', sourcePath,
    ...(ownPidNamespace ? ['--own-pid-namespace'] : []), ...(profileName ? ['--profile-name', profileName] : [])];
}

/** A session's sandbox. Call `close()` when done; it never outlives the CLI process. */
export class Sandbox {
  private worker: WarmWorker | undefined;
  private starting: Promise<unknown> | undefined;
  private cgroup: PidsCgroup | undefined;
  private counter = 0;
  private readonly root: string;
  private readonly mounts: SandboxMounts;
  private closed = false;
  private readonly onExit = () => this.close();

  private constructor(readonly options: SandboxOptions, readonly isolation: IsolationInfo) {
    sweepDeadSandboxDirs();
    this.root = mkdtempSync(join(tmpdir(), `opsmind-sandbox-${process.pid}-`));
    mkdirSync(join(this.root, 'work'));
    mkdirSync(join(this.root, 'runs'));
    this.mounts = { python: options.python.path, preambleDir: preambleDir(), dataPath: options.dataPath, workdir: join(this.root, 'work') };
    process.once('exit', this.onExit);
  }

  /** Detects isolation, enforces `strict`, and returns a sandbox (the worker starts on the first run). */
  static async open(options: SandboxOptions): Promise<Sandbox> {
    const isolation = await detectIsolation(options.python.path, preambleDir());
    if (options.isolation === 'strict' && isolation.level !== 'bubblewrap') {
      throw new OpsmindError(`--isolation strict needs bubblewrap, but only "${isolation.level}" is available: ${isolation.reason}`, ExitCode.SANDBOX, 'install bubblewrap (apt-get install bubblewrap) or drop --isolation strict');
    }
    return new Sandbox(options, isolation);
  }

  private processRlimit(): number | null {
    return this.isolation.processLimit === 'rlimit' ? this.options.limits.processes : null;
  }

  private async ensureWorker(): Promise<WarmWorker | undefined> {
    if (this.options.warm === false) return undefined;
    if (this.worker && !this.worker.dead) return this.worker;
    this.dropWorker();
    const cgroup = this.isolation.processLimit === 'cgroup' ? createPidsCgroup(this.options.limits.processes + 8) : undefined;
    this.cgroup = cgroup && !('error' in cgroup) ? cgroup : undefined;
    const paths = sandboxPaths(this.isolation.level, this.mounts);
    const inner = workerArgs(this.options.python.path, paths, this.options.dataPath, this.isolation.level !== 'rlimits', this.options.profileName);
    const command = [...(this.cgroup?.enterPrefix ?? []), ...wrapCommand(this.isolation, this.mounts, this.options.limits, inner)];
    try {
      const { worker, ready } = await WarmWorker.start(command, 600_000);
      if (ready.op === 'data_error') {
        worker.kill();
        throw new OpsmindError(`cannot read ${this.options.dataPath}: ${ready.message}`, ExitCode.BAD_INPUT);
      }
      this.worker = worker;
      return worker;
    } catch (error) {
      if (error instanceof OpsmindError) throw error;
      this.dropWorker();
      return undefined; // the cold path runs instead
    }
  }

  private dropWorker(): void {
    this.worker?.kill();
    this.worker = undefined;
    this.cgroup?.remove();
    this.cgroup = undefined;
  }

  /** Starts the warm worker now (it loads the data in the background); the first run waits for it. */
  warmUp(): void {
    this.starting ??= this.ensureWorker().catch(() => undefined).finally(() => { this.starting = undefined; });
  }

  /** Runs one program; never rejects for the program's own failures. */
  async run(request: SandboxRequest): Promise<SandboxRun> {
    if (this.closed) throw new Error('the sandbox is closed');
    const id = `r${(this.counter += 1)}`;
    const hostDir = join(this.mounts.workdir, id);
    mkdirSync(join(hostDir, '.opsmind'), { recursive: true });
    writeFileSync(join(hostDir, '.opsmind', 'program.py'), request.code);
    if (this.starting) await this.starting;
    const worker = await this.ensureWorker();
    const result = worker ? await this.runWarm(worker, id, request) : await this.runCold(id, request);
    const kept = join(this.root, 'runs', id);
    renameSync(hostDir, kept); // later runs cannot see this run's files
    return { ...result, workdir: kept };
  }

  private async runWarm(worker: WarmWorker, id: string, request: SandboxRequest): Promise<SandboxRun> {
    const { limits } = this.options;
    const paths = sandboxPaths(this.isolation.level, this.mounts);
    const workdir = join(paths.workdir, id);
    const started = performance.now();
    const eventsBefore = this.cgroup?.hitLimit() ?? false;
    let aborted = false;
    const onAbort = () => { aborted = true; this.dropWorker(); };
    request.signal?.addEventListener('abort', onAbort, { once: true });
    let reply;
    let lost: WorkerLost | undefined;
    try {
      reply = await worker.run({ id, workdir, script: join(workdir, '.opsmind', 'program.py'), name: request.scriptName, timeout_s: limits.wallSeconds, limits: pythonLimits(limits, this.processRlimit()) }, (limits.wallSeconds + 10) * 1000);
    } catch (error) {
      this.dropWorker();
      lost = error instanceof WorkerLost ? error : new WorkerLost(String(error), 'exited');
      reply = { exit_code: null, signal: 'SIGKILL', timed_out: !aborted && lost.reason === 'timeout', duration_ms: performance.now() - started };
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
    const hostDir = join(this.mounts.workdir, id);
    const stdout = readBounded(join(hostDir, '.opsmind', 'stdout'), limits.outputBytes);
    const stderr = readBounded(join(hostDir, '.opsmind', 'stderr'), limits.outputBytes);
    const processesHit = !eventsBefore && (this.cgroup?.hitLimit() ?? false);
    const base = { exitCode: reply.exit_code, signal: reply.signal, stdout: stdout.text, stderr: stderr.text, stdoutTruncated: stdout.truncated, stderrTruncated: stderr.truncated, timedOut: reply.timed_out, aborted, durationMs: performance.now() - started };
    const hit = lost?.reason === 'exited' && !aborted
      ? 'the sandbox worker died during the run (the program may have killed it); the next run starts a new one'
      : limitHit(base, hostDir, limits, processesHit);
    return { ...base, workdir: hostDir, isolation: this.isolation.level, warm: true, dataError: null, limitHit: hit };
  }

  private async runCold(id: string, request: SandboxRequest): Promise<SandboxRun> {
    const cold = await runCold({ isolation: this.isolation, mounts: this.mounts, limits: this.options.limits, id, scriptName: request.scriptName, processRlimit: this.processRlimit(), ...(request.signal ? { signal: request.signal } : {}) });
    return { ...cold, workdir: join(this.mounts.workdir, id), isolation: this.isolation.level, warm: false };
  }

  /** Stops the worker, kills anything left, removes the sandbox's files. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.off('exit', this.onExit);
    this.dropWorker();
    rmSync(this.root, { recursive: true, force: true });
  }
}
