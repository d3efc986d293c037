/** Text streamed by a failed, retried attempt is withdrawn from the screen (issue 12, item 5b). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { deepLoop } from '../src/agent/deep-loop.js';
import { createChatModel } from '../src/llm/index.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import type { StreamEvent } from '../src/shared/events.js';
import { initialChatState, reduceChat } from '../src/ui/chat/chat-state.js';
import type { ChatState } from '../src/ui/chat/chat-state.js';
import { startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import { salesCsv, tempDir } from './helpers/fixtures.js';

let sandbox: Sandbox;
before(async () => {
  sandbox = await Sandbox.open({
    python: await findPython(),
    dataPath: salesCsv(tempDir()),
    limits: DEFAULT_LIMITS,
    warm: false,
  });
});
after(() => sandbox.close());

const CUT = 'Revenue fell by 99% in the cut attempt, and then';
const GOOD = 'Total revenue is 42 thousand.';

void test('a stream cut half-way, then a good reply: the screen shows only the good reply', async () => {
  const partial = streamChunks({ text: CUT }).slice(0, 3); // the role chunk and two of the three text pieces
  const fake = await startFakeLlm([
    { kind: 'stream', chunks: partial, cut: true },
    { kind: 'stream', chunks: streamChunks({ text: GOOD }) },
  ]);
  try {
    const model = createChatModel(
      { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
      { retry: { sleep: () => Promise.resolve() } },
    );
    const streamed: StreamEvent[] = [];
    let state: ChatState = reduceChat(initialChatState('deep'), {
      type: 'submitted',
      question: 'What is the total revenue?',
    });
    let onScreenAtAnswer: string | null = null;
    const loop = deepLoop({
      sandbox,
      model,
      question: 'What is the total revenue?',
      sourceName: 'sales.csv',
      onStream: (event) => {
        streamed.push(event);
        state = reduceChat(state, event);
      },
    });
    let seq = 0;
    for (let next = await loop.next(); !next.done; next = await loop.next()) {
      const { event } = next.value;
      if (event.type === 'model_turn') onScreenAtAnswer = state.streaming;
      seq += 1;
      state = reduceChat(state, {
        type: 'event',
        event: { ...event, session_id: 's', seq, created_at: '2026-01-01T00:00:00Z' },
      });
    }
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(
      streamed.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]),
      ['text_delta', 'text_retracted', 'text_delta'],
    );
    assert.equal(onScreenAtAnswer, GOOD, 'the streamed text of the turn is the good reply only');
    const screen = [state.streaming, ...state.timeline.map((e) => e.text)].join('\n');
    assert.match(screen, /Total revenue is 42 thousand\./);
    assert.doesNotMatch(
      screen,
      /99%|cut attempt|fell/,
      'a trace of the cut attempt is on the screen',
    );
    assert.ok(streamed.every((e) => e.turn === 1));
  } finally {
    await fake.close();
  }
});

void test('a retry before any text was streamed retracts nothing', async () => {
  const fake = await startFakeLlm([
    { kind: 'reset' },
    { kind: 'stream', chunks: streamChunks({ text: GOOD }) },
  ]);
  try {
    const model = createChatModel(
      { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
      { retry: { sleep: () => Promise.resolve() } },
    );
    const streamed: StreamEvent[] = [];
    const loop = deepLoop({
      sandbox,
      model,
      question: 'Total?',
      sourceName: 'sales.csv',
      onStream: (event) => streamed.push(event),
    });
    for (let next = await loop.next(); !next.done; next = await loop.next()) {
      /* drain */
    }
    assert.equal(fake.requests.length, 2);
    assert.ok(!streamed.some((e) => e.type === 'text_retracted'));
    assert.equal(streamed.map((e) => (e.type === 'text_delta' ? e.text : '')).join(''), GOOD);
  } finally {
    await fake.close();
  }
});
