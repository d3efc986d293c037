/**
 * Events read back from SQLite are parsed with the schema their type is derived
 * from (src/shared/events.ts): every event type survives the store unchanged,
 * and a payload this version does not know is refused with a reason.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { SessionEventSchema, parseEventPayload } from '../src/shared/events.js';
import type { SessionEvent } from '../src/shared/events.js';
import { SessionStore } from '../src/store/session-store.js';
import { tempDir } from './helpers/fixtures.js';

const NEW = {
  command: 'run',
  mode: 'script',
  dataPath: '/data/x.csv',
  dataSha256: 'ab'.repeat(32),
  dataSize: 10,
};
const REF = { id: 'c1', kind: 'bar', title: 'Revenue', seq: 1 };

/** One event of every type, with every optional field set. */
const SAMPLES: SessionEvent[] = [
  {
    type: 'session_started',
    command: 'analyze',
    mode: 'fast',
    data: { path: '/d.csv', name: 'd.csv', sha256: 'ab', size: 3 },
    question: 'why?',
    isolation: 'bubblewrap',
  },
  { type: 'step_started', step: 1, tool: 'get_data_info', title: 'Profile the data' },
  {
    type: 'program_finished',
    step: 3,
    exit_code: null,
    signal: 'SIGKILL',
    stdout: 'out',
    stderr: 'err',
    duration_ms: 1.5,
    isolation: 'rlimit',
    warm: true,
    limit_hit: 'memory',
  },
  {
    type: 'artifact_added',
    step: 3,
    charts: [REF],
    tables: [{ ...REF, id: 't1', kind: 'table', title: null, seq: 2 }],
    images: [{ ...REF, id: 'i1', kind: 'image', seq: 3 }],
  },
  { type: 'step_finished', step: 1, tool: 'get_data_info', duration_ms: 2, summary: '3 rows' },
  {
    type: 'plan_created',
    step: 2,
    planner: 'llm',
    model: 'm',
    attempts: 2,
    fallback: null,
    analyses: [{ title: 'T', chart: 'bar', why: 'w' }],
    notes: ['n'],
  },
  {
    type: 'insights_computed',
    step: 3,
    insights: [
      { text: 'Up 5%', kind: 'trend', analysis: 1, numbers: { pct: 5, label: 'x', none: null } },
    ],
    failed: [{ analysis: 2, title: 'B', error: 'KeyError' }],
  },
  { type: 'summary_written', step: 3, text: 'S', model: 'm' },
  { type: 'question_asked', turn: 1, text: 'Q' },
  {
    type: 'model_turn',
    turn: 1,
    text: null,
    tool_calls: [{ id: 'c', name: 'run_code', arguments: '{}' }],
    usage: { prompt: 1, completion: 2, total: 3, cost_usd: null },
    finish_reason: 'tool_calls',
  },
  {
    type: 'tool_result',
    turn: 1,
    step: 4,
    tool: 'run_code',
    call_id: 'c',
    ok: false,
    content: 'error',
  },
  { type: 'answer', turn: 2, text: 'A', model: 'm', stopped_by: 'step_cap' },
  { type: 'warning', step: 3, message: 'careful' },
  { type: 'report_written', path: '/r.html', charts: 1, tables: 1 },
  { type: 'session_finished', status: 'failed', error: 'boom' },
];

void test('the samples cover every event type', () => {
  assert.deepEqual(
    SAMPLES.map((e) => e.type).sort(),
    SessionEventSchema.options.map((o) => o.shape.type.value).sort(),
  );
});

void test('every event type survives the store unchanged', () => {
  const store = SessionStore.open(join(tempDir(), 'events.db'));
  try {
    const { session, lock } = store.createSession(NEW);
    for (const event of SAMPLES) store.append(session.id, event);
    lock.release();
    const read = store
      .events(session.id)
      .map(({ session_id: _s, seq: _n, created_at: _c, ...event }) => event);
    assert.deepEqual(read, SAMPLES);
  } finally {
    store.close();
  }
});

void test('a stored payload this version does not know is refused with the reason', () => {
  const store = SessionStore.open(join(tempDir(), 'skew.db'));
  try {
    const { session, lock } = store.createSession(NEW);
    store.append(session.id, { type: 'warning', message: 'fine' });
    lock.release();
    store.db
      .prepare('UPDATE events SET payload = ? WHERE session_id = ?')
      .run('{"type":"warning","message":7}', session.id);
    assert.throws(
      () => store.events(session.id),
      /a stored event does not match this version's events \(message: /,
    );
  } finally {
    store.close();
  }
});

void test('a payload that is not JSON, or of an unknown type, is refused', () => {
  assert.throws(() => parseEventPayload('{"type":'), /a stored event is not JSON/);
  assert.throws(
    () => parseEventPayload('{"type":"teleported"}'),
    /does not match this version's events/,
  );
  assert.deepEqual(parseEventPayload('{"type":"warning","message":"m"}'), {
    type: 'warning',
    message: 'm',
  });
});
