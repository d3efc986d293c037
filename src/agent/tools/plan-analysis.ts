/** plan_analysis: fast mode's heuristic plan for the dataset, remembered for execute_analysis. */
import { z } from 'zod';
import { heuristicPlan } from '../heuristic-planner.js';
import type { Plan } from '../plan.js';
import { sessionProfile } from './data-profile.js';
import type { Tool } from './tool.js';

/** What a person sees: the plan. */
export interface PlanDisplay {
  kind: 'plan';
  plan: Plan;
}

const schema = z.object({ question: z.string().max(500).optional() });

/** The plan_analysis tool (a fallback: the standard charts for the data). */
export const planAnalysisTool: Tool<'plan_analysis', typeof schema, PlanDisplay> = {
  name: 'plan_analysis',
  description: 'Fallback: a standard analysis plan for the dataset (what fast mode would chart).',
  schema,
  example: {},
  async execute(args, ctx) {
    const plan = heuristicPlan(await sessionProfile(ctx), args.question ?? ctx.question);
    ctx.memory.plan = plan;
    const lines = plan.analyses.map((a, i) => `${i + 1}. ${a.chart}: ${a.title} — ${a.why}`);
    return {
      forModel: `plan (run it with execute_analysis):\n${lines.join('\n')}`,
      forDisplay: { kind: 'plan', plan },
      ok: true,
    };
  },
};
