/**
 * `opsmind mcp` over stdio, end to end through the built binary: the official SDK client (and,
 * once, the MCP Inspector CLI and a bare JSON-RPC client) against one shared server on a data
 * dir this test writes. Every tool, resource and the prompt with real content; client mistakes
 * as `isError` results, never protocol errors; cancellation and progress; stdout carrying
 * protocol messages only; hostile run_code contained as `opsmind run` contains it; masking.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import writeXlsxFile from 'write-excel-file/node';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { detectIsolation } from '../src/sandbox/isolation.js';
import { findPython } from '../src/sandbox/python.js';
import { preambleDir } from '../src/util/package-root.js';
import { graphJson, ROOT, salesCsv, tempDir } from './helpers/fixtures.js';
import {
  connectMcp,
  eventually,
  jsonLines,
  mcpArgs,
  mcpEnv,
  rawMcp,
  sessionOf,
  textOf,
} from './helpers/mcp-client.js';
import type { LogLine, McpConnection } from './helpers/mcp-client.js';

const CANARY = 'canary-8c1f-must-never-reach-the-sandbox';
const NOTE = 'top-secret-note-in-another-temp-dir';
const TOOLS = ['analyze', 'get_data_info', 'list_datasets', 'render_report', 'run_code', 'run_sql'];
const CHART =
  "print(df.shape)\ndeclare_chart('bar', df.groupby('region', as_index=False)['revenue'].sum(), x='region', y='revenue', title='Revenue by region')";

const isolation = await detectIsolation((await findPython()).path, preambleDir());
const needsBwrap =
  isolation.level === 'bubblewrap' ? false : `needs bubblewrap (detected: ${isolation.level})`;

const base = tempDir('opsmind-mcp-');
const dataDir = join(base, 'data');
const reportsDir = join(base, 'reports');
const outsideDir = tempDir('opsmind-mcp-outside-');
let mcp: McpConnection;
let listener: Server;
let connections = 0;

function writeData(): void {
  mkdirSync(join(dataDir, 'sub'), { recursive: true });
  salesCsv(dataDir);
  writeFileSync(join(dataDir, 'sub', 'x.csv'), 'a,b\n1,2\n3,4\n5,6\n');
  writeFileSync(
    join(dataDir, 'people.csv'),
    [
      'name,email,phone,card,amount',
      'Ann,ann.smith@example.com,+1 415-555-0100,4111 1111 1111 1111,10',
      'Bob,bob.jones@example.org,+1 415-555-0101,4111 1111 1111 1111,20',
      'Cyd,cyd.lee@example.net,+1 415-555-0102,4111 1111 1111 1111,30',
    ].join('\n') + '\n',
  );
  // A graph: two tables in one JSON object, chosen by the tools' records argument.
  graphJson(dataDir);
  writeFileSync(join(base, 'x.csv'), 'a,b\n1,2\n'); // exists, beside the root: "../x.csv"
  salesCsv(outsideDir);
  writeFileSync(join(outsideDir, 'note.txt'), NOTE);
  symlinkSync(join(outsideDir, 'sales.csv'), join(dataDir, 'link.csv'));
}

/** Rows and revenue per region, computed from the file itself. */
function byRegion(): Map<string, { rows: number; revenue: number }> {
  const [header, ...lines] = readFileSync(join(dataDir, 'sales.csv'), 'utf8').trim().split('\n');
  const cols = (header ?? '').split(',');
  const out = new Map<string, { rows: number; revenue: number }>();
  for (const line of lines) {
    const cells = line.split(',');
    const region = cells[cols.indexOf('region')] ?? '';
    const seen = out.get(region) ?? { rows: 0, revenue: 0 };
    seen.rows += 1;
    seen.revenue += Number(cells[cols.indexOf('revenue')]);
    out.set(region, seen);
  }
  return out;
}

before(async () => {
  writeData();
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  mcp = await connectMcp(
    mcpArgs(dataDir, reportsDir, ['--timeout', '30']),
    mcpEnv({ OPSMIND_CANARY_SECRET: CANARY }),
  );
});

after(async () => {
  await mcp.close();
  listener.close();
});

interface Called {
  text: string;
  isError: boolean;
}

async function call(
  name: string,
  args: Record<string, unknown>,
  options?: RequestOptions,
  on: McpConnection = mcp,
): Promise<Called> {
  const result = await on.client.callTool({ name, arguments: args }, undefined, options);
  return {
    text: textOf(result),
    isError: result.isError === true,
  };
}

