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
import { renderSpec } from '../report/render.js';
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
  async apply(event: StoredEvent): Promise<void> {
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
        await this.addStep(event);
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
      ).warnings;
    } catch {
      return [];
    }
  }

  private async addStep(event: Extract<StoredEvent, { type: 'artifact_added' }>): Promise<void> {
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
      if (artifact.name === 'program.py') {
        const tool = this.tools.get(event.step) ?? '';
        this.content.extras.code.push({
          title: CODE_TITLES[tool] ?? `step ${event.step}`,
          code: artifact.content.toString('utf8'),
        });
      }
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
    const items = await renderSpec(spec, dir, { budget: this.budget, refused });
    this.content.items.push(...items.map((item) => ({ ...item, step: event.step })));
    this.renderedSteps += 1;
    removeTree(dir);
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
