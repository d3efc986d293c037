/**
 * The events of a session. Every event is a delta with one meaning, numbered
 * per session and stored before it is shown (DESIGN.md, rule 4):
 * `artifact_added` carries only the new charts/tables of its step, and
 * consumers append; nothing means "replace everything".
 */

/** A chart or table as events refer to it; its data lives in the step's stored artifacts. */
export interface ArtifactRef {
  id: string;
  kind: string;
  title: string | null;
  seq: number;
}

/** A number-backed sentence computed from a charted frame (or from the profile). */
export interface Finding {
  text: string;
  kind: string;
  /** The analysis (1-based) it comes from; 0 for data-quality findings. */
  analysis: number;
  numbers: Record<string, number | string | null>;
}

/** Tokens of one model turn, with a cost estimate when the model's prices are known. */
export interface TokenUsage {
  prompt: number;
  completion: number;
  total: number;
  cost_usd: number | null;
}

/** Every event type and its payload. */
export type SessionEvent =
  | { type: 'session_started'; command: string; mode: string; data: { path: string; name: string; sha256: string; size: number }; question?: string; isolation?: string }
  | { type: 'step_started'; step: number; tool: string; title: string }
  | { type: 'program_finished'; step: number; exit_code: number | null; signal: string | null; stdout: string; stderr: string; duration_ms: number; isolation: string; warm: boolean; limit_hit: string | null }
  | { type: 'artifact_added'; step: number; charts: ArtifactRef[]; tables: ArtifactRef[]; images?: ArtifactRef[] }
  | { type: 'step_finished'; step: number; tool: string; duration_ms: number; summary: string }
  | { type: 'plan_created'; step: number; planner: 'heuristic' | 'llm'; model: string | null; attempts: number; fallback: string | null; analyses: { title: string; chart: string; why: string }[]; notes: string[] }
  | { type: 'insights_computed'; step: number; insights: Finding[]; failed: { analysis: number; title: string; error: string }[] }
  | { type: 'summary_written'; step: number; text: string; model: string }
  | { type: 'question_asked'; turn: number; text: string }
  | { type: 'model_turn'; turn: number; text: string | null; tool_calls: { id: string; name: string; arguments: string }[]; usage: TokenUsage | null; finish_reason: string | null }
  | { type: 'tool_result'; turn: number; step: number; tool: string; call_id: string; ok: boolean; content: string }
  | { type: 'answer'; turn: number; text: string; model: string; stopped_by: 'answer' | 'step_cap' | 'text' | 'error' }
  | { type: 'warning'; step?: number; message: string }
  | { type: 'report_written'; path: string; charts: number; tables: number }
  | { type: 'session_finished'; status: 'done' | 'failed' | 'interrupted'; error?: string };


/** An event as stored: with its session, number and time. */
export type StoredEvent = SessionEvent & { session_id: string; seq: number; created_at: string };
