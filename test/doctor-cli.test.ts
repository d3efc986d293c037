/** `opsmind doctor` and the isolation flags, end to end through the built binary. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, salesCsv, tempDir } from './helpers/fixtures.js';

void test('doctor reports python, isolation, limits, llm and store, and never prints the API key', () => {
  const r = runCli(['doctor'], { env: { OPENAI_API_KEY: 'sk-doctor-canary-123' } });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^python\s+\S*python3/m);
  assert.match(r.stdout, /pandas \d+\.\d+/);
  assert.match(r.stdout, /^isolation\s+(bubblewrap|namespaces|rlimits): /m);
  assert.match(r.stdout, /memory\s+2048 MB/);
  assert.match(r.stdout, /api_key\s+set \(20 characters, not shown\)/);
  assert.doesNotMatch(r.stdout + r.stderr, /sk-doctor-canary/);
});

void test('doctor --json is one object; without pandas it exits 4 with what to install', () => {
  const ok = runCli(['doctor', '--json']);
  assert.equal(ok.status, 0);
  const report = JSON.parse(ok.stdout) as {
    ok: boolean;
    isolation: { level: string };
    limits: { processes: number };
  };
  assert.equal(report.ok, true);
  assert.equal(report.limits.processes, 64);
  const bad = runCli(['doctor', '--json'], { env: { OPSMIND_PYTHON: '/nonexistent/python3' } });
  assert.equal(bad.status, 4);
  assert.equal((JSON.parse(bad.stdout) as { ok: boolean }).ok, false);
  assert.match(bad.stderr, /no Python with pandas/);
  assert.match(bad.stderr, /apt-get install python3-pandas/);
});

void test('without bubblewrap: run falls back to a weaker level and says so; --isolation strict refuses (exit 4)', () => {
  const dir = tempDir();
  const script = join(dir, 's.py');
  writeFileSync(script, 'print(df.shape)\n');
  const data = salesCsv(dir);
  const weak = runCli(['run', script, '--data', data, '--json', '-o', join(dir, 'r.html')], {
    env: { OPSMIND_BWRAP: 'none' },
  });
  assert.equal(weak.status, 0, weak.stderr);
  const json = JSON.parse(weak.stdout) as { isolation: string; output: string };
  assert.notEqual(json.isolation, 'bubblewrap');
  assert.equal(json.output, '(400, 7)\n');
  const strict = runCli(['run', script, '--data', data, '--isolation', 'strict'], {
    env: { OPSMIND_BWRAP: 'none' },
  });
  assert.equal(strict.status, 4);
  assert.match(strict.stderr, /--isolation strict needs bubblewrap/);
  const doctor = runCli(['doctor'], { env: { OPSMIND_BWRAP: 'none' } });
  assert.match(doctor.stdout, /bubblewrap is not installed/);
});

void test('limit flags are validated and applied', () => {
  const dir = tempDir();
  const script = join(dir, 'm.py');
  writeFileSync(script, 'x = bytearray(600 * 1024 * 1024)\n');
  const data = salesCsv(dir);
  const r = runCli([
    'run',
    script,
    '--data',
    data,
    '--memory-mb',
    '256',
    '--json',
    '-o',
    join(dir, 'm.html'),
  ]);
  assert.equal(r.status, 1);
  assert.ok(
    (JSON.parse(r.stdout) as { warnings: string[] }).warnings.includes(
      'memory limit of 256 MB exceeded (beyond the loaded data)',
    ),
  );
  const bad = runCli(['run', script, '--data', data, '--memory-mb', 'lots']);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--memory-mb must be a positive number/);
});
