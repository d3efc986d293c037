/**
 * `opsmind mcp --transport http`, end to end over the network: the Host, Origin, token and body
 * checks answered with raw requests; every tool, resource and prompt through the SDK's own
 * Streamable HTTP client; eight concurrent clients kept apart; the per-call time limit;
 * cancellation; masking; session deletion; and the Prometheus metrics the calls leave behind.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { basename, join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, salesCsv, tempDir, testHome } from './helpers/fixtures.js';

const TOKEN = 'test-token-3f9a';
const APP_ORIGIN = 'https://app.example.com';
const SLOW = 120_000;
const SLOW_TEST = { timeout: 240_000 };

/** A running `opsmind mcp --transport http` and what the test sent it. */
interface Served {
  child: ChildProcess;
  url: string;
  port: number;
  token: string;
  stderr: () => string;
  /** JSON-RPC requests this test sent, by method. */
  sent: Map<string, number>;
  /** How the test's tool calls ended, by `tool outcome` (ok, isError, rejected). */
  ended: Map<string, number>;
}

/** An SDK client connected to a server. */
interface Conn {
  client: Client;
  transport: StreamableHTTPClientTransport;
  served: Served;
}

const children: ChildProcess[] = [];
const conns: Conn[] = [];
const dataDir = tempDir('opsmind-mcp-data-');
const outsideDir = tempDir('opsmind-mcp-outside-');
const reportsDir = tempDir('opsmind-mcp-reports-');
const csvPath = salesCsv(dataDir, 40);
salesCsv(outsideDir, 10);

