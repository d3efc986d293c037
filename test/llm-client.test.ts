/** The model seam through the real openai client against a fake OpenAI-compatible server. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { OpsmindError } from '../src/shared/exit-codes.js';
import { ModelCallError, createChatModel } from '../src/llm/index.js';
import type { ChatModelOptions, ChatRequest, Usage } from '../src/llm/index.js';
import { completion, errorBody, startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';

const fakes: FakeLlm[] = [];
after(async () => {
  await Promise.all(fakes.map((f) => f.close()));
});

/** A fake with that script, a model on it, and the delays its retries asked for (never really waited). */
async function setup(script: Scripted[], options: ChatModelOptions & { timeoutMs?: number } = {}) {
  const fake = await startFakeLlm(script);
  fakes.push(fake);
  const delays: number[] = [];
  const { timeoutMs, ...rest } = options;
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: 'test-model', apiKey: 'sk-test-secret', timeoutMs },
    { ...rest, retry: { sleep: (ms) => Promise.resolve(void delays.push(ms)), ...rest.retry } },
  );
  return { fake, model, delays };
}

const ask: ChatRequest = { messages: [{ role: 'user', content: 'Hi' }] };

async function failure(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => assert.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ModelCallError, `not a ModelCallError: ${String(error)}`);
  assert.ok(error instanceof OpsmindError);
  assert.equal(error.exitCode, 3);
  assert.doesNotMatch(`${error.message} ${error.hint ?? ''}`, /sk-test-secret/);
  return error;
}

void test('plain text: the answer, the usage and what was sent', async () => {
  const usages: Usage[] = [];
  const { fake, model } = await setup(
    [{ kind: 'json', body: completion({ text: 'Hello there' }) }],
    { onUsage: (u) => usages.push(u) },
  );
  const response = await model.chat({ ...ask, temperature: 0.2, maxOutputTokens: 50 });
  assert.deepEqual(response, {
    text: 'Hello there',
    toolCalls: [],
    usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 },
    finishReason: 'stop',
    model: 'fake-model',
  });
  assert.deepEqual(usages, [response.usage]);
  const [request] = fake.requests;
  assert.equal(request?.path, '/v1/chat/completions');
  assert.equal(request?.headers.authorization, 'Bearer sk-test-secret');
  assert.deepEqual(request?.body.messages, [{ role: 'user', content: 'Hi' }]);
  assert.equal(request?.body.model, 'test-model');
  assert.equal(request?.body.max_tokens, 50);
  assert.equal(request?.body.temperature, 0.2);
  assert.equal(request?.body.stream, false);
});

void test('tool calls: offered in the OpenAI shape, returned with raw arguments', async () => {
  const calls = [
    { name: 'run_code', arguments: '{"code": "print(1)"}', id: 'call_1' },
    { name: 'plan_analysis', arguments: '{bad json' },
  ];
  const { fake, model } = await setup([{ kind: 'json', body: completion({ toolCalls: calls }) }]);
  const tool = {
    name: 'run_code',
    description: 'Run Python',
    parameters: { type: 'object', properties: { code: { type: 'string' } } },
  };
  const response = await model.chat({
    messages: [
      { role: 'system', content: 'You analyse data.' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c0', name: 'run_code', arguments: '{}' }],
      },
      { role: 'tool', content: 'ok', tool_call_id: 'c0' },
    ],
    tools: [tool],
  });
  assert.equal(response.text, null);
  assert.equal(response.finishReason, 'tool_calls');
  assert.deepEqual(response.toolCalls, [
    { id: 'call_1', name: 'run_code', arguments: '{"code": "print(1)"}' },
    { id: 'call_fake_1', name: 'plan_analysis', arguments: '{bad json' },
  ]);
  const body = fake.requests[0]?.body;
  assert.deepEqual(body?.tools, [{ type: 'function', function: tool }]);
  assert.deepEqual((body?.messages as unknown[])[1], {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c0', type: 'function', function: { name: 'run_code', arguments: '{}' } }],
  });
  assert.deepEqual((body?.messages as unknown[])[2], {
    role: 'tool',
    content: 'ok',
    tool_call_id: 'c0',
  });
});

