/** Per renderer: declared in Python → spec → validated → built → passes Plotly.validate. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { KINDS } from '../renderers/index.js';
import { executeProgram } from '../src/agent/execute-program.js';
import type { ProgramOutcome } from '../src/agent/execute-program.js';
import { validateFigure } from '../src/report/plotly-validate.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { salesCsv, tempDir } from './helpers/fixtures.js';

/** One declaration per kind, each using the kind's own parameters. */
const PROGRAM: Record<string, string> = {
  bar: 'declare_chart("bar", x="region", y="revenue", color="channel", sort="descending", title="Revenue by region")',
  line: 'declare_chart("line", x="date", y=["revenue", "units"], markers=True, title="Daily revenue")',
  area: 'declare_chart("area", x="date", y="revenue", color="channel", title="Revenue by channel")',
  scatter:
    'declare_chart("scatter", x="price", y="units", color="channel", size="revenue", trendline=True, title="Price vs units")',
  histogram:
    'declare_chart("histogram", x="revenue", bins=20, color="channel", title="Order revenue")',
  box: 'declare_chart("box", y="rating", x="region", title="Rating by region")',
  pie: 'declare_chart("pie", names="region", values="revenue", hole=0.4, title="Revenue share")',
  heatmap:
    'declare_chart("heatmap", df[["units", "price", "revenue", "rating"]].corr(), title="Correlations")',
  table:
    'declare_table(df.groupby("region")[["revenue", "units"]].sum(), title="Totals by region")',
};

let outcome: ProgramOutcome;

before(async () => {
  const python = await findPython();
  const dir = tempDir();
  const sandbox = await Sandbox.open({
    python,
    dataPath: salesCsv(dir),
    limits: DEFAULT_LIMITS,
    warm: false,
  });
  outcome = await executeProgram(sandbox, {
    code: KINDS.map((k) => PROGRAM[k]).join('\n'),
    scriptName: 'roundtrip.py',
  });
  after(() => sandbox.close());
});

void test('the program ran cleanly and declared one item per kind', () => {
  assert.equal(outcome.run.exitCode, 0, outcome.run.stderr);
  assert.deepEqual(
    outcome.items.map((i) => i.decl.kind),
    KINDS,
  );
});

for (const kind of KINDS) {
  void test(`${kind}: declared in Python, validated, built and accepted by Plotly.validate`, async () => {
    const item = outcome.items.find((i) => i.decl.kind === kind);
    assert.ok(item, `no ${kind} declaration`);
    assert.deepEqual(item.issues, []);
    assert.ok(item.built, `${kind} was not built`);
    if (item.built.type === 'plotly') {
      assert.ok(item.built.figure.data.length > 0, 'the figure has traces');
      assert.deepEqual(await validateFigure(item.built.figure), []);
      assert.equal(
        (item.built.figure.layout.title as { text: string }).text,
        item.decl.params.title,
      );
    } else if (item.built.type === 'html') {
      assert.match(item.built.html, /<table class="data-table">/);
      assert.match(item.built.html, /<th scope="col">region<\/th>/);
    } else {
      assert.fail(`${kind} was built as an image`);
    }
  });
}
