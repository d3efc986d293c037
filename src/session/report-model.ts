/**
 * The report model: what a session's report holds, folded from its stored
 * events and artifacts — and from nothing else. Live runs, replay, the chat
 * screen and every front end feed it the same stored events, so a live report
 * and its replay are the same by construction. It is incremental: each
 * `artifact_added` renders only that step's declarations, so a long chat costs
 * the same per question instead of replaying the whole session each time.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ReportExtras } from '../report/html.js';
import { outputChars, renderSpec } from '../report/render.js';
import type { RenderedItem } from '../report/render.js';
import type { StoredEvent } from '../shared/events.js';
import { FrameBudget } from '../spec/frame-budget.js';
import { MAX_JSON_DEPTH } from '../spec/host-limits.js';
import { loadSpec } from '../spec/load.js';
import { REFUSALS_FILE, parseRefusals } from '../spec/refusals.js';
import type { RenderSpec } from '../spec/schema.js';
import { countIds, renumberSpec } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';
import type { SessionStore } from '../store/session-store.js';
import { parseJsonBounded } from '../util/json-depth.js';
import { removeTree } from '../util/remove-tree.js';
import { warningSentence } from '../util/sentence.js';

/** What a report shows, as the model has folded it so far. */
export interface ReportContent {
  /** The last spec (its source names the data; its error, if any, is shown). */
  spec: RenderSpec | null;
  specs: RenderSpec[];
  items: RenderedItem[];
  /** What the programs of script and fast steps printed. */
  output: string;
  warnings: string[];
  extras: {
    findings: string[];
    notes: string[];
    code: { title: string; code: string }[];
    answers: { question: string; text: string; model: string }[];
    summary: ReportExtras['summary'];
  };
}

/** Steps whose printed output is the report's narrative (a model's run_code output is in its answer instead). */
const NARRATED_TOOLS = new Set(['run_script', 'execute_analysis']);
const CODE_TITLES: Record<string, string> = {
  execute_analysis: 'analysis.py — the program that computed every chart and number',
};
/** The SQL behind each declaration of a DuckDB step, by `seq` (engine/duckdb-engine.ts). */
export const QUERIES_FILE = 'queries.json';
const QueriesSchema = z.array(z.object({ seq: z.number().int(), sql: z.string() }));

function parseQueries(content: Buffer | undefined): Map<number, string> {
  if (!content) return new Map();
  try {
    return new Map(
      QueriesSchema.parse(parseJsonBounded(content.toString('utf8'), MAX_JSON_DEPTH)).map((q) => [
        q.seq,
        q.sql,
      ]),
    );
  } catch {
    return new Map();
  }
}
const ProfileWarningsSchema = z.object({ warnings: z.array(z.string()).default([]) });

/** Stored names are checked again before they touch the disk: plain relative paths, no `..`, no empty parts. */
export function safeArtifactName(name: string): boolean {
  return (
    /^[\w.-]+(\/[\w.-]+)*$/.test(name) &&
    !name.split('/').some((part) => part === '..' || part === '.')
  );
}

/** Folds one session's stored events into its report content. */
export class ReportModel {
  private readonly content: ReportContent = {
    spec: null,
    specs: [],
    items: [],
    output: '',
    warnings: [],
    extras: { findings: [], notes: [], code: [], answers: [], summary: null },
  };
  private readonly tools = new Map<number, string>();
  private readonly budget = new FrameBudget();
  private used: IdCounts = {};
  private question = '';
  private lastProfileStep: number | null = null;
  private scratch: string | undefined;
  /** Steps rendered so far (a measure of the work done, for tests of incremental cost). */
  renderedSteps = 0;

  constructor(
    private readonly store: SessionStore,
    readonly sessionId: string,
  ) {}

  /** Builds the model of a whole stored session. */
  static async of(store: SessionStore, sessionId: string): Promise<ReportModel> {
    const model = new ReportModel(store, sessionId);
    try {
      for (const event of store.events(sessionId)) await model.apply(event);
    } finally {
      model.dispose();
    }
    return model;
  }

