/**
 * The LLM planner: the model proposes a plan against the same zod schema as
 * the heuristic planner. An invalid plan is sent back once with the exact
 * problems; if the fix is invalid too, or the endpoint fails, the heuristic
 * plan is used and the result says why. A cancellation (the caller's signal)
 * is not a failing endpoint: it propagates, and no plan is made.
 */
import { z } from 'zod';
import { isCancellation } from '../llm/index.js';
import type { ChatMessage, ChatModel } from '../llm/index.js';
import type { PlanResult, Planner } from './fast-pipeline.js';
import { heuristicPlan } from './heuristic-planner.js';
import { parsePlan, PlanSchema } from './plan.js';
import type { Plan } from './plan.js';
import { withinReported } from './planner-latest.js';
import { overGaps, totalAsked } from './planner-gaps.js';
import { totalNotes, withoutTotals } from './planner-rules.js';
import type { DataProfile } from './profile.js';
import { roles } from './roles.js';
import { profileText } from './profile-text.js';

/** The JSON schema sent to the model, derived from the zod schema (never a second copy). */
let planJsonSchema: Record<string, unknown> | undefined;
/** The plan's JSON schema, built on first use (≈ 10 ms at start-up otherwise, in runs without a model). */
const planSchema = (): Record<string, unknown> =>
  (planJsonSchema ??= z.toJSONSchema(PlanSchema) as Record<string, unknown>);

const SYSTEM = `You are a senior data analyst planning the charts of a report.
You get a profile of a dataset. Answer with one JSON object matching the given schema, nothing else.
Rules: use only exact column names from the profile; measures must be numeric (or numeric_text) columns; resample needs a datetime column;
a two-valued outcome (0/1, Yes/No, a boolean) is compared as a rate: a group with agg "mean" and "equals" its positive value (1, "Yes", true);
never chart identifiers or free text; no pie with more than 6 slices; sort bars by value; put the analysis that answers the question first;
prefer 6-10 analyses that each show something different; "why" says in one sentence what the chart shows.`;

/** Finds the JSON object in a model's answer (bare, or in a ```json fence). */
export function extractJson(text: string | null): unknown {
  if (!text) throw new Error('the answer was empty');
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const body = (fenced ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('the answer holds no JSON object');
  return JSON.parse(body.slice(start, end + 1)) as unknown;
}

function userMessage(profileTextValue: string, question: string | undefined): string {
  return `${question ? `Question to answer first: ${question}\n\n` : ''}Dataset profile:\n${profileTextValue}\n\nReturn the plan as JSON.`;
}

/** A planner backed by `model`, falling back to the heuristic plan. */
export function llmPlanner(model: ChatModel): Planner {
  return async (profile, question, signal): Promise<PlanResult> => {
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: userMessage(profileText(profile), question) },
    ];
    const fallback = (reason: string, attempts: number): PlanResult => ({
      plan: heuristicPlan(profile, question),
      planner: 'heuristic',
      model: model.model,
      attempts,
      fallback: reason,
    });
    let firstProblem = '';
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      let text: string | null;
      try {
        const response = await model.chat({
          messages,
          responseFormat: { name: 'analysis_plan', schema: planSchema() },
          temperature: 0.2,
          ...(signal ? { signal } : {}),
        });
        text = response.text;
      } catch (error) {
        if (signal?.aborted || isCancellation(error)) throw error;
        return fallback(
          `the model could not be used (${(error as Error).message.split('\n')[0] ?? ''}); the heuristic plan was used`,
          attempt,
        );
      }
      let problems: string[];
      try {
        const parsed = parsePlan(extractJson(text), profile);
        if (parsed.ok)
          return {
            plan: withoutTotalRows(parsed.plan, profile, question),
            planner: 'llm',
            model: model.model,
            attempts: attempt,
            fallback: null,
          };
        problems = parsed.problems;
      } catch (error) {
        problems = [`the answer is not valid JSON: ${(error as Error).message}`];
      }
      firstProblem ||= problems[0] ?? '';
      messages.push(
        { role: 'assistant', content: text },
        {
          role: 'user',
          content: `That plan is invalid:\n${problems
            .slice(0, 20)
            .map((p) => `- ${p}`)
            .join('\n')}\nReturn the corrected plan as JSON only.`,
        },
      );
    }
    return fallback(
      `the model's plan was invalid twice (${firstProblem}); the heuristic plan was used`,
      2,
    );
  };
}

/**
 * A model's plan with the table's total rows and groups left out of every analysis, and a yearly
 * panel's lines kept to the years nearly every entity reports, as the heuristic plan does (the
 * profile tells the model; a summed chart must not depend on it listening).
 */
function withoutTotalRows(plan: Plan, profile: DataProfile, question?: string): Plan {
  const r = roles(profile);
  const { totals, aggregates = [], latest } = r.semantics;
  if (totals.length + aggregates.length === 0 && !latest) return plan;
  // The model's first analysis answers the question (the prompt says so): a total it asks stays.
  const total = totalAsked(question);
  const analyses = plan.analyses.map((a, i) =>
    overGaps(withoutTotals(withinReported(a, r, profile), r), r, total && i === 0),
  );
  const notes = totalNotes(r.semantics).filter((n) => !plan.notes.includes(n));
  return { ...plan, analyses, notes: [...notes, ...plan.notes].slice(0, 10) };
}

/** The heuristic planner as a Planner. */
export const heuristicPlanner: Planner = (profile, question) =>
  Promise.resolve({
    plan: heuristicPlan(profile, question),
    planner: 'heuristic',
    model: null,
    attempts: 0,
    fallback: null,
  });
