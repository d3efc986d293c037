/**
 * The host side of the sandbox worker (preamble/opsmind_worker.py): a
 * sandboxed Python that has loaded the dataset and forks a child per run.
 * One request at a time. A run's files arrive over the protocol pipe and are
 * written into a host-only directory by `FileSink`; the host never opens a
 * path the sandbox can write. Every reply is parsed with zod; a worker that
 * dies, hangs or speaks out of turn is killed and reported.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { FileSink } from './file-sink.js';
import { TruncatingCollector } from './truncate.js';

const ReadySchema = z.object({
  op: z.literal('ready'),
  load_ms: z.number(),
  rows: z.number(),
  columns: z.number(),
});
const DataErrorSchema = z.object({ op: z.literal('data_error'), message: z.string() });
const FileSchema = z.object({
  op: z.literal('file'),
  name: z.string(),
  data: z.string(),
  more: z.boolean(),
});
const DoneSchema = z.object({
  op: z.literal('done'),
  id: z.string(),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  duration_ms: z.number(),
  killed: z.number(),
  stdout: z.string(),
  stdout_dropped: z.number(),
  stderr: z.string(),
  stderr_dropped: z.number(),
  skipped: z.array(z.string()),
});
const ReplySchema = z.discriminatedUnion('op', [
  ReadySchema,
  DataErrorSchema,
  FileSchema,
  DoneSchema,
]);

/** A reply of the worker. */
export type WorkerReply = z.infer<typeof ReplySchema>;
/** The end of one run, as the worker reports it. */
export type WorkerDone = z.infer<typeof DoneSchema>;

/** One run request. */
export interface WorkerRequest {
  id: string;
  name: string;
  code: string;
  timeout_s: number;
  limits: Record<string, number | null>;
  output_bytes: number;
  max_bundle_bytes: number;
  /** Cap on any one file, and smaller caps for named files. */
  max_file_bytes: number;
  file_caps: Record<string, number>;
}

/** Raised when the worker is gone (`exited`) or does not answer in time (`timeout`). */
export class WorkerLost extends Error {
  constructor(
    message: string,
    readonly reason: 'exited' | 'timeout',
    /** How the worker process ended, when it did: a crash shows as a signal or a status of 128+n. */
    readonly exit: { code: number | null; signal: string | null } | null = null,
  ) {
    super(message);
  }

  /** True when the worker was killed by a signal (a crash such as a failed allocation), not an exit. */
  get crashed(): boolean {
    return this.exit !== null && (this.exit.signal !== null || (this.exit.code ?? 0) >= 128);
  }
}

/** A started worker process speaking the JSON-lines protocol. */
export class WarmWorker {
  private readonly pending: ((reply: WorkerReply | Error) => void)[] = [];
  private readonly stderr = new TruncatingCollector(64 * 1024);
  private sink: FileSink | undefined;
  private exited = false;

  /** Wraps a spawned worker (stdin, stdout and stderr pipes). */
  constructor(private readonly child: ChildProcess) {
    if (!child.stdout || !child.stdin || !child.stderr)
      throw new Error('the worker needs stdin, stdout and stderr pipes');
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) =>
      this.onLine(line),
    );
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk));
    child.once('exit', (code, signal) => {
      this.exited = true;
      for (const waiter of this.pending.splice(0))
        waiter(
          new WorkerLost(`the worker exited: ${this.lastWords()}`, 'exited', { code, signal }),
        );
    });
    child.stdin.on('error', () => undefined);
  }

  private lastWords(): string {
    return this.stderr.text().trim().split('\n').slice(-3).join(' | ') || 'no message';
  }

  private onLine(line: string): void {
    let reply: WorkerReply;
    try {
      reply = ReplySchema.parse(JSON.parse(line));
    } catch {
      this.protocolError(`the worker sent an unreadable line (${line.slice(0, 80)})`);
      return;
    }
    if (reply.op === 'file') {
      if (!this.sink) return this.protocolError('the worker sent a file outside a run');
      this.sink.write(reply.name, Buffer.from(reply.data, 'base64'), reply.more);
      return;
    }
    this.pending.shift()?.(reply);
  }

  private protocolError(message: string): void {
    for (const waiter of this.pending.splice(0)) waiter(new WorkerLost(message, 'exited'));
    this.kill();
  }

  /** The process id of the worker's outermost process (bwrap or a cgroup shell). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True once the worker process has exited. */
  get dead(): boolean {
    return this.exited;
  }

  /** Waits for the ready (or data_error) line. */
  ready(timeoutMs: number): Promise<WorkerReply> {
    return this.next(timeoutMs);
  }

  private next(timeoutMs: number): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      if (this.exited)
        return reject(new WorkerLost(`the worker is not running: ${this.lastWords()}`, 'exited'));
      const timer = setTimeout(() => {
        const index = this.pending.indexOf(waiter);
        if (index >= 0) this.pending.splice(index, 1);
        reject(
          new WorkerLost(
            `the worker did not answer within ${Math.round(timeoutMs / 1000)} s`,
            'timeout',
          ),
        );
      }, timeoutMs);
      const waiter = (reply: WorkerReply | Error) => {
        clearTimeout(timer);
        if (reply instanceof Error) reject(reply);
        else resolve(reply);
      };
      this.pending.push(waiter);
    });
  }

  /** Sends one run; its files are written into `sink`; resolves with the `done` reply. */
  async run(request: WorkerRequest, sink: FileSink, timeoutMs: number): Promise<WorkerDone> {
    this.sink = sink;
    try {
      const answer = this.next(timeoutMs);
      this.child.stdin?.write(`${JSON.stringify({ op: 'run', ...request })}\n`);
      const reply = await answer;
      if (reply.op !== 'done' || reply.id !== request.id)
        throw new WorkerLost(`unexpected worker reply: ${reply.op}`, 'exited');
      return reply;
    } finally {
      sink.close();
      this.sink = undefined;
    }
  }

  /** Ends the worker (closing stdin lets it exit; SIGKILL if it does not). */
  kill(): void {
    this.child.stdin?.end();
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
