/**
 * The batch's worker pool: `jobs` worker processes (batch/worker-main.ts), each with its own
 * engine and sandbox and a bounded heap, fed one file at a time. A file that outlives its time
 * limit has its worker killed (with the worker's process group; sandboxes die with their
 * parent) and reported as failed; a worker that dies (out of memory, a crash) fails only its
 * file; either way a fresh worker takes its place and the other files go on.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Job, JobResult } from './worker.js';

/** How the pool runs. */
export interface PoolOptions {
  jobs: number;
  /** Wall-clock limit of one file, in ms. */
  fileTimeoutMs: number;
  /** The session store every worker writes its sessions to. */
  dbPath: string;
  /** The V8 heap limit of each worker, in MB. */
  heapMb: number;
}

interface Pending {
  job: Job;
  resolve: (result: JobResult) => void;
}

interface Slot {
  child: ChildProcess;
  ready: Promise<void>;
  busy: Pending | null;
  timer: NodeJS.Timeout | null;
  started: number;
  /** Killed (its file timed out): it takes no more jobs and is replaced once it exits. */
  dead: boolean;
}

/** The worker's entry, compiled (dist) or run through tsx (tests from source). */
function workerEntry(): { path: string; execArgv: string[] } {
  const here = import.meta.url;
  if (here.endsWith('.ts'))
    return {
      path: fileURLToPath(new URL('./worker-main.ts', here)),
      execArgv: ['--import', 'tsx'],
    };
  return { path: fileURLToPath(new URL('./worker-main.js', here)), execArgv: [] };
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** A pool of batch workers. */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    for (let i = 0; i < Math.max(1, options.jobs); i++) this.slots.push(this.spawn());
  }

  private spawn(): Slot {
    const entry = workerEntry();
    const child = fork(entry.path, [], {
      execArgv: [...entry.execArgv, `--max-old-space-size=${this.options.heapMb}`],
      env: { ...process.env, OPSMIND_BATCH_DB: this.options.dbPath },
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      detached: true, // its own process group, killed whole when a file outlives its limit
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4000);
    });
    const slot: Slot = {
      child,
      busy: null,
      timer: null,
      started: 0,
      dead: false,
      ready: new Promise((resolve) => {
        child.once('message', () => resolve());
        child.once('exit', () => resolve());
      }),
    };
    // A worker that died mid-send (EPIPE, a closed channel) is handled by its 'exit'.
    child.on('error', () => undefined);
    child.on('message', (message: { type: string; id?: number; result?: JobResult }) => {
      if (message.type !== 'result' || !slot.busy || slot.busy.job.id !== message.id) return;
      if (message.result) this.settle(slot, message.result);
    });
    child.on('exit', (code, signal) => {
      // Killed by a signal, exitCode stays null: mark it, so its file's settle gives no job to it.
      slot.dead = true;
      const pending = slot.busy;
      if (pending) {
        const last = stderr.trim().split('\n').at(-1) ?? '';
        this.settle(slot, {
          ok: false,
          error: `the worker died (${signal ?? `exit ${code}`})${/heap|memory/i.test(stderr) ? ': out of memory' : last ? `: ${last}` : ''}`,
          session: null,
          report: false,
          seconds: (performance.now() - slot.started) / 1000,
        });
      }
      this.replace(slot);
    });
    return slot;
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    if (this.closed) {
      this.slots.splice(i, 1);
      return;
    }
    this.slots[i] = this.spawn();
    this.pump();
  }

  private settle(slot: Slot, result: JobResult): void {
    const pending = slot.busy;
    if (!pending) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = null;
    pending.resolve(result);
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (
        this.closed ||
        slot.busy ||
        slot.dead ||
        slot.child.exitCode !== null ||
        !this.queue.length
      )
        continue;
      const next = this.queue.shift();
      if (!next) return;
      slot.busy = next;
      void slot.ready.then(() => {
        if (slot.busy !== next) return;
        slot.started = performance.now();
        slot.timer = setTimeout(() => {
          const limit = this.options.fileTimeoutMs / 1000;
          slot.dead = true;
          this.settle(slot, {
            ok: false,
            error: `stopped after the ${limit} s time limit per file (raise it with --file-timeout)`,
            session: null,
            report: false,
            seconds: limit,
          });
          killGroup(slot.child);
        }, this.options.fileTimeoutMs);
        if (!slot.child.connected) return; // it died: 'exit' fails the job and replaces it
        slot.child.send({ type: 'job', job: next.job }, (error) => {
          if (error) killGroup(slot.child);
        });
      });
    }
  }

  /** Runs one job on the next free worker. */
  run(job: Job): Promise<JobResult> {
    return new Promise((resolve) => {
      this.queue.push({ job, resolve });
      this.pump();
    });
  }

  /** Jobs waiting and running are ended as not run (stopped); workers are stopped. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const stopped: JobResult = {
      ok: false,
      error: 'not run: the batch stopped',
      session: null,
      report: false,
      seconds: 0,
    };
    for (const pending of this.queue.splice(0)) pending.resolve(stopped);
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.dead = true;
      const running = slot.busy;
      slot.busy = null;
      running?.resolve(stopped);
      killGroup(slot.child);
    }
  }
}
