/** Retry timing, the breaker's states, and odd answers the seam must not mistake for success. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  CircuitBreaker,
  ModelCallError,
  createChatModel,
  parseRetryAfter,
  retryDelay,
  withBreaker,
} from '../src/llm/index.js';
import type { ChatModel, ChatRequest, ModelFailure } from '../src/llm/index.js';
import { completion, errorBody, startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';

const fakes: FakeLlm[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const failure500: ModelFailure = {
  kind: 'status',
  status: 500,
  endpoint: 'http://x/v1',
  model: 'm',
};

async function modelOn(
  script: Scripted[],
  maxAttempts = 4,
): Promise<{ fake: FakeLlm; model: ChatModel }> {
  const fake = await startFakeLlm(script);
  fakes.push(fake);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
    { retry: { maxAttempts, sleep: () => Promise.resolve() } },
  );
  return { fake, model };
}

void test('Retry-After: seconds, HTTP date, retry-after-ms; garbage is ignored', () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  assert.equal(parseRetryAfter(headers({ 'retry-after': '2' })), 2000);
  assert.equal(parseRetryAfter(headers({ 'retry-after': '0.5' })), 500);
  assert.equal(parseRetryAfter(headers({ 'retry-after-ms': '250', 'retry-after': '9' })), 250);
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(
    parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' }), now),
    7000,
  );
  assert.equal(
    parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now),
    0,
  );
  assert.equal(parseRetryAfter(headers({ 'retry-after': 'soon' })), undefined);
  assert.equal(parseRetryAfter(headers({})), undefined);
});

void test('backoff: full jitter under base·2^(n-1), capped at 8 s; Retry-After capped at 60 s', () => {
  assert.equal(retryDelay(failure500, 1, { random: () => 0.999 }), 499);
  assert.equal(retryDelay(failure500, 3, { random: () => 0.5 }), 1000);
  assert.equal(retryDelay(failure500, 10, { random: () => 0.999 }), 7992);
  assert.equal(retryDelay(failure500, 1, { random: () => 0 }), 0);
  assert.equal(retryDelay({ ...failure500, retryAfterMs: 5000 }, 1), 5000);
  assert.equal(retryDelay({ ...failure500, retryAfterMs: 3_600_000 }, 1), 60_000);
});

void test('breaker: a failed half-open trial reopens it; 4xx answers neither count nor reset', async () => {
  let now = 0;
  const breaker = new CircuitBreaker({ threshold: 2, coolDownMs: 1000, now: () => now });
  const outcomes: (ModelFailure | 'ok')[] = [];
  const model = withBreaker(
    {
      model: 'm',
      chat: () => {
        const next = outcomes.shift() ?? 'ok';
        return next === 'ok'
          ? Promise.resolve(completionResponse)
          : Promise.reject(new ModelCallError(next));
      },
    },
    'http://x/v1',
    breaker,
  );
  outcomes.push(failure500, { ...failure500, status: 400 }, failure500);
  for (let i = 0; i < 3; i += 1) await assert.rejects(model.chat(ask), ModelCallError);
  assert.equal(breaker.state, 'open');
  await assert.rejects(model.chat(ask), /failed 2 times in a row; not calling it again for 1 s/);
  now += 1000;
  assert.equal(breaker.state, 'half-open');
  outcomes.push(failure500);
  await assert.rejects(model.chat(ask), /returned 500/);
  assert.equal(breaker.state, 'open');
  now += 1000;
  await model.chat(ask);
  assert.equal(breaker.state, 'closed');
});

const completionResponse = {
  text: 'ok',
  toolCalls: [],
  usage: null,
  finishReason: 'stop',
  model: 'm',
};

void test('an error event inside a stream is a failure, retried like a server error', async () => {
  const { fake, model } = await modelOn([
    {
      kind: 'stream',
      chunks: [
        ...streamChunks({ text: 'par' }).slice(0, 2),
        { error: { message: 'overloaded mid-stream' } },
      ],
    },
    { kind: 'stream', chunks: streamChunks({ text: 'whole' }) },
  ]);
  const reasons: string[] = [];
  const response = await model.chat({
    ...ask,
    onTextDelta: () => undefined,
    onRetry: (n) => reasons.push(n.reason),
  });
  assert.equal(response.text, 'whole');
  assert.equal(fake.requests.length, 2);
  assert.match(
    reasons[0] ?? '',
    /sent a response that could not be used \(overloaded mid-stream\)/,
  );
});

void test('a 200 whose body is not JSON is a clear failure, not a crash', async () => {
  const { fake, model } = await modelOn(
    [{ kind: 'json', body: completion({ text: 'x' }), headers: { 'content-type': 'text/html' } }],
    1,
  );
  // text/html makes the client return the raw text, which has no choices.
  const error = await model.chat(ask).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelCallError);
  assert.match(
    error.message,
    new RegExp(`^the model endpoint ${fake.baseUrl} sent a response that could not be used`),
  );
});

void test('a usage chunk lost after the finish_reason still gives the complete answer', async () => {
  const chunks = streamChunks({ text: 'complete' });
  const { model } = await modelOn([{ kind: 'stream', chunks: chunks.slice(0, -1), cut: true }], 1);
  const response = await model.chat({ ...ask, onTextDelta: () => undefined });
  assert.equal(response.text, 'complete');
  assert.equal(response.usage, null);
});

void test('a bug in onTextDelta is not retried and not disguised as a model failure', async () => {
  const { fake, model } = await modelOn([
    { kind: 'stream', chunks: streamChunks({ text: 'hello' }) },
    errorBody(500, 'unused'),
  ]);
  const onTextDelta = (): void => {
    throw new RangeError('ui bug');
  };
  await assert.rejects(model.chat({ ...ask, onTextDelta }), RangeError);
  assert.equal(fake.requests.length, 1);
});
