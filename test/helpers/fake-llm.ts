/**
 * A fake OpenAI-compatible server on 127.0.0.1 with scripted responses, so tests drive
 * the real `openai` client over real HTTP (DESIGN.md: tests use the model seam, not mocks).
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted answer to one POST /v1/chat/completions, served in queue order. */
export type Scripted =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  /** cut: drop the connection after the chunks; stall: send the chunks, then nothing; omitDone: end cleanly without [DONE]. */
  | { kind: 'stream'; chunks: unknown[]; cut?: boolean; stall?: boolean; omitDone?: boolean }
  /** hang: never answer, until the client gives up (its abort or timeout closes the connection; see `dropped`). */
  | { kind: 'hang' }
  | { kind: 'reset' }
  /** slow: serve `then` after `ms` (a server slower than the client's time limit). */
  | { kind: 'slow'; ms: number; then: Scripted };

/** A request the fake received. */
export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** A running fake; `close()` it (it destroys open sockets, so hanging requests end too). */
export interface FakeLlm {
  /** e.g. http://127.0.0.1:PORT/v1 — use as OPENAI_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** How many requests ended before their answer was complete: the client gave up (abort, timeout), or a cut/reset script. */
  readonly dropped: number;
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<void>;
  enqueue(...responses: Scripted[]): void;
  close(): Promise<void>;
}

/** What a scripted completion contains. */
export interface CompletionOptions {
  text?: string | null;
  toolCalls?: { name: string; arguments: string; id?: string }[];
  /** Null sends no usage; default 12 prompt + 7 completion tokens. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  finishReason?: string;
  model?: string;
}

const DEFAULT_USAGE = { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 };
const CREATED = 1_700_000_000;

function finishOf(opts: CompletionOptions): string {
  return opts.finishReason ?? ((opts.toolCalls ?? []).length > 0 ? 'tool_calls' : 'stop');
}

function callId(call: { id?: string }, index: number): string {
  return call.id ?? `call_fake_${index}`;
}

/** A `chat.completion` body with that text and/or tool calls. */
export function completion(opts: CompletionOptions = {}): unknown {
  const calls = (opts.toolCalls ?? []).map((c, i) => ({
    id: callId(c, i),
    type: 'function',
    function: { name: c.name, arguments: c.arguments },
  }));
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: CREATED,
    model: opts.model ?? 'fake-model',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: opts.text ?? null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          refusal: null,
        },
        finish_reason: finishOf(opts),
        logprobs: null,
      },
    ],
    ...(opts.usage === null ? {} : { usage: opts.usage ?? DEFAULT_USAGE }),
  };
}

/** Splits text into (at most) three non-empty pieces. */
function pieces(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * `chat.completion.chunk` objects that together make `completion(opts)`: the text in a
 * few deltas, each tool call's id/name first and its arguments split across deltas,
 * then the finish_reason, then (unless usage is null) a usage-only chunk.
 */
export function streamChunks(opts: CompletionOptions = {}): unknown[] {
  const model = opts.model ?? 'fake-model';
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const part of pieces(opts.text ?? '')) chunks.push(chunk({ content: part }));
  for (const [index, call] of (opts.toolCalls ?? []).entries()) {
    const head = {
      index,
      id: callId(call, index),
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunks.push(chunk({ tool_calls: [head] }));
    for (const part of pieces(call.arguments))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  }
  chunks.push(chunk({}, finishOf(opts)));
  if (opts.usage !== null) {
    chunks.push({
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      choices: [],
      usage: opts.usage ?? DEFAULT_USAGE,
    });
  }
  return chunks;
}

/** An OpenAI-style error response with that status (add headers such as Retry-After). */
export function errorBody(
  status: number,
  message: string,
  headers?: Record<string, string>,
): Scripted {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return {
    kind: 'json',
    status,
    body: { error: { message, type, param: null, code: null } },
    ...(headers ? { headers } : {}),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function sendStream(res: ServerResponse, step: Extract<Scripted, { kind: 'stream' }>): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const data of step.chunks) res.write(`data: ${JSON.stringify(data)}\n\n`);
  if (step.cut) {
    // Flush what was written, then drop the connection without the final chunk or [DONE].
    res.write('', () => res.socket?.destroy());
    return;
  }
  if (step.stall) return; // Headers and chunks sent; the rest never comes. close() ends it.
  if (!step.omitDone) res.write('data: [DONE]\n\n');
  res.end();
}

function serve(res: ServerResponse, step: Scripted | undefined, count: number): void {
  if (!step) {
    const message = `fake-llm: no scripted response left for request #${count}`;
    sendJson(res, 500, { error: { message, type: 'server_error', param: null, code: null } });
    return;
  }
  switch (step.kind) {
    case 'json':
      sendJson(res, step.status ?? 200, step.body, step.headers);
      return;
    case 'stream':
      sendStream(res, step);
      return;
    case 'hang':
      return; // Never answer; close() destroys the socket.
    case 'reset':
      res.socket?.destroy();
      return;
    case 'slow': {
      const timer = setTimeout(() => serve(res, step.then, count), step.ms);
      res.once('close', () => clearTimeout(timer));
      return;
    }
  }
}

function parseBody(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { value };
  } catch {
    return { unparsed: text };
  }
}

/** Starts a fake on a free loopback port, with an optional initial script. */
export async function startFakeLlm(script: Scripted[] = []): Promise<FakeLlm> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const arrivals: { count: number; resolve: () => void }[] = [];
  let dropped = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    res.once('close', () => {
      if (!res.writableFinished) dropped += 1;
    });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const path = req.url ?? '';
      requests.push({
        path,
        body: parseBody(Buffer.concat(parts).toString('utf8')),
        headers: { ...req.headers },
      });
      for (const waiter of arrivals.filter((a) => a.count <= requests.length)) {
        arrivals.splice(arrivals.indexOf(waiter), 1);
        waiter.resolve();
      }
      if (req.method === 'POST' && path.startsWith('/v1/chat/completions'))
        serve(res, queue.shift(), requests.length);
      else
        sendJson(res, 404, {
          error: {
            message: `fake-llm: no route ${req.method ?? ''} ${path}`,
            type: 'invalid_request_error',
          },
        });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    get dropped() {
      return dropped;
    },
    received: (count) =>
      requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => void arrivals.push({ count, resolve })),
    enqueue: (...responses) => void queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
