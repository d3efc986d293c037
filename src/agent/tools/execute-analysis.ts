/** execute_analysis: compiles the last plan_analysis plan to pandas and runs it as a program step. */
import { z } from 'zod';
import { compilePlan } from '../compile-plan.js';
import { runProgram } from './run-program.js';
import type { ProgramDisplay } from './run-program.js';
import { toolError } from './tool.js';
import type { Tool, ToolErrorDisplay } from './tool.js';

const schema = z.object({});

/** The execute_analysis tool; without a plan it is a tool error telling the model to plan first. */
export const executeAnalysisTool: Tool<
  'execute_analysis',
  typeof schema,
  ProgramDisplay | ToolErrorDisplay
> = {
  name: 'execute_analysis',
  description: 'Fallback: run the last plan_analysis plan and add its charts to the report.',
  schema,
  example: {},
  async execute(_args, ctx) {
    const { plan, profile } = ctx.memory;
    if (!plan || !profile) return toolError('no plan yet; call plan_analysis first');
    return runProgram(ctx, compilePlan(plan, profile, 'heuristic'), 'execute_analysis');
  },
};
