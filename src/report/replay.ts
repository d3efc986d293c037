/**
 * Rebuilding a session's report from its stored events and artifacts alone:
 * no model and no Python. Each step's stored spec and frames are laid out in a
 * scratch dir and go through the same validation and rendering as a live run,
 * so a replayed report holds the same charts and tables, with the same
 * session-wide ids (each step's shifted past the ids of the steps before it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { FrameBudget } from '../spec/frame-budget.js';
import { MAX_JSON_DEPTH } from '../spec/host-limits.js';
import { loadSpec } from '../spec/load.js';
import type { RenderSpec } from '../spec/schema.js';
import { countIds, renumberSpec } from '../spec/session-ids.js';
import type { IdCounts } from '../spec/session-ids.js';
import type { SessionStore } from '../store/session-store.js';
import { parseJsonBounded } from '../util/json-depth.js';
import { renderSpec } from './render.js';
import type { ReportExtras } from './html.js';
import type { RenderedItem } from './render.js';

/** A session's content as replay rebuilds it. */
export interface ReplayedSession {
  specs: RenderSpec[];
  items: RenderedItem[];
  output: string;
  warnings: string[];
  extras: Required<Pick<ReportExtras, 'findings' | 'notes' | 'code' | 'answers'>> & { summary: ReportExtras['summary'] };
}

/** Rebuilds the rendered items, narrative and warnings of a session from the store. */
export async function replaySession(store: SessionStore, sessionId: string): Promise<ReplayedSession> {
  const events = store.events(sessionId);
  const result: ReplayedSession = { specs: [], items: [], output: '', warnings: [], extras: { findings: [], notes: [], code: [], answers: [], summary: null } };
  const answers: { question: string; text: string; model: string }[] = [];
  let question = '';
  const findings: string[] = [];
  const notes: string[] = [];
  const code: { title: string; code: string }[] = [];
  const scratch = mkdtempSync(join(tmpdir(), 'opsmind-replay-'));
  let used: IdCounts = {};
  // One report: every step's frames count against the same budget, as in a live report.
  const budget = new FrameBudget();
  try {
    for (const event of events) {
      if (event.type === 'program_finished') result.output += event.stdout;
      if (event.type === 'warning') result.warnings.push(event.message);
      if (event.type === 'question_asked') question = event.text;
      if (event.type === 'answer') answers.push({ question, text: event.text, model: event.model });
      if (event.type === 'insights_computed') findings.push(...event.insights.map((i) => i.text));
      if (event.type === 'summary_written') result.extras.summary = { text: event.text, model: event.model };
      if (event.type === 'plan_created') notes.push(...(event.fallback ? [`Planner: ${event.fallback}.`] : []), ...event.notes);
      if (event.type !== 'artifact_added') continue;
      const before = used;
      used = countIds(used, [...event.charts, ...event.tables, ...(event.images ?? [])].map((r) => r.id));
      const dir = join(scratch, `step-${event.step}`);
      mkdirSync(dir, { recursive: true });
      for (const artifact of store.artifacts(sessionId, event.step)) {
        if (artifact.name === 'program.py') code.push({ title: `step ${event.step}`, code: artifact.content.toString('utf8') });
        const target = join(dir, artifact.name);
        if (!safeArtifactName(artifact.name)) continue;
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, artifact.content);
      }
      const loaded = loadSpec(dir);
      if (!loaded.ok) {
        result.warnings.push(`step ${event.step}: ${loaded.reason}`);
        continue;
      }
      const spec = renumberSpec(loaded.spec, before);
      result.specs.push(spec);
      result.items.push(...(await renderSpec(spec, dir, { budget })).map((item) => ({ ...item, step: event.step })));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const profile = store.artifacts(sessionId, 1).find((a) => a.name === 'profile.json');
  const quality = profile ? profileWarnings(profile.content) : [];
  result.extras = { ...result.extras, findings: [...findings, ...quality], notes, code, answers };
  return result;
}

const ProfileWarningsSchema = z.object({ warnings: z.array(z.string()).default([]) });

/** The data-quality warnings of a stored profile.json; none when it is unreadable (its step's own warnings say why). */
function profileWarnings(content: Buffer): string[] {
  try {
    return ProfileWarningsSchema.parse(parseJsonBounded(content.toString('utf8'), MAX_JSON_DEPTH)).warnings;
  } catch {
    return [];
  }
}

/** Stored names are checked again before they touch the disk: plain relative paths, no `..`, no empty parts. */
export function safeArtifactName(name: string): boolean {
  return /^[\w.-]+(\/[\w.-]+)*$/.test(name) && !name.split('/').some((part) => part === '..' || part === '.');
}
