/**
 * Deep mode with the scientific stack, end to end: the built binary, the real openai
 * client and the fake OpenAI-compatible server. The system prompt names the libraries
 * the sandbox can import, a matplotlib figure made by run_code reaches the report, and
 * an ImportError comes back to the model with the list of what is available.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { FakeLlm, Scripted } from './helpers/fake-llm.js';
import { ROOT, salesCsv, tempDir, testHome } from './helpers/fixtures.js';

const NO_MATPLOTLIB =
  spawnSync('/usr/bin/python3', ['-I', '-c', 'import matplotlib']).status === 0
    ? false
    : 'matplotlib is not installed (apt-get install python3-matplotlib)';
const DATA = salesCsv(tempDir());

interface DeepJson {
  report_path: string;
  images: { id: string; title: string | null; source: string }[];
  answer: string | null;
  session_id: string;
}
interface Message {
  role: string;
  content: string | null;
}

let calls = 0;
function step(name: string, args: unknown): Scripted {
  calls += 1;
  return {
    kind: 'stream',
    chunks: streamChunks({
      toolCalls: [{ name, arguments: JSON.stringify(args), id: `call_${calls}` }],
    }),
  };
}

async function deep(script: Scripted[]): Promise<{ json: DeepJson; llm: FakeLlm }> {
  const llm = await startFakeLlm(script);
  try {
    const env = {
      ...process.env,
      OPSMIND_HOME: testHome(),
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: 'sk-test',
      OPSMIND_MODEL: 'fake-model',
    };
    const args = [
      'analyze',
      DATA,
      '--mode',
      'deep',
      '-q',
      'Show revenue by region',
      '--json',
      '-o',
      join(tempDir(), 'deep.html'),
    ];
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'opsmind.js'), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.equal(status, 0, stderr);
    return { json: JSON.parse(stdout) as DeepJson, llm };
  } finally {
    await llm.close();
  }
}

function messages(llm: FakeLlm, request: number): Message[] {
  return (llm.requests[request]?.body as { messages: Message[] } | undefined)?.messages ?? [];
}

void test(
  'run_code with matplotlib: the figure reaches the deep report, and the prompt names the libraries',
  { skip: NO_MATPLOTLIB },
  async () => {
    const code =
      'import matplotlib.pyplot as plt\ndf.groupby("region")["revenue"].sum().plot(kind="bar", title="Revenue by region")\nplt.show()\nprint("shown")';
    const { json, llm } = await deep([
      step('run_code', { code }),
      step('final_answer', { answer: 'See the figure.' }),
    ]);
    assert.deepEqual(
      json.images.map((i) => [i.title, i.source]),
      [['Revenue by region', 'show']],
    );
    const html = readFileSync(json.report_path, 'utf8');
    assert.ok(
      html.includes('<img class="figure" src="data:image/png;base64,iVBORw0KGgo'),
      'the PNG is embedded',
    );
    assert.ok(html.includes('made by the code of step 1'), 'the figure names its step');
    assert.ok(
      html.includes('plot(kind=&#34;bar&#34;, title=&#34;Revenue by region&#34;)'),
      'the code that made it is in the report',
    );
    const tool = messages(llm, 1).find((m) => m.role === 'tool')?.content ?? '';
    assert.match(tool, /declared and valid \(added to the report\): f1 image "Revenue by region"/);
    const system = messages(llm, 0)[0]?.content ?? '';
    assert.match(
      system,
      /Analysis libraries available in the sandbox, besides the standard library: pandas \d+\.\d+\S*, numpy \d+\.\d+\S*, .*matplotlib \d+\.\d+/,
    );
    assert.match(system, /captured as static PNG images/);
    assert.match(system, /interactive in the report, so prefer them/);
    assert.doesNotMatch(system, /xgboost/);
  },
);

void test('an ImportError comes back to the model with the analysis libraries that are available', async () => {
  const { json, llm } = await deep([
    step('run_code', { code: 'import xgboost\nprint(xgboost.__version__)' }),
    step('final_answer', { answer: 'Used pandas instead.' }),
  ]);
  assert.equal(json.answer, 'Used pandas instead.');
  const tool = messages(llm, 1).find((m) => m.role === 'tool')?.content ?? '';
  assert.match(tool, /ModuleNotFoundError: No module named 'xgboost'/);
  assert.match(
    tool,
    /hint: No module named 'xgboost'\. Available analysis libraries: pandas \d+\.\d+\S*, numpy \d+\.\d+\S*(, [\w-]+ [\w.+-]+)*\. Nothing else can be installed; use one of these\./,
  );
  const system = messages(llm, 0)[0]?.content ?? '';
  const listed =
    /besides the standard library: ([^\n]+)\. No other package/.exec(system)?.[1] ?? '';
  assert.ok(
    tool.includes(`Available analysis libraries: ${listed}.`),
    'the hint lists exactly what the prompt does',
  );
});
