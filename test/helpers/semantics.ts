/**
 * Shared by the semantics tests: a file's profile as the DuckDB engine makes it, its `analyze
 * --json` summary with either engine, and a file as the sandbox's pandas reader reads it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataProfile } from '../../src/agent/profile.js';
import type { Semantics } from '../../src/agent/semantics.js';
import type { PlanResult } from '../../src/agent/fast-pipeline.js';
import { llmPlanner } from '../../src/agent/llm-planner.js';
import { DuckDbEngine } from '../../src/engine/duckdb-engine.js';
import { createChatModel } from '../../src/llm/index.js';
import { completion, startFakeLlm } from './fake-llm.js';
import { ROOT, runCli } from './fixtures.js';

/** The DuckDB engine's profile of `file`, with its semantics. */
export async function duckProfile(
  file: string,
  memoryMb = 256,
): Promise<DataProfile & { semantics: Semantics }> {
  const engine = await DuckDbEngine.open({
    dataPath: file,
    memoryMb,
    maxTempMb: memoryMb * 2,
    scratchDir: mkdtempSync(join(tmpdir(), 'opsmind-semantics-engine-')),
  });
  try {
    const { profile } = await engine.profile(file.split('/').at(-1) ?? 'data');
    assert.ok(profile.semantics, `${file}: the DuckDB profile carries its semantics`);
    return profile as DataProfile & { semantics: Semantics };
  } finally {
    engine.close();
  }
}

/**
 * What `opsmind analyze file --engine <engine> --json` printed (no model), the report at `out`;
 * `more`: further arguments (`-q`, a question).
 */
export function analyzeJson<T>(file: string, engine: string, out: string, more: string[] = []): T {
  const r = runCli(['analyze', file, '--engine', engine, '--json', '-o', out, ...more], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
  });
  assert.equal(r.status, 0, `${file} ${engine}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** What `analyze --json -q` prints that the question's tests read: charts and findings. */
export interface Answered {
  charts: {
    kind: string;
    derivation: {
      measure: string | null;
      measures?: string[];
      group_by: string[];
      time: { freq: string } | null;
    };
  }[];
  insights: { text: string; analysis: number }[];
}

/** `analyze file -q question` with `engine` (its report in `dir`), and the answer's own findings. */
export function asked(
  file: string,
  engine: string,
  dir: string,
  question: string,
): Answered & { answer: string[] } {
  const json = analyzeJson<Answered>(file, engine, join(dir, `${engine}.html`), ['-q', question]);
  const answer = json.insights.filter((i) => i.analysis === 1).map((i) => i.text);
  return { ...json, answer };
}

/**
 * `asked` with the DuckDB engine, its answer's findings checked to be the pandas engine's word for
 * word: the DuckDB engine's answer.
 */
export function askedAlike(
  file: string,
  dir: string,
  question: string,
): Answered & { answer: string[] } {
  const duck = asked(file, 'duckdb', dir, question);
  assert.deepEqual(asked(file, 'pandas', dir, question).answer, duck.answer, question);
  return duck;
}

/** The chart titles and findings of `analyze --json` on `file` with each engine (reports in `dir`). */
export function bothEngines(
  file: string,
  dir: string,
): Record<'duck' | 'pandas', { charts: string[]; findings: string[] }> {
  const run = (engine: string) => {
    const json = analyzeJson<{ charts: { title: string }[]; insights: { text: string }[] }>(
      file,
      engine,
      join(dir, `${engine}.html`),
    );
    return { charts: json.charts.map((c) => c.title), findings: json.insights.map((i) => i.text) };
  };
  return { duck: run('duckdb'), pandas: run('pandas') };
}

/** The JSON that `code` prints with `df, info, w` read from `file` by opsmind_data.read_dataset. */
export function pandasRead<T>(file: string, code: string): T {
  const program = `import json, sys, opsmind_data as d\ndf, info, w = d.read_dataset(sys.argv[1])\n${code}`;
  const out = execFileSync('/usr/bin/python3', ['-c', program, file], {
    env: { PATH: '/usr/bin:/bin', PYTHONPATH: join(ROOT, 'preamble') },
    encoding: 'utf8',
  });
  return JSON.parse(out) as T;
}

/** The LLM planner's result for `profile` when the model (a fake server on loopback) answers `plan`. */
export async function modelPlan(profile: DataProfile, plan: object): Promise<PlanResult> {
  const fake = await startFakeLlm([
    { kind: 'json', body: completion({ text: JSON.stringify(plan) }) },
  ]);
  try {
    const model = createChatModel({ baseUrl: fake.baseUrl, model: 'm', apiKey: null });
    return await llmPlanner(model)(profile, undefined, undefined);
  } finally {
    await fake.close();
  }
}
