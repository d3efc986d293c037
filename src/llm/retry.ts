/** Retries of model calls: exponential backoff with full jitter, Retry-After, abort-aware waiting. */
import { setTimeout as delay } from 'node:timers/promises';
import { ModelCallError, failureOf, isRetryable } from './errors.js';
import type { ModelFailure } from './errors.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';

/** Waits `ms`; should settle early (either way) when `signal` aborts. Injected by tests. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** How calls are retried; every field has a default. */
export interface RetryOptions {
  /** Total attempts including the first (default 4). */
  maxAttempts?: number;
  /** Backoff base: attempt n waits up to base·2^(n-1) (default 500 ms). */
  baseDelayMs?: number;
  /** Backoff cap (default 8 s). */
  maxDelayMs?: number;
  /** Cap on a server's Retry-After (default 60 s). */
  maxRetryAfterMs?: number;
  sleep?: Sleep;
  /** Source of jitter in [0, 1) (default Math.random). */
  random?: () => number;
}

/** The default Sleep: a timer that resolves early when the signal aborts. */
const realSleep: Sleep = async (ms, signal) => {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    // Aborted: the caller checks the signal and stops.
  }
};

/**
 * Milliseconds a server asked us to wait, from `retry-after-ms` or `Retry-After`
 * (seconds or an HTTP date); undefined when absent or unreadable. Never negative.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before attempt `attempt + 1`: the server's Retry-After (capped) or full-jitter backoff. */
export function retryDelay(
  failure: ModelFailure,
  attempt: number,
  options: RetryOptions = {},
): number {
  if (failure.retryAfterMs !== undefined)
    return Math.min(failure.retryAfterMs, options.maxRetryAfterMs ?? 60_000);
  const ceiling = Math.min(
    options.maxDelayMs ?? 8_000,
    (options.baseDelayMs ?? 500) * 2 ** (attempt - 1),
  );
  return Math.floor((options.random ?? Math.random)() * ceiling);
}

function abortedFailure(like: ModelFailure): ModelCallError {
  return new ModelCallError({ kind: 'aborted', endpoint: like.endpoint, model: like.model });
}

/**
 * Wraps a model so failed calls are retried. Retryable failures (see `isRetryable`) are
 * tried up to `maxAttempts` times; others fail at once. What finally fails is a
 * ModelCallError (exit 3) that counts the attempts. Errors that are not ModelCallErrors
 * (bugs) pass through untouched. Aborting the request's signal ends waiting and retrying.
 */
export function withRetry(model: ChatModel, options: RetryOptions = {}): ChatModel {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const sleep = options.sleep ?? realSleep;
  async function chat(request: ChatRequest): Promise<ChatResponse> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await model.chat(request);
      } catch (error) {
        const failure = failureOf(error);
        if (!failure) throw error;
        if (request.signal?.aborted) throw abortedFailure(failure);
        if (!isRetryable(failure) || attempt >= maxAttempts)
          throw new ModelCallError(failure, attempt);
        const delayMs = retryDelay(failure, attempt, options);
        request.onRetry?.({ attempt: attempt + 1, delayMs, reason: (error as Error).message });
        await sleep(delayMs, request.signal);
        if (request.signal?.aborted) throw abortedFailure(failure);
      }
    }
  }
  return { model: model.model, chat };
}
