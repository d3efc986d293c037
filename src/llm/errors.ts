/** Failures of model calls: a provider-neutral classification and the one-line messages people see. */
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** What kind of thing went wrong with a model call. */
export type FailureKind =
  | 'status' // the server answered with an HTTP error status
  | 'connection' // could not connect, or the connection broke before a full answer
  | 'timeout' // no (complete) answer within the time limit
  | 'cut' // a stream ended before the model finished its answer
  | 'bad_response' // an answer that could not be read, or an error sent inside a stream
  | 'aborted' // the caller aborted the call
  | 'circuit_open'; // the breaker refused to call a failing endpoint

/** The facts about one failed model call, from which messages and retry decisions are made. */
export interface ModelFailure {
  kind: FailureKind;
  /** Base URL of the endpoint, e.g. http://127.0.0.1:1234/v1. Never contains the key. */
  endpoint: string;
  model: string;
  status?: number;
  /** What the server asked us to wait before retrying (Retry-After), uncapped. */
  retryAfterMs?: number;
  /** A short detail: the server's error message or the network error code. */
  detail?: string;
  /** The time limit that was exceeded (kind 'timeout'). */
  timeoutMs?: number;
  /** For 'circuit_open': the message of the last failure that kept the breaker open. */
  lastError?: string;
}

const RETRYABLE_STATUS = new Set([408, 409, 429]);

/** True for failures worth another attempt: 408/409/429, 5xx (except 501), network trouble, timeouts, cut streams. */
export function isRetryable(failure: ModelFailure): boolean {
  switch (failure.kind) {
    case 'status': {
      const status = failure.status ?? 0;
      return RETRYABLE_STATUS.has(status) || (status >= 500 && status !== 501);
    }
    case 'connection':
    case 'timeout':
    case 'cut':
    case 'bad_response':
      return true;
    case 'aborted':
    case 'circuit_open':
      return false;
  }
}

/**
 * A model call that failed, as an OpsmindError (exit 3) whose message says what happened
 * and where in one line and whose hint says what to check. `failure` keeps the facts.
 */
export class ModelCallError extends OpsmindError {
  constructor(
    readonly failure: ModelFailure,
    /** How many attempts were made before giving up. */
    readonly attempts = 1,
  ) {
    super(failureMessage(failure, attempts), ExitCode.CONFIG, failureHint(failure));
    this.name = 'ModelCallError';
  }
}

/** The failure behind an error, when it is a ModelCallError; undefined for anything else (a bug). */
export function failureOf(error: unknown): ModelFailure | undefined {
  return error instanceof ModelCallError ? error.failure : undefined;
}

/**
 * True when `error` is the caller cancelling, not the endpoint failing: a model call
 * aborted by its signal, or an AbortError (what `signal.throwIfAborted()` throws).
 * A cancellation must end the run, never be handled like an unavailable model.
 */
export function isCancellation(error: unknown): boolean {
  if (failureOf(error)?.kind === 'aborted') return true;
  return error instanceof Error && error.name === 'AbortError';
}

/** Formats milliseconds as seconds for messages: 60000 → "60 s", 300 → "0.3 s". */
export function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s >= 10 ? Math.round(s) : Number(s.toFixed(1))} s`;
}

function clip(text: string | undefined, max = 160): string {
  if (!text) return '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function failureMessage(f: ModelFailure, attempts: number): string {
  const where = `the model endpoint ${f.endpoint}`;
  const after = attempts > 1 ? ` after ${attempts} attempts` : '';
  const detail = clip(f.detail);
  const said = detail ? ` (${detail})` : '';
  switch (f.kind) {
    case 'status':
      return statusMessage(f, where, after, detail);
    case 'connection':
      return `could not get an answer from ${where}${said}${after}`;
    case 'timeout':
      return `${where} did not answer within ${seconds(f.timeoutMs ?? 0)}${after}`;
    case 'cut':
      return `${where} closed the stream before the answer was complete${after}`;
    case 'bad_response':
      return `${where} sent a response that could not be used${said}${after}`;
    case 'aborted':
      return `the call to ${where} was cancelled`;
    case 'circuit_open':
      return `${where} ${detail}`;
  }
}

function statusMessage(f: ModelFailure, where: string, after: string, detail: string): string {
  const status = f.status ?? 0;
  const said = detail ? `: ${detail}` : '';
  if (status === 401) return `${where} rejected the API key (401)`;
  if (status === 403) return `${where} refused access (403)${said}`;
  if (status === 404)
    return `${where} has no model "${f.model}" or no chat completions route (404)${said}`;
  if (status === 429) return `${where} kept rate-limiting the requests (429)${after}${said}`;
  if (status >= 400 && status < 500 && !RETRYABLE_STATUS.has(status)) {
    return `${where} rejected the request (${status})${said}`;
  }
  return `${where} returned ${status}${after}${said}`;
}

const CHECK_ENDPOINT =
  'check that OPENAI_BASE_URL points at a running OpenAI-compatible server (its URL usually ends in /v1); `opsmind doctor` shows the configuration';

function failureHint(f: ModelFailure): string | undefined {
  switch (f.kind) {
    case 'status':
      if (f.status === 401 || f.status === 403)
        return 'check OPENAI_API_KEY: it must be a valid key for this endpoint (`opsmind doctor` shows whether one is set)';
      if (f.status === 404)
        return 'check OPSMIND_MODEL (or --model) names a model this server serves, and that OPENAI_BASE_URL ends in /v1';
      if (f.status === 429)
        return 'the endpoint is rate-limiting this key; wait a minute or use a key with a higher limit';
      if (f.status !== undefined && f.status < 500)
        return 'the server refused this request; check OPSMIND_MODEL supports tool calls and JSON-schema output';
      return `the server failed; try again later, or ${CHECK_ENDPOINT}`;
    case 'connection':
    case 'timeout':
    case 'cut':
    case 'bad_response':
      return CHECK_ENDPOINT;
    case 'circuit_open':
      return f.lastError ? `the last failure was: ${f.lastError}` : CHECK_ENDPOINT;
    case 'aborted':
      return undefined;
  }
}
