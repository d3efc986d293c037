/**
 * bench/mcp: `tools/call` latency of `opsmind mcp` as an MCP client sees it — the SDK's own
 * client over stdio, timed from `callTool` to its result — for get_data_info, run_code and
 * run_sql on a generated 1M-row CSV (10 columns).
 *
 *   npm run build && node --import tsx bench/mcp.ts [--rows 1000000] [--calls 30] [--cold 3]
 *     [--think-ms 3000]
 *
 * **First call**: a fresh server per run (--cold runs); get_data_info's first call opens the
 * session (DuckDB reads the file) and profiles it; the sandbox starts loading the data once it
 * has answered, so the first run_code waits for what is left of that: measured right after
 * get_data_info, and --think-ms later (the time a client's model takes to write the code). **Repeated**: --calls calls
 * on the same session, 50 ms apart (a model call sits between two in practice).
 */
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { findPython } from '../src/sandbox/python.js';
import { benchCsv, percentile } from './datasets.js';

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    calls: { type: 'string', default: '30' },
    cold: { type: 'string', default: '3' },
    'think-ms': { type: 'string', default: '3000' },
  },
});
const ROWS = Number(args.rows);
const CALLS = Number(args.calls);
const COLD = Number(args.cold);
const THINK_MS = Number(args['think-ms']);
const BIN = resolve(import.meta.dirname, '..', 'bin', 'opsmind.js');
const python = await findPython();
const csv = benchCsv(python.path, ROWS);
const home = mkdtempSync(join(tmpdir(), 'opsmind-bench-mcp-'));
const dataset = basename(csv);

async function connect(): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--root', dirname(csv), '--reports-dir', join(home, 'reports')],
    env: { ...(process.env as Record<string, string>), OPSMIND_HOME: home, OPSMIND_DB: '' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-mcp', version: '1' });
  await client.connect(transport);
  return client;
}

async function timed(
  client: Client,
  name: string,
  toolArgs: Record<string, unknown>,
): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: { dataset, ...toolArgs } }, undefined, {
    timeout: 600_000,
  });
  const ms = performance.now() - started;
  if (result.isError)
    throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 400)}`);
  return ms;
}

const CASES = [
  { label: 'get_data_info', tool: 'get_data_info', args: {} },
  { label: 'run_code print(df.shape)', tool: 'run_code', args: { code: 'print(df.shape)' } },
  {
    label: 'run_code groupby sum',
    tool: 'run_code',
    args: { code: "print(df.groupby('region')['revenue'].sum())" },
  },
  {
    label: 'run_sql group by',
    tool: 'run_sql',
    args: { sql: 'SELECT region, sum(revenue) AS revenue FROM data GROUP BY 1 ORDER BY 2 DESC' },
  },
] as const;

/** First calls: right after get_data_info, and after THINK_MS (a model's turn in between). */
const first: Record<string, number[]> = {
  get_data_info: [],
  'run_code, right after': [],
  [`run_code, ${THINK_MS / 1000} s after`]: [],
};
for (let i = 0; i < COLD; i++) {
  for (const pause of [0, THINK_MS]) {
    const client = await connect();
    first.get_data_info?.push(await timed(client, 'get_data_info', {}));
    await sleep(pause);
    const label = pause ? `run_code, ${THINK_MS / 1000} s after` : 'run_code, right after';
    first[label]?.push(await timed(client, 'run_code', { code: 'print(df.shape)' }));
    await client.close();
  }
}

const repeated: Record<string, number[]> = {};
const client = await connect();
await timed(client, 'get_data_info', {});
await timed(client, 'run_code', { code: 'print(1)' });
for (const c of CASES) {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    await sleep(50);
    times.push(await timed(client, c.tool, c.args));
  }
  repeated[c.label] = times;
}
await client.close();

const f = (ms: number): string => ms.toFixed(1);
const lines = [
  `rows: ${ROWS.toLocaleString('en-US')} × 10 columns (${dataset}); load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
  '',
  '| call | runs | p50 ms | p95 ms |',
  '|---|---|---|---|',
  ...Object.entries(first).map(
    ([tool, t]) =>
      `| ${tool} (first call of a session) | ${t.length} | ${f(percentile(t, 50))} | ${f(percentile(t, 95))} |`,
  ),
  ...Object.entries(repeated).map(
    ([label, t]) =>
      `| ${label}, repeated | ${t.length} | ${f(percentile(t, 50))} | ${f(percentile(t, 95))} |`,
  ),
];
process.stdout.write(`${lines.join('\n')}\n`);
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'mcp.json'),
  `${JSON.stringify({ rows: ROWS, first, repeated }, null, 2)}\n`,
);
