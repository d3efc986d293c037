/**
 * The MCP server of one client: OpsMind's tools (mcp/tools.ts), resources and prompt
 * (mcp/resources.ts) over the official SDK, and the client's own sessions. Each stdio
 * connection and each Streamable HTTP session gets one, so no client sees another's sessions.
 */
import { randomBytes } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { opsmindVersion } from '../util/version.js';
import { runCall } from './call.js';
import { ClientSessions } from './client-sessions.js';
import type { ClientContext, ServerSettings } from './context.js';
import { registerPrompt, registerResources } from './resources.js';
import { registerTools } from './tools.js';

export type { ServerSettings } from './context.js';

/** One client's server and its sessions (close both when the client goes). */
export interface ClientServer {
  server: McpServer;
  sessions: ClientSessions;
  clientId: string;
}

const INSTRUCTIONS =
  'OpsMind analyses tabular data files (CSV, TSV, JSON, Parquet, Excel) under the server root. Start with list_datasets, then get_data_info on one. analyze writes a full report with charts and findings; run_sql answers exact questions in DuckDB SQL; run_code runs pandas in an isolated sandbox (declare_chart/declare_table add to the report). Results are bounded summaries, never whole tables. render_report writes the session report with everything declared so far.';

/** Builds the server for one client. */
export function clientServer(settings: ServerSettings): ClientServer {
  const clientId = randomBytes(6).toString('hex');
  const sessions = new ClientSessions(settings);
  const server = new McpServer(
    { name: 'opsmind', version: opsmindVersion() },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  const ctx: ClientContext = {
    server,
    settings,
    sessions,
    clientId,
    call: (tool, extra, meta, body) =>
      runCall(settings, { id: clientId, signal: sessions.signal }, { tool, extra, meta }, body),
  };
  registerTools(ctx);
  registerResources(ctx);
  registerPrompt(ctx);
  return { server, sessions, clientId };
}
