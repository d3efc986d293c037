/** Translation between the neutral request/response types and the openai chat completions API. */
import { z } from 'zod';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, ChatRequest, ChatResponse, ToolCall, Usage } from './types.js';

/** Request parameters common to streamed and non-streamed calls. */
export type BaseParams = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>;

function toMessage(message: ChatMessage): ChatCompletionMessageParam {
  const name = message.name === undefined ? {} : { name: message.name };
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content ?? '', ...name };
    case 'user':
      return { role: 'user', content: message.content ?? '', ...name };
    case 'tool':
      return {
        role: 'tool',
        content: message.content ?? '',
        tool_call_id: message.tool_call_id ?? '',
      };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      return {
        role: 'assistant',
        content: message.content,
        ...name,
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    }
  }
}

/**
 * The chat.completions parameters for `request`. The official OpenAI API wants
 * `max_completion_tokens` (newer models reject `max_tokens`); compatible servers
 * (Ollama, vLLM, LM Studio…) reliably understand only `max_tokens`.
 */
export function toParams(model: string, request: ChatRequest, officialApi: boolean): BaseParams {
  const params: BaseParams = { model, messages: request.messages.map(toMessage) };
  if (request.tools && request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  }
  if (request.responseFormat) {
    const { name, schema } = request.responseFormat;
    params.response_format = { type: 'json_schema', json_schema: { name, schema, strict: false } };
  }
  if (request.maxOutputTokens !== undefined) {
    if (officialApi) params.max_completion_tokens = request.maxOutputTokens;
    else params.max_tokens = request.maxOutputTokens;
  }
  if (request.temperature !== undefined) params.temperature = request.temperature;
  return params;
}

interface UsageCounts {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
}

/** Neutral usage from the server's counts; null when it sent none. Missing counts are 0. */
export function toUsage(usage: UsageCounts | null | undefined): Usage | null {
  if (!usage || typeof usage !== 'object') return null;
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage.total_tokens ?? promptTokens + completionTokens,
  };
}

// The client's types promise a ChatCompletion, but it returns whatever the server sent
// (a string for a non-JSON content type, undefined for an empty body), so check the
// fields we read.
const completionShape = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({ name: z.string(), arguments: z.string().nullish() }).nullish(),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      total_tokens: z.number().nullish(),
    })
    .nullish(),
});

/**
 * The neutral response for a non-streamed completion body, or a one-line reason why the
 * body is not a usable completion (no choices, not JSON…).
 */
export function fromCompletion(body: unknown, requestedModel: string): ChatResponse | string {
  const parsed = completionShape.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const what =
      typeof body === 'string'
        ? `not JSON: ${body.slice(0, 60)}`
        : `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'unexpected shape'}`;
    return `not a chat completion (${what})`;
  }
  const completion = parsed.data;
  const choice = completion.choices[0];
  if (!choice) return 'the answer had no choices';
  const toolCalls: ToolCall[] = [];
  for (const [index, call] of (choice.message.tool_calls ?? []).entries()) {
    if (!call.function) continue; // a non-function ("custom") tool call; we offer none
    toolCalls.push({
      id: call.id || `call_${index}`,
      name: call.function.name,
      arguments: call.function.arguments ?? '',
    });
  }
  return {
    text: choice.message.content ?? null,
    toolCalls,
    usage: toUsage(completion.usage),
    finishReason: choice.finish_reason ?? null,
    model: completion.model || requestedModel,
  };
}