/** Starts a server with `args`; resolves once it listens (and printed its token when generated). */
function startServer(args: string[], token: string | null): Promise<Served> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPSMIND_HOME: testHome(), OPSMIND_DB: '' };
  delete env.OPSMIND_MCP_TOKEN;
  const child = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'opsmind.js'),
      'mcp',
      ...['--transport', 'http', '--port', '0', '--root', dataDir, '--reports-dir', reportsDir],
      ...(token === null ? [] : ['--token', token]),
      ...args,
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  let stderr = '';
  let started = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line:\n${stderr}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${stderr}`)));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (started) return;
      const listening = stderr
        .split('\n')
        .slice(0, -1) // whole lines only
        .filter((l) => l.startsWith('{"'))
        .map((l) => JSON.parse(l) as { event?: string; url?: string })
        .find((r) => r.event === 'listening');
      const generated = /^opsmind mcp: token \(.*\): (\S+)$/m.exec(stderr)?.[1];
      const given = token ?? generated;
      if (!listening?.url || given === undefined) return;
      started = true;
      clearTimeout(timer);
      const served: Served = {
        child,
        url: listening.url,
        port: Number(new URL(listening.url).port),
        token: given,
        stderr: () => stderr,
        sent: new Map(),
        ended: new Map(),
      };
      resolve(served);
    });
  });
}

function count(served: Served, method: string, map = served.sent): void {
  map.set(method, (map.get(method) ?? 0) + 1);
}

async function connect(served: Served): Promise<Conn> {
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { authorization: `Bearer ${served.token}` } },
  });
  const client = new Client({ name: 'opsmind-test', version: '1.0.0' });
  await client.connect(transport);
  count(served, 'initialize');
  const conn = { client, transport, served };
  conns.push(conn);
  return conn;
}

/** A tool call through the SDK client; protocol errors reject, tool errors come back as results. */
async function call(
  conn: Conn,
  name: string,
  args: Record<string, unknown>,
  options: RequestOptions = {},
): Promise<{ text: string; isError: boolean; result: CallToolResult }> {
  count(conn.served, 'tools/call');
  let result: CallToolResult;
  try {
    result = (await conn.client.callTool({ name, arguments: args }, undefined, {
      timeout: SLOW,
      ...options,
    })) as CallToolResult;
  } catch (error) {
    count(conn.served, `${name} rejected`, conn.served.ended);
    throw error;
  }
  count(conn.served, `${name} ${result.isError ? 'isError' : 'ok'}`, conn.served.ended);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
  return { text, isError: result.isError === true, result };
}

function sessionOf(text: string): string {
  const id = /^session: (\S+)$/m.exec(text)?.[1];
  assert.ok(id, `no session line in:\n${text}`);
  return id;
}

function initBody(name = 'raw-test', padding = ''): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: name + padding, version: '1.0.0' },
    },
  });
}

/** Counts a raw request the server read as JSON-RPC (what it refused before reading is not). */
function noteSent(served: Served, body: string, status: number): void {
  if ([400, 401, 403, 413].includes(status)) return;
  const parsed = JSON.parse(body) as { method: string; id?: number };
  if (parsed.id !== undefined) count(served, parsed.method);
}

/** A raw POST to /mcp; `auth` null sends no Authorization header. */
async function post(
  served: Served,
  body: string,
  headers: Record<string, string> = {},
  auth: string | null = served.token,
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(served.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(auth === null ? {} : { authorization: `Bearer ${auth}` }),
      ...headers,
    },
    body,
  });
  const text = await res.text();
  noteSent(served, body, res.status);
  return { status: res.status, headers: res.headers, text };
}

/** A request over node:http, which (unlike fetch) lets the test set Host and stream a body. */
function rawHttp(
  served: Served,
  options: { method: string; path: string; headers: Record<string, string>; chunks?: string[] },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: served.port, ...options }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        noteSent(served, (options.chunks ?? []).join(''), res.statusCode ?? 0);
        resolve({ status: res.statusCode ?? 0, text });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}

async function metrics(served: Served): Promise<{ type: string; samples: Map<string, number> }> {
  const res = await fetch(served.url.replace(/\/mcp$/, '/metrics'), {
    headers: { authorization: `Bearer ${served.token}` },
  });
  assert.equal(res.status, 200);
  const samples = new Map<string, number>();
  for (const line of (await res.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    samples.set(line.slice(0, cut), Number(line.slice(cut + 1)));
  }
  return { type: res.headers.get('content-type') ?? '', samples };
}

/** North/Online rows of the CSV and their units, computed here from the file itself. */
function northOnline(): { rows: number; units: number; total: number; totalUnits: number } {
  const [header = '', ...lines] = readFileSync(csvPath, 'utf8').trim().split('\n');
  const cols = header.split(',');
  const rows = lines.map((l): Record<string, string> =>
    Object.fromEntries(l.split(',').map((v, k) => [cols[k] ?? '', v])),
  );
  const picked = rows.filter((r) => r.region === 'North' && r.channel === 'Online');
  const units = (rs: typeof rows): number => rs.reduce((n, r) => n + Number(r.units), 0);
  return { rows: picked.length, units: units(picked), total: rows.length, totalUnits: units(rows) };
}

let main: Served; // the shared server: security, tools, clients, cancellation, metrics
let limited: Served; // generated token, --max-body-kb 4, --call-timeout 3
let unmasked: Served; // --no-mask
let conn: Conn; // the main server's first client
let mainSession = ''; // its session of sales.csv

before(async () => {
  [main, limited, unmasked] = await Promise.all([
    startServer(['--allow-origin', APP_ORIGIN], TOKEN),
    startServer(['--max-body-kb', '4', '--call-timeout', '3'], null),
    startServer(['--no-mask'], TOKEN),
  ]);
  conn = await connect(main);
});

after(async () => {
  await Promise.all(conns.map((c) => c.client.close().catch(() => undefined)));
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
});

void test('security: token, Origin, Host, bad JSON, unknown paths and unknown sessions', async () => {
  const noToken = await post(main, initBody(), {}, null);
  assert.equal(noToken.status, 401);
  assert.match(noToken.headers.get('www-authenticate') ?? '', /^Bearer realm=/);
  assert.equal((await post(main, initBody(), {}, 'wrong-token')).status, 401);
  assert.equal((await post(main, initBody(), { authorization: TOKEN })).status, 401); // no "Bearer"

  const evil = await post(main, initBody(), { origin: 'http://evil.example' });
  assert.equal(evil.status, 403);
  assert.match(evil.text, /Origin http:\/\/evil\.example is not allowed/);
  for (const origin of [
    `http://127.0.0.1:${main.port}`,
    `http://localhost:${main.port}`,
    APP_ORIGIN,
  ]) {
    const ok = await post(main, initBody(), { origin });
    assert.equal(ok.status, 200, `${origin}: ${ok.text}`);
    assert.match(ok.text, /"serverInfo":\{"name":"opsmind"/);
    assert.match(ok.headers.get('mcp-session-id') ?? '', /^[0-9a-f-]{36}$/);
  }
  // Another port of loopback is another origin.
  assert.equal((await post(main, initBody(), { origin: 'http://127.0.0.1:1' })).status, 403);

  const headers = {
    authorization: `Bearer ${TOKEN}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const body = initBody();
  const withHost = (host: string): Promise<{ status: number; text: string }> =>
    rawHttp(main, {
      method: 'POST',
      path: '/mcp',
      headers: { ...headers, host, 'content-length': String(body.length) },
      chunks: [body],
    });
  const rebinding = await withHost(`evil.example:${main.port}`);
  assert.equal(rebinding.status, 403);
  assert.match(rebinding.text, /loopback Host/);
  assert.equal((await withHost(`localhost.evil.example:${main.port}`)).status, 403);
  assert.equal((await withHost(`localhost:${main.port}`)).status, 200);

  const invalid = await post(main, '{"jsonrpc": "2.0", "method": ');
  assert.equal(invalid.status, 400);
  assert.equal((JSON.parse(invalid.text) as { error: { code: number } }).error.code, -32700);

  const metricsNoToken = await fetch(main.url.replace(/\/mcp$/, '/metrics'));
  assert.equal(metricsNoToken.status, 401);
  assert.ok(metricsNoToken.headers.get('www-authenticate'));
  const unknownPath = await fetch(main.url.replace(/\/mcp$/, '/nope'), {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  assert.equal(unknownPath.status, 404);

  const stranger = await post(
    main,
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    {
      'mcp-session-id': randomUUID(),
    },
  );
  assert.equal(stranger.status, 404);
  assert.equal((JSON.parse(stranger.text) as { error: { code: number } }).error.code, -32001);
});

void test('security: the body limit (413) and a generated token printed on stderr', async () => {
  assert.match(limited.token, /^[A-Za-z0-9_-]{20,}$/);
  assert.match(
    limited.stderr(),
    /opsmind mcp: token \(send as "Authorization: Bearer <token>"\): /,
  );
  assert.equal((await post(limited, initBody(), {}, TOKEN)).status, 401);
  const fits = await post(limited, initBody('raw', 'x'.repeat(3000)));
  assert.equal(fits.status, 200, fits.text);

  const big = initBody('raw', 'x'.repeat(5000));
  const declared = await post(limited, big);
  assert.equal(declared.status, 413);
  assert.match(declared.text, /request body over 4096 bytes/);
});

void test('security: a streamed (chunked) body over the limit gets 413 too', {}, async () => {
  const big = initBody('raw', 'x'.repeat(5000));
  const streamed = await rawHttp(limited, {
    method: 'POST',
    path: '/mcp',
    headers: {
      authorization: `Bearer ${limited.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    chunks: [big.slice(0, 3000), big.slice(3000)],
  });
  assert.equal(streamed.status, 413);
});

