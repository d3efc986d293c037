/** final_answer: the model's answer; its result ends the run (the `end` field), nothing else does. */
import { z } from 'zod';
import type { Tool } from './tool.js';

/** What a person sees: the answer. */
export interface AnswerDisplay {
  kind: 'answer';
  answer: string;
}

const schema = z.object({
  answer: z
    .string()
    .min(1)
    .describe(
      'the answer to the question, in the language of the question, citing only numbers your code printed',
    ),
});

/** The final_answer tool. */
export const finalAnswerTool: Tool<'final_answer', typeof schema, AnswerDisplay> = {
  name: 'final_answer',
  description: 'Finish: give the final answer. Call it once, when the question is answered.',
  schema,
  example: { answer: 'the answer, citing the numbers your code printed' },
  execute(args) {
    return Promise.resolve({
      forModel: 'the answer was recorded',
      forDisplay: { kind: 'answer', answer: args.answer },
      ok: true,
      end: { answer: args.answer },
    });
  },
};
