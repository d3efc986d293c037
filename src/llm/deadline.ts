/** A per-attempt abort signal that combines the caller's signal with a time limit. */

/**
 * Aborts when the caller's signal aborts or when `timeoutMs` passes without `touch()`.
 * The openai client only times the wait for response headers; this also bounds the
 * body and, with `touch()` on every stream chunk, a stream that stalls half-way.
 * Always `dispose()` it: that clears the timer and unhooks the caller's signal.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private expired = false;
  private readonly onCallerAbort = (): void => this.controller.abort();

  constructor(
    private readonly caller: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {
    caller?.addEventListener('abort', this.onCallerAbort, { once: true });
    if (caller?.aborted) this.controller.abort();
    this.touch();
  }

  /** The signal to hand to the HTTP call. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True when the time limit, not the caller, ended the attempt. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** True when the caller aborted. */
  get callerAborted(): boolean {
    return this.caller?.aborted === true;
  }

  /** Restarts the time limit (progress was made). */
  touch(): void {
    clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort();
    }, this.timeoutMs);
  }

  /** Clears the timer and unhooks the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.caller?.removeEventListener('abort', this.onCallerAbort);
  }
}