void test('security: Host names are case-insensitive (Host LOCALHOST:PORT is loopback)', async () => {
  const body = initBody();
  const res = await rawHttp(main, {
    method: 'POST',
    path: '/mcp',
    headers: {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      host: `LOCALHOST:${main.port}`,
      'content-length': String(body.length),
    },
    chunks: [body],
  });
  assert.equal(res.status, 200, res.text);
});

void test('over HTTP with the SDK client: the tools, the prompt and the data tools', async () => {
  count(main, 'tools/list');
  const { tools } = await conn.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), [
    'analyze',
    'get_data_info',
    'list_datasets',
    'render_report',
    'run_code',
    'run_sql',
  ]);
  assert.ok(tools.every((t) => (t.description ?? '').length > 40));
  const { prompts } = await conn.client.listPrompts();
  assert.deepEqual(
    prompts.map((p) => p.name),
    ['explore_dataset'],
  );

  const listed = await call(conn, 'list_datasets', {});
  assert.match(listed.text, /^sales\.csv\t[\d,]+ bytes\t\d{4}-\d{2}-\d{2}$/m);

  const info = await call(conn, 'get_data_info', { dataset: 'sales.csv' });
  assert.equal(info.isError, false, info.text);
  const session = sessionOf(info.text);
  assert.match(info.text, /40 rows × 7 columns/);
  assert.match(info.text, /^- region \[category\] 5 distinct/m);

  const want = northOnline();
  const sql = await call(conn, 'run_sql', {
    dataset: 'sales.csv',
    sql: "SELECT count(*) AS n, sum(units) AS u FROM data WHERE region = 'North' AND channel = 'Online'",
  });
  assert.equal(sql.isError, false, sql.text);
  assert.equal(sessionOf(sql.text), session, 'one session per dataset and client');
  assert.match(sql.text, /^columns: n \(BIGINT\) \| u \(/m);
  assert.match(sql.text, new RegExp(`^${want.rows} \\| ${want.units}$`, 'm'));

  const code = await call(conn, 'run_code', {
    dataset: 'sales.csv',
    code: "print('rows', len(df), 'units', int(df['units'].sum()))",
  });
  assert.equal(code.isError, false, code.text);
  assert.match(code.text, new RegExp(`^rows ${want.total} units ${want.totalUnits}$`, 'm'));
  mainSession = session;
});