async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} failed:\n${r.text}`);
  return r.text;
}

async function failing(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await call(name, args);
  assert.equal(r.isError, true, `${name} should be a tool error:\n${r.text}`);
  return r.text;
}

async function resource(uri: string): Promise<{ text: string; mimeType: string | undefined }> {
  const { contents } = await mcp.client.readResource({ uri });
  assert.equal(contents.length, 1);
  const first = contents[0];
  assert.ok(first && 'text' in first, `${uri} has text`);
  return { text: first.text, mimeType: first.mimeType };
}

/** The next run_code on sales.csv works and the server answers. */
async function stillWorks(): Promise<void> {
  assert.match(
    await ok('run_code', { dataset: 'sales.csv', code: 'print("ok", df.shape)' }),
    /^ok \(400, 7\)$/m,
  );
}

let salesSession = '';

void test('tools/list: exactly the six tools, each described, with its required arguments', async () => {
  const { tools } = await mcp.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS);
  const required = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema.required ?? []]));
  for (const t of tools) {
    assert.ok((t.description ?? '').length > 40, `${t.name} has a description`);
    assert.equal(t.inputSchema.type, 'object');
  }
  assert.deepEqual(required.list_datasets, []);
  for (const name of ['get_data_info', 'run_code', 'run_sql', 'analyze'])
    assert.ok(required[name]?.includes('dataset'), `${name} requires dataset`);
  assert.ok(required.run_code?.includes('code'));
  assert.ok(required.run_sql?.includes('sql'));
  assert.deepEqual(required.render_report, ['session']);
});

void test('resources, resource templates and the explore_dataset prompt are listed', async () => {
  const { resourceTemplates } = await mcp.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
    'opsmind://datasets/{dataset}/profile',
    'opsmind://sessions/{session}/frames/{frame}',
    'opsmind://sessions/{session}/render_spec.json',
    'opsmind://sessions/{session}/report.html',
  ]);
  const { resources } = await mcp.client.listResources();
  const uris = resources.map((r) => r.uri);
  assert.ok(uris.includes('opsmind://datasets/sales.csv/profile'), uris.join(' '));
  assert.ok(uris.includes(`opsmind://datasets/${encodeURIComponent('sub/x.csv')}/profile`));
  assert.ok(!uris.some((u) => u.includes('link.csv')), 'the symlink leading out is not a resource');
  const { prompts } = await mcp.client.listPrompts();
  assert.deepEqual(
    prompts.map((p) => p.name),
    ['explore_dataset'],
  );
  const prompt = await mcp.client.getPrompt({
    name: 'explore_dataset',
    arguments: { dataset: 'sales.csv', question: 'which region sells most?' },
  });
  assert.equal(prompt.messages[0]?.role, 'user');
  const content = prompt.messages[0]?.content;
  assert.ok(content?.type === 'text');
  assert.match(content.text, /"sales\.csv"/);
  assert.match(content.text, /which region sells most\?/);
});

void test('list_datasets lists the data files under the root, not the symlink leading out', async () => {
  const text = await ok('list_datasets', {});
  const names = text
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t')[0]);
  assert.deepEqual(names, ['graph.json', 'people.csv', 'sales.csv', 'sub/x.csv']);
  assert.match(text, /^datasets \(4\):/);
  assert.match(text, /^sub\/x\.csv\t16 bytes\t\d{4}-\d{2}-\d{2}$/m);
});

void test('get_data_info profiles the dataset: rows, columns, session id', async () => {
  const text = await ok('get_data_info', { dataset: 'sales.csv' });
  salesSession = sessionOf(text);
  assert.match(text, /^Dataset sales\.csv: 400 rows × 7 columns/m);
  for (const column of ['date', 'region', 'channel', 'units', 'price', 'revenue', 'rating'])
    assert.match(text, new RegExp(`^- ${column} \\[`, 'm'));
  assert.match(await ok('get_data_info', { dataset: 'sub/x.csv' }), /: 3 rows × 2 columns/);
});

void test('get_data_info names a dataset in a subfolder as list_datasets and its profile resource do', async () => {
  const uri = `opsmind://datasets/${encodeURIComponent('sub/x.csv')}/profile`;
  assert.match((await resource(uri)).text, /^Dataset sub\/x\.csv: 3 rows × 2 columns/);
  const text = await ok('get_data_info', { dataset: 'sub/x.csv' });
  assert.match(text, /^Dataset sub\/x\.csv: 3 rows × 2 columns/m, 'the name the other tools take');
});