void test('structured output: the request carries a json_schema response_format', async () => {
  const schema = {
    type: 'object',
    properties: { charts: { type: 'array' } },
    required: ['charts'],
  };
  const { fake, model } = await setup([
    { kind: 'json', body: completion({ text: '{"charts":[]}' }) },
  ]);
  const response = await model.chat({ ...ask, responseFormat: { name: 'analysis_plan', schema } });
  assert.equal(response.text, '{"charts":[]}');
  assert.deepEqual(fake.requests[0]?.body.response_format, {
    type: 'json_schema',
    json_schema: { name: 'analysis_plan', schema, strict: false },
  });
});

void test('streaming: text deltas reach onTextDelta and assemble into the answer, with usage', async () => {
  const text = 'Revenue grew 12% in the North region.';
  const { fake, model } = await setup([{ kind: 'stream', chunks: streamChunks({ text }) }]);
  const deltas: string[] = [];
  const response = await model.chat({ ...ask, onTextDelta: (d) => deltas.push(d) });
  assert.ok(deltas.length >= 3, `expected several deltas, got ${deltas.length}`);
  assert.equal(deltas.join(''), text);
  assert.equal(response.text, text);
  assert.deepEqual(response.usage, { promptTokens: 12, completionTokens: 7, totalTokens: 19 });
  assert.equal(response.finishReason, 'stop');
  assert.equal(fake.requests[0]?.body.stream, true);
  assert.deepEqual(fake.requests[0]?.body.stream_options, { include_usage: true });
});

void test('streaming: tool-call arguments split across deltas are joined by index', async () => {
  const calls = [
    { name: 'run_code', arguments: '{"code": "df.groupby(\'region\').sum()"}', id: 'call_a' },
    { name: 'run_code', arguments: '{"code": "df.describe()"}', id: 'call_b' },
  ];
  const { model } = await setup([
    { kind: 'stream', chunks: streamChunks({ text: 'Let me look.', toolCalls: calls }) },
  ]);
  const response = await model.chat({ ...ask, onTextDelta: () => undefined });
  assert.equal(response.text, 'Let me look.');
  assert.deepEqual(response.toolCalls, calls);
  assert.equal(response.finishReason, 'tool_calls');
});

void test('429 with Retry-After: 1 is retried once after the requested second', async () => {
  const { fake, model, delays } = await setup([
    errorBody(429, 'slow down', { 'retry-after': '1' }),
    { kind: 'json', body: completion({ text: 'ok' }) },
  ]);
  const notices: number[] = [];
  const response = await model.chat({ ...ask, onRetry: (n) => notices.push(n.attempt) });
  assert.equal(response.text, 'ok');
  assert.deepEqual(delays, [1000]);
  assert.deepEqual(notices, [2]);
  assert.equal(fake.requests.length, 2);
});

void test('500 every time: exit 3 after exactly 4 attempts, with a clear message', async () => {
  const { fake, model, delays } = await setup(
    Array.from({ length: 6 }, () => errorBody(500, 'upstream exploded')),
  );
  const error = await failure(model.chat(ask));
  assert.match(
    error.message,
    new RegExp(`^the model endpoint ${fake.baseUrl} returned 500 after 4 attempts`),
  );
  assert.match(error.message, /upstream exploded/);
  assert.match(error.hint ?? '', /OPENAI_BASE_URL/);
  assert.equal(fake.requests.length, 4);
  assert.equal(delays.length, 3);
  delays.forEach((d, i) =>
    assert.ok(d >= 0 && d <= 500 * 2 ** i, `delay ${d} out of the jitter range`),
  );
});

void test('401: fails at once, no retry, hint about OPENAI_API_KEY', async () => {
  const { fake, model, delays } = await setup([
    errorBody(401, 'Incorrect API key provided'),
    errorBody(401, 'again'),
  ]);
  const error = await failure(model.chat(ask));
  assert.equal(error.message, `the model endpoint ${fake.baseUrl} rejected the API key (401)`);
  assert.match(error.hint ?? '', /OPENAI_API_KEY/);
  assert.equal(fake.requests.length, 1);
  assert.deepEqual(delays, []);
});

void test("400 and 404 fail at once with the server's reason", async () => {
  const { fake, model } = await setup([
    errorBody(400, 'tools are not supported'),
    errorBody(404, 'model "test-model" not found'),
  ]);
  assert.match(
    (await failure(model.chat(ask))).message,
    /rejected the request \(400\): tools are not supported$/,
  );
  const notFound = await failure(model.chat(ask));
  assert.match(notFound.message, /no model "test-model".*\(404\)/);
  assert.match(notFound.hint ?? '', /OPSMIND_MODEL/);
  assert.equal(fake.requests.length, 2);
});