  /** Folds one stored event in (events must come in their stored order). */
  async apply(event: StoredEvent, rendered?: readonly RenderedItem[]): Promise<void> {
    const c = this.content;
    switch (event.type) {
      case 'step_started':
        this.tools.set(event.step, event.tool);
        return;
      case 'step_finished':
        if (event.tool === 'get_data_info') this.lastProfileStep = event.step;
        return;
      case 'program_finished':
        if (NARRATED_TOOLS.has(this.tools.get(event.step) ?? '')) c.output += event.stdout;
        return;
      case 'warning':
        c.warnings.push(event.message);
        return;
      case 'question_asked':
        this.question = event.text;
        return;
      case 'answer':
        c.extras.answers.push({ question: this.question, text: event.text, model: event.model });
        return;
      case 'insights_computed':
        c.extras.findings.push(...event.insights.map((i) => i.text), ...this.profileWarnings());
        c.warnings.push(
          ...event.failed.map((f) => `analysis ${f.analysis} (${f.title}) failed: ${f.error}`),
        );
        return;
      case 'summary_written':
        c.extras.summary = { text: event.text, model: event.model };
        return;
      case 'plan_created':
        c.extras.notes.push(
          ...(event.fallback ? [`Planner: ${event.fallback}.`] : []),
          ...event.notes,
        );
        return;
      case 'artifact_added':
        await this.addStep(event, rendered);
        return;
      case 'session_started':
      case 'model_turn':
      case 'tool_result':
      case 'report_written':
      case 'session_finished':
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  }

  private profileWarnings(): string[] {
    if (this.lastProfileStep === null) return [];
    const profile = this.store
      .artifacts(this.sessionId, this.lastProfileStep)
      .find((a) => a.name === 'profile.json');
    if (!profile) return [];
    try {
      return ProfileWarningsSchema.parse(
        parseJsonBounded(profile.content.toString('utf8'), MAX_JSON_DEPTH),
      ).warnings.map(warningSentence);
    } catch {
      return [];
    }
  }

  /**
   * Adds a step's declarations: the live run's rendered items when it passes them (they came from
   * the very files stored), else rendered from the stored artifacts exactly as the live step did.
   */
  private async addStep(
    event: Extract<StoredEvent, { type: 'artifact_added' }>,
    rendered?: readonly RenderedItem[],
  ): Promise<void> {
    const before = this.used;
    this.used = countIds(
      this.used,
      [...event.charts, ...event.tables, ...(event.images ?? [])].map((r) => r.id),
    );
    this.scratch ??= mkdtempSync(join(tmpdir(), 'opsmind-report-'));
    const dir = join(this.scratch, `step-${event.step}`);
    mkdirSync(dir, { recursive: true });
    const artifacts = this.store.artifacts(this.sessionId, event.step);
    for (const artifact of artifacts) {
      if (!safeArtifactName(artifact.name)) continue;
      this.addCode(event.step, artifact.name, artifact.content, artifacts);
      const target = join(dir, artifact.name);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, artifact.content);
    }
    const loaded = loadSpec(dir);
    if (!loaded.ok) {
      // A step that stored no spec (none written, or refused) said why in its own warnings.
      if (artifacts.some((a) => a.name === 'render_spec.json'))
        this.content.warnings.push(`step ${event.step}: ${loaded.reason}`);
      return;
    }
    const spec = renumberSpec(loaded.spec, before);
    this.content.specs.push(spec);
    this.content.spec = spec;
    // The same validation and rendering as the live step, so a replay cannot disagree with it.
    const refused = parseRefusals(artifacts.find((a) => a.name === REFUSALS_FILE)?.content);
    // Specs our own compiler wrote skip the full-bundle Plotly check (the zod gate stays); model- and person-written ones keep it.
    const validateFigures = this.tools.get(event.step) !== 'execute_analysis';
    const live = rendered && this.chargeLive(rendered, dir, artifacts) ? rendered : null;
    const items =
      live ?? (await renderSpec(spec, dir, { budget: this.budget, refused, validateFigures }));
    const sql = parseQueries(artifacts.find((a) => a.name === QUERIES_FILE)?.content);
    this.content.items.push(
      ...items.map((item) => ({
        ...item,
        step: event.step,
        ...(sql.has(item.decl.seq) ? { sql: sql.get(item.decl.seq) } : {}),
      })),
    );
    this.renderedSteps += 1;
    removeTree(dir);
  }

  /** The step's code for the report: a script or program, or the SQL and its pandas twin of a DuckDB step. */
  private addCode(
    step: number,
    name: string,
    content: Buffer,
    artifacts: readonly { name: string }[],
  ): void {
    const tool = this.tools.get(step) ?? '';
    const sqlStep = artifacts.some((a) => a.name === 'analysis.sql');
    if (name === 'analysis.sql')
      this.content.extras.code.push({
        title: 'analysis.sql — the DuckDB queries that computed every chart and number',
        code: content.toString('utf8'),
      });
    if (name !== 'program.py') return;
    const title = sqlStep
      ? 'analysis.py — the same analysis in pandas (`opsmind run analysis.py --data <file>` re-runs it)'
      : (CODE_TITLES[tool] ?? `step ${step}`);
    this.content.extras.code.push({ title, code: content.toString('utf8') });
  }

  /**
   * Charges the report's budgets for a live step's items and says whether they fit; when the
   * step's total would not, nothing is charged and the step is rendered again from its artifacts,
   * so the report refuses exactly what a replay would.
   */
  private chargeLive(
    items: readonly RenderedItem[],
    dir: string,
    artifacts: readonly { name: string; content: Buffer }[],
  ): boolean {
    const sizes = new Map(artifacts.map((a) => [a.name, a.content.length]));
    const charges = items.flatMap((item) => {
      const file = item.decl.data.file;
      if (!item.built || item.built.type === 'image' || !file) return [];
      return [
        { key: join(dir, file), bytes: sizes.get(file) ?? 0, chars: outputChars(item.built) },
      ];
    });
    const bytes = charges.reduce((sum, c) => sum + c.bytes, 0);
    const chars = charges.reduce((sum, c) => sum + c.chars, 0);
    if (this.budget.refusal('step', join(dir, '*'), bytes) || this.budget.outputRefusal(chars))
      return false;
    for (const c of charges) this.budget.charge(c.key, c.bytes, c.chars);
    return true;
  }

  /** The content folded so far. */
  get report(): Readonly<ReportContent> {
    return this.content;
  }

  /** Removes the model's scratch files (it can still be read, and fed again). */
  dispose(): void {
    if (this.scratch) removeTree(this.scratch);
    this.scratch = undefined;
  }
}
