/** Time limits, aborts and the circuit breaker, through the real openai client and the fake server. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ModelCallError, createChatModel } from '../src/llm/index.js';
import type { ChatRequest } from '../src/llm/index.js';
import { completion, errorBody, startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';

const fakes: FakeLlm[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

async function fakeWith(script: Scripted[]): Promise<FakeLlm> {
  const fake = await startFakeLlm(script);
  fakes.push(fake);
  return fake;
}

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };
const noWait = { sleep: () => Promise.resolve() };

async function rejection(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelCallError, `not a ModelCallError: ${String(error)}`);
  assert.equal(error.exitCode, 3);
  return error;
}

void test('a server that never answers: a clear timeout error', async () => {
  const fake = await fakeWith([{ kind: 'hang' }, { kind: 'hang' }]);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null, timeoutMs: 300 },
    { retry: { ...noWait, maxAttempts: 2 } },
  );
  const started = Date.now();
  const error = await rejection(model.chat(ask));
  assert.equal(
    error.message,
    `the model endpoint ${fake.baseUrl} did not answer within 0.3 s after 2 attempts`,
  );
  assert.equal(error.failure.kind, 'timeout');
  assert.equal(fake.requests.length, 2);
  assert.ok(Date.now() - started < 3000);
});

void test('a stream that stalls after its first chunks times out (the client alone would wait forever)', async () => {
  const fake = await fakeWith([
    { kind: 'stream', chunks: streamChunks({ text: 'and then…' }).slice(0, 2), stall: true },
  ]);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null, timeoutMs: 300 },
    { retry: { ...noWait, maxAttempts: 1 } },
  );
  const error = await rejection(model.chat({ ...ask, onTextDelta: () => undefined }));
  assert.equal(error.failure.kind, 'timeout');
  assert.match(error.message, /did not answer within 0\.3 s$/);
});

void test('an already aborted signal stops at once, without a request', async () => {
  const fake = await fakeWith([{ kind: 'json', body: completion({ text: 'never' }) }]);
  const model = createChatModel({ baseUrl: fake.baseUrl, model: 'm', apiKey: null });
  const error = await rejection(model.chat({ ...ask, signal: AbortSignal.abort() }));
  assert.equal(error.failure.kind, 'aborted');
  assert.equal(fake.requests.length, 0);
});

void test('aborting a hanging call ends it promptly and does not retry', async () => {
  const fake = await fakeWith([{ kind: 'hang' }, { kind: 'hang' }]);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
    { retry: noWait },
  );
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const started = Date.now();
  const error = await rejection(model.chat({ ...ask, signal: controller.signal }));
  assert.equal(error.failure.kind, 'aborted');
  assert.match(error.message, /was cancelled$/);
  assert.ok(Date.now() - started < 2000);
  assert.equal(fake.requests.length, 1);
});

void test('aborting a streamed call mid-stream is an abort, not an answer', async () => {
  const fake = await fakeWith([
    { kind: 'stream', chunks: streamChunks({ text: 'streaming along' }).slice(0, 3), stall: true },
  ]);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
    { retry: noWait },
  );
  const controller = new AbortController();
  const error = await rejection(
    model.chat({ ...ask, signal: controller.signal, onTextDelta: () => controller.abort() }),
  );
  assert.equal(error.failure.kind, 'aborted');
  assert.equal(fake.requests.length, 1);
});

void test('aborting during a retry wait (real sleep, Retry-After 30) stops waiting', async () => {
  const fake = await fakeWith([
    errorBody(503, 'busy', { 'retry-after': '30' }),
    { kind: 'json', body: completion({ text: 'late' }) },
  ]);
  const model = createChatModel({ baseUrl: fake.baseUrl, model: 'm', apiKey: null });
  const controller = new AbortController();
  const started = Date.now();
  const error = await rejection(
    model.chat({
      ...ask,
      signal: controller.signal,
      onRetry: () => setTimeout(() => controller.abort(), 50),
    }),
  );
  assert.equal(error.failure.kind, 'aborted');
  assert.ok(Date.now() - started < 2000, 'waited for the Retry-After despite the abort');
  assert.equal(fake.requests.length, 1);
});

void test('the breaker opens after 3 failed calls and then fails fast without a request', async () => {
  let now = 1_000_000;
  const fake = await fakeWith([
    ...Array.from({ length: 3 }, () => errorBody(502, 'bad gateway')),
    { kind: 'json', body: completion({ text: 'recovered' }) },
  ]);
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
    { retry: { ...noWait, maxAttempts: 1 }, breaker: { now: () => now } },
  );
  for (let i = 0; i < 3; i += 1)
    assert.equal((await rejection(model.chat(ask))).failure.status, 502);
  const open = await rejection(model.chat(ask));
  assert.equal(
    open.message,
    `the model endpoint ${fake.baseUrl} failed 3 times in a row; not calling it again for 30 s`,
  );
  assert.match(open.hint ?? '', /returned 502/);
  assert.equal(fake.requests.length, 3);
  now += 30_000;
  assert.equal((await model.chat(ask)).text, 'recovered');
  assert.equal(fake.requests.length, 4);
});
