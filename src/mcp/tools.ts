/**
 * The MCP tools: list_datasets, and the registry's get_data_info, run_code and run_sql run as
 * stored steps of the client's session for the dataset, then analyze (fast mode with its
 * report) and render_report. Descriptions are written for a client model to choose well.
 */
import { z } from 'zod';
import { captionOf } from '../agent/provenance.js';
import { getDataInfoTool } from '../agent/tools/get-data-info.js';
import type { AnyTool } from '../agent/tools/registry.js';
import { runCodeTool } from '../agent/tools/run-code.js';
import { runSqlTool } from '../agent/tools/run-sql.js';
import type { ClientContext, Extra } from './context.js';
import {
  DatasetName,
  SessionId,
  sessionFor,
  sessionUri,
  TableShape,
  tableOf,
  traceId,
  writeSessionReport,
} from './context.js';
import { textResult } from './results.js';

/** A registry tool run as a step of the dataset's session. */
function registryTool(
  ctx: ClientContext,
  tool: AnyTool,
  description: string,
  shape: Record<string, z.ZodType>,
  annotations: { readOnlyHint: boolean; openWorldHint: false },
): void {
  ctx.server.registerTool(
    tool.name,
    {
      description,
      inputSchema: z.object({ dataset: DatasetName, ...TableShape, ...shape }),
      annotations,
    },
    (args: Record<string, unknown>, extra: Extra) =>
      ctx.call(tool.name, extra, { dataset: args.dataset }, async (signal, progress) => {
        const { dataset, sheet, records, ...toolArgs } = args;
        const entry = await sessionFor(ctx, String(dataset), tableOf({ sheet, records }));
        return ctx.sessions.run(entry, async () => {
          progress(`${tool.name} on ${entry.dataset}`);
          const steps = entry.session.tool(tool, toolArgs, { callId: traceId(), signal });
          let next = await steps.next();
          while (!next.done) next = await steps.next();
          const result = next.value;
          const display = result.forDisplay;
          // A declaration the validator rejected is for the client model to fix, like a traceback.
          const rejected =
            display.kind === 'program' &&
            display.items.some((i) => !i.built && i.decl.kind !== 'image');
          return textResult(
            `session: ${entry.session.id}\n${result.forModel}`,
            ctx.settings.policy,
            {
              isError: !result.ok || rejected,
              where: `the session's step files hold all of it (resource ${sessionUri(entry.session.id, 'render_spec.json')})`,
            },
          );
        });
      }),
  );
}

