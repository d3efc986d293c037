/** Deep mode end to end: the built binary, the real openai client, a fake OpenAI-compatible server with scripted transcripts. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { completion, errorBody, startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';
import { ROOT, runCli, salesCsv, tempDir, testHome } from './helpers/fixtures.js';

interface DeepJson {
  report_path: string;
  charts: { id: string; kind: string; title: string | null }[];
  session_id: string;
  mode: string;
  answer: string | null;
  stopped_by: string;
  warnings: string[];
  usage: { total: { total: number } };
}

const DATA = salesCsv(tempDir());
let callCounter = 0;

function call(name: string, args: unknown): { name: string; arguments: string; id: string } {
  callCounter += 1;
  return {
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    id: `call_${callCounter}`,
  };
}
const tools = (...calls: { name: string; arguments: string; id: string }[]): Scripted => ({
  kind: 'stream',
  chunks: streamChunks({ toolCalls: calls }),
});
const code = (source: string) => tools(call('run_code', { code: source }));
const answer = (text: string) => tools(call('final_answer', { answer: text }));

function cli(
  llm: FakeLlm | null,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      OPSMIND_HOME: testHome(),
      OPENAI_BASE_URL: llm?.baseUrl ?? '',
      OPENAI_API_KEY: llm ? 'sk-test' : '',
      OPSMIND_MODEL: 'fake-model',
    };
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'opsmind.js'), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function deep(
  script: Scripted[],
  question = 'What is the total revenue?',
  extra: string[] = [],
): Promise<{ status: number | null; json: DeepJson | null; stderr: string; llm: FakeLlm }> {
  const llm = await startFakeLlm(script);
  try {
    const r = await cli(llm, [
      'analyze',
      DATA,
      '--mode',
      'deep',
      '-q',
      question,
      '--json',
      '-o',
      join(tempDir(), 'deep.html'),
      ...extra,
    ]);
    let json: DeepJson | null = null;
    try {
      json = JSON.parse(r.stdout) as DeepJson;
    } catch {
      json = null;
    }
    return { status: r.status, json, stderr: r.stderr, llm };
  } finally {
    await llm.close();
  }
}

function toolMessages(llm: FakeLlm, request: number): string[] {
  const body = llm.requests[request]?.body as
    { messages: { role: string; content: string | null }[] } | undefined;
  return (body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '');
}

void test('a made-up column → KeyError → the model lists the columns and fixes its code', async () => {
  const r = await deep([
    code('print(df["Revenue"].sum())'),
    code('print(df.columns.tolist())'),
    code('print(round(df["revenue"].sum()))'),
    answer('Total revenue is in the output above.'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(toolMessages(r.llm, 1)[0] ?? '', /KeyError: 'Revenue'/);
  assert.doesNotMatch(
    toolMessages(r.llm, 1)[0] ?? '',
    /opsmind_run\.py|opsmind_worker\.py/,
    'the traceback is trimmed to the program',
  );
  assert.match(
    toolMessages(r.llm, 2)[1] ?? '',
    /'date', 'region', 'channel', 'units', 'price', 'revenue', 'rating'/,
  );
  assert.match(toolMessages(r.llm, 3)[2] ?? '', /stdout:\n\d+/);
  assert.equal(r.json?.stopped_by, 'answer');
  const tools = (r.llm.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map(
    (t) => t.function.name,
  );
  assert.deepEqual(tools, [
    'get_data_info',
    'run_code',
    'plan_analysis',
    'execute_analysis',
    'final_answer',
  ]);
});

void test('a spec validation error goes back to the model and is fixed on the next call', async () => {
  const r = await deep(
    [
      code('declare_chart("bar", df.groupby("region")["revenue"].sum(), titel="Revenue")'),
      code(
        'declare_chart("bar", df.groupby("region")["revenue"].sum(), title="Revenue by region")',
      ),
      answer('West leads.'),
    ],
    'Which region leads?',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.match(
    toolMessages(r.llm, 1)[0] ?? '',
    /chart 1 \(bar\): unknown parameter "titel"; did you mean "title"\?/,
  );
  assert.deepEqual(
    r.json?.charts.map((c) => c.title),
    ['Revenue by region'],
    'only the valid chart is in the report',
  );
});

void test('two run_code calls that each declare charts: both sets appear in the report, in order', async () => {
  const r = await deep([
    code(
      'declare_chart("bar", x="region", y="revenue", title="A")\ndeclare_chart("histogram", x="units", title="B")',
    ),
    code(
      'declare_chart("line", x="date", y="revenue", title="C")\ndeclare_table(df.head(), title="D")',
    ),
    answer('Done.'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.json?.charts.map((c) => c.title),
    ['A', 'B', 'C'],
  );
  const html = readFileSync(r.json?.report_path ?? '', 'utf8');
  assert.ok(html.indexOf('>A<') < html.indexOf('>C<'));
  assert.match(html, /step 2[\s\S]*step 3|Code behind every number/);
});

void test('malformed tool-call JSON and an unknown tool name come back as tool errors, and the loop continues', async () => {
  const r = await deep([
    tools(call('run_code', '{"code": "print(1)"'), call('launch_rockets', {})),
    code('print(2)'),
    answer('Two.'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  const [bad, unknown] = toolMessages(r.llm, 1);
  assert.match(bad ?? '', /^error: the arguments of run_code are not valid JSON/);
  assert.match(
    unknown ?? '',
    /^error: unknown tool "launch_rockets"; the tools are: get_data_info, run_code/,
  );
  assert.equal(r.json?.answer, 'Two.');
});

void test('429 then 200 is retried; a stream cut mid-way is retried', async () => {
  const r = await deep([
    errorBody(429, 'slow down', { 'retry-after': '0' }),
    {
      kind: 'stream',
      chunks: streamChunks({ text: 'partial answer that never ends' }).slice(0, 2),
      cut: true,
    },
    answer('Recovered.'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.llm.requests.length, 3);
  assert.equal(r.json?.answer, 'Recovered.');
});

void test('500 every time: a clear error after the retries, the session saved as failed, exit 3', async () => {
  const failures = Array.from({ length: 4 }, () => errorBody(500, 'upstream exploded'));
  const r = await deep(failures);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /returned 500 after 4 attempts/);
  const sessions = JSON.parse(runCli(['sessions', 'list', '--json']).stdout) as {
    id: string;
    status: string;
  }[];
  assert.equal(sessions.find((s) => s.id === r.json?.session_id)?.status, 'failed');
});

void test('a model that never finishes: the step cap ends the run cleanly with partial results', async () => {
  const r = await deep(
    [
      code('declare_chart("bar", x="region", y="revenue", title="Partial")'),
      code('print(1)'),
      code('print(2)'),
    ],
    'Loop forever',
    ['--max-steps', '3'],
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json?.stopped_by, 'step_cap');
  assert.ok(r.json?.warnings.some((w) => /stopped after 3 model turns/.test(w)));
  assert.deepEqual(
    r.json?.charts.map((c) => c.title),
    ['Partial'],
  );
  assert.ok((r.json?.usage.total.total ?? 0) > 0, 'token usage is recorded');
});

void test("opsmind ask answers a follow-up with the first question's context", async () => {
  const first = await deep(
    [code('print(df["region"].nunique())'), answer('There are 5 regions.')],
    'How many regions are there?',
  );
  assert.equal(first.status, 0, first.stderr);
  const id = first.json?.session_id ?? '';
  const llm = await startFakeLlm([
    code('print(df.groupby("region")["revenue"].sum().idxmax())'),
    answer('West has the most revenue.'),
  ]);
  try {
    const out = join(tempDir(), 'ask.html');
    const r = await cli(llm, [
      'ask',
      id,
      'Which of them has the most revenue?',
      '--json',
      '-o',
      out,
    ]);
    assert.equal(r.status, 0, r.stderr);
    const messages = (
      llm.requests[0]?.body as { messages: { role: string; content: string | null }[] }
    ).messages;
    assert.ok(
      messages.some(
        (m) => m.role === 'user' && /How many regions are there\?/.test(m.content ?? ''),
      ),
      'the first question is in the history',
    );
    assert.ok(
      messages.some((m) => m.role === 'tool' && /stdout:\n5/.test(m.content ?? '')),
      'its tool results too',
    );
    assert.match(messages.at(-1)?.content ?? '', /Which of them has the most revenue\?/);
    const html = readFileSync(out, 'utf8');
    assert.match(html, /There are 5 regions\./);
    assert.match(html, /West has the most revenue\./);
  } finally {
    await llm.close();
  }
});

void test('--mode deep without an LLM exits 3 saying how to configure one', async () => {
  const r = await cli(null, ['analyze', DATA, '--mode', 'deep', '-q', 'x']);
  assert.equal(r.status, 3);
  assert.match(r.stderr, /deep mode needs an LLM/);
  assert.match(r.stderr, /OPENAI_BASE_URL/);
});

void test('chart ids are unique across the session: two steps that each declare a chart, in --json, the report and replay', async () => {
  const r = await deep([
    code(
      'declare_chart("bar", x="region", y="revenue", title="First")\ndeclare_table(df.head(), title="T1")',
    ),
    code(
      'declare_chart("line", x="date", y="revenue", title="Second")\ndeclare_table(df.tail(), title="T2")',
    ),
    answer('Done.'),
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(
    r.json?.charts.map((c) => [c.id, c.title]),
    [
      ['c1', 'First'],
      ['c2', 'Second'],
    ],
  );
  assert.match(
    toolMessages(r.llm, 2)[1] ?? '',
    /declared and valid \(added to the report\): c2 line "Second"; t2 table "T2"/,
    'the model sees the session ids',
  );
  const html = readFileSync(r.json?.report_path ?? '', 'utf8');
  assert.deepEqual(
    [...html.matchAll(/data-(?:chart|table)-id="([^"]+)"/g)].map((m) => m[1]),
    ['c1', 't1', 'c2', 't2'],
  );
  const replayed = runCli([
    'sessions',
    'replay',
    r.json?.session_id ?? '',
    '--json',
    '-o',
    join(tempDir(), 'replay.html'),
  ]);
  assert.equal(replayed.status, 0, replayed.stderr);
  const again = JSON.parse(replayed.stdout) as DeepJson & { tables: { id: string }[] };
  assert.deepEqual(again.charts, r.json?.charts, 'replay gives the same ids');
  assert.deepEqual(
    again.tables.map((t) => t.id),
    ['t1', 't2'],
  );
  const events = (
    JSON.parse(runCli(['sessions', 'show', r.json?.session_id ?? '', '--json']).stdout) as {
      events: { type: string; charts?: { id: string }[] }[];
    }
  ).events;
  assert.deepEqual(
    events.filter((e) => e.type === 'artifact_added').map((e) => e.charts?.map((c) => c.id)),
    [['c1'], ['c2']],
    'the stored events carry them too',
  );
});

void test('opsmind ask continues the numbering of the session it follows up', async () => {
  const first = await deep([
    code('declare_chart("bar", x="region", y="revenue", title="Before")'),
    answer('One chart.'),
  ]);
  assert.equal(first.status, 0, first.stderr);
  const llm = await startFakeLlm([
    code('declare_chart("histogram", x="units", title="After")'),
    answer('Two charts.'),
  ]);
  try {
    const r = await cli(llm, [
      'ask',
      first.json?.session_id ?? '',
      'And the units?',
      '--json',
      '-o',
      join(tempDir(), 'ask.html'),
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(
      (JSON.parse(r.stdout) as DeepJson).charts.map((c) => [c.id, c.title]),
      [
        ['c1', 'Before'],
        ['c2', 'After'],
      ],
    );
  } finally {
    await llm.close();
  }
});

void test('a server that ignores stream: true (plain JSON completions with tool calls) works without --no-stream', async () => {
  const json = (...calls: { name: string; arguments: string; id: string }[]): Scripted => ({
    kind: 'json',
    body: completion({ toolCalls: calls }),
  });
  const r = await deep(
    [
      json(call('run_code', { code: 'print(df["region"].nunique())' })),
      json(call('final_answer', { answer: 'Five regions.' })),
    ],
    'How many regions?',
  );
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.llm.requests[0]?.body.stream, true, 'it was asked to stream');
  assert.equal(r.llm.requests.length, 2, 'no retries');
  assert.match(toolMessages(r.llm, 1)[0] ?? '', /stdout:\n5/);
  assert.equal(r.json?.answer, 'Five regions.');
});
