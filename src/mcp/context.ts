/**
 * What the parts of one client's MCP server share: the settings every client shares, the
 * client's sessions, the call wrapper, and the few names (URIs, argument schemas) that the
 * tools, resources and prompt agree on.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ReportSummary } from '../report/write.js';
import { opsmindVersion } from '../util/version.js';
import type {
  ClientSession,
  ClientSessions,
  SessionSettings,
  TableChoice,
} from './client-sessions.js';
import type { Metrics } from './metrics.js';
import type { ResultPolicy, TextResult } from './results.js';
import type { DatasetRoots } from './roots.js';

/** Everything the server's clients share. */
export interface ServerSettings extends SessionSettings {
  roots: DatasetRoots;
  policy: ResultPolicy;
  /** Wall-clock limit of one tool call, in ms. */
  callTimeoutMs: number;
  /** Where reports are written (one per session). */
  reportsDir: string;
  /** One JSON object per call (the CLI writes them to stderr as JSON lines). */
  log: (record: Record<string, unknown>) => void;
  metrics?: Metrics;
}

/** The request context the SDK hands a handler. */
export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A call's body: runs under `signal`; `progress` sends a progress message when the client asked. */
export type CallBody = (
  signal: AbortSignal,
  progress: (message: string) => void,
) => Promise<TextResult>;

/** One client's server, as its parts see it. */
export interface ClientContext {
  readonly server: McpServer;
  readonly settings: ServerSettings;
  readonly sessions: ClientSessions;
  readonly clientId: string;
  /** Runs a tool call with its trace id, limits, progress, log line and metrics. */
  call(
    tool: string,
    extra: Extra,
    meta: Record<string, unknown>,
    body: CallBody,
  ): Promise<TextResult>;
}

/** A dataset name: a path relative to a root as list_datasets prints it, or an absolute path under one. */
export const DatasetName = z
  .string()
  .min(1)
  .max(1024)
  .regex(/^[^\p{Cc}]+$/u, 'a dataset name has no control characters')
  .describe(
    'the dataset: a file name exactly as list_datasets prints it (relative to the server root), e.g. "sales.csv"',
  );

/** A session id as tool results print it. */
export const SessionId = z
  .string()
  .regex(/^[0-9a-z-]{6,64}$/i, 'a session id as a tool result printed it')
  .describe('the session id a get_data_info, run_code, run_sql or analyze result printed');

/** The URI of a session resource. */
export function sessionUri(id: string, part: string): string {
  return `opsmind://sessions/${id}/${part}`;
}

/** The URI of a dataset's profile. */
export function profileUri(dataset: string): string {
  return `opsmind://datasets/${encodeURIComponent(dataset)}/profile`;
}

/** A fresh trace id (16 hex digits). */
export function traceId(): string {
  return randomBytes(8).toString('hex');
}

/** The client's session for `dataset`, checked against the roots (DatasetError when refused). */
export function sessionFor(
  ctx: ClientContext,
  dataset: string,
  table: TableChoice = {},
): Promise<ClientSession> {
  const realPath = ctx.settings.roots.resolve(dataset);
  return ctx.sessions.forDataset(ctx.settings.roots.nameOf(realPath), realPath, table);
}

/**
 * The tools' optional choice of the table in a file that holds several: each choice is a session
 * of its own (its own engine over that table), as analyze's --sheet and --records.
 */
export const TableShape = {
  sheet: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('for an Excel workbook: the sheet to read (default: the first)'),
  records: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe(
      'for a JSON file that is one object holding several tables: the key whose records are the table, e.g. "links" (the error of a call without it names the keys)',
    ),
};

/** The table choice in a tool's arguments. */
export function tableOf(args: { sheet?: unknown; records?: unknown }): TableChoice {
  return {
    ...(typeof args.sheet === 'string' ? { sheet: args.sheet } : {}),
    ...(typeof args.records === 'string' ? { records: args.records } : {}),
  };
}

/** Writes the session's report (declarations that failed validation left out) to the reports dir. */
export function writeSessionReport(
  ctx: ClientContext,
  entry: ClientSession,
): Promise<ReportSummary> {
  mkdirSync(ctx.settings.reportsDir, { recursive: true });
  return entry.session.writeReport(
    {
      outPath: join(ctx.settings.reportsDir, `${entry.session.id}.html`),
      title: `Analysis of ${entry.dataset}`,
      plotly: { mode: 'inline' },
      ...(entry.provenance ? { provenance: entry.provenance } : {}),
      meta: {
        tool: `opsmind ${opsmindVersion()}`,
        command: 'mcp',
        session: entry.session.id,
        isolation: entry.session.isolationLevel,
      },
    },
    { builtOnly: true },
  );
}