/** list_datasets: the data files under the roots. */
function registerListDatasets(ctx: ClientContext): void {
  ctx.server.registerTool(
    'list_datasets',
    {
      description:
        'List the data files this server may read (under its root folders), with sizes. Call it first to find the dataset names the other tools take.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (_args: Record<string, unknown>, extra: Extra) =>
      ctx.call('list_datasets', extra, {}, () => {
        const { datasets, truncated } = ctx.settings.roots.list();
        const lines = datasets.map(
          (d) =>
            `${d.dataset}\t${d.bytes.toLocaleString('en-US')} bytes\t${d.modified.slice(0, 10)}`,
        );
        const text = datasets.length
          ? `datasets (${datasets.length}${truncated ? ', more not listed' : ''}):\n${lines.join('\n')}`
          : 'no data files under the server root (it reads .csv, .tsv, .json, .jsonl, .parquet and .xlsx files)';
        return Promise.resolve(textResult(text, ctx.settings.policy));
      }),
  );
}

/** analyze: fast mode over the dataset, with its report. */
function registerAnalyze(ctx: ClientContext): void {
  ctx.server.registerTool(
    'analyze',
    {
      description:
        'Fast analysis of a dataset, offline and deterministic: profiles it, plans the charts an analyst would draw (respecting what a row is and what each column measures), computes them in DuckDB over all rows, and writes an HTML report. Returns the findings, each chart with how its numbers were derived, and the report path.',
      inputSchema: z.object({
        dataset: DatasetName,
        ...TableShape,
        question: z
          .string()
          .max(500)
          .optional()
          .describe('an optional focus, e.g. "how do sales differ by region?"'),
      }),
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    (
      args: { dataset: string; question?: string; sheet?: string; records?: string },
      extra: Extra,
    ) =>
      ctx.call('analyze', extra, { dataset: args.dataset }, async (signal, progress) => {
        const entry = await sessionFor(ctx, args.dataset, tableOf(args));
        return ctx.sessions.run(entry, async () => {
          const steps = entry.session.fast({
            ...(args.question ? { question: args.question } : {}),
            signal,
          });
          let next = await steps.next();
          while (!next.done) {
            if (next.value.type === 'step_started') progress(`analyze: ${next.value.title}`);
            next = await steps.next();
          }
          const result = next.value;
          entry.provenance = result.provenance;
          const report = await writeSessionReport(ctx, entry);
          const lines = [
            `session: ${entry.session.id}`,
            `dataset: ${entry.dataset} (${result.profile.rows.toLocaleString('en-US')} rows × ${result.profile.columns} columns; grain: ${describeGrain(result.provenance.table)})`,
            '',
            'findings:',
            ...(result.findings.length
              ? result.findings.map((f) => `- ${f.text}`)
              : ['- (none stood out)']),
            ...result.profile.warnings.map((w) => `- data quality: ${w}`),
            '',
            `charts and tables (${report.charts.length + report.tables.length}):`,
            ...[
              ...report.charts.map((c) => ({ ...c, what: c.kind })),
              ...report.tables.map((t) => ({ ...t, what: 'table' })),
            ].map(
              (c) =>
                `- ${c.id} ${c.what} "${c.title ?? ''}"${c.derivation ? ` — ${captionOf(c.derivation)}` : ''}`,
            ),
            ...(result.failed.length
              ? ['', 'failed:', ...result.failed.map((f) => `- ${f.title}: ${f.error}`)]
              : []),
            '',
            `report: ${report.report_path} (resource ${sessionUri(entry.session.id, 'report.html')})`,
          ];
          return textResult(lines.join('\n'), ctx.settings.policy, {
            isError: result.executed.spec === null,
            where: `the report has everything (${report.report_path})`,
          });
        });
      }),
  );
}

/** render_report: the session's report with everything declared so far. */
function registerRenderReport(ctx: ClientContext): void {
  ctx.server.registerTool(
    'render_report',
    {
      description:
        "Write the session's HTML report with every chart and table declared so far (by analyze and by run_code), and return its path and resource URI.",
      inputSchema: z.object({ session: SessionId }),
      annotations: { readOnlyHint: false, openWorldHint: false },
    },
    (args: { session: string }, extra: Extra) =>
      ctx.call('render_report', extra, { session: args.session }, async () => {
        const entry = ctx.sessions.byIdOrPrefix(args.session);
        if (!entry)
          return textResult(
            `error: no session ${args.session} in this connection; the sessions here are: ${
              ctx.sessions
                .list()
                .map((s) => `${s.session.id} (${s.dataset})`)
                .join(', ') || 'none yet'
            }`,
            ctx.settings.policy,
            { isError: true },
          );
        return ctx.sessions.run(entry, async () => {
          const report = await writeSessionReport(ctx, entry);
          return textResult(
            [
              `session: ${entry.session.id}`,
              `report: ${report.report_path}`,
              `resource: ${sessionUri(entry.session.id, 'report.html')}`,
              `${report.charts.length} charts, ${report.tables.length} tables, ${report.images.length} images`,
              ...(report.warnings.length
                ? ['warnings:', ...report.warnings.slice(0, 20).map((w) => `- ${w}`)]
                : []),
            ].join('\n'),
            ctx.settings.policy,
          );
        });
      }),
  );
}

/** Registers every tool on the client's server. */
export function registerTools(ctx: ClientContext): void {
  registerListDatasets(ctx);
  registryTool(
    ctx,
    getDataInfoTool,
    'Profile one dataset: rows, columns with types, missing values, statistics, top values, what a row is (grain) and what each column measures. Bounded to about 8 KB. Call it before writing code or SQL.',
    {},
    { readOnlyHint: true, openWorldHint: false },
  );
  registryTool(
    ctx,
    runCodeTool,
    'Run Python (pandas, numpy; df is the dataset) in an isolated sandbox with no network and no host files. Each call starts from a fresh df: variables do not carry over, so recompute what you need. Returns printed output (cut when long), a trimmed traceback, and which declare_chart/declare_table calls were valid or rejected and why, so you can fix and run again. Print summaries, not whole frames.',
    {
      code: runCodeTool.schema.shape.code,
      purpose: runCodeTool.schema.shape.purpose,
    },
    { readOnlyHint: false, openWorldHint: false },
  );
  registryTool(
    ctx,
    runSqlTool,
    'Run one read-only DuckDB SELECT over the table "data" (every row of the dataset). Returns at most max_rows rows. Best for exact counts, sums, group-bys and filters.',
    { sql: runSqlTool.schema.shape.sql, max_rows: runSqlTool.schema.shape.max_rows },
    { readOnlyHint: true, openWorldHint: false },
  );

  registerAnalyze(ctx);
  registerRenderReport(ctx);
}

function describeGrain(table: { grain: string; entity?: string | null }): string {
  return table.entity ? `${table.grain} (${table.entity})` : table.grain;
}