void test('a stream cut mid-way is retried and the complete second stream is returned', async () => {
  const text = 'The full and final answer.';
  const { fake, model } = await setup([
    {
      kind: 'stream',
      chunks: streamChunks({ text: 'Partial answer that never ends' }).slice(0, 3),
      cut: true,
    },
    { kind: 'stream', chunks: streamChunks({ text }) },
  ]);
  const notices: string[] = [];
  const response = await model.chat({
    ...ask,
    onTextDelta: () => undefined,
    onRetry: (n) => notices.push(n.reason),
  });
  assert.equal(response.text, text);
  assert.equal(fake.requests.length, 2);
  assert.match(notices[0] ?? '', /closed the stream before the answer was complete/);
});

void test('a stream that ends cleanly but early (no finish_reason, no [DONE]) is not a partial answer', async () => {
  const partial = streamChunks({ text: 'half of it' }).slice(0, 2);
  const { fake, model } = await setup(
    [1, 2].map(() => ({ kind: 'stream', chunks: partial, omitDone: true }) as const),
    { retry: { maxAttempts: 2 } },
  );
  const error = await failure(model.chat({ ...ask, onTextDelta: () => undefined }));
  assert.equal(
    error.message,
    `the model endpoint ${fake.baseUrl} closed the stream before the answer was complete after 2 attempts`,
  );
});

void test('a reset connection is retried', async () => {
  const { fake, model } = await setup([
    { kind: 'reset' },
    { kind: 'json', body: completion({ text: 'back' }) },
  ]);
  assert.equal((await model.chat(ask)).text, 'back');
  assert.equal(fake.requests.length, 2);
});

void test('nothing listening: a clear connection error', async () => {
  const fake = await startFakeLlm();
  await fake.close();
  const model = createChatModel(
    { baseUrl: fake.baseUrl, model: null, apiKey: null },
    { retry: { maxAttempts: 2, sleep: () => Promise.resolve() } },
  );
  const error = await failure(model.chat(ask));
  assert.equal(
    error.message,
    `could not get an answer from the model endpoint ${fake.baseUrl} (ECONNREFUSED) after 2 attempts`,
  );
});

void test('a server that ignores stream: true and sends one JSON completion: its text and tool call are used', async () => {
  const calls = [{ name: 'run_code', arguments: '{"code": "print(df.shape)"}', id: 'call_json' }];
  const { fake, model } = await setup([
    { kind: 'json', body: completion({ text: 'Looking first.', toolCalls: calls }) },
  ]);
  const deltas: string[] = [];
  const response = await model.chat({ ...ask, onTextDelta: (d) => deltas.push(d) });
  assert.equal(fake.requests[0]?.body.stream, true, 'the request asked for a stream');
  assert.equal(fake.requests.length, 1, 'no retry: the JSON answer is the answer');
  assert.deepEqual(response, {
    text: 'Looking first.',
    toolCalls: calls,
    usage: { promptTokens: 12, completionTokens: 7, totalTokens: 19 },
    finishReason: 'tool_calls',
    model: 'fake-model',
  });
  assert.deepEqual(deltas, ['Looking first.'], 'the text still reaches onTextDelta, in one piece');
});

void test('a stream whose one event is a whole chat.completion object (message, not delta) is read as that completion', async () => {
  const calls = [{ name: 'final_answer', arguments: '{"answer": "42"}', id: 'call_whole' }];
  const { model } = await setup([{ kind: 'stream', chunks: [completion({ toolCalls: calls })] }]);
  const response = await model.chat({ ...ask, onTextDelta: () => undefined });
  assert.deepEqual(response.toolCalls, calls);
  assert.equal(response.finishReason, 'tool_calls');
  assert.deepEqual(response.usage, { promptTokens: 12, completionTokens: 7, totalTokens: 19 });
});

void test('a JSON answer to a streamed request that is not a completion is a clear bad response', async () => {
  const { model } = await setup([
    { kind: 'json', body: { hello: 'world' } },
    { kind: 'json', body: { hello: 'world' } },
    { kind: 'json', body: { hello: 'world' } },
    { kind: 'json', body: { hello: 'world' } },
  ]);
  const error = await failure(model.chat({ ...ask, onTextDelta: () => undefined }));
  assert.match(error.message, /not a chat completion/);
});