void test('over HTTP with the SDK client: analyze, render_report and the session resources', async () => {
  const session = mainSession;
  const analyzed = await call(conn, 'analyze', {
    dataset: 'sales.csv',
    question: 'units by region',
  });
  assert.equal(analyzed.isError, false, analyzed.text);
  assert.equal(sessionOf(analyzed.text), session);
  assert.match(analyzed.text, /^findings:$/m);
  const report = /^report: (\S+) \(resource opsmind:\/\/sessions\/(\S+)\/report\.html\)$/m.exec(
    analyzed.text,
  );
  assert.ok(report, analyzed.text);
  assert.equal(report[2], session);
  assert.equal(report[1], join(reportsDir, `${session}.html`));
  assert.ok(existsSync(report[1]), report[1]);
  assert.match(readFileSync(report[1], 'utf8').slice(0, 500), /<html/i);

  const rendered = await call(conn, 'render_report', { session });
  assert.equal(rendered.isError, false, rendered.text);
  assert.match(rendered.text, new RegExp(`^report: ${report[1]}$`, 'm'));
  const charts = Number(/^(\d+) charts, \d+ tables/m.exec(rendered.text)?.[1]);
  assert.ok(charts > 0, rendered.text);

  const { resources } = await conn.client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.ok(uris.includes(`opsmind://sessions/${session}/report.html`), uris.join('\n'));
  assert.ok(uris.includes(`opsmind://sessions/${session}/render_spec.json`));
  assert.ok(uris.includes('opsmind://datasets/sales.csv/profile'));
  const spec = await conn.client.readResource({
    uri: `opsmind://sessions/${session}/render_spec.json`,
  });
  const specText = spec.contents[0] && 'text' in spec.contents[0] ? spec.contents[0].text : '';
  assert.match(specText, /"charts"|"kind"/);
});

void test('over HTTP: problems a client can fix are isError results, not protocol errors', async () => {
  const outside = join(outsideDir, 'sales.csv');
  for (const dataset of [outside, `../${basename(outsideDir)}/sales.csv`]) {
    const refused = await call(conn, 'get_data_info', { dataset });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /is outside the allowed roots/);
  }
  const missing = await call(conn, 'run_sql', { dataset: 'nope.csv', sql: 'SELECT 1' });
  assert.equal(missing.isError, true);
  assert.match(missing.text, /dataset not found: nope\.csv/);

  const crash = await call(conn, 'run_code', { dataset: 'sales.csv', code: 'x = 1\n1/0' });
  assert.equal(crash.isError, true);
  assert.match(crash.text, /ZeroDivisionError: division by zero/);

  const chart = await call(conn, 'run_code', {
    dataset: 'sales.csv',
    code: "declare_chart('bar', df, x='no_such_column', y='units')",
  });
  assert.equal(chart.isError, true);
  assert.match(chart.text, /declarations rejected/);
  assert.match(chart.text, /"no_such_column"/);

  const drop = await call(conn, 'run_sql', { dataset: 'sales.csv', sql: 'DROP TABLE data' });
  assert.equal(drop.isError, true);
  assert.match(drop.text, /read-only SELECT/);
  const still = await call(conn, 'run_sql', {
    dataset: 'sales.csv',
    sql: 'SELECT count(*) FROM data',
  });
  assert.match(still.text, /^40$/m);

  const unknown = await call(conn, 'render_report', { session: 'abcdef12' });
  assert.equal(unknown.isError, true);
  assert.match(unknown.text, /no session abcdef12 in this connection/);
});

