/** Both sides of the spec contract agree: the preamble's column parameters are the renderers'. */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { KINDS, RENDERERS } from '../renderers/index.js';
import { findPython } from '../src/sandbox/python.js';
import { columnParams } from '../src/spec/validate.js';
import { preambleDir } from '../src/util/package-root.js';

void test('every kind has a preamble preparer and the same column parameters on both sides', async () => {
  const python = await findPython();
  const code = 'import json, opsmind_charts, opsmind_preamble; print(json.dumps({"columns": opsmind_charts.COLUMN_PARAMS, "kinds": sorted(opsmind_preamble.PREPARERS)}))';
  const out = execFileSync(python.path, ['-I', '-c', `import sys; sys.path.insert(0, ${JSON.stringify(preambleDir())}); ${code}`], { encoding: 'utf8' });
  const py = JSON.parse(out) as { columns: Record<string, string[]>; kinds: string[] };
  assert.deepEqual(py.kinds, [...KINDS].sort());
  for (const kind of KINDS) {
    const renderer = RENDERERS[kind];
    assert.ok(renderer);
    const ts = columnParams(renderer).map((c) => c.name).sort();
    assert.deepEqual([...(py.columns[kind] ?? [])].sort(), ts, `column parameters of ${kind}`);
  }
});
