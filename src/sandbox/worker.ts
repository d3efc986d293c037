/**
 * The host side of the warm worker (preamble/opsmind_worker.py): a sandboxed
 * Python that has loaded the dataset once and forks a child per run.
 * One request at a time; a worker that dies or hangs is killed and reported,
 * and the caller starts a new one.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { TruncatingCollector } from './truncate.js';

/** A reply of the worker. */
export type WorkerReply =
  | { op: 'ready'; load_ms: number; rows: number; columns: number }
  | { op: 'data_error'; message: string }
  | { op: 'done'; id: string; exit_code: number | null; signal: string | null; timed_out: boolean; duration_ms: number; killed: number };

/** One run request, in the sandbox's paths. */
export interface WorkerRequest {
  id: string;
  workdir: string;
  script: string;
  name: string;
  timeout_s: number;
  limits: Record<string, number | null>;
}

/** Raised when the worker is gone (`exited`) or does not answer in time (`timeout`). */
export class WorkerLost extends Error {
  constructor(message: string, readonly reason: 'exited' | 'timeout') {
    super(message);
  }
}

/** A started worker process speaking the JSON-lines protocol. */
export class WarmWorker {
  private readonly pending: ((reply: WorkerReply | Error) => void)[] = [];
  private readonly stderr = new TruncatingCollector(64 * 1024);
  private exited = false;

  private constructor(private readonly child: ChildProcessByStdio<Writable, Readable, Readable>) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let reply: WorkerReply;
      try {
        reply = JSON.parse(line) as WorkerReply;
      } catch {
        return; // never from a well-behaved worker; ignore rather than desynchronise
      }
      this.pending.shift()?.(reply);
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.once('exit', () => {
      this.exited = true;
      for (const waiter of this.pending.splice(0)) waiter(new WorkerLost(`the worker exited: ${this.stderr.text().trim().split('\n').slice(-3).join(' | ') || 'no message'}`, 'exited'));
    });
    child.stdin.on('error', () => undefined);
  }

  /** Spawns the worker command and waits for its ready (or data_error) line. */
  static async start(command: string[], timeoutMs: number): Promise<{ worker: WarmWorker; ready: WorkerReply }> {
    const [file, ...args] = command;
    if (!file) throw new Error('empty worker command');
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
    const worker = new WarmWorker(child);
    const ready = await worker.next(timeoutMs);
    return { worker, ready };
  }

  /** The process id of the worker's outermost process (bwrap or a cgroup shell). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True once the worker process has exited. */
  get dead(): boolean {
    return this.exited;
  }

  private next(timeoutMs: number): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new WorkerLost('the worker is not running', 'exited'));
      const timer = setTimeout(() => {
        const index = this.pending.indexOf(waiter);
        if (index >= 0) this.pending.splice(index, 1);
        reject(new WorkerLost(`the worker did not answer within ${Math.round(timeoutMs / 1000)} s`, 'timeout'));
      }, timeoutMs);
      const waiter = (reply: WorkerReply | Error) => {
        clearTimeout(timer);
        if (reply instanceof Error) reject(reply);
        else resolve(reply);
      };
      this.pending.push(waiter);
    });
  }

  /** Sends one run and waits for its `done` reply. */
  async run(request: WorkerRequest, timeoutMs: number): Promise<Extract<WorkerReply, { op: 'done' }>> {
    const answer = this.next(timeoutMs);
    this.child.stdin.write(`${JSON.stringify({ op: 'run', ...request })}\n`);
    const reply = await answer;
    if (reply.op !== 'done' || reply.id !== request.id) throw new WorkerLost(`unexpected worker reply: ${JSON.stringify(reply).slice(0, 200)}`, 'exited');
    return reply;
  }

  /** Ends the worker (closing stdin lets it exit; SIGKILL if it does not). */
  kill(): void {
    this.child.stdin.end();
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
