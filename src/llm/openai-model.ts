/** The ChatModel backed by the official openai client, for any OpenAI-compatible server. */
import { formatWithOptions } from 'node:util';
import type { ClientOptions } from 'openai';
import { DEFAULT_LLM_TIMEOUT_MS } from './config.js';
import type { LlmConfig } from './config.js';
import { Deadline } from './deadline.js';
import { ModelCallError } from './errors.js';
import { toModelCallError } from './openai-errors.js';
import { openaiSdk } from './openai-sdk.js';
import { fromCompletion, toParams } from './openai-params.js';
import { collectStream, isUnstreamedReply, readUnstreamedReply } from './openai-stream.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';
import { terminalText } from '../util/terminal-text.js';

/** The official endpoint, used when no base URL is configured. */
const DEFAULT_ENDPOINT = 'https://api.openai.com/v1';
/** The model used when none is configured. */
const DEFAULT_MODEL = 'gpt-4o-mini';
/** LlmConfig plus transport limits. */
export type OpenAIModelConfig = Omit<LlmConfig, 'timeoutMs'> & {
  /** Per attempt: for the whole answer, or between two chunks of a stream (default DEFAULT_LLM_TIMEOUT_MS, 120 s). */
  timeoutMs?: number;
  /** Retries inside the openai client itself (default 0: `withRetry` does retries). */
  maxRetries?: number;
};

/** The endpoint URL as shown in messages (no trailing slash). */
export function endpointOf(config: Pick<LlmConfig, 'baseUrl'>): string {
  return (config.baseUrl ?? DEFAULT_ENDPOINT).replace(/\/+$/, '');
}

// The client logs to console.info/debug (stdout) when OPENAI_LOG is set; stdout carries results only,
// and what a server sends back is cleaned of terminal controls before it reaches the terminal.
const logLine = (message: string, rest: unknown[]) =>
  process.stderr.write(`${terminalText(formatWithOptions({ colors: false }, message, ...rest))}\n`);
const stderrLogger: NonNullable<ClientOptions['logger']> = {
  error: (message, ...rest) => logLine(message, rest),
  warn: (message, ...rest) => logLine(message, rest),
  info: (message, ...rest) => logLine(message, rest),
  debug: (message, ...rest) => logLine(message, rest),
};

/**
 * A ChatModel that calls `POST {baseUrl}/chat/completions` once per `chat()`, streaming
 * when the request has `onTextDelta`. It does not retry: every failure is thrown as a
 * ModelCallError (exit 3) classified for `withRetry`; a cut stream is a failure, never a
 * partial answer. Bugs (errors not about the call) are rethrown unchanged.
 */
export function createOpenAIModel(config: OpenAIModelConfig): ChatModel {
  const timeoutMs = config.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  const endpoint = endpointOf(config);
  const model = config.model ?? DEFAULT_MODEL;
  const officialApi = config.baseUrl === null || endpoint === DEFAULT_ENDPOINT;
  const client = new (openaiSdk().OpenAI)({
    apiKey: config.apiKey ?? 'not-needed',
    // Explicit, so the client never falls back to its own reading of OPENAI_BASE_URL and
    // the endpoint named in error messages is the one actually called.
    baseURL: endpoint,
    timeout: timeoutMs,
    maxRetries: config.maxRetries ?? 0,
    logger: stderrLogger,
  });
  const base = { endpoint, model };

  async function chat(request: ChatRequest): Promise<ChatResponse> {
    if (request.signal?.aborted) throw new ModelCallError({ ...base, kind: 'aborted' });
    const deadline = new Deadline(request.signal, timeoutMs);
    try {
      const params = toParams(model, request, officialApi);
      const options = { signal: deadline.signal };
      if (request.onTextDelta) {
        const { data: stream, response } = await client.chat.completions
          .create({ ...params, stream: true, stream_options: { include_usage: true } }, options)
          .withResponse();
        // Some servers ignore `stream: true` and send one JSON completion; the stream is lazy, so its body is still unread.
        if (isUnstreamedReply(response))
          return await readUnstreamedReply(response, request.onTextDelta, base);
        return await collectStream(stream, deadline, request.onTextDelta, base);
      }
      const completion = await client.chat.completions.create(
        { ...params, stream: false },
        options,
      );
      const response = fromCompletion(completion, model);
      if (typeof response === 'string')
        throw new ModelCallError({ ...base, kind: 'bad_response', detail: response });
      return response;
    } catch (error) {
      throw toModelCallError(error, { ...base, timeoutMs, deadline });
    } finally {
      deadline.dispose();
    }
  }

  return { model, chat };
}