const CROWD = 8;
let crowd: Conn[] = [];
let crowdSessions: string[] = [];
const secret = (i: number): string => `client-${i}`;
/** The other clients' secrets that occur in `text`. */
const othersIn = (i: number, text: string): string[] =>
  crowd.map((_c, j) => secret(j)).filter((s, j) => j !== i && text.includes(s));

void test(
  '8 concurrent HTTP clients: each its own MCP and analysis session',
  SLOW_TEST,
  async () => {
    crowd = await Promise.all(Array.from({ length: CROWD }, () => connect(main)));
    assert.equal(new Set(crowd.map((c) => c.transport.sessionId)).size, CROWD, 'MCP session ids');
    const first = await Promise.all(
      crowd.map((c, i) =>
        call(c, 'run_code', {
          dataset: 'sales.csv',
          code: `secret = '${secret(i)}'\nprint('secret=' + secret)\ndeclare_table(df.head(3), title=secret)`,
        }),
      ),
    );
    crowdSessions = first.map((r, i) => {
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, new RegExp(`^secret=${secret(i)}$`, 'm'));
      assert.deepEqual(othersIn(i, r.text), []);
      return sessionOf(r.text);
    });
    assert.equal(new Set([...crowdSessions, mainSession]).size, CROWD + 1, 'analysis session ids');

    // Each run forks from the loaded data, so a variable does not outlive its run; whatever the
    // second call sees, it is never another client's value.
    const second = await Promise.all(
      crowd.map((c) =>
        call(c, 'run_code', {
          dataset: 'sales.csv',
          code: "print('secret=' + str(globals().get('secret', '<unset>')))",
        }),
      ),
    );
    second.forEach((r, i) => {
      assert.equal(sessionOf(r.text), crowdSessions[i]);
      assert.match(r.text, new RegExp(`^secret=(${secret(i)}|<unset>)$`, 'm'));
      assert.deepEqual(othersIn(i, r.text), []);
    });
  },
);

void test(
  '8 concurrent HTTP clients: reports are their own; another’s session is refused',
  SLOW_TEST,
  async () => {
    // What outlives a run is the session's report: each holds its own table only.
    const reports = await Promise.all(
      crowd.map((c, i) => call(c, 'render_report', { session: crowdSessions[i] ?? '' })),
    );
    reports.forEach((r, i) => {
      assert.equal(r.isError, false, r.text);
      const html = readFileSync(/^report: (\S+)$/m.exec(r.text)?.[1] ?? '', 'utf8');
      assert.ok(html.includes(secret(i)), `report ${i} lacks its table`);
      assert.deepEqual(othersIn(i, html), []);
    });
    const theirs = (i: number): string => crowdSessions[(i + 1) % CROWD] ?? '';
    const crossed = await Promise.all(
      crowd.map((c, i) => call(c, 'render_report', { session: theirs(i) })),
    );
    crossed.forEach((r, i) => {
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, new RegExp(`no session ${theirs(i)} in this connection`));
      assert.ok(r.text.includes(crowdSessions[i] ?? '?'), 'lists the caller’s own session');
      assert.ok(!r.text.includes(`${theirs(i)} (`), 'does not list the other’s');
    });
  },
);

void test(
  '8 concurrent HTTP clients: resources list and read only their own sessions',
  SLOW_TEST,
  async () => {
    const listings = await Promise.all(crowd.map((c) => c.client.listResources()));
    listings.forEach(({ resources }, i) => {
      const text = resources.map((r) => r.uri).join('\n');
      assert.ok(text.includes(`opsmind://sessions/${crowdSessions[i]}/`), text);
      for (const [j, other] of [...crowdSessions, mainSession].entries())
        if (j !== i) assert.ok(!text.includes(other), `client ${i} lists session ${j}`);
    });
    const stolen = await Promise.all(
      crowd.map((c, i) =>
        c.client
          .readResource({
            uri: `opsmind://sessions/${crowdSessions[(i + 1) % CROWD]}/render_spec.json`,
          })
          .then(
            () => 'read',
            (e: unknown) => String(e),
          ),
      ),
    );
    for (const outcome of stolen) assert.match(outcome, /no session \S+ in this connection/);
    // Free the eight sandboxes for the cases that follow.
    await Promise.all(crowd.map((c) => c.transport.terminateSession()));
  },
);

