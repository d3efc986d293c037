/** Counts people read: the right plural for one, and a word when only part of a list is shown. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredEvent } from '../src/shared/events.js';
import { artifactsHeading, initialChatState, reduceChat } from '../src/ui/chat/chat-state.js';
import { miniChart } from '../src/ui/chat/mini-chart.js';
import { plainLine } from '../src/ui/progress.js';
import { chartsAndTables, count } from '../src/util/plural.js';

const at = { session_id: 's', seq: 1, created_at: '2026-01-01T00:00:00Z' };

void test('count: singular for exactly one, the given plural otherwise, thousands separated', () => {
  assert.equal(count(1, 'table'), '1 table');
  assert.equal(count(0, 'table'), '0 tables');
  assert.equal(count(2, 'item'), '2 items');
  assert.equal(count(1, 'analysis', 'analyses'), '1 analysis');
  assert.equal(count(3, 'analysis', 'analyses'), '3 analyses');
  assert.equal(count(12_345, 'row'), '12,345 rows');
  assert.equal(chartsAndTables(1, 1), '1 chart, 1 table');
  assert.equal(chartsAndTables(2, 0), '2 charts, 0 tables');
});

void test('progress lines: one token, one row, one analysis', () => {
  const turn: StoredEvent = {
    ...at,
    type: 'model_turn',
    turn: 1,
    text: null,
    tool_calls: [],
    usage: { prompt: 1, completion: 0, total: 1, cost_usd: null },
    finish_reason: 'stop',
  };
  assert.equal(plainLine(turn), '[turn 1] answer (1 token)');
});

void test('chat: a step with more findings than the timeline lists says so', () => {
  const insights = Array.from({ length: 9 }, (_, i) => ({
    text: `finding ${i + 1}`,
    kind: 'x',
    analysis: 1,
    numbers: {},
  }));
  const state = reduceChat(initialChatState('fast'), {
    type: 'event',
    event: { ...at, type: 'insights_computed', step: 3, insights, failed: [] },
  });
  assert.deepEqual(
    state.timeline.map((e) => e.text),
    [
      '• finding 1',
      '• finding 2',
      '• finding 3',
      '• finding 4',
      '• finding 5',
      '(5 of 9 findings; all of them are in the report)',
    ],
  );
  const few = reduceChat(initialChatState('fast'), {
    type: 'event',
    event: {
      ...at,
      type: 'insights_computed',
      step: 3,
      insights: insights.slice(0, 1),
      failed: [],
    },
  });
  assert.deepEqual(
    few.timeline.map((e) => e.text),
    ['• finding 1'],
  );
});

void test('chat: the charts heading says when only the newest are pictured', () => {
  assert.equal(artifactsHeading(4, 6), 'charts and tables (4)');
  assert.equal(
    artifactsHeading(9, 6),
    'charts and tables (9) — the last 6 shown; all of them are in the report',
  );
});

void test('mini pictures: "1 row", "1 point"', () => {
  assert.deepEqual(
    miniChart({ type: 'html', html: '<table><tr><th>a</th></tr><tr><td>1</td></tr></table>' }),
    ['table (1 row)'],
  );
  assert.deepEqual(
    miniChart({
      type: 'plotly',
      figure: { data: [{ type: 'scatter', mode: 'markers', x: [1], y: [2] }], layout: {} },
    }),
    ['1 point'],
  );
});
