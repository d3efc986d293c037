/**
 * The events of a session. Every event is a delta with one meaning, numbered
 * per session and stored before it is shown (DESIGN.md, rule 4):
 * `artifact_added` carries only the new charts/tables of its step, and
 * consumers append; nothing means "replace everything".
 */

import { z } from 'zod';

/** A chart or table as events refer to it; its data lives in the step's stored artifacts. */
export const ArtifactRefSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string().nullable(),
  seq: z.number(),
});
/** An artifact reference. */
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;

/** A number-backed sentence computed from a charted frame (or from the profile). */
export const FindingSchema = z.object({
  text: z.string(),
  kind: z.string(),
  /** The analysis (1-based) it comes from; 0 for data-quality findings. */
  analysis: z.number().int(),
  numbers: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
});
/** A finding. */
export type Finding = z.infer<typeof FindingSchema>;

/** An analysis of a plan that failed to compute, and why. */
export const FailedAnalysisSchema = z.object({
  analysis: z.number().int(),
  title: z.string(),
  error: z.string(),
});

/** Tokens of one model turn, with a cost estimate when the model's prices are known. */
export const TokenUsageSchema = z.object({
  prompt: z.number(),
  completion: z.number(),
  total: z.number(),
  cost_usd: z.number().nullable(),
});
/** Token usage of a turn. */
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });

/**
 * Every event type and its payload: what is stored in SQLite and parsed back
 * with this schema (STYLE.md rule 11), so the type and the reader cannot drift.
 */
export const SessionEventSchema = z.discriminatedUnion('type', [
  event('session_started', {
    command: z.string(),
    mode: z.string(),
    data: z.object({ path: z.string(), name: z.string(), sha256: z.string(), size: z.number() }),
    question: z.string().optional(),
    isolation: z.string().optional(),
  }),
  event('step_started', { step: z.number(), tool: z.string(), title: z.string() }),
  event('program_finished', {
    step: z.number(),
    exit_code: z.number().nullable(),
    signal: z.string().nullable(),
    stdout: z.string(),
    stderr: z.string(),
    duration_ms: z.number(),
    isolation: z.string(),
    warm: z.boolean(),
    limit_hit: z.string().nullable(),
  }),
  event('artifact_added', {
    step: z.number(),
    charts: z.array(ArtifactRefSchema),
    tables: z.array(ArtifactRefSchema),
    images: z.array(ArtifactRefSchema).optional(),
  }),
  event('step_finished', {
    step: z.number(),
    tool: z.string(),
    duration_ms: z.number(),
    summary: z.string(),
  }),
  event('plan_created', {
    step: z.number(),
    planner: z.enum(['heuristic', 'llm']),
    model: z.string().nullable(),
    attempts: z.number(),
    fallback: z.string().nullable(),
    analyses: z.array(z.object({ title: z.string(), chart: z.string(), why: z.string() })),
    notes: z.array(z.string()),
  }),
  event('insights_computed', {
    step: z.number(),
    insights: z.array(FindingSchema),
    failed: z.array(FailedAnalysisSchema),
  }),
  event('summary_written', { step: z.number(), text: z.string(), model: z.string() }),
  event('question_asked', { turn: z.number(), text: z.string() }),
  event('model_turn', {
    turn: z.number(),
    text: z.string().nullable(),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })),
    usage: TokenUsageSchema.nullable(),
    finish_reason: z.string().nullable(),
  }),
  event('tool_result', {
    turn: z.number(),
    step: z.number(),
    tool: z.string(),
    call_id: z.string(),
    ok: z.boolean(),
    content: z.string(),
  }),
  event('answer', {
    turn: z.number(),
    text: z.string(),
    model: z.string(),
    stopped_by: z.enum(['answer', 'step_cap', 'text', 'error']),
  }),
  event('warning', { step: z.number().optional(), message: z.string() }),
  event('report_written', { path: z.string(), charts: z.number(), tables: z.number() }),
  event('session_finished', {
    status: z.enum(['done', 'failed', 'interrupted']),
    error: z.string().optional(),
  }),
]);
/** Every event type and its payload. */
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** An event as stored: with its session, number and time. */
export type StoredEvent = SessionEvent & { session_id: string; seq: number; created_at: string };

/**
 * A stored event's payload (JSON text from the store), parsed against the schema; throws
 * naming the first problems when the payload is not JSON or not an event this version knows.
 */
export function parseEventPayload(payload: string): SessionEvent {
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch (error) {
    throw new Error(`a stored event is not JSON (${(error as Error).message})`);
  }
  const parsed = SessionEventSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || 'event'}: ${i.message}`)
    .join('; ');
  throw new Error(`a stored event does not match this version's events (${problems})`);
}

/**
 * What a streamed model turn shows before its answer is complete. Never stored: the
 * turn's `model_turn` event, stored after it, is the truth. `text_retracted` means the
 * attempt that streamed this turn's text so far failed and is being retried: drop that
 * text; only what arrives after it belongs to the answer.
 */
export type StreamEvent =
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'text_retracted'; turn: number; reason: string };
