/**
 * The tool registry (src/agent/tools/): JSON schemas derived from the zod schemas, tool errors
 * for unknown tools and bad arguments through the real deep loop (the real openai client against
 * the fake OpenAI-compatible server, a real sandbox), tools executed straight from the registry
 * with a context, and dispatch that is exhaustive at compile time.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { deepLoop } from '../src/agent/deep-loop.js';
import type { DeepResult } from '../src/agent/deep-loop.js';
import type { Emission } from '../src/agent/fast-pipeline.js';
import { callTool, executeTool } from '../src/agent/tools/call-tool.js';
import { TOOLS, findTool, toolNames, toolSpecs } from '../src/agent/tools/registry.js';
import type { ToolDisplay, ToolName } from '../src/agent/tools/registry.js';
import type { ToolContext } from '../src/agent/tools/tool.js';
import { createChatModel } from '../src/llm/index.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import type { SessionEvent } from '../src/shared/events.js';
import { startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { Scripted } from './helpers/fake-llm.js';
import { ROOT } from './helpers/fixtures.js';

const SALES = join(ROOT, 'examples', 'sales.csv');
let sandbox: Sandbox;

before(async () => {
  sandbox = await Sandbox.open({
    python: await findPython(),
    dataPath: SALES,
    limits: DEFAULT_LIMITS,
  });
});
after(() => sandbox.close());

/** A context for direct calls; the emitted events are collected. */
function context(step: number, emitted: Emission[] = []): ToolContext {
  return {
    sandbox,
    sourceName: 'sales.csv',
    question: 'What drives revenue?',
    step,
    libraries: [],
    memory: { profile: null, plan: null, ids: {} },
    emit: (e) => void emitted.push(e),
  };
}

let ids = 0;
function turn(...calls: [string, string][]): Scripted {
  return {
    kind: 'stream',
    chunks: streamChunks({
      toolCalls: calls.map(([name, args]) => ({ name, arguments: args, id: `call_${(ids += 1)}` })),
    }),
  };
}

/** Drives the real deep loop over the fake server; every event and the result. */
async function runDeep(script: Scripted[]): Promise<{
  events: SessionEvent[];
  result: DeepResult;
  toolMessages: (request: number) => string[];
}> {
  const llm = await startFakeLlm(script);
  try {
    const model = createChatModel(
      { baseUrl: llm.baseUrl, model: 'fake-model', apiKey: 'sk-test' },
      { retry: { sleep: () => Promise.resolve() } },
    );
    const loop = deepLoop({
      sandbox,
      model,
      question: 'What is the total revenue?',
      sourceName: 'sales.csv',
      maxTurns: 4,
    });
    const events: SessionEvent[] = [];
    let next = await loop.next();
    while (!next.done) {
      events.push(next.value.event);
      next = await loop.next();
    }
    const toolMessages = (request: number) => {
      const body = llm.requests[request]?.body as
        { messages: { role: string; content: string | null }[] } | undefined;
      return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '');
    };
    return { events, result: next.value, toolMessages };
  } finally {
    await llm.close();
  }
}

void test('each tool spec is derived from the tool: name, description and the JSON schema of its zod schema', () => {
  const specs = toolSpecs();
  assert.deepEqual(
    specs.map((s) => s.name),
    ['get_data_info', 'run_code', 'plan_analysis', 'execute_analysis', 'final_answer'],
  );
  for (const [i, tool] of TOOLS.entries()) {
    const { $schema: _drop, ...derived } = z.toJSONSchema(tool.schema);
    assert.deepEqual(
      specs[i],
      { name: tool.name, description: tool.description, parameters: derived },
      tool.name,
    );
    assert.ok(tool.schema.safeParse(tool.example).success, `the example of ${tool.name} is valid`);
  }
  const runCode = specs[1]?.parameters as {
    type: string;
    properties: Record<string, { type: string }>;
    required: string[];
  };
  assert.equal(runCode.type, 'object');
  assert.equal(runCode.properties.code?.type, 'string');
  assert.deepEqual(runCode.required, ['code']);
});

void test('through the real deep loop: an unknown tool and bad arguments are tool errors the model can fix; only a valid final_answer ends the run', async () => {
  const r = await runDeep([
    turn(
      ['launch_rockets', '{}'],
      ['run_code', '{"code": "print(1)"'],
      ['run_code', '{"purpose": 7}'],
      ['final_answer', '{"answer": ""}'],
    ),
    turn(['run_code', '{"code": "print(round(df[\\"revenue\\"].sum()))"}']),
    turn(['final_answer', '{"answer": "Revenue is in the output."}']),
  ]);
  const [unknown, malformed, invalid, emptyAnswer] = r.toolMessages(1);
  assert.equal(
    unknown,
    'error: unknown tool "launch_rockets"; the tools are: get_data_info, run_code, plan_analysis, execute_analysis, final_answer',
  );
  assert.match(
    malformed ?? '',
    /^error: the arguments of run_code are not valid JSON \(.+\); send a JSON object like \{"code":"print\(df\.shape\)"\}$/,
  );
  assert.match(invalid ?? '', /^error: invalid arguments for run_code: code: .+; purpose: .+$/);
  assert.match(emptyAnswer ?? '', /^error: invalid arguments for final_answer: answer: /);
  assert.match(r.toolMessages(2)[4] ?? '', /^status: ok\n\nstdout:\n\d+/);
  const results = r.events.filter((e) => e.type === 'tool_result');
  assert.deepEqual(
    results.map((e) => [e.step, e.tool, e.ok]),
    [
      [1, 'launch_rockets', false],
      [2, 'run_code', false],
      [3, 'run_code', false],
      [4, 'final_answer', false],
      [5, 'run_code', true],
      [6, 'final_answer', true],
    ],
  );
  assert.deepEqual(
    r.events.filter((e) => e.type === 'program_finished').map((e) => e.step),
    [5],
    'only the valid call ran a program',
  );
  assert.equal(r.result.stoppedBy, 'answer');
  assert.equal(r.result.answer, 'Revenue is in the output.');
  assert.deepEqual(
    r.result.code.map((c) => c.title),
    ['step 5 (turn 2): run_code'],
  );
});