void test('records chooses the table of a JSON file holding several: a session each, in SQL and in Python', async () => {
  const none = await failing('get_data_info', { dataset: 'graph.json' });
  assert.match(none, /nodes/);
  assert.match(none, /links/);
  const links = await ok('get_data_info', { dataset: 'graph.json', records: 'links' });
  assert.match(links, /^Dataset graph\.json: 40 rows × 3 columns/m);
  const nodes = await ok('get_data_info', { dataset: 'graph.json', records: 'nodes' });
  assert.match(nodes, /^Dataset graph\.json: 12 rows × 2 columns/m);
  assert.notEqual(sessionOf(links), sessionOf(nodes));
  const again = await ok('run_sql', {
    dataset: 'graph.json',
    records: 'links',
    sql: 'SELECT count(*) AS n, sum(value) AS v FROM data',
  });
  assert.equal(sessionOf(again), sessionOf(links), 'the same choice is the same session');
  assert.match(again, /^40 \| 100$/m);
  const shape = await ok('run_code', {
    dataset: 'graph.json',
    records: 'nodes',
    code: 'print("shape", df.shape, list(df.columns))',
  });
  assert.match(shape, /^shape \(12, 2\) \['name', 'group'\]$/m);
  // A workbook's second sheet, written now (the listing above has run): a session of its own.
  const cells = (n: number) => [
    [{ value: 'amount', type: String }],
    ...Array.from({ length: n }, (_, i) => [{ value: i + 1, type: Number }]),
  ];
  await writeXlsxFile([
    { sheet: 'First', data: cells(5) },
    { sheet: 'Second', data: cells(9) },
  ]).toFile(join(dataDir, 'book.xlsx'));
  assert.match(await ok('get_data_info', { dataset: 'book.xlsx' }), /: 5 rows × 1 columns?/);
  const second = await ok('run_sql', {
    dataset: 'book.xlsx',
    sheet: 'Second',
    sql: 'SELECT count(*) AS n, sum(amount) AS s FROM data',
  });
  assert.match(second, /^9 \| 45$/m);
  assert.match(await failing('get_data_info', { dataset: 'book.xlsx', sheet: 'Nope' }), /Nope/);
  const analyzed = await ok('analyze', { dataset: 'graph.json', records: 'links' });
  assert.match(analyzed, /\(40 rows × 3 columns/);
  assert.match(await failing('analyze', { dataset: 'graph.json', records: 'edges' }), /edges/);
});

void test('run_sql counts rows per region exactly, in the same session', async () => {
  const text = await ok('run_sql', {
    dataset: 'sales.csv',
    sql: 'SELECT region, count(*) AS n FROM data GROUP BY region ORDER BY region',
  });
  assert.equal(sessionOf(text), salesSession);
  const rows = [...byRegion()].sort(([a], [b]) => (a < b ? -1 : 1));
  const expected = rows.map(([region, { rows: n }]) => `${region} | ${n}`);
  assert.deepEqual(
    text.split('\n').filter((l) => /^\w+ \| \d+$/.test(l)),
    expected,
  );
  assert.match(text, /^\(5 rows\)$/m);
});

void test('run_code prints df.shape and declares a valid chart; its spec and frame are resources', async () => {
  const text = await ok('run_code', { dataset: 'sales.csv', code: CHART, purpose: 'revenue' });
  assert.equal(sessionOf(text), salesSession);
  assert.match(text, /^\(400, 7\)$/m);
  assert.match(text, /declared and valid \(added to the report\): c1 bar "Revenue by region"/);
  const spec = await resource(`opsmind://sessions/${salesSession}/render_spec.json`);
  assert.equal(spec.mimeType, 'application/json');
  const parsed = JSON.parse(spec.text) as {
    charts: { id: string; kind: string; params: { title?: string } }[];
  };
  assert.ok(
    parsed.charts.some((c) => c.kind === 'bar' && c.params.title === 'Revenue by region'),
    spec.text.slice(0, 500),
  );
  const { resources } = await mcp.client.listResources();
  const frameUri = resources.map((r) => r.uri).find((u) => u.includes(`${salesSession}/frames/`));
  assert.ok(frameUri, 'a frame resource is listed');
  const frame = JSON.parse((await resource(frameUri)).text) as {
    columns: string[];
    data: [string, number][];
  };
  assert.deepEqual(frame.columns, ['region', 'revenue']);
  const sums = byRegion();
  assert.equal(frame.data.length, sums.size);
  for (const [region, revenue] of frame.data) assert.equal(revenue, sums.get(region)?.revenue);
});

void test('render_report writes the report holding the run_code chart', async () => {
  const text = await ok('render_report', { session: salesSession });
  const path = /^report: (.+)$/m.exec(text)?.[1] ?? '';
  assert.equal(dirname(path), reportsDir);
  assert.match(text, /^1 charts, 0 tables, 0 images$/m);
  assert.match(
    text,
    new RegExp(`^resource: opsmind://sessions/${salesSession}/report\\.html$`, 'm'),
  );
  const html = readFileSync(path, 'utf8');
  assert.match(html, /^<!doctype html>/i);
  assert.ok(html.includes('Revenue by region'), 'the run_code chart title is in the report');
});

void test('analyze: findings, its charts and a report file; the report and a profile are resources', async () => {
  const text = await ok('analyze', {
    dataset: 'sales.csv',
    question: 'how does revenue differ by region?',
  });
  assert.equal(sessionOf(text), salesSession);
  assert.match(text, /^dataset: sales\.csv \(400 rows × 7 columns; grain: /m);
  const findings = text.slice(text.indexOf('findings:'), text.indexOf('charts and tables'));
  assert.ok(findings.split('\n').filter((l) => l.startsWith('- ')).length >= 3, findings);
  assert.match(findings, /South/, 'a finding names the top region');
  const charts = text.split('\n').filter((l) => /^- c\d+ \w+ "/.test(l));
  assert.ok(charts.length >= 5, text);
  assert.match(text, /^charts and tables \((\d+)\):/m);
  const path = /^report: (\S+) \(resource opsmind:\/\/sessions\/[^/]+\/report\.html\)$/m.exec(
    text,
  )?.[1];
  assert.ok(path && existsSync(path), `the report file exists: ${path}`);
  const report = await resource(`opsmind://sessions/${salesSession}/report.html`);
  assert.equal(report.mimeType, 'text/html');
  assert.match(report.text, /^<!doctype html>/i);
  assert.ok(report.text.includes('Revenue per week') || report.text.includes('Revenue by channel'));
  const profile = await resource('opsmind://datasets/sales.csv/profile');
  assert.equal(profile.mimeType, 'text/plain');
  assert.match(profile.text, /^Dataset sales\.csv: 400 rows × 7 columns/);
});

void test('render_spec.json holds every chart of the session, not only the last step’s', async () => {
  const spec = JSON.parse(
    (await resource(`opsmind://sessions/${salesSession}/render_spec.json`)).text,
  ) as { charts: { id: string; params: { title?: string } }[] };
  const ids = spec.charts.map((c) => c.id);
  assert.ok(ids.includes('c1'), `the run_code chart c1 is in the spec: ${ids.join(' ')}`);
  await ok('run_code', { dataset: 'sales.csv', code: 'print(1)' });
  const later = JSON.parse(
    (await resource(`opsmind://sessions/${salesSession}/render_spec.json`)).text,
  ) as { charts: unknown[] };
  assert.equal(
    later.charts.length,
    spec.charts.length,
    'a step that declares nothing removes nothing',
  );
});

void test('every chart of the session is readable as a frame resource, under its session id', async () => {
  const summary = await ok('render_report', { session: salesSession });
  const charts = Number(/^(\d+) charts,/m.exec(summary)?.[1]);
  const { resources } = await mcp.client.listResources();
  const frames = resources.filter((r) => r.uri.includes(`${salesSession}/frames/`));
  assert.ok(frames.length >= charts, `${frames.length} frames listed for ${charts} charts`);
  const c1 = JSON.parse(
    (await resource(`opsmind://sessions/${salesSession}/frames/c1.json`)).text,
  ) as { columns: string[] };
  assert.deepEqual(c1.columns, ['region', 'revenue'], 'frames/c1.json is chart c1 (run_code’s)');
});

void test('a missing dataset, paths outside the roots and a symlink leading out are tool errors', async () => {
  assert.match(
    await failing('get_data_info', { dataset: 'nope.csv' }),
    /^error: dataset not found: nope\.csv/,
  );
  assert.match(
    await failing('get_data_info', { dataset: '../x.csv' }),
    /^error: \.\.\/x\.csv is outside the allowed roots/,
  );
  assert.match(
    await failing('run_sql', { dataset: '/etc/passwd', sql: 'SELECT 1' }),
    /^error: \/etc\/passwd is outside the allowed roots/,
  );
  assert.match(
    await failing('get_data_info', { dataset: 'link.csv' }),
    /^error: link\.csv is outside the allowed roots/,
  );
  const direct = join(outsideDir, 'sales.csv');
  assert.match(
    await failing('run_code', { dataset: direct, code: 'print(1)' }),
    /is outside the allowed roots/,
  );
  assert.doesNotMatch(await ok('list_datasets', {}), /link\.csv/);
});

void test('bad Python is a tool error carrying its traceback', async () => {
  const syntax = await failing('run_code', { dataset: 'sales.csv', code: 'def (:\n  pass' });
  assert.match(syntax, /^status: failed/m);
  assert.match(syntax, /^SyntaxError: /m);
  assert.match(syntax, /File "step\d+\.py", line 1/);
  const name = await failing('run_code', {
    dataset: 'sales.csv',
    code: 'x = 1\nprint(undefined_name)',
  });
  assert.match(name, /File "step\d+\.py", line 2, in <module>/);
  assert.match(name, /^NameError: name 'undefined_name' is not defined$/m);
});

void test('an invalid chart declaration is a tool error with the validator’s message', async () => {
  const text = await failing('run_code', {
    dataset: 'sales.csv',
    code: "declare_chart('bar', df, x='no_such_column', y='revenue', title='Broken')",
  });
  assert.match(text, /declarations rejected \(fix and declare again\)/);
  assert.match(
    text,
    /column "no_such_column" \(parameter "x"\) is not in the data; columns are: "date"/,
  );
});

void test('run_sql refuses writes, two statements and other files', async () => {
  const sql = (q: string): Promise<string> => failing('run_sql', { dataset: 'sales.csv', sql: q });
  assert.match(
    await sql('DROP TABLE data'),
    /only read-only SELECT queries run here; this is a DROP statement/,
  );
  assert.match(await sql('SELECT 1; SELECT 2'), /send exactly one SELECT statement \(got 2\)/);
  const read = await sql("SELECT * FROM read_csv('/etc/passwd')");
  assert.match(read, /^error: the query failed: /m);
  assert.doesNotMatch(read, /root:x:0:0/);
  assert.match(
    await ok('run_sql', { dataset: 'sales.csv', sql: 'SELECT count(*) AS n FROM data' }),
    /^400$/m,
  );
});

void test('an unknown session and arguments that break the schema are tool errors, not protocol errors', async () => {
  assert.match(
    await failing('render_report', { session: 'zzzzzz99' }),
    new RegExp(
      `^error: no session zzzzzz99 in this connection; the sessions here are: .*${salesSession} \\(sales\\.csv\\)`,
    ),
  );
  assert.match(await failing('run_code', { dataset: 'sales.csv' }), /Input validation error.*code/);
  assert.match(
    await failing('run_sql', { dataset: 'sales.csv', sql: 'SELECT 1', max_rows: 100000 }),
    /Input validation error/,
  );
  assert.match(await failing('render_report', { session: '../../etc' }), /Input validation error/);
  await stillWorks();
});

void test('cancellation: the aborted call rejects at once, the next call runs, the log says cancelled', async () => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 1500);
  const started = performance.now();
  await assert.rejects(
    call(
      'run_code',
      { dataset: 'sales.csv', code: 'import time\ntime.sleep(60)' },
      { signal: controller.signal },
    ),
  );
  clearTimeout(timer);
  assert.ok(performance.now() - started < 10_000, 'the client call rejected quickly');
  const next = performance.now();
  assert.match(await ok('run_code', { dataset: 'sales.csv', code: 'print(6*7)' }), /^42$/m);
  assert.ok(performance.now() - next < 10_000, 'the sleeping program was stopped, not waited for');
  const line = await eventually(
    () => mcp.logs().find((l) => l.event === 'tool_call' && l.outcome === 'cancelled'),
    'the log line of the cancelled call',
  );
  assert.equal(line.tool, 'run_code');
  assert.equal(line.dataset, 'sales.csv');
  assert.ok(
    Number(line.duration_ms) >= 1000 && Number(line.duration_ms) < 10_000,
    JSON.stringify(line),
  );
});

void test('progress: a call with a progress token gets progress notifications while it runs', async () => {
  const seen: Progress[] = [];
  const r = await call(
    'run_code',
    { dataset: 'sales.csv', code: 'import time\ntime.sleep(2.5)\nprint("slept")' },
    { onprogress: (p) => seen.push(p) },
  );
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^slept$/m);
  assert.ok(seen.length >= 1, 'at least one progress notification');
  assert.ok(
    seen.some((p) => /run_code/.test(p.message ?? '')),
    JSON.stringify(seen),
  );
  for (let i = 1; i < seen.length; i += 1)
    assert.ok((seen[i]?.progress ?? 0) > (seen[i - 1]?.progress ?? 0));
});

