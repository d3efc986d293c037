/** A circuit breaker in front of the model endpoint, so a dead server fails fast instead of slowly. */
import { ModelCallError, failureOf, isRetryable, seconds } from './errors.js';
import type { ChatModel, ChatRequest, ChatResponse } from './types.js';

/** When the breaker opens and for how long; every field has a default. */
export interface BreakerOptions {
  /** Consecutive failed calls that open the breaker (default 3). */
  threshold?: number;
  /** How long an open breaker refuses calls before letting one trial call through (default 30 s). */
  coolDownMs?: number;
  /** Clock, injectable for tests (default Date.now). */
  now?: () => number;
}

/** Closed: calls pass. Open: calls fail fast. Half-open: one trial call decides. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/**
 * Counts consecutive failed calls. Only endpoint trouble counts (the failures worth a
 * retry: 5xx, 429, timeouts, broken connections and streams); a 4xx answer or an abort
 * neither counts nor resets. A success closes the breaker.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt = 0;
  private trialInFlight = false;
  private lastError = '';
  private readonly threshold: number;
  private readonly coolDownMs: number;
  private readonly now: () => number;

  constructor(options: BreakerOptions = {}) {
    this.threshold = Math.max(1, options.threshold ?? 3);
    this.coolDownMs = options.coolDownMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  /** The state right now (open turns into half-open once the cool-down has passed). */
  get state(): BreakerState {
    if (this.failures < this.threshold) return 'closed';
    return this.now() - this.openedAt >= this.coolDownMs ? 'half-open' : 'open';
  }

  /**
   * Runs `call` unless the breaker is open (or a half-open trial is already running), in
   * which case it throws a ModelCallError of kind 'circuit_open' without calling.
   */
  async run<T>(endpoint: string, model: string, call: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trialInFlight)) {
      const left = Math.max(1000, this.coolDownMs - (this.now() - this.openedAt));
      throw new ModelCallError({
        kind: 'circuit_open',
        endpoint,
        model,
        detail: `failed ${this.failures} times in a row; not calling it again for ${seconds(Math.ceil(left / 1000) * 1000)}`,
        lastError: this.lastError,
      });
    }
    const trial = state === 'half-open';
    if (trial) this.trialInFlight = true;
    try {
      const result = await call();
      this.failures = 0;
      return result;
    } catch (error) {
      this.record(error);
      throw error;
    } finally {
      if (trial) this.trialInFlight = false;
    }
  }

  private record(error: unknown): void {
    const failure = failureOf(error);
    if (!failure || !isRetryable(failure)) return;
    this.failures += 1;
    this.lastError = (error as Error).message;
    if (this.failures >= this.threshold) this.openedAt = this.now();
  }
}

/** Wraps a model so its calls go through `breaker`; `endpoint` names the server in messages. */
export function withBreaker(
  model: ChatModel,
  endpoint: string,
  breaker = new CircuitBreaker(),
): ChatModel {
  return {
    model: model.model,
    chat: (request: ChatRequest): Promise<ChatResponse> =>
      breaker.run(endpoint, model.model, () => model.chat(request)),
  };
}
