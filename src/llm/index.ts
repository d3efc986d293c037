/** The model seam: build a ChatModel from configuration; the agent imports from here only. */
import { CircuitBreaker, withBreaker } from './breaker.js';
import type { BreakerOptions } from './breaker.js';
import { createOpenAIModel, endpointOf } from './openai-model.js';
import type { OpenAIModelConfig } from './openai-model.js';
import { withRetry } from './retry.js';
import type { RetryOptions } from './retry.js';
import type { ChatModel, ChatRequest, ChatResponse, Usage } from './types.js';

export type {
  ChatMessage,
  ChatModel,
  ChatRequest,
  ChatResponse,
  RetryNotice,
  ToolCall,
  ToolSpec,
  Usage,
} from './types.js';
export type { FailureKind, ModelFailure } from './errors.js';
export { ModelCallError, isCancellation } from './errors.js';
export { CircuitBreaker, withBreaker } from './breaker.js';
export type { BreakerOptions, BreakerState } from './breaker.js';
export { parseRetryAfter, retryDelay } from './retry.js';
export type { RetryOptions, Sleep } from './retry.js';
export type { OpenAIModelConfig } from './openai-model.js';

/** Knobs of the composed model; all optional. */
export interface ChatModelOptions {
  retry?: RetryOptions;
  /** Breaker settings, or a shared breaker instance. */
  breaker?: BreakerOptions | CircuitBreaker;
  /** Called with the usage of every response that reports one (for totals and budgets). */
  onUsage?: (usage: Usage, response: ChatResponse) => void;
}

/** Wraps a model so every response's usage is passed to `onUsage`. */
function withUsage(
  model: ChatModel,
  onUsage: (usage: Usage, response: ChatResponse) => void,
): ChatModel {
  return {
    model: model.model,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const response = await model.chat(request);
      if (response.usage) onUsage(response.usage, response);
      return response;
    },
  };
}

/**
 * The model the agent uses: the openai adapter, retried (default 4 attempts with backoff
 * and Retry-After), behind a circuit breaker (default: open after 3 failed calls for 30 s).
 * Every failure that reaches the caller is a ModelCallError, an OpsmindError with exit 3.
 */
export function createChatModel(
  config: OpenAIModelConfig,
  options: ChatModelOptions = {},
): ChatModel {
  const breaker =
    options.breaker instanceof CircuitBreaker
      ? options.breaker
      : new CircuitBreaker(options.breaker);
  const model = withBreaker(
    withRetry(createOpenAIModel(config), options.retry),
    endpointOf(config),
    breaker,
  );
  return options.onUsage ? withUsage(model, options.onUsage) : model;
}