void test('the per-call time limit stops a long run_code with an isError result', async () => {
  const slow = await connect(limited);
  const started = Date.now();
  const r = await call(slow, 'run_code', {
    dataset: 'sales.csv',
    code: 'import time\ntime.sleep(30)',
  });
  const seconds = (Date.now() - started) / 1000;
  assert.ok(seconds < 10, `took ${seconds} s`);
  assert.equal(r.isError, true);
  assert.match(r.text, /run_code took longer than the server's 3 s limit per call/);
  assert.match(r.text, /--call-timeout/);
  const { samples } = await metrics(limited);
  assert.equal(samples.get('opsmind_mcp_tool_calls_total{tool="run_code",outcome="timeout"}'), 1);
  assert.equal(samples.get('opsmind_mcp_tool_errors_total{tool="run_code"}'), 1);
  const quick = await call(slow, 'run_sql', { dataset: 'sales.csv', sql: 'SELECT 41 + 1 AS x' });
  assert.match(quick.text, /^42$/m);
});

void test('cancellation over HTTP: an aborted call rejects quickly, the next one works', async () => {
  const controller = new AbortController();
  const progress: string[] = [];
  let aborted = 0;
  const pending = call(
    conn,
    'run_code',
    { dataset: 'sales.csv', code: "import time\ntime.sleep(60)\nprint('too late')" },
    {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p.message ?? '');
        // Abort once the program has run for a second (the heartbeat says so).
        if (/\(1 s\)$/.test(p.message ?? '') && !aborted) {
          aborted = Date.now();
          controller.abort();
        }
      },
    },
  );
  await assert.rejects(pending, /AbortError|aborted/i);
  const waited = Date.now() - aborted;
  assert.ok(aborted > 0 && waited < 2000, `rejected ${waited} ms after the abort`);
  assert.deepEqual(progress.slice(0, 2), ['run_code started', 'run_code on sales.csv']);

  const next = Date.now();
  const later = await call(conn, 'run_code', {
    dataset: 'sales.csv',
    code: "print('after-cancel')",
  });
  assert.equal(later.isError, false, later.text);
  assert.match(later.text, /^after-cancel$/m);
  // The cancelled program was stopped: the session's next run did not wait for its sleep.
  assert.ok(Date.now() - next < 20_000, `the next call took ${Date.now() - next} ms`);
});

