/**
 * The application core driven without the CLI: open a session, run fast and
 * deep steps, cancel one mid-step, continue a closed session — and the report
 * model: a live report and its replay hold the same charts, tables and
 * findings, and a long chat renders each step once (linear, not quadratic).
 * Real sandbox, real SQLite file, the real openai client against the fake server.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createChatModel } from '../src/llm/index.js';
import type { ChatModel } from '../src/llm/index.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { AnalysisSession, finish } from '../src/session/analysis-session.js';
import type { SandboxSettings } from '../src/session/analysis-session.js';
import { ReportModel } from '../src/session/report-model.js';
import type { StoredEvent } from '../src/shared/events.js';
import { SessionStore } from '../src/store/session-store.js';
import { startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';
import { salesCsv, tempDir } from './helpers/fixtures.js';

const dir = tempDir('opsmind-core-');
const data = salesCsv(dir);
const settings: SandboxSettings = {
  python: await findPython(),
  limits: { ...DEFAULT_LIMITS, wallSeconds: 30 },
  isolation: 'auto',
  warm: true,
};
let store: SessionStore;
let llm: FakeLlm;
let model: ChatModel;
let calls = 0;

function call(name: string, args: unknown): Scripted {
  calls += 1;
  return {
    kind: 'stream',
    chunks: streamChunks({
      toolCalls: [{ name, arguments: JSON.stringify(args), id: `call_${calls}` }],
    }),
  };
}

const chartCode = (title: string) =>
  `declare_chart("bar", df.groupby("region", as_index=False)["revenue"].sum(), x="region", y="revenue", title=${JSON.stringify(title)})\nprint("done")`;

before(async () => {
  store = SessionStore.open(join(dir, 'sessions.db'));
  llm = await startFakeLlm();
  model = createChatModel({
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test',
    model: 'fake-model',
    timeoutMs: 20_000,
  });
});

after(async () => {
  store.close();
  await llm.close();
});

/** What a report shows, in comparable form: each item's id, kind and built figure or table, and the findings. */
function shown(model: ReportModel): string {
  const { items, extras, warnings } = model.report;
  return JSON.stringify({
    items: items.map((i) => [
      i.decl.id,
      i.decl.kind,
      i.step,
      i.built ?? null,
      i.issues.map((x) => x.message),
    ]),
    findings: extras.findings,
    answers: extras.answers,
    code: extras.code,
    warnings,
  });
}

async function open(
  mode: 'fast' | 'deep' | 'interactive',
  seen?: StoredEvent[],
  continueId?: string,
): Promise<AnalysisSession> {
  return AnalysisSession.open({
    store,
    dataPath: data,
    command: mode === 'interactive' ? 'chat' : 'analyze',
    mode,
    sandbox: settings,
    model,
    ...(seen ? { onEvent: (e: StoredEvent) => seen.push(e) } : {}),
    ...(continueId ? { continueId } : {}),
  });
}

void test('a fast session: events are stored and shown in order, and its replay equals the live report', async () => {
  const seen: StoredEvent[] = [];
  const session = await AnalysisSession.open({
    store,
    dataPath: data,
    command: 'analyze',
    mode: 'fast',
    sandbox: settings,
    model: null,
    onEvent: (e) => seen.push(e),
  });
  const result = await finish(session.fast({ question: 'Which region sells most?' }));
  assert.ok(result.executed.items.length >= 3);
  assert.deepEqual(
    seen.map((e) => e.seq),
    store.events(session.id).map((e) => e.seq),
    'every stored event was shown, in order',
  );
  const live = shown(session.report);
  session.close('done');
  assert.equal(shown(await ReportModel.of(store, session.id)), live);
  assert.ok(session.report.report.extras.findings.length > 0, 'findings come from the events');
});

void test('a deep session (two run_code steps): the replay equals the live report, ids continue across steps', async () => {
  llm.enqueue(
    call('run_code', { code: chartCode('first') }),
    call('run_code', { code: chartCode('second') }),
    call('final_answer', { answer: 'North leads.' }),
  );
  const session = await open('deep');
  const result = await finish(session.deep({ question: 'Revenue by region?' }));
  assert.equal(result.answer, 'North leads.');
  assert.deepEqual(
    session.report.report.items.map((i) => i.decl.id),
    ['c1', 'c2'],
  );
  const live = shown(session.report);
  session.close('done');
  assert.equal(shown(await ReportModel.of(store, session.id)), live);
});

void test('a chat session (fast then deep questions): the replay equals the live report', async () => {
  llm.enqueue(
    call('run_code', { code: chartCode('deep one') }),
    call('final_answer', { answer: 'ok' }),
  );
  const session = await open('interactive');
  await finish(session.fast({ question: 'overview' }));
  await finish(session.deep({ question: 'one chart please' }));
  const live = shown(session.report);
  session.close('done');
  assert.equal(shown(await ReportModel.of(store, session.id)), live);
});

void test('cancel mid-step: the run stops within seconds, and the same session runs the next step', async () => {
  llm.enqueue(
    call('run_code', { code: 'import time\ntime.sleep(60)' }),
    call('final_answer', { answer: 'never' }),
  );
  const session = await open('deep');
  const controller = new AbortController();
  const started = performance.now();
  setTimeout(() => controller.abort(), 1500);
  await finish(session.deep({ question: 'slow', signal: controller.signal })).catch(
    () => undefined,
  );
  assert.ok(
    performance.now() - started < 15_000,
    'the cancelled step ended long before the 60 s sleep',
  );
  const result = await finish(session.fast());
  assert.ok(
    result.executed.items.some((i) => i.built),
    'the next step works on a new worker',
  );
  session.close('done');
});

void test('continue a closed session: its numbering, history and report carry on', async () => {
  llm.enqueue(
    call('run_code', { code: chartCode('before') }),
    call('final_answer', { answer: 'first' }),
  );
  const first = await open('deep');
  await finish(first.deep({ question: 'q1' }));
  first.close('done');
  llm.enqueue(
    call('run_code', { code: chartCode('after') }),
    call('final_answer', { answer: 'second' }),
  );
  const again = await open('deep', undefined, first.id);
  await finish(again.deep({ question: 'q2' }));
  assert.deepEqual(
    again.report.report.items.map((i) => i.decl.id),
    ['c1', 'c2'],
    'ids continue after the stored ones',
  );
  assert.deepEqual(
    again.report.report.extras.answers.map((a) => a.text),
    ['first', 'second'],
  );
  const request = llm.requests.at(-2)?.body as { messages: { content: string | null }[] };
  assert.ok(
    request.messages.some((m) => m.content?.includes('q1')),
    'the follow-up sees the first question',
  );
  again.close('done');
});

void test('a long chat (30 questions) renders each step once: the cost per question is constant', async () => {
  const session = await open('interactive');
  const rendered: number[] = [];
  for (let q = 1; q <= 30; q += 1) {
    llm.enqueue(
      call('run_code', { code: chartCode(`q${q}`) }),
      call('final_answer', { answer: `a${q}` }),
    );
    await finish(session.deep({ question: `question ${q}` }));
    rendered.push(session.report.renderedSteps);
  }
  assert.deepEqual(
    rendered,
    Array.from({ length: 30 }, (_, i) => i + 1),
    'one step rendered per question, none rendered again',
  );
  assert.equal(session.report.report.items.length, 30);
  session.close('done');
});
