/**
 * Clients of `opsmind mcp` over stdio for the end-to-end tests: the official SDK client on the
 * built binary (its stderr log kept), and a bare newline-delimited JSON-RPC client that sees
 * every byte the server writes on stdout.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT, testHome } from './fixtures.js';

/** The server's arguments: `opsmind mcp --root DIR --reports-dir DIR …`. */
export function mcpArgs(dataDir: string, reportsDir: string, extra: string[] = []): string[] {
  return [
    join(ROOT, 'bin', 'opsmind.js'),
    'mcp',
    '--root',
    dataDir,
    '--reports-dir',
    reportsDir,
    ...extra,
  ];
}

/** The server's environment: a private store, plus `overlay`. */
export function mcpEnv(overlay: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, OPSMIND_HOME: testHome(), OPSMIND_DB: '', ...overlay };
}

/** One JSON log line of the server's stderr. */
export type LogLine = Record<string, unknown>;

/** A connected SDK client and the server's stderr so far. */
export interface McpConnection {
  client: Client;
  stderr: () => string;
  /** The stderr lines that parse as JSON objects. */
  logs: () => LogLine[];
  close: () => Promise<void>;
}

/** The JSON objects among `text`'s lines. */
export function jsonLines(text: string): LogLine[] {
  const out: LogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      out.push(JSON.parse(line) as LogLine);
    } catch {
      continue;
    }
  }
  return out;
}

/** Starts `opsmind mcp` with the SDK's stdio transport and connects the SDK client to it. */
export async function connectMcp(
  args: string[],
  env: Record<string, string> = mcpEnv(),
): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'opsmind-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    logs: () => jsonLines(stderr),
    close: () => client.close(),
  };
}

/** The text of a tool result (its text parts joined). */
export function textOf(result: Record<string, unknown>): string {
  const parts = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  return parts
    .map((p) => (p && typeof p === 'object' && 'text' in p ? String(p.text) : ''))
    .join('\n');
}

/** The session id a dataset tool result starts with. */
export function sessionOf(text: string): string {
  const id = /^session: ([0-9a-z-]+)$/m.exec(text)?.[1];
  if (!id) throw new Error(`no "session: <id>" line in:\n${text}`);
  return id;
}

/** Waits until `check` holds (polling), else fails with `what`. */
export async function eventually<T>(
  check: () => T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A bare JSON-RPC client on the server's stdin/stdout, keeping every stdout line raw. */
export interface RawMcp {
  child: ChildProcessWithoutNullStreams;
  stdoutLines: string[];
  stderr: () => string;
  /** Sends a request and resolves with its response message. */
  request: (id: number, method: string, params?: unknown) => Promise<Record<string, unknown>>;
  notify: (method: string, params?: unknown) => void;
  /** Closes stdin and resolves with the exit code. */
  end: () => Promise<number | null>;
}

/** Starts `opsmind mcp` as a plain child process speaking newline-delimited JSON-RPC. */
export function rawMcp(args: string[], env: Record<string, string> = mcpEnv()): RawMcp {
  const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stdoutLines: string[] = [];
  let pending = '';
  let stderr = '';
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      stdoutLines.push(line);
      try {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (typeof message.id === 'number') waiting.get(message.id)?.(message);
      } catch {
        // kept in stdoutLines: the test reports a line that is not JSON
      }
      newline = pending.indexOf('\n');
    }
  });
  const send = (message: Record<string, unknown>): void => {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  };
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return {
    child,
    stdoutLines,
    stderr: () => stderr,
    request: (id, method, params) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no response to ${method}`)), 30_000);
        waiting.set(id, (message) => {
          clearTimeout(timer);
          resolve(message);
        });
        send({ id, method, ...(params === undefined ? {} : { params }) });
      }),
    notify: (method, params) => send({ method, ...(params === undefined ? {} : { params }) }),
    end: () => {
      child.stdin.end();
      return exited;
    },
  };
}
