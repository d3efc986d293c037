/**
 * One MCP tool call, end to end: a trace id, the server's time limit, the client's cancellation
 * and the client's disconnection as one signal, a progress heartbeat when the client sent a
 * progress token, problems a client can fix as `isError` results (a bug as an internal error
 * naming its trace id, with its stack in the log only), one JSON log line and the metrics.
 */
import { OpsmindError } from '../shared/exit-codes.js';
import type { CallBody, Extra, ServerSettings } from './context.js';
import { traceId } from './context.js';
import type { Outcome } from './metrics.js';
import { textResult } from './results.js';
import type { TextResult } from './results.js';
import { DatasetError } from './roots.js';

/** The client's problem, said in one line (a DatasetError, an OpsmindError with its hint). */
function userMessage(error: unknown): string | null {
  if (error instanceof DatasetError) return error.message;
  if (error instanceof OpsmindError)
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  return null;
}

/** Sends progress notifications: on each message, and once a second while the call runs. */
function progressSender(
  extra: Extra,
  started: number,
): { notify: (message: string) => void; stop: () => void } {
  const token = extra._meta?.progressToken;
  if (token === undefined) return { notify: () => undefined, stop: () => undefined };
  let ticks = 0;
  let last = 'running';
  const send = (message: string): void => {
    ticks += 1;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: ticks, message },
      })
      .catch(() => undefined);
  };
  const heartbeat = setInterval(
    () => send(`${last} (${Math.round((performance.now() - started) / 1000)} s)`),
    1000,
  );
  return {
    notify: (message) => {
      last = message;
      send(message);
    },
    stop: () => clearInterval(heartbeat),
  };
}

/** Runs `body` as the call of `tool` for client `clientId`. */
export async function runCall(
  settings: ServerSettings,
  client: { id: string; signal: AbortSignal },
  call: { tool: string; extra: Extra; meta: Record<string, unknown> },
  body: CallBody,
): Promise<TextResult> {
  const { tool, extra } = call;
  const trace = traceId();
  const started = performance.now();
  const limit = settings.callTimeoutMs / 1000;
  const timeout = AbortSignal.timeout(settings.callTimeoutMs);
  const signal = AbortSignal.any([extra.signal, timeout, client.signal]);
  const progress = progressSender(extra, started);
  let outcome: Outcome = 'ok';
  let result: TextResult | undefined;
  const failure = (text: string, kind: Outcome): TextResult => {
    outcome = kind;
    return textResult(`error: ${text}`, settings.policy, { isError: true, traceId: trace });
  };
  const timedOut = (): TextResult =>
    failure(
      `${tool} took longer than the server's ${limit} s limit per call and was stopped; ask for less (filter, aggregate, sample) or raise --call-timeout`,
      'timeout',
    );
  try {
    progress.notify(`${tool} started`);
    try {
      result = await body(signal, progress.notify);
    } catch (error) {
      if (timeout.aborted && !extra.signal.aborted) return (result = timedOut());
      throw error;
    }
    if (extra.signal.aborted) outcome = 'cancelled';
    else if (timeout.aborted) return (result = timedOut());
    else if (result.isError) outcome = 'tool_error';
    result._meta = { ...result._meta, trace_id: trace };
    return result;
  } catch (error) {
    if (extra.signal.aborted) {
      outcome = 'cancelled';
      throw error;
    }
    const message = userMessage(error);
    if (message) return (result = failure(message, 'tool_error'));
    settings.log({
      level: 'error',
      trace_id: trace,
      tool,
      stack: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return (result = failure(
      `internal error in ${tool} (trace id ${trace}; the server log has the detail)`,
      'error',
    ));
  } finally {
    progress.stop();
    const seconds = (performance.now() - started) / 1000;
    settings.metrics?.call(tool, outcome, seconds);
    settings.log({
      level: 'info',
      event: 'tool_call',
      trace_id: trace,
      client: client.id,
      ...(extra.sessionId ? { transport_session: extra.sessionId } : {}),
      tool,
      ...call.meta,
      duration_ms: Math.round(seconds * 1000),
      outcome,
      result_chars: result?.content.reduce((n, c) => n + c.text.length, 0) ?? 0,
    });
  }
}
