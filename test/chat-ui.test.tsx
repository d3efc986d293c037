/** The chat screen with ink-testing-library: append semantics, the double-submit guard, the mode toggle, pictures. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { StoredEvent } from '../src/shared/events.js';
import { initialChatState, reduceChat } from '../src/ui/chat/chat-state.js';
import type { ChatAction, ChatMode } from '../src/ui/chat/chat-state.js';
import { ChatApp } from '../src/ui/chat/ChatApp.js';
import type { ChatController } from '../src/ui/chat/ChatApp.js';
import { miniChart, sparkline, topBars } from '../src/ui/chat/mini-chart.js';

const at = { session_id: 's', created_at: '2026-01-01T00:00:00Z' };
const added = (step: number, ids: string[]): StoredEvent => ({
  ...at,
  seq: step,
  type: 'artifact_added',
  step,
  charts: ids.map((id, i) => ({ id, kind: 'bar', title: id, seq: i + 1 })),
  tables: [],
});

const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits (up to 10 s: a loaded machine renders slowly) until `done` holds, then one more tick. */
async function settle(done: () => boolean): Promise<void> {
  for (const until = Date.now() + 10_000; !done() && Date.now() < until;) await tick(20);
  await tick(60);
}

/** A controller that records questions and finishes each run when told to. */
function scripted(): ChatController & {
  asked: { question: string; mode: ChatMode }[];
  finish: () => void;
  closed: boolean;
} {
  let release: (() => void) | undefined;
  const controller = {
    asked: [] as { question: string; mode: ChatMode }[],
    closed: false,
    finish: () => release?.(),
    async ask(
      question: string,
      mode: ChatMode,
      _signal: AbortSignal,
      update: (a: ChatAction) => void,
    ) {
      controller.asked.push({ question, mode });
      update({
        type: 'event',
        event: added(controller.asked.length, [`c${controller.asked.length}`]),
      });
      update({
        type: 'artifacts',
        artifacts: [
          {
            key: `${controller.asked.length}:c1`,
            kind: 'bar',
            title: `chart for ${question}`,
            picture: ['West ███ 3'],
          },
        ],
      });
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { reportPath: '/tmp/report.html' };
    },
    close() {
      controller.closed = true;
      return Promise.resolve();
    },
  };
  return controller;
}

void test('the reducer appends artifacts across two steps and never replaces them', () => {
  let state = initialChatState('fast');
  state = reduceChat(state, {
    type: 'artifacts',
    artifacts: [{ key: '3:c1', kind: 'bar', title: 'A', picture: [] }],
  });
  state = reduceChat(state, {
    type: 'artifacts',
    artifacts: [
      { key: '6:c1', kind: 'line', title: 'B', picture: [] },
      { key: '3:c1', kind: 'bar', title: 'A', picture: [] },
    ],
  });
  assert.deepEqual(
    state.artifacts.map((a) => a.title),
    ['A', 'B'],
  );
  const before = state.timeline.length;
  state = reduceChat(state, {
    type: 'event',
    event: { ...at, seq: 9, type: 'warning', message: 'x' },
  });
  assert.equal(state.timeline.length, before + 1);
});

void test('two submits fired synchronously start exactly one run', async () => {
  const controller = scripted();
  const app = render(
    createElement(ChatApp, { controller, initialMode: 'fast', title: 'sales.csv' }),
  );
  // Each Enter waits until the typed text is on screen: on a loaded machine ink may still be
  // rendering the keys before it, and an Enter on an empty line submits nothing.
  await tick();
  app.stdin.write('top regions');
  await settle(() => /top regions/.test(app.lastFrame() ?? ''));
  app.stdin.write('\r');
  app.stdin.write('\r');
  await settle(
    () => controller.asked.length > 0 && /chart for top regions/.test(app.lastFrame() ?? ''),
  );
  assert.equal(controller.asked.length, 1);
  assert.match(app.lastFrame() ?? '', /chart for top regions/);
  controller.finish();
  await tick(60);
  app.stdin.write('next one');
  await settle(() => /next one/.test(app.lastFrame() ?? ''));
  app.stdin.write('\r');
  await settle(
    () => controller.asked.length > 1 && /chart for next one/.test(app.lastFrame() ?? ''),
  );
  assert.equal(
    controller.asked.length,
    2,
    'after the run ends the guard lets the next one through',
  );
  assert.match(
    app.lastFrame() ?? '',
    /chart for top regions[\s\S]*chart for next one/,
    `charts of both runs are shown:\n${app.lastFrame() ?? ''}`,
  );
  controller.finish();
  app.unmount();
});

void test('Tab toggles the mode for the next question, and the mode is always visible', async () => {
  const controller = scripted();
  const app = render(
    createElement(ChatApp, { controller, initialMode: 'fast', title: 'sales.csv' }),
  );
  await tick();
  assert.match(app.lastFrame() ?? '', /mode fast/);
  app.stdin.write('\t');
  await tick();
  assert.match(app.lastFrame() ?? '', /mode deep/);
  app.stdin.write('why?\r');
  await tick(60);
  assert.deepEqual(controller.asked, [{ question: 'why?', mode: 'deep' }]);
  assert.match(app.lastFrame() ?? '', /\[deep\] why\?/);
  controller.finish();
  app.unmount();
});

void test('Ctrl-C cancels a running step first, and quits when nothing runs', async () => {
  const controller = scripted();
  let aborted = false;
  const wrapped: ChatController = {
    ask: (q, m, signal, u) => {
      signal.addEventListener('abort', () => {
        aborted = true;
        controller.finish();
      });
      return controller.ask(q, m, signal, u);
    },
    close: () => controller.close(),
  };
  const app = render(
    createElement(ChatApp, { controller: wrapped, initialMode: 'fast', title: 'd' }),
  );
  await tick();
  app.stdin.write('slow question\r');
  await tick(60);
  app.stdin.write('\u0003');
  await tick(60);
  assert.equal(aborted, true);
  assert.equal(controller.closed, false, 'the first Ctrl-C only cancels');
  assert.match(app.lastFrame() ?? '', /cancelling the running step/);
  app.stdin.write('\u0003');
  await tick(60);
  assert.equal(controller.closed, true, 'the second Ctrl-C quits');
});

void test('terminal pictures: top-N bars and sparklines', () => {
  assert.deepEqual(topBars(['a', 'b', 'c'], [1, 3, 2], 2, 6), ['b ██████ 3', 'c ████ 2']);
  assert.equal(sparkline([0, 1, 2, 3, 4, 5, 6, 7]), '▁▂▃▄▅▆▇█');
  const line = miniChart({
    type: 'plotly',
    figure: { data: [{ type: 'scatter', mode: 'lines', x: [1, 2, 3], y: [1, 5, 2] }], layout: {} },
  });
  assert.equal(line[0], '▁█▃');
  assert.deepEqual(
    miniChart({ type: 'html', html: '<table><tr><th>a</th></tr><tr><td>1</td></tr></table>' }),
    ['table (1 row)'],
  );
});
