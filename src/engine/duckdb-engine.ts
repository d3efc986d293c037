/**
 * The DuckDB engine: the data source read once into an embedded database
 * (engine/source.ts), which is then locked — no file but its spill directory,
 * no extension, no setting change — and every profile figure and chart frame
 * computed by SQL over all rows (engine/profile.ts, engine/execute.ts). The
 * specs it writes are our compiler's, so they pass the zod gate but skip the
 * full-bundle Plotly check (kept for model-written specs and in tests).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { compilePlan } from '../agent/compile-plan.js';
import type { Plan } from '../agent/plan.js';
import type { DataProfile } from '../agent/profile.js';
import { renderSpec } from '../report/render.js';
import { FrameBudget } from '../spec/frame-budget.js';
import { renumberSpec } from '../spec/session-ids.js';
import { removeTree } from '../util/remove-tree.js';
import { DuckDb } from './duckdb.js';
import type { AnalysisEngine, ExecuteContext, Executed, Profiled, SelectResult } from './engine.js';
import { executePlan } from './execute.js';
import { checkedProfile } from './pandas-engine.js';
import { profileWithStats } from './profile.js';
import type { ExactStats } from './profile-exact.js';
import { attachSource } from './source.js';
import { describeData } from '../agent/semantics.js';
import { statementWarnings } from '../agent/semantics-balances.js';
import { tableFacts } from './profile-facts.js';
import { dataColumns } from './sql-rows.js';
import type { SourceInfo } from './types.js';
import type { DataFacts } from '../sandbox/data-file.js';
import { workdirFiles } from '../agent/step-record.js';

/** How to open the DuckDB engine over a data file. */
export interface DuckDbEngineOptions {
  dataPath: string;
  sheet?: string;
  /** A JSON wrapper's key whose records to read (--records). */
  records?: string;
  memoryMb: number;
  /** Default: the machine's cores. */
  threads?: number;
  /** What the engine may spill to disk, in MB. */
  maxTempMb: number;
  /** A host-only directory the engine owns (spill, conversions, work dirs); removed on close. */
  scratchDir: string;
  /** The session's pass over the file's bytes, if it started one (attachSource checks against it). */
  facts?: Promise<DataFacts>;
  signal?: AbortSignal;
}

/** The SQL of a step as one readable script: each declaration's query under its title. */
function sqlScript(
  source: SourceInfo,
  queries: { seq: number; title: string; sql: string }[],
): string {
  const head = `-- OpsMind fast mode: the queries behind every chart and table of ${source.name},\n-- run by DuckDB over the table "data" (the file as read: ${source.format}${source.delimiter ? `, delimiter ${JSON.stringify(source.delimiter)}` : ''}).\n`;
  return [
    head,
    ...queries.map((q) => `-- ${q.seq}. ${q.title.replace(/[\r\n]+/g, ' ')}\n${q.sql.trim()};\n`),
  ].join('\n');
}

/** Fast mode's numbers computed by DuckDB on the host. */
export class DuckDbEngine implements AnalysisEngine {
  readonly name = 'duckdb' as const;
  private steps = 0;
  /** The last profile's exact statistics of the number columns, for the charts to reuse. */
  private known: ExactStats | undefined;

  private constructor(
    private readonly db: DuckDb,
    readonly source: SourceInfo,
    readonly label: string,
    private readonly scratchDir: string,
  ) {}

  /** Opens the database, reads the data source into it, and locks it. */
  static async open(options: DuckDbEngineOptions): Promise<DuckDbEngine> {
    // The database starts on DuckDB's threads while attachSource's host steps (a text file's
    // encoding, delimiter, header) run on this one.
    const opening = DuckDb.open({
      memoryMb: options.memoryMb,
      threads: options.threads ?? availableParallelism(),
      tempDir: join(options.scratchDir, 'spill'),
      maxTempMb: options.maxTempMb,
    });
    opening.catch(() => undefined);
    try {
      const source = await attachSource(opening, options.dataPath, {
        scratchDir: options.scratchDir,
        ...(options.sheet ? { sheet: options.sheet } : {}),
        ...(options.records !== undefined ? { records: options.records } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.facts ? { facts: options.facts } : {}),
      });
      const db = await opening;
      await db.lock([]);
      return new DuckDbEngine(db, source, `DuckDB ${await db.version()}`, options.scratchDir);
    } catch (error) {
      // The engine owns its scratch dir (spill, transcoded copies) from here: a file it could not
      // read leaves nothing in the temp dir.
      (await opening.catch(() => null))?.close();
      removeTree(options.scratchDir);
      throw error;
    }
  }

