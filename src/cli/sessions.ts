/** `opsmind sessions list|show|replay|export|rm`: browse, rebuild and export stored sessions. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { summaryTarget } from '../report/summary-file.js';
import { writeReport } from '../report/write.js';
import type { Provenance } from '../agent/provenance.js';
import { ReportModel, safeArtifactName } from '../session/report-model.js';
import type { SessionRow, SessionStore } from '../store/session-store.js';
import { printErr, printJson, printOut } from '../ui/print.js';
import { chartsAndTables, count } from '../util/plural.js';
import { opsmindVersion } from '../util/version.js';
import { parsePlotlyOption } from './options.js';
import { openStore, openStoreForReading } from './store-option.js';

/** Runs `fn` on the store, opened read-only when `access` is 'read' and the store cannot be written. */
function withStore<T>(
  program: Command,
  fn: (store: SessionStore) => Promise<T> | T,
  access: 'read' | 'write' = 'read',
): Promise<T> {
  const store = access === 'read' ? openStoreForReading(program) : openStore(program);
  return Promise.resolve(fn(store)).finally(() => store.close());
}

function line(row: SessionRow & { charts: number }): string {
  const when = row.created_at.replace('T', ' ').slice(0, 16);
  return `${row.id}  ${when}  ${row.command.padEnd(7)} ${row.status.padEnd(11)} ${count(row.charts, 'item').padEnd(9)} ${basename(row.data_path)}${row.title ? ` · ${row.title}` : ''}`;
}

/** Sessions a model drives leave out the declarations it retried, live and in replay alike. */
const MODEL_DRIVEN = new Set(['deep', 'interactive', 'mcp']);

/** The provenance fast mode stored with its last execute step, if it is readable. */
function storedProvenance(store: SessionStore, id: string): Provenance | undefined {
  const file = store
    .artifacts(id)
    .filter((a) => a.name === 'provenance.json')
    .at(-1);
  if (!file) return undefined;
  try {
    return JSON.parse(file.content.toString('utf8')) as Provenance;
  } catch {
    return undefined;
  }
}

async function replayTo(
  store: SessionStore,
  session: SessionRow,
  outPath: string,
  plotly: string,
  summaryFile?: string,
) {
  const model = await ReportModel.of(store, session.id);
  const content = model.report;
  const items = MODEL_DRIVEN.has(session.mode)
    ? content.items.filter((i) => i.built)
    : content.items;
  const provenance = storedProvenance(store, session.id);
  return writeReport({
    ...(provenance ? { provenance } : {}),
    outPath,
    summary: summaryTarget(outPath, summaryFile),
    title: `${session.title ?? session.command} on ${basename(session.data_path)} (replayed)`,
    spec: content.spec,
    items,
    output: content.output,
    warnings: content.warnings,
    plotly: parsePlotlyOption(plotly),
    extras: content.extras,
    meta: {
      tool: `opsmind ${opsmindVersion()}`,
      session: session.id,
      replayed: 'from stored events, without a model or Python',
      status: session.status,
    },
  });
}

function exportSession(store: SessionStore, session: SessionRow, dir: string): number {
  mkdirSync(dir, { recursive: true });
  const events = store.events(session.id);
  writeFileSync(join(dir, 'session.json'), `${JSON.stringify({ session, events }, null, 2)}\n`);
  writeFileSync(join(dir, 'data.sha256'), `${session.data_sha256}  ${session.data_path}\n`);
  let files = 0;
  for (const artifact of store.artifacts(session.id)) {
    if (!safeArtifactName(artifact.name)) continue;
    const target = join(dir, 'steps', String(artifact.step), artifact.name);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, artifact.content);
    files += 1;
  }
  // The fast step's code at the top: analysis.sql (DuckDB) and analysis.py, its pandas twin that `opsmind run` re-runs.
  const fast = events
    .filter((e) => e.type === 'step_started' && e.tool === 'execute_analysis')
    .at(-1);
  if (fast && 'step' in fast) {
    for (const artifact of store.artifacts(session.id, fast.step)) {
      if (artifact.name === 'program.py') writeFileSync(join(dir, 'analysis.py'), artifact.content);
      if (artifact.name === 'analysis.sql')
        writeFileSync(join(dir, 'analysis.sql'), artifact.content);
    }
  }
  return files;
}

