/**
 * `opsmind mcp`: OpsMind's tools as an MCP server, over stdio (local clients such as Claude
 * Desktop and Cursor start it themselves) or Streamable HTTP (token, Origin check, metrics).
 * On stdio, stdout carries protocol messages only: everything else, logs included, goes to
 * stderr as JSON lines.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serveHttp } from '../mcp/http.js';
import { Metrics } from '../mcp/metrics.js';
import { DEFAULT_RESULT_CHARS } from '../mcp/results.js';
import { DatasetRoots } from '../mcp/roots.js';
import { clientServer } from '../mcp/server.js';
import type { ServerSettings } from '../mcp/server.js';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { dataHome } from '../store/paths.js';
import { terminalJson } from '../util/terminal-text.js';
import {
  addSandboxOptions,
  engineMemoryFrom,
  isolationFrom,
  limitsFrom,
} from './sandbox-options.js';
import type { SandboxFlags } from './sandbox-options.js';
import { openStore } from './store-option.js';

interface McpOptions extends SandboxFlags {
  root: string[];
  transport: string;
  host: string;
  port: string;
  token?: string;
  allowOrigin: string[];
  mask: boolean;
  maxResultChars: string;
  callTimeout: string;
  reportsDir?: string;
  maxBodyKb: string;
}

function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new OpsmindError(`${flag} must be a positive number, got "${value}"`, ExitCode.BAD_INPUT);
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** One JSON line on stderr (stdout is the protocol's). */
function logLine(record: Record<string, unknown>): void {
  process.stderr.write(`${terminalJson({ ts: new Date().toISOString(), ...record })}\n`);
}

/** Nothing a library prints may reach stdout on stdio: console output goes to stderr. */
function guardStdout(): void {
  for (const name of ['log', 'info', 'debug', 'warn'] as const)
    console[name] = (...args: unknown[]) =>
      logLine({ level: 'warn', event: 'console', message: args.map(String).join(' ') });
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => resolve(signal));
  });
}

async function mcpCommand(program: Command, options: McpOptions): Promise<number> {
  const transport = options.transport;
  if (transport !== 'stdio' && transport !== 'http')
    throw new OpsmindError(
      `--transport must be stdio or http, got "${transport}"`,
      ExitCode.BAD_INPUT,
    );
  if (transport === 'stdio') guardStdout();
  const roots = new DatasetRoots(options.root.length ? options.root : [process.cwd()]);
  const limits = limitsFrom(options);
  const metrics = new Metrics();
  const store = openStore(program);
  const settings: ServerSettings = {
    store,
    roots,
    sandbox: { limits, isolation: isolationFrom(options), warm: true },
    engineMemoryMb: engineMemoryFrom(options),
    policy: {
      mask: options.mask,
      maxChars: Math.max(1000, Math.floor(positive(options.maxResultChars, '--max-result-chars'))),
    },
    callTimeoutMs: positive(options.callTimeout, '--call-timeout') * 1000,
    reportsDir: options.reportsDir ?? join(dataHome(), 'mcp-reports'),
    log: logLine,
    metrics,
  };
  logLine({
    level: 'info',
    event: 'start',
    transport,
    roots: roots.roots,
    mask: options.mask,
    reports_dir: settings.reportsDir,
  });
  try {
    if (transport === 'stdio') {
      const { server, sessions } = clientServer(settings);
      const stdio = new StdioServerTransport();
      const closed = new Promise<string>((resolve) => {
        stdio.onclose = () => resolve('stdin closed');
        process.stdin.once('end', () => resolve('stdin closed'));
      });
      await server.connect(stdio);
      const why = await Promise.race([closed, waitForSignal()]);
      logLine({ level: 'info', event: 'stop', reason: why });
      await sessions.close();
      await server.close().catch(() => undefined);
      return ExitCode.OK;
    }
    const given = options.token ?? process.env.OPSMIND_MCP_TOKEN;
    const token = given || randomBytes(24).toString('base64url');
    const http = await serveHttp(settings, {
      host: options.host,
      port: Math.floor(Number(options.port)),
      token,
      allowedOrigins: options.allowOrigin,
      maxBodyBytes: Math.floor(positive(options.maxBodyKb, '--max-body-kb') * 1024),
      idleMs: 30 * 60_000,
      maxClients: 64,
      metrics,
    });
    logLine({
      level: 'info',
      event: 'listening',
      url: http.url,
      metrics: http.url.replace(/\/mcp$/, '/metrics'),
    });
    if (!given)
      process.stderr.write(
        `opsmind mcp: token (send as "Authorization: Bearer <token>"): ${token}\n`,
      );
    const why = await waitForSignal();
    logLine({ level: 'info', event: 'stop', reason: why });
    await http.close();
    return ExitCode.OK;
  } finally {
    store.close();
  }
}

/** Registers `opsmind mcp`. */
export function registerMcp(program: Command): void {
  const command = program
    .command('mcp')
    .description(
      'serve OpsMind’s tools to MCP clients (Claude Desktop, Cursor, …) over stdio or HTTP',
    )
    .option(
      '--root <dir>',
      'a folder whose data files clients may read (repeatable; default: the current directory)',
      collect,
      [],
    )
    .option('--transport <kind>', 'stdio (a local client starts the server) or http', 'stdio')
    .option('--host <address>', 'HTTP: the address to listen on', '127.0.0.1')
    .option('--port <n>', 'HTTP: the port (0 picks a free one)', '8765')
    .option(
      '--token <token>',
      'HTTP: the bearer token clients send (default: $OPSMIND_MCP_TOKEN, else one is generated and printed on stderr)',
    )
    .option(
      '--allow-origin <origin>',
      'HTTP: a browser Origin allowed besides loopback (repeatable)',
      collect,
      [],
    )
    .option('--no-mask', 'do not mask e-mail addresses, phone and card numbers in tool results')
    .option(
      '--max-result-chars <n>',
      'the longest tool result, in characters',
      String(DEFAULT_RESULT_CHARS),
    )
    .option('--call-timeout <seconds>', 'the wall-clock limit of one tool call', '600')
    .option('--max-body-kb <n>', 'HTTP: the largest request body', '1024')
    .option(
      '--reports-dir <dir>',
      'where session reports are written (default: the data dir’s mcp-reports)',
    );
  addSandboxOptions(command).action(async (options: McpOptions) => {
    process.exitCode = await mcpCommand(program, options);
  });
}