void test('masking over HTTP: on by default, off with --no-mask', async () => {
  const sql = "SELECT 'jane.doe@example.com' AS email, '4111 1111 1111 1111' AS card";
  const masked = await call(conn, 'run_sql', { dataset: 'sales.csv', sql });
  assert.equal(masked.isError, false, masked.text);
  assert.match(masked.text, /^j\*\*\*@example\.com \| \[card \*\*\*\*1111\]$/m);
  assert.match(masked.text, /\[masked: 1 e-mail address, 1 card number/);
  assert.ok(!masked.text.includes('jane.doe') && !masked.text.includes('4111 1111'));

  const printed = await call(conn, 'run_code', {
    dataset: 'sales.csv',
    code: "print('mail jane.doe@example.com')",
  });
  assert.match(printed.text, /^mail j\*\*\*@example\.com$/m);
  assert.match(printed.text, /\[masked: 1 e-mail address/);

  const raw = await call(await connect(unmasked), 'run_sql', { dataset: 'sales.csv', sql });
  assert.equal(raw.isError, false, raw.text);
  assert.match(raw.text, /^jane\.doe@example\.com \| 4111 1111 1111 1111$/m);
  assert.ok(!raw.text.includes('[masked:'));
});

void test('DELETE /mcp with the session id closes the session', async () => {
  const opened = await post(main, initBody('to-delete'));
  assert.equal(opened.status, 200);
  const id = opened.headers.get('mcp-session-id') ?? '';
  const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  const headers = { 'mcp-session-id': id, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const before = await post(main, list, headers);
  assert.equal(before.status, 200, before.text);
  assert.match(before.text, /"name":"run_sql"/);
  const deleted = await fetch(main.url, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${TOKEN}`, ...headers },
  });
  await deleted.text();
  assert.equal(deleted.status, 200);
  assert.equal((await post(main, list, headers)).status, 404);

  // The SDK client's terminateSession does the same.
  const sdk = await connect(main);
  await call(sdk, 'run_sql', { dataset: 'sales.csv', sql: 'SELECT 1' });
  const sdkId = sdk.transport.sessionId ?? '';
  await sdk.transport.terminateSession();
  assert.equal((await post(main, list, { ...headers, 'mcp-session-id': sdkId })).status, 404);
});

void test('/metrics: requests by method, tool outcomes and latency histograms', async () => {
  const { type, samples } = await metrics(main);
  assert.match(type, /^text\/plain; version=0\.0\.4/);
  const requests = (method: string): number =>
    samples.get(`opsmind_mcp_requests_total{method="${method}"}`) ?? 0;
  const sent = (method: string): number => main.sent.get(method) ?? 0;
  assert.ok(sent('tools/call') > 40 && sent('tools/list') >= 2);
  // This file is the server's only client, so the counts are exactly what it sent (requests
  // that got a 404 for their session included: they are counted once their JSON is read).
  for (const method of ['initialize', 'tools/list', 'tools/call'])
    assert.equal(requests(method), sent(method), method);
  assert.ok(requests('resources/list') >= 9 && requests('prompts/list') >= 1);

  const calls = (tool: string, outcome: string): number =>
    samples.get(`opsmind_mcp_tool_calls_total{tool="${tool}",outcome="${outcome}"}`) ?? 0;
  const ended = (tool: string, how: string): number => main.ended.get(`${tool} ${how}`) ?? 0;
  const tools = [
    'list_datasets',
    'get_data_info',
    'run_code',
    'run_sql',
    'analyze',
    'render_report',
  ];
  for (const tool of tools) {
    assert.equal(calls(tool, 'ok'), ended(tool, 'ok'), `${tool} ok`);
    assert.equal(calls(tool, 'tool_error'), ended(tool, 'isError'), `${tool} tool_error`);
    assert.equal(calls(tool, 'cancelled'), ended(tool, 'rejected'), `${tool} cancelled`);
    assert.equal(calls(tool, 'error'), 0, `${tool}: no internal errors`);
    assert.equal(
      samples.get(`opsmind_mcp_tool_errors_total{tool="${tool}"}`) ?? 0,
      ended(tool, 'isError') + ended(tool, 'rejected'),
      `${tool} errors`,
    );
  }
  assert.ok(calls('run_sql', 'ok') >= 4);
  assert.ok(calls('run_sql', 'tool_error') >= 2); // DROP TABLE, a missing dataset
  assert.ok(calls('get_data_info', 'tool_error') >= 2); // outside the roots
  assert.ok(calls('run_code', 'tool_error') >= 2); // a traceback, a rejected chart
  assert.equal(calls('run_code', 'cancelled'), 1);
  assert.ok(calls('render_report', 'tool_error') >= 9); // an unknown id, 8 crossed ones

  for (const tool of tools) {
    const key = (suffix: string, le?: string): string =>
      `opsmind_mcp_tool_duration_seconds_${suffix}{tool="${tool}"${le ? `,le="${le}"` : ''}}`;
    const n = samples.get(key('count'));
    assert.ok(n !== undefined && n > 0, `no histogram for ${tool}`);
    assert.equal(samples.get(key('bucket', '+Inf')), n);
    const buckets = [...samples]
      .filter(([k]) => k.startsWith(`opsmind_mcp_tool_duration_seconds_bucket{tool="${tool}",`))
      .map(([, v]) => v);
    assert.ok(buckets.length > 5);
    assert.ok(
      buckets.every((v, i) => i === 0 || v >= (buckets[i - 1] ?? 0)),
      'cumulative buckets',
    );
    const outcomes = [...samples]
      .filter(([k]) => k.startsWith(`opsmind_mcp_tool_calls_total{tool="${tool}",`))
      .reduce((sum, [, v]) => sum + v, 0);
    assert.equal(outcomes, n, `${tool}: calls by outcome add up to the histogram count`);
  }
});