  async profile(sourceName: string, signal?: AbortSignal): Promise<Profiled> {
    const { profile: profiled, stats } = await profileWithStats(
      this.db,
      { ...this.source, name: sourceName },
      signal,
    );
    this.known = stats;
    const types = new Map((await dataColumns(this.db, signal)).map((c) => [c.name, c.type]));
    const facts = await tableFacts(this.db, profiled, types, this.source.locale.dateOrder, signal);
    const semantics = describeData(profiled, facts);
    const profile = { ...profiled, warnings: statementWarnings(profiled, semantics), semantics };
    const text = JSON.stringify(profile);
    return { profile: checkedProfile(text, sourceName), text };
  }

  select(sql: string, maxRows: number, signal?: AbortSignal): Promise<SelectResult> {
    return this.db.select(sql, maxRows, signal);
  }

  async execute(plan: Plan, profile: DataProfile, ctx: ExecuteContext): Promise<Executed> {
    const started = performance.now();
    const workdir = mkdtempSync(join(this.scratchDir, `step-${++this.steps}-`));
    const outcome = await executePlan(this.db, plan, profile, {
      workdir,
      source: this.source,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(this.known ? { known: this.known } : {}),
    });
    const seqOf = new Map(
      [...(outcome.spec?.charts ?? []), ...(outcome.spec?.tables ?? [])].map((d) => [d.id, d]),
    );
    const queries = Object.entries(outcome.queries)
      .flatMap(([id, sql]) => {
        const decl = seqOf.get(id);
        return decl
          ? [
              {
                seq: decl.seq,
                title: typeof decl.params.title === 'string' ? decl.params.title : decl.kind,
                sql,
              },
            ]
          : [];
      })
      .sort((a, b) => a.seq - b.seq);
    const code = sqlScript(this.source, queries);
    writeFileSync(
      join(workdir, 'queries.json'),
      JSON.stringify(queries.map(({ seq, sql }) => ({ seq, sql }))),
    );
    const spec = outcome.spec ? renumberSpec(outcome.spec, ctx.usedIds) : null;
    const items = spec
      ? await renderSpec(spec, workdir, {
          budget: new FrameBudget(ctx.storedBytes),
          validateFigures: false,
        })
      : [];
    const files = [
      { name: 'analysis.sql', content: Buffer.from(code) },
      {
        name: 'program.py',
        content: Buffer.from(
          compilePlan(plan, profile, ctx.planner, {
            dayFirst: this.source.locale.dateOrder === 'DMY',
          }),
        ),
      },
      ...workdirFiles(workdir, spec, items),
      { name: 'insights.json', content: Buffer.from(JSON.stringify(outcome.insights)) },
      {
        name: 'queries.json',
        content: Buffer.from(JSON.stringify(queries.map(({ seq, sql }) => ({ seq, sql })))),
      },
    ];
    const finished = {
      type: 'program_finished' as const,
      step: ctx.step,
      exit_code: 0,
      signal: null,
      stdout: '',
      stderr: '',
      duration_ms: Math.round((performance.now() - started) * 10) / 10,
      isolation: this.label,
      warm: true,
      limit_hit: null,
    };
    removeTree(workdir);
    return {
      finished,
      files,
      spec,
      items,
      insights: outcome.insights,
      warnings: outcome.warnings,
      code,
      rowsUsed: outcome.rowsUsed,
    };
  }

  close(): void {
    this.db.close();
    removeTree(this.scratchDir);
  }
}
