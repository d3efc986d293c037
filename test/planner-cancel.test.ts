/** Esc/Ctrl-C during planning ends the run: no fallback plan, no further step (issue 12, item 5a). */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { fastPipeline } from '../src/agent/fast-pipeline.js';
import type { Emission, Planner } from '../src/agent/fast-pipeline.js';
import { heuristicPlanner, llmPlanner } from '../src/agent/llm-planner.js';
import { createChatModel, isCancellation } from '../src/llm/index.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { PandasEngine } from '../src/engine/pandas-engine.js';
import { startFakeLlm } from './helpers/fake-llm.js';
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

/** Drains the pipeline: the events it yielded and what it threw. */
async function drain(
  planner: Planner,
  signal: AbortSignal,
): Promise<{ events: Emission['event'][]; error: unknown }> {
  const events: Emission['event'][] = [];
  const engine = new PandasEngine(() => Promise.resolve(sandbox));
  const run = fastPipeline({ engine, sourceName: 'sales.csv', planner, signal });
  try {
    for (let next = await run.next(); !next.done; next = await run.next())
      events.push(next.value.event);
  } catch (error) {
    return { events, error };
  }
  return { events, error: null };
}

function startedTools(events: Emission['event'][]): string[] {
  return events.flatMap((e) => (e.type === 'step_started' ? [e.tool] : []));
}

void test('aborting while the LLM planner waits for the model: a cancellation, no heuristic fallback, no step 3', async () => {
  const fake = await startFakeLlm([{ kind: 'hang' }, { kind: 'hang' }]);
  try {
    const model = createChatModel(
      { baseUrl: fake.baseUrl, model: 'm', apiKey: null },
      { retry: { sleep: () => Promise.resolve() } },
    );
    const controller = new AbortController();
    void fake.received(1).then(() => controller.abort());
    const started = Date.now();
    const { events, error } = await drain(llmPlanner(model), controller.signal);
    assert.ok(isCancellation(error), `not a cancellation: ${String(error)}`);
    assert.match((error as Error).message, /was cancelled$/);
    assert.ok(
      !events.some((e) => e.type === 'plan_created'),
      'a fallback plan was made after the abort',
    );
    assert.deepEqual(startedTools(events), ['get_data_info', 'plan_analysis']);
    assert.equal(fake.requests.length, 1, 'the aborted call was retried');
    assert.ok(Date.now() - started < 10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fake.dropped, 1, 'the HTTP request itself was cancelled');
  } finally {
    await fake.close();
  }
});

void test('a planner that finishes although the run was cancelled does not start execute_analysis', async () => {
  const controller = new AbortController();
  const planner: Planner = (profile, question) => {
    controller.abort();
    return heuristicPlanner(profile, question);
  };
  const { events, error } = await drain(planner, controller.signal);
  assert.ok(isCancellation(error), `not a cancellation: ${String(error)}`);
  assert.deepEqual(startedTools(events), ['get_data_info', 'plan_analysis']);
});
