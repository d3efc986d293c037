/**
 * Both sides of the spec contract agree: preamble/opsmind_contract.json is what
 * src/spec/contract.ts generates from the code now, the preamble reads its
 * vocabulary from it, and the plan schema and the deep prompt take theirs from
 * the renderer registry.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { kindSignature } from '../renderers/describe.js';
import { KINDS, RENDERERS } from '../renderers/index.js';
import { AggSchema } from '../renderers/params.js';
import { deepSystemPrompt } from '../src/agent/deep-prompt.js';
import { AnalysisSchema, TransformSchema } from '../src/agent/plan.js';
import { findPython } from '../src/sandbox/python.js';
import { buildContract, contractJson, contractPath } from '../src/spec/contract.js';
import { SPEC_VERSION } from '../src/spec/schema.js';
import { columnParams } from '../src/spec/validate.js';
import { preambleDir } from '../src/util/package-root.js';

/** What the preamble's Python makes of the contract, as it runs. */
const PythonViewSchema = z.object({
  kinds: z.array(z.string()),
  preparers: z.array(z.string()),
  columns: z.record(z.string(), z.array(z.string())),
  caps: z.record(z.string(), z.record(z.string(), z.number())),
  aggregations: z.array(z.string()),
  spec_version: z.number(),
  other: z.string(),
});

async function pythonView(): Promise<z.infer<typeof PythonViewSchema>> {
  const python = await findPython();
  const code = [
    'import json, opsmind_contract as c, opsmind_preamble as p',
    'print(json.dumps({"kinds": list(c.KINDS), "preparers": sorted(p.PREPARERS), "columns": {k: c.column_params(k) for k in c.KINDS},',
    '  "caps": {k: c.caps(k) for k in c.KINDS}, "aggregations": list(c.AGGREGATIONS), "spec_version": p.SPEC_VERSION, "other": c.OTHER}))',
  ].join('\n');
  const out = execFileSync(
    python.path,
    ['-I', '-c', `import sys; sys.path.insert(0, ${JSON.stringify(preambleDir())})\n${code}`],
    { encoding: 'utf8' },
  );
  return PythonViewSchema.parse(JSON.parse(out));
}

void test('the committed preamble/opsmind_contract.json is what the generator produces now (run `npm run build`)', () => {
  assert.equal(readFileSync(contractPath(), 'utf8'), contractJson());
});

void test('every renderer is registered under the kind it draws, with caps', () => {
  for (const kind of KINDS) {
    assert.equal(RENDERERS[kind]?.kind, kind);
    assert.equal(typeof RENDERERS[kind]?.caps, 'object', kind);
  }
});

void test('the contract names the column parameters of every renderer', () => {
  const contract = buildContract();
  assert.deepEqual(Object.keys(contract.kinds), [...KINDS]);
  assert.equal(contract.spec_version, SPEC_VERSION);
  for (const kind of KINDS) {
    const renderer = RENDERERS[kind];
    assert.ok(renderer);
    const columns = contract.kinds[kind]?.columns ?? {};
    assert.deepEqual(
      Object.keys(columns).sort(),
      columnParams(renderer)
        .map((c) => c.name)
        .sort(),
      `column parameters of ${kind}`,
    );
    for (const { name, role } of columnParams(renderer)) {
      assert.equal(columns[name]?.role, role);
      if (role === 'numeric') assert.deepEqual(columns[name]?.types, ['number', 'boolean']);
    }
  }
});

void test('the preamble takes kinds, preparers, column parameters, caps, aggregations and the spec version from the contract', async () => {
  const py = await pythonView();
  const contract = buildContract();
  assert.deepEqual(py.kinds, [...KINDS]);
  assert.deepEqual(py.preparers, [...KINDS].sort());
  assert.equal(py.spec_version, SPEC_VERSION);
  assert.deepEqual(py.aggregations, AggSchema.options);
  assert.equal(py.other, contract.other_label);
  for (const kind of KINDS) {
    assert.deepEqual(
      py.columns[kind],
      Object.keys(contract.kinds[kind]?.columns ?? {}),
      `column parameters of ${kind}`,
    );
    assert.deepEqual(py.caps[kind], RENDERERS[kind]?.caps, `caps of ${kind}`);
  }
});

void test('the plan schema takes its chart kinds and aggregations from the registry', () => {
  const chart = AnalysisSchema.shape.chart;
  assert.deepEqual(chart.options, [...KINDS]);
  const group = TransformSchema.options.find((o) => o.shape.type.value === 'group');
  assert.ok(group && 'agg' in group.shape);
  assert.deepEqual(group.shape.agg.options, AggSchema.options);
});

void test('the deep prompt lists every kind with the parameters its schema accepts', () => {
  const prompt = deepSystemPrompt([]);
  for (const kind of KINDS) {
    const renderer = RENDERERS[kind];
    assert.ok(renderer);
    assert.ok(prompt.includes(kindSignature(renderer)), `the prompt describes ${kind}`);
  }
});
