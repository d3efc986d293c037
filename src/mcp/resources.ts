/**
 * The MCP resources of one client — each of its sessions' report HTML, render spec and frames
 * (`opsmind://sessions/{id}/…`, only the client's own sessions are listed or readable) and each
 * dataset's profile (`opsmind://datasets/{name}/profile`) — and the prompt that starts an
 * exploration of a dataset.
 */
import { readFileSync } from 'node:fs';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { profileText } from '../agent/profile-text.js';
import type { RenderedItem } from '../report/render.js';
import type { ClientSession } from './client-sessions.js';
import type { ClientContext } from './context.js';
import { profileUri, sessionFor, sessionUri, writeSessionReport } from './context.js';
import { textResult } from './results.js';
import { DatasetError } from './roots.js';

/** The session's valid declarations, in report order. */
function builtItems(entry: ClientSession): RenderedItem[] {
  return entry.session.report.report.items.filter((i) => i.built);
}

/** The session's render spec: its source and every valid declaration, charts and tables apart. */
function sessionSpec(entry: ClientSession): Record<string, unknown> {
  const items = builtItems(entry);
  const decl = (i: RenderedItem) => ({ ...i.decl, step: i.step ?? null });
  return {
    source: entry.session.report.report.spec?.source ?? null,
    charts: items.filter((i) => i.decl.kind !== 'table' && i.decl.kind !== 'image').map(decl),
    tables: items.filter((i) => i.decl.kind === 'table').map(decl),
    images: items.filter((i) => i.decl.kind === 'image').map(decl),
  };
}

/** The client's session with this id, or a DatasetError. */
function own(ctx: ClientContext, id: unknown): ClientSession {
  const entry = typeof id === 'string' ? ctx.sessions.byIdOrPrefix(id) : undefined;
  if (!entry) throw new DatasetError(`no session ${String(id)} in this connection`);
  return entry;
}

/** The frame of every valid declaration of the session, named by its session-wide id. */
function frames(
  ctx: ClientContext,
  entry: ClientSession,
): { name: string; step: number; content: Buffer }[] {
  return builtItems(entry).flatMap((item) => {
    const file = item.decl.data.file;
    if (!file || item.step === undefined) return [];
    const artifact = ctx.settings.store
      .artifacts(entry.session.id, item.step)
      .find((a) => a.name === file);
    return artifact
      ? [{ name: `${item.decl.id}.json`, step: item.step, content: artifact.content }]
      : [];
  });
}

/** opsmind://sessions/{id}/report.html: the report, written afresh. */
function reportResource(ctx: ClientContext): void {
  ctx.server.registerResource(
    'session-report',
    new ResourceTemplate('opsmind://sessions/{session}/report.html', {
      list: () => ({
        resources: ctx.sessions.list().map((e) => ({
          uri: sessionUri(e.session.id, 'report.html'),
          name: `report of ${e.dataset} (${e.session.id})`,
          mimeType: 'text/html',
        })),
      }),
    }),
    {
      description: 'The session’s self-contained HTML report (Plotly inline)',
      mimeType: 'text/html',
    },
    async (uri, variables) => {
      const entry = own(ctx, variables.session);
      const report = await ctx.sessions.run(entry, () => writeSessionReport(ctx, entry));
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/html', text: readFileSync(report.report_path, 'utf8') },
        ],
      };
    },
  );
}

/** opsmind://sessions/{id}/render_spec.json: every valid declaration so far. */
function specResource(ctx: ClientContext): void {
  ctx.server.registerResource(
    'session-spec',
    new ResourceTemplate('opsmind://sessions/{session}/render_spec.json', {
      list: () => ({
        resources: ctx.sessions.list().map((e) => ({
          uri: sessionUri(e.session.id, 'render_spec.json'),
          name: `render spec of ${e.dataset} (${e.session.id})`,
          mimeType: 'application/json',
        })),
      }),
    }),
    {
      description:
        'Every valid chart and table the session declared so far (analyze and run_code), with the step of each',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const entry = own(ctx, variables.session);
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'application/json',
            text: JSON.stringify(sessionSpec(entry)),
          },
        ],
      };
    },
  );
}

/** opsmind://sessions/{id}/frames/{id}.json: the frame behind one chart or table. */
function frameResource(ctx: ClientContext): void {
  ctx.server.registerResource(
    'session-frame',
    new ResourceTemplate('opsmind://sessions/{session}/frames/{frame}', {
      list: () => ({
        resources: ctx.sessions.list().flatMap((e) =>
          frames(ctx, e).map((f) => ({
            uri: sessionUri(e.session.id, `frames/${f.name}`),
            name: `frame ${f.name} of ${e.dataset} (step ${f.step})`,
            mimeType: 'application/json',
          })),
        ),
      }),
    }),
    { description: 'One chart or table frame of the session (JSON)', mimeType: 'application/json' },
    (uri, variables) => {
      const entry = own(ctx, variables.session);
      const frame = frames(ctx, entry).find((f) => f.name === variables.frame);
      if (!frame)
        throw new DatasetError(`no frame ${String(variables.frame)} in ${entry.session.id}`);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: frame.content.toString('utf8') },
        ],
      };
    },
  );
}

/** opsmind://datasets/{name}/profile: a dataset's profile text. */
function profileResource(ctx: ClientContext): void {
  ctx.server.registerResource(
    'dataset-profile',
    new ResourceTemplate('opsmind://datasets/{dataset}/profile', {
      list: () => ({
        resources: ctx.settings.roots.list().datasets.map((d) => ({
          uri: profileUri(d.dataset),
          name: `profile of ${d.dataset}`,
          mimeType: 'text/plain',
        })),
      }),
    }),
    { description: 'A dataset’s profile as get_data_info returns it', mimeType: 'text/plain' },
    async (uri, variables) => {
      const dataset = decodeURIComponent(String(variables.dataset));
      const entry = await sessionFor(ctx, dataset);
      const profiled = await ctx.sessions.run(entry, async () => {
        const engine = await entry.session.engine();
        return engine.profile(entry.dataset);
      });
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/plain',
            text:
              textResult(profileText(profiled.profile), ctx.settings.policy).content[0]?.text ?? '',
          },
        ],
      };
    },
  );
}

/** Registers the session resources (report, spec, frames) and the dataset profiles. */
export function registerResources(ctx: ClientContext): void {
  reportResource(ctx);
  specResource(ctx);
  frameResource(ctx);
  profileResource(ctx);
}

/** Registers the prompt that starts an exploration of a dataset. */
export function registerPrompt(ctx: ClientContext): void {
  ctx.server.registerPrompt(
    'explore_dataset',
    {
      description: 'Start an exploration of one dataset with OpsMind’s tools.',
      argsSchema: {
        dataset: z.string().describe('the dataset, as list_datasets prints it'),
        question: z.string().optional().describe('what you want to learn (optional)'),
      },
    },
    ({ dataset, question }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Explore the dataset "${dataset}" with the OpsMind tools${question ? ` to answer: ${question}` : ''}.`,
              '1. Call get_data_info to learn what a row is and what each column measures.',
              '2. Call analyze for the standard charts and findings.',
              '3. Check anything surprising with run_sql (exact numbers) or run_code (pandas); declare_chart adds a chart to the report.',
              '4. Call render_report and answer with the numbers the tools returned, citing each one; say which statistic you used and why (mean for levels and ratios, sums only for amounts).',
            ].join('\n'),
          },
        },
      ],
    }),
  );
}
