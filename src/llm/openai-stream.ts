/**
 * Assembles a streamed chat completion into the same ChatResponse a non-streamed call gives,
 * including from servers that ignore `stream: true` and answer with one JSON completion.
 */
import { openaiSdk } from './openai-sdk.js';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { Deadline } from './deadline.js';
import { ModelCallError } from './errors.js';
import type { ModelFailure } from './errors.js';
import { fromCompletion, toUsage } from './openai-params.js';
import type { ChatResponse, ToolCall, Usage } from './types.js';

interface Accumulator {
  text: string;
  sawText: boolean;
  calls: Map<number, ToolCall>;
  usage: Usage | null;
  finishReason: string | null;
  model: string;
}

type Delta = Pick<ChatCompletionChunk.Choice.Delta, 'content' | 'tool_calls'>;

// A whole message where a delta belongs: a server that sends the chat.completion object as its one event.
const WholeMessageSchema = z.object({
  message: z.object({
    content: z.string().nullish(),
    tool_calls: z
      .array(
        z.object({
          id: z.string().optional(),
          function: z
            .object({ name: z.string().optional(), arguments: z.string().optional() })
            .optional(),
        }),
      )
      .nullish(),
  }),
});

function deltaOf(choice: ChatCompletionChunk.Choice): Delta {
  if (choice.delta) return choice.delta;
  const whole = WholeMessageSchema.safeParse(choice);
  if (!whole.success) return {};
  const { content, tool_calls: calls } = whole.data.message;
  return {
    content: content ?? null,
    tool_calls: (calls ?? []).map((call, index) => ({ index, ...call })),
  };
}

function apply(
  acc: Accumulator,
  chunk: ChatCompletionChunk,
  onTextDelta: (text: string) => void,
): void {
  if (chunk.model) acc.model = chunk.model;
  const usage = toUsage(chunk.usage);
  if (usage) acc.usage = usage;
  // Some servers send keep-alive or usage-only chunks without choices or delta.
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!choice) return;
  const { content, tool_calls: calls } = deltaOf(choice);
  if (typeof content === 'string' && content.length > 0) {
    acc.text += content;
    acc.sawText = true;
    onTextDelta(content);
  }
  for (const [position, delta] of (calls ?? []).entries()) {
    // Tool calls arrive in pieces keyed by index: id and name first, then argument fragments.
    const index = typeof delta.index === 'number' ? delta.index : position;
    const call = acc.calls.get(index) ?? { id: '', name: '', arguments: '' };
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
    acc.calls.set(index, call);
  }
  if (choice.finish_reason) acc.finishReason = choice.finish_reason;
}

/**
 * The next chunk. The body breaking off (undici throws "terminated") before the model
 * finished is a 'cut'; after the finish_reason only the usage chunk is lost, so it ends
 * the stream. An error event in the stream (APIError) or a chunk that is not JSON
 * (SyntaxError) propagates for the caller to classify.
 */
async function nextChunk(
  chunks: AsyncIterator<ChatCompletionChunk>,
  finished: boolean,
  base: Pick<ModelFailure, 'endpoint' | 'model'>,
): Promise<IteratorResult<ChatCompletionChunk>> {
  try {
    return await chunks.next();
  } catch (error) {
    if (finished) return { done: true, value: undefined };
    if (error instanceof openaiSdk().APIError || error instanceof SyntaxError) throw error;
    throw new ModelCallError({ ...base, kind: 'cut' });
  }
}

/**
 * Reads `stream` to its end, passing text fragments to `onTextDelta` and restarting the
 * deadline on every chunk. A stream that ends, quietly or with an error, before the model
 * sent a finish_reason is a 'cut' failure (retryable), never a partial answer; an error
 * after the finish_reason only loses the trailing usage chunk and is ignored.
 */
export async function collectStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  deadline: Deadline,
  onTextDelta: (text: string) => void,
  base: Pick<ModelFailure, 'endpoint' | 'model'>,
): Promise<ChatResponse> {
  const acc: Accumulator = {
    text: '',
    sawText: false,
    calls: new Map(),
    usage: null,
    finishReason: null,
    model: base.model,
  };
  const chunks = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await nextChunk(chunks, acc.finishReason !== null, base);
      if (next.done) break;
      deadline.touch();
      apply(acc, next.value, onTextDelta);
    }
  } finally {
    // Stops the HTTP body when we leave early (e.g. onTextDelta threw); a no-op after the end.
    await chunks.return?.();
  }
  // The client ends iteration quietly when its signal aborts, so an abort also lands here.
  if (acc.finishReason === null || deadline.signal.aborted)
    throw new ModelCallError({ ...base, kind: 'cut' });
  const toolCalls = [...acc.calls.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }));
  return {
    text: acc.sawText ? acc.text : null,
    toolCalls,
    usage: acc.usage,
    finishReason: acc.finishReason,
    model: acc.model,
  };
}

/** True when the server answered a streamed request with one JSON body instead of server-sent events. */
export function isUnstreamedReply(response: Response): boolean {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * Reads the answer of a server that ignored `stream: true` as the plain completion it is; its
 * text reaches `onTextDelta` in one piece. A body that is not a completion is a 'bad_response'.
 */
export async function readUnstreamedReply(
  response: Response,
  onTextDelta: (text: string) => void,
  base: Pick<ModelFailure, 'endpoint' | 'model'>,
): Promise<ChatResponse> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* fromCompletion reports a body that is not JSON */
  }
  const reply = fromCompletion(body, base.model);
  if (typeof reply === 'string')
    throw new ModelCallError({ ...base, kind: 'bad_response', detail: reply });
  if (reply.text) onTextDelta(reply.text);
  return reply;
}