void test('a failed program is ok: false from the tool result, whatever its output says', async () => {
  const r = await runDeep([
    turn([
      'run_code',
      JSON.stringify({ code: 'print("error: not really")\nraise ValueError("boom")' }),
    ]),
    turn(['final_answer', '{"answer": "no"}']),
  ]);
  const result = r.events.find((e) => e.type === 'tool_result');
  assert.equal(result?.ok, false);
  assert.match(result?.content ?? '', /^status: failed \(exit 1\)[\s\S]*ValueError: boom/);
});

void test('get_data_info runs straight from the registry with a context over examples/sales.csv', async () => {
  const tool = findTool('get_data_info');
  assert.ok(tool);
  const ctx = context(1);
  const result = await executeTool(tool, {}, ctx);
  assert.equal(result.ok, true);
  assert.equal(result.forDisplay.kind, 'data_info');
  if (result.forDisplay.kind !== 'data_info') return;
  assert.equal(result.forDisplay.profile.columns, 10);
  assert.ok(result.forDisplay.profile.rows > 0);
  assert.match(result.forModel, /revenue/);
  assert.ok(Buffer.byteLength(result.forModel) <= 8192, 'the text for the model stays within 8 KB');
  assert.equal(ctx.memory.profile, result.forDisplay.profile, 'the session remembers the profile');
  assert.equal(result.end, undefined);
});

void test("run_code from the registry: the step's events go to ctx.emit and the session's ids advance", async () => {
  const emitted: Emission[] = [];
  const ctx = context(7, emitted);
  ctx.memory.ids = { c: 2 };
  const result = await callTool(
    'run_code',
    JSON.stringify({
      code: 'declare_chart("bar", x="region", y="revenue", title="By region")',
      purpose: 'revenue by region',
    }),
    ctx,
  );
  assert.equal(result.ok, true, result.forModel);
  assert.match(result.forModel, /declared and valid \(added to the report\): c3 bar "By region"/);
  assert.deepEqual(
    emitted.map((e) => [e.event.type, 'step' in e.event ? e.event.step : null]),
    [
      ['program_finished', 7],
      ['artifact_added', 7],
    ],
  );
  assert.deepEqual(ctx.memory.ids, { c: 3 });
  assert.equal(result.forDisplay.kind, 'program');
  if (result.forDisplay.kind !== 'program') return;
  assert.equal(result.forDisplay.title, 'revenue by region');
  assert.deepEqual(
    result.forDisplay.items.map((i) => [i.decl.id, i.step, Boolean(i.built)]),
    [['c3', 7, true]],
  );
});

void test('execute_analysis before plan_analysis is a tool error; after it, it runs the plan', async () => {
  const ctx = context(1);
  const early = await callTool('execute_analysis', '', ctx);
  assert.deepEqual(
    [early.ok, early.forModel],
    [false, 'error: no plan yet; call plan_analysis first'],
  );
  const planned = await callTool('plan_analysis', '{}', ctx);
  assert.match(planned.forModel, /^plan \(run it with execute_analysis\):\n1\. /);
  const ran = await callTool('execute_analysis', '{}', { ...ctx, step: 2 });
  assert.equal(ran.ok, true, ran.forModel);
  assert.equal(ran.forDisplay.kind, 'program');
});

void test('final_answer ends a run through its typed `end` field', async () => {
  const result = await callTool('final_answer', '{"answer": "Five regions."}', context(1));
  assert.deepEqual(result.end, { answer: 'Five regions.' });
  assert.deepEqual(result.forDisplay, { kind: 'answer', answer: 'Five regions.' });
});

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compile-time: a display kind nobody handles fails to type-check here, as in the deep loop's fold. */
function displayLabel(display: ToolDisplay): string {
  switch (display.kind) {
    case 'data_info':
      return 'profile';
    case 'program':
      return 'program';
    case 'plan':
      return 'plan';
    case 'sql':
      return 'sql';
    case 'answer':
      return 'answer';
    case 'tool_error':
      return 'error';
    default: {
      const unhandled: never = display;
      return unhandled;
    }
  }
}

void test('dispatch is exhaustive: the tool names and display kinds are closed unions', () => {
  const names: Equal<
    ToolName,
    'get_data_info' | 'run_code' | 'plan_analysis' | 'execute_analysis' | 'final_answer' | 'run_sql'
  > = true;
  const kinds: Equal<
    ToolDisplay['kind'],
    'data_info' | 'program' | 'plan' | 'sql' | 'answer' | 'tool_error'
  > = true;
  assert.ok(names && kinds);
  assert.deepEqual(
    toolNames(),
    TOOLS.map((t) => t.name),
  );
  assert.equal(displayLabel({ kind: 'tool_error', message: 'x', issues: [] }), 'error');
});