/** Registers the `sessions` command group. */
export function registerSessions(program: Command): void {
  const sessions = program
    .command('sessions')
    .description('list, show, replay, export and remove stored sessions');
  sessions
    .command('list')
    .description('list sessions, newest first')
    .option('--json', 'print a JSON array')
    .option('-n, --limit <n>', 'how many', '50')
    .action((options: { json?: boolean; limit: string }) =>
      withStore(program, (store) => {
        const rows = store.list(Math.max(1, Number(options.limit) || 50));
        if (options.json) printJson(rows);
        else printOut(rows.length ? `${rows.map(line).join('\n')}\n` : 'no sessions yet\n');
      }),
    );
  sessions
    .command('show')
    .description('show a session and its events')
    .argument('<id>', 'session id (or a unique prefix)')
    .option('--json', 'print {session, events}')
    .action((id: string, options: { json?: boolean }) =>
      withStore(program, (store) => {
        const session = store.session(id);
        const events = store.events(session.id);
        if (options.json) return printJson({ session, events });
        const head = [
          `session  ${session.id} (${session.status})`,
          `command  ${session.command} (${session.mode})${session.title ? ` · ${session.title}` : ''}`,
          `data     ${session.data_path} (${count(session.data_size, 'byte')}, sha256 ${session.data_sha256.slice(0, 16)}…)`,
          `created  ${session.created_at}`,
          '',
        ];
        const body = events.map(
          (e) =>
            `${String(e.seq).padStart(4)}  ${e.created_at.slice(11, 19)}  ${e.type}${'step' in e && e.step !== undefined ? ` (step ${e.step})` : ''}`,
        );
        printOut(`${[...head, ...body].join('\n')}\n`);
      }),
    );
  sessions
    .command('replay')
    .description('rebuild the report from stored events and artifacts (no model, no Python)')
    .argument('<id>', 'session id (or a unique prefix)')
    .option('-o, --output <file>', 'where to write the report (default: <id>-replay.html)')
    .option(
      '--summary <file>',
      'where to write the JSON summary (default: the report path with .json)',
    )
    .option('--json', 'print the report summary as JSON')
    .option('--plotly <inline|URL>', 'inline or link Plotly', 'inline')
    .action(
      (
        id: string,
        options: { output?: string; summary?: string; json?: boolean; plotly: string },
      ) =>
        withStore(program, async (store) => {
          const session = store.session(id);
          const summary = await replayTo(
            store,
            session,
            resolve(options.output ?? `${session.id}-replay.html`),
            options.plotly,
            options.summary,
          );
          const { issues: _issues, ...rest } = summary;
          if (options.json) printJson({ ...rest, session_id: session.id });
          else
            printErr(
              `report: ${summary.report_path} (${chartsAndTables(summary.charts.length, summary.tables.length, summary.images.length)})\n`,
            );
        }),
    );
  sessions
    .command('export')
    .description(
      'write the code of every step, specs, data frames, data hash and the replayed report into a directory',
    )
    .argument('<id>', 'session id (or a unique prefix)')
    .argument('<dir>', 'target directory')
    .action((id: string, dir: string) =>
      withStore(program, async (store) => {
        const session = store.session(id);
        const files = exportSession(store, session, resolve(dir));
        await replayTo(store, session, join(resolve(dir), 'report.html'), 'inline');
        printErr(
          `exported ${session.id}: ${count(files, 'step file')}, session.json, data.sha256, report.html → ${resolve(dir)}\n`,
        );
      }),
    );
  sessions
    .command('rm')
    .description('delete a session with its events and artifacts')
    .argument('<id>', 'session id (or a unique prefix)')
    .action((id: string) =>
      withStore(
        program,
        (store) => {
          const session = store.session(id);
          store.remove(session.id);
          printErr(`removed ${session.id}\n`);
        },
        'write',
      ),
    );
}