void test('hostile run_code: no host environment reaches the program', async () => {
  const text = await ok('run_code', {
    dataset: 'sales.csv',
    code: 'import os, json\nprint(json.dumps(dict(os.environ)))',
  });
  assert.match(text, /"PATH": /);
  assert.doesNotMatch(text, /OPSMIND_CANARY_SECRET|OPSMIND_HOME|OPSMIND_DB/);
  assert.ok(!text.includes(CANARY));
  await stillWorks();
});

void test(
  'hostile run_code: no TCP to a host loopback listener',
  { skip: needsBwrap },
  async () => {
    const port = (listener.address() as AddressInfo).port;
    const text = await ok('run_code', {
      dataset: 'sales.csv',
      code: `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=2)\n    print("CONNECTED")\nexcept OSError as e:\n    print("refused", type(e).__name__)`,
    });
    assert.match(text, /^refused \w+/m);
    assert.doesNotMatch(text, /CONNECTED/);
    assert.equal(connections, 0, 'the host listener saw no connection');
    await stillWorks();
  },
);

void test('hostile run_code: a fork bomb is stopped by the process limit, said in words', async () => {
  const text = await failing('run_code', {
    dataset: 'sales.csv',
    code: 'import os\nwhile True:\n    os.fork()\n',
  });
  assert.match(text, /^limit: (process limit of \d+ exceeded|wall-clock limit)/m);
  await stillWorks();
});

