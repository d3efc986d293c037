/** One model timeout: --llm-timeout, else OPSMIND_LLM_TIMEOUT, else 120 s, read in one place and reaching the client (issue 12, item 5d). */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_LLM_TIMEOUT_MS, llmConfig } from '../src/llm/config.js';
import { ModelCallError, createChatModel } from '../src/llm/index.js';
import { OpsmindError } from '../src/shared/exit-codes.js';
import { completion, startFakeLlm, streamChunks } from './helpers/fake-llm.js';
import type { Scripted } from './helpers/fake-llm.js';
import { ROOT, salesCsv, tempDir, testHome } from './helpers/fixtures.js';

void test('the timeout: the flag, else the variable, else 120 s; anything but a positive number of seconds is a usage error', () => {
  assert.equal(DEFAULT_LLM_TIMEOUT_MS, 120_000);
  assert.equal(llmConfig({}, {}).timeoutMs, 120_000);
  assert.equal(llmConfig({}, { OPSMIND_LLM_TIMEOUT: '' }).timeoutMs, 120_000);
  assert.equal(llmConfig({}, { OPSMIND_LLM_TIMEOUT: '45' }).timeoutMs, 45_000);
  assert.equal(llmConfig({ llmTimeout: '1.5' }, { OPSMIND_LLM_TIMEOUT: '45' }).timeoutMs, 1500);
  for (const bad of ['0', '-3', 'soon', '', 'Infinity']) {
    assert.throws(
      () => llmConfig({ llmTimeout: bad }, {}),
      (e: unknown) =>
        e instanceof OpsmindError &&
        e.exitCode === 2 &&
        e.message === `--llm-timeout must be a positive number of seconds, got "${bad}"`,
    );
  }
  assert.throws(
    () => llmConfig({}, { OPSMIND_LLM_TIMEOUT: '2m' }),
    /^OpsmindError: OPSMIND_LLM_TIMEOUT must be a positive number of seconds, got "2m"$/,
  );
});

void test('the configured timeout is the one the client applies', async () => {
  const fake = await startFakeLlm([
    { kind: 'slow', ms: 2000, then: { kind: 'json', body: completion({ text: 'too late' }) } },
  ]);
  try {
    const config = llmConfig({ baseUrl: fake.baseUrl, llmTimeout: '0.3' }, {});
    const error = await createChatModel(config, { retry: { maxAttempts: 1 } })
      .chat({ messages: [{ role: 'user', content: 'Hi' }] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.ok(error instanceof ModelCallError, String(error));
    assert.equal(error.message, `the model endpoint ${fake.baseUrl} did not answer within 0.3 s`);
  } finally {
    await fake.close();
  }
});

function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'opsmind.js'), ...args], {
      env: {
        ...process.env,
        OPSMIND_HOME: testHome(),
        OPENAI_API_KEY: 'sk-test',
        OPSMIND_MODEL: 'fake-model',
        OPSMIND_LLM_TIMEOUT: '',
        ...env,
      },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('close', (status) => resolve({ status, stderr }));
  });
}

const slowAnswers = (): Scripted[] =>
  Array.from({ length: 4 }, () => ({
    kind: 'slow',
    ms: 2000,
    then: { kind: 'stream', chunks: streamChunks({ text: 'too late' }) },
  }));

void test('deep mode against a server that answers after 2 s: --llm-timeout 1 and OPSMIND_LLM_TIMEOUT=1 both give the documented timeout error, exit 3', async () => {
  const data = salesCsv(tempDir());
  const [byFlag, byEnv] = await Promise.all([
    startFakeLlm(slowAnswers()),
    startFakeLlm(slowAnswers()),
  ]);
  try {
    const args = [
      'analyze',
      data,
      '--mode',
      'deep',
      '-q',
      'Total revenue?',
      '--json',
      '-o',
      join(tempDir(), 'deep.html'),
    ];
    const [flag, env] = await Promise.all([
      cli([...args, '--llm-timeout', '1'], { OPENAI_BASE_URL: byFlag.baseUrl }),
      cli(args, { OPENAI_BASE_URL: byEnv.baseUrl, OPSMIND_LLM_TIMEOUT: '1' }),
    ]);
    for (const [r, fake] of [
      [flag, byFlag],
      [env, byEnv],
    ] as const) {
      assert.equal(r.status, 3, r.stderr);
      assert.ok(
        r.stderr.includes(
          `the model endpoint ${fake.baseUrl} did not answer within 1 s after 4 attempts`,
        ),
        r.stderr,
      );
      assert.equal(fake.requests.length, 4);
    }
  } finally {
    await Promise.all([byFlag.close(), byEnv.close()]);
  }
});

void test('a bad --llm-timeout stops the run before it starts (exit 2)', async () => {
  const r = await cli(
    ['analyze', salesCsv(tempDir()), '--llm-timeout', 'soon', '-o', join(tempDir(), 'r.html')],
    { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
  );
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /--llm-timeout must be a positive number of seconds, got "soon"/);
});
