/** End-to-end: `opsmind run --records`, the table of a JSON object holding several as `df`. */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, tempDir } from './helpers/fixtures.js';

void test('--records: df is the chosen table of a JSON object holding several; none or a key it lacks is refused (exit 2)', () => {
  const dir = tempDir();
  const script = join(dir, 'shape.py');
  writeFileSync(script, 'print("shape", df.shape, list(df.columns))\n');
  const graph = join(dir, 'graph.json');
  const nodes = Array.from({ length: 12 }, (_, i) => ({ name: `n${i}` }));
  const links = Array.from({ length: 40 }, (_, i) => ({ source: i % 12, target: (i * 5) % 12 }));
  writeFileSync(graph, JSON.stringify({ nodes, links }));
  const out = join(dir, 'tables.html');
  const chosen = runCli(['run', script, '--data', graph, '--records', 'links', '-o', out]);
  assert.equal(chosen.status, 0, chosen.stderr);
  assert.match(chosen.stdout, /^shape \(40, 2\) \['source', 'target'\]$/m);
  assert.match(chosen.stderr, /read the 40 records under "links", leaving out "nodes"/);
  // Python alone would read the object as one row of two lists: refused as analyze refuses it.
  const none = runCli(['run', script, '--data', graph, '-o', out]);
  assert.equal(none.status, 2, none.stderr);
  assert.match(
    none.stderr,
    /^opsmind: not a JSON records file: it holds one object \("nodes", "links"\)/,
  );
  assert.match(none.stderr, /pass --records nodes/);
  assert.equal(none.stdout, '');
  const unknown = runCli(['run', script, '--data', graph, '--records', 'edges', '-o', out]);
  assert.equal(unknown.status, 2, unknown.stderr);
  assert.match(
    unknown.stderr,
    /^opsmind: --records edges: no key of the file by that name holds records/,
  );
  // One table in the object: read without --records, as before.
  const one = join(dir, 'api.json');
  writeFileSync(one, JSON.stringify({ meta: { page: 1 }, data: links.slice(0, 7) }));
  const single = runCli(['run', script, '--data', one, '-o', out]);
  assert.equal(single.status, 0, single.stderr);
  assert.match(single.stdout, /^shape \(7, 2\)/m);
});
