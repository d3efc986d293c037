/** run_code: the model's pandas/numpy code, run in the session's sandbox with the preamble. */
import { z } from 'zod';
import { runProgram } from './run-program.js';
import type { ProgramDisplay } from './run-program.js';
import type { Tool } from './tool.js';

const schema = z.object({
  code: z
    .string()
    .min(1)
    .describe(
      'Python using df (the dataset), pd, np, declare_chart(kind, data=None, *, title=None, **params), declare_table(data, *, title=None, max_rows=50) and print()',
    ),
  purpose: z.string().max(200).optional().describe('one line: what this code checks or computes'),
});

/** The run_code tool: ok when the program exited 0; a traceback or rejected declaration is data for the model. */
export const runCodeTool: Tool<'run_code', typeof schema, ProgramDisplay> = {
  name: 'run_code',
  description:
    'Run pandas/numpy code on the dataset in a sandbox; returns printed output, errors, and the charts/tables it declared (validated).',
  schema,
  example: { code: 'print(df.shape)' },
  execute(args, ctx) {
    return runProgram(ctx, args.code, args.purpose ?? 'run_code');
  },
};
