/** Turns whatever the openai client throws into a classified ModelCallError. */
import type { APIError } from 'openai';
import { openaiSdk } from './openai-sdk.js';
import { ModelCallError } from './errors.js';
import type { ModelFailure } from './errors.js';
import type { Deadline } from './deadline.js';
import { parseRetryAfter } from './retry.js';

/** Where the failed call went and under which limits. */
export interface CallContext {
  endpoint: string;
  model: string;
  timeoutMs: number;
  deadline: Deadline;
}

/** The innermost useful cause of a network error: an errno-style code, else the message. */
function networkDetail(error: unknown): string | undefined {
  let current: unknown = error;
  let detail: string | undefined;
  for (let depth = 0; depth < 6 && current instanceof Error; depth += 1) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') detail = code;
    else if (!detail && current.message && current.message !== 'Connection error.')
      detail = current.message;
    current = current.cause;
  }
  return detail;
}

/** The server's own error message from an APIError body, if it sent one. */
function serverMessage(error: APIError): string | undefined {
  const body: unknown = error.error;
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string')
    return body.message;
  return error.message.replace(/^\d{3}\s+/, '') || undefined;
}

function classify(
  error: unknown,
  base: Pick<ModelFailure, 'endpoint' | 'model'>,
): ModelFailure | undefined {
  const sdk = openaiSdk();
  if (error instanceof sdk.APIUserAbortError) return { ...base, kind: 'aborted' };
  if (error instanceof sdk.APIConnectionTimeoutError) return { ...base, kind: 'timeout' };
  if (error instanceof sdk.APIConnectionError)
    return { ...base, kind: 'connection', detail: networkDetail(error) };
  if (error instanceof sdk.APIError) {
    // instanceof gives APIError<any, any, any>; pin the documented parameters.
    const apiError = error as APIError<number | undefined, Headers | undefined>;
    if (typeof apiError.status !== 'number')
      return { ...base, kind: 'bad_response', detail: serverMessage(apiError) };
    return {
      ...base,
      kind: 'status',
      status: apiError.status,
      detail: serverMessage(apiError),
      retryAfterMs: parseRetryAfter(apiError.headers),
    };
  }
  // The body broke off after the headers (undici: "terminated"), or a chunk was not JSON.
  if (error instanceof SyntaxError)
    return { ...base, kind: 'bad_response', detail: `invalid JSON: ${error.message}` };
  if (error instanceof TypeError && (error.message === 'terminated' || error.cause !== undefined)) {
    return { ...base, kind: 'connection', detail: networkDetail(error) };
  }
  return undefined;
}

/**
 * A ModelCallError for `error`. The caller's abort and our own time limit win over what
 * the client reported (it reports both as a user abort, or, mid-stream, as a quiet end).
 * Errors that are not recognisably about the call (bugs) are returned unchanged.
 */
export function toModelCallError(error: unknown, context: CallContext): unknown {
  const base = { endpoint: context.endpoint, model: context.model };
  if (context.deadline.callerAborted) return new ModelCallError({ ...base, kind: 'aborted' });
  if (context.deadline.timedOut)
    return new ModelCallError({ ...base, kind: 'timeout', timeoutMs: context.timeoutMs });
  if (error instanceof ModelCallError) return error;
  const failure = classify(error, base);
  if (!failure) return error;
  return new ModelCallError(
    failure.kind === 'timeout' ? { ...failure, timeoutMs: context.timeoutMs } : failure,
  );
}