void test(
  'hostile run_code: /etc/shadow and files in other temp dirs are not readable',
  { skip: needsBwrap },
  async () => {
    const text = await ok('run_code', {
      dataset: 'sales.csv',
      code: `def probe(path):\n    try:\n        return open(path).read()\n    except OSError as e:\n        return type(e).__name__\nprint("shadow", probe("/etc/shadow"))\nprint("note", probe(${JSON.stringify(join(outsideDir, 'note.txt'))}))`,
    });
    assert.match(text, /^shadow (FileNotFoundError|PermissionError)$/m);
    assert.match(text, /^note (FileNotFoundError|PermissionError)$/m);
    assert.ok(!text.includes(NOTE));
    await stillWorks();
    assert.match(await ok('get_data_info', { dataset: 'sales.csv' }), /400 rows/);
  },
);

const RAW = [
  'ann.smith@example.com',
  'bob.jones@example.org',
  '+1 415-555-0100',
  '4111 1111 1111 1111',
];

void test('masking: e-mail addresses, phone and card numbers are masked in results, with a note', async () => {
  const info = await ok('get_data_info', { dataset: 'people.csv' });
  const rows = await ok('run_sql', {
    dataset: 'people.csv',
    sql: 'SELECT * FROM data ORDER BY name',
  });
  const printed = await ok('run_code', { dataset: 'people.csv', code: 'print(df.to_string())' });
  for (const text of [info, rows, printed]) {
    for (const raw of RAW) assert.ok(!text.includes(raw), `${raw} is masked in:\n${text}`);
    assert.match(text, /\[masked: .*the server runs with masking on/);
  }
  assert.match(
    rows,
    /^Ann \| a\*\*\*@example\.com \| \[phone \*\*\*00\] \| \[card \*\*\*\*1111\] \| 10$/m,
  );
  assert.match(rows, /\[masked: 3 e-mail addresses, 3 phone numbers, 3 card numbers/);
});

void test('--no-mask: the same results show the values as they are', async () => {
  const plain = await connectMcp(mcpArgs(dataDir, reportsDir, ['--no-mask']));
  try {
    const rows = await call(
      'run_sql',
      { dataset: 'people.csv', sql: 'SELECT * FROM data ORDER BY name' },
      undefined,
      plain,
    );
    const info = await call('get_data_info', { dataset: 'people.csv' }, undefined, plain);
    for (const raw of RAW) assert.ok(rows.text.includes(raw), `${raw} in:\n${rows.text}`);
    assert.ok(info.text.includes('+1 415-555-0100'));
    assert.doesNotMatch(rows.text + info.text, /\[masked/);
  } finally {
    await plain.close();
  }
});

/** The stderr log line of the call whose result carried `trace`. */
function logOf(logs: LogLine[], trace: unknown): LogLine | undefined {
  return logs.find((l) => l.event === 'tool_call' && l.trace_id === trace);
}

void test('stdout carries JSON-RPC only; stderr has one JSON log line per call', async () => {
  const raw = rawMcp(mcpArgs(dataDir, reportsDir));
  const init = await raw.request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-test', version: '1.0.0' },
  });
  assert.equal((init.result as { serverInfo: { name: string } }).serverInfo.name, 'opsmind');
  raw.notify('notifications/initialized');
  const list = await raw.request(2, 'tools/list');
  assert.equal((list.result as { tools: unknown[] }).tools.length, 6);
  const info = await raw.request(3, 'tools/call', {
    name: 'get_data_info',
    arguments: { dataset: 'sales.csv' },
  });
  const result = info.result as { content: { text: string }[]; _meta: { trace_id: string } };
  assert.match(result.content[0]?.text ?? '', /400 rows × 7 columns/);
  const program = await raw.request(4, 'tools/call', {
    name: 'run_code',
    arguments: {
      dataset: 'sales.csv',
      code: 'import os, sys\nprint("to stdout")\nos.write(1, b"fd one\\n")\nprint("to stderr", file=sys.stderr)',
    },
  });
  assert.match(JSON.stringify(program.result), /to stdout/);
  assert.equal(await raw.end(), 0, raw.stderr());

  assert.ok(raw.stdoutLines.length >= 4);
  for (const line of raw.stdoutLines) {
    const message = JSON.parse(line) as Record<string, unknown>;
    assert.equal(message.jsonrpc, '2.0', line);
    assert.ok(
      'method' in message || ('id' in message && ('result' in message || 'error' in message)),
      line,
    );
  }
  const lines = raw
    .stderr()
    .split('\n')
    .filter((l) => l.trim());
  const logs = jsonLines(raw.stderr());
  assert.equal(logs.length, lines.length, `every stderr line is JSON:\n${raw.stderr()}`);
  const logged = logOf(logs, result._meta.trace_id);
  assert.ok(logged, `a log line with trace id ${result._meta.trace_id}`);
  assert.match(String(logged.trace_id), /^[0-9a-f]{16}$/);
  assert.equal(logged.tool, 'get_data_info');
  assert.equal(logged.dataset, 'sales.csv');
  assert.equal(logged.outcome, 'ok');
  assert.equal(typeof logged.duration_ms, 'number');
  assert.equal(logged.result_chars, result.content[0]?.text.length);
  assert.ok(logs.some((l) => l.event === 'stop' && l.reason === 'stdin closed'));
});

const execFileAsync = promisify(execFile);
const INSPECTOR = join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build');

/** Runs the MCP Inspector CLI against the server with `method` and its flags; its stdout JSON. */
async function inspector(flags: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [
      join(INSPECTOR, 'cli.js'),
      '--cli',
      process.execPath,
      ...mcpArgs(dataDir, reportsDir),
      ...flags,
    ],
    // The inspector finds its package.json relative to its working directory.
    { cwd: INSPECTOR, env: mcpEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

void test('a client that is not ours: the MCP Inspector CLI lists the tools and calls one', async () => {
  const listed = (await inspector(['--method', 'tools/list'])) as { tools: { name: string }[] };
  assert.deepEqual(listed.tools.map((t) => t.name).sort(), TOOLS);
  const called = (await inspector([
    '--method',
    'tools/call',
    '--tool-name',
    'get_data_info',
    '--tool-arg',
    'dataset=sales.csv',
  ])) as { content: { type: string; text: string }[]; isError?: boolean };
  assert.notEqual(called.isError, true);
  assert.match(
    called.content[0]?.text ?? '',
    /^session: \S+\nDataset sales\.csv: 400 rows × 7 columns/,
  );
});
