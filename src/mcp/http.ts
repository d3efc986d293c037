/**
 * The MCP server over Streamable HTTP, for clients that are not on this machine's stdio. Every
 * request passes, in order: the Host check (a loopback server answers only to loopback names,
 * so DNS rebinding cannot reach it), the Origin check (a browser page from elsewhere gets 403,
 * as the MCP specification requires), the bearer token (compared in constant time; 401), and a
 * body limit (413). Each MCP session gets its own server and its own analysis sessions; idle
 * ones close. `/metrics` serves Prometheus text behind the same token.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Metrics } from './metrics.js';
import { clientServer } from './server.js';
import type { ClientServer, ServerSettings } from './server.js';

/** How the HTTP server listens and whom it lets in. */
export interface HttpOptions {
  host: string;
  port: number;
  token: string;
  /** Origins allowed besides the server's own loopback ones (e.g. https://app.example.com). */
  allowedOrigins: readonly string[];
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  /** Close an MCP session after this long without a request, in ms. */
  idleMs: number;
  /** At most this many MCP sessions at once (503 beyond). */
  maxClients: number;
  metrics: Metrics;
}

/** A running HTTP server. */
export interface HttpServer {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Whether the Authorization header carries the token (constant time in its content). */
function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const header = req.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return timingSafeEqual(digest(match?.[1] ?? ''), expected) && match !== null;
}

/** The host name of a Host header, lower-cased (host names are case-insensitive), without its port. */
function hostName(host: string): string {
  const lower = host.toLowerCase();
  const bracket = /^\[([^\]]+)\]/.exec(lower);
  if (bracket) return `[${bracket[1]}]`;
  return lower.replace(/:\d+$/, '');
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function plain(res: ServerResponse, status: number, text: string, headers = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(`${text}\n`);
}

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, max: number): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > max) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) throw new BodyTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

interface Client extends ClientServer {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/** Starts the HTTP server; resolves once it listens. */
export async function serveHttp(
  settings: ServerSettings,
  options: HttpOptions,
): Promise<HttpServer> {
  const expected = digest(options.token);
  const clients = new Map<string, Client>();
  let httpServer: Server | null = null;

  const origins = (port: number): Set<string> =>
    new Set([
      `http://127.0.0.1:${port}`,
      `http://localhost:${port}`,
      `http://[::1]:${port}`,
      ...options.allowedOrigins.map((o) => o.replace(/\/$/, '')),
    ]);
  let allowed = new Set<string>();
  const loopbackOnly = LOOPBACK.has(options.host);

  async function closeClient(id: string): Promise<void> {
    const client = clients.get(id);
    if (!client) return;
    clients.delete(id);
    await client.sessions.close();
    await client.server.close().catch(() => undefined);
  }

  async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sessionHeader = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    let body: unknown;
    if (req.method === 'POST') {
      let text: string;
      try {
        text = await readBody(req, options.maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLarge)
          return jsonRpcError(res, 413, -32600, `request body over ${options.maxBodyBytes} bytes`);
        throw error;
      }
      try {
        body = JSON.parse(text);
      } catch {
        return jsonRpcError(res, 400, -32700, 'parse error: the body is not JSON');
      }
      for (const message of Array.isArray(body) ? body : [body])
        if (message && typeof message === 'object' && 'method' in message && 'id' in message)
          options.metrics.request(String((message as { method: unknown }).method));
    }
    if (sessionId) {
      const client = clients.get(sessionId);
      if (!client) return jsonRpcError(res, 404, -32001, 'unknown or expired MCP session');
      client.lastSeen = Date.now();
      await client.transport.handleRequest(req, res, body);
      if (req.method === 'DELETE') await closeClient(sessionId);
      return;
    }
    const initializing =
      req.method === 'POST' &&
      (Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body));
    if (!initializing)
      return jsonRpcError(res, 400, -32000, 'no MCP session: send an initialize request first');
    if (clients.size >= options.maxClients)
      return jsonRpcError(
        res,
        503,
        -32000,
        `the server has ${options.maxClients} sessions open; try later`,
      );
    const built = clientServer(settings);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        clients.set(id, { ...built, transport, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) void closeClient(transport.sessionId);
    };
    await built.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const host = req.headers.host ?? '';
    if (loopbackOnly && !LOOPBACK.has(hostName(host)))
      return plain(res, 403, 'forbidden: this server answers only to a loopback Host');
    const origin = req.headers.origin;
    if (origin !== undefined && !allowed.has(origin.replace(/\/$/, '')))
      return plain(res, 403, `forbidden: Origin ${origin} is not allowed (see --allow-origin)`);
    if (!authorized(req, expected))
      return plain(res, 401, 'unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer realm="opsmind"',
      });
    if (url.pathname === '/metrics') {
      if (req.method !== 'GET') return plain(res, 405, 'method not allowed', { allow: 'GET' });
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
      res.end(options.metrics.text());
      return;
    }
    if (url.pathname !== '/mcp') return plain(res, 404, 'not found: the MCP endpoint is /mcp');
    if (!['GET', 'POST', 'DELETE'].includes(req.method ?? ''))
      return plain(res, 405, 'method not allowed', { allow: 'GET, POST, DELETE' });
    await handleMcp(req, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      settings.log({
        level: 'error',
        event: 'http_error',
        message: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      jsonRpcError(res, 500, -32603, 'internal server error');
    });
  });
  server.headersTimeout = 30_000;
  server.requestTimeout = 0; // SSE responses of long calls stay open; calls have their own limit
  httpServer = server;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolvePromise();
    });
  });
  const port = (server.address() as AddressInfo).port;
  allowed = origins(port);
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, client] of clients)
        if (now - client.lastSeen > options.idleMs) void closeClient(id);
    },
    Math.min(60_000, options.idleMs),
  );
  sweep.unref();
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}/mcp`,
    async close() {
      clearInterval(sweep);
      await Promise.all([...clients.keys()].map((id) => closeClient(id)));
      await new Promise<void>((r) => {
        httpServer?.close(() => r());
        httpServer?.closeAllConnections();
      });
    },
  };
}
