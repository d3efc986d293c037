/** `opsmind analyze` end to end through the built binary: examples, messy files, bad input, the LLM planner, Chromium. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findChromium, renderReport } from './helpers/browser.js';
import { completion, startFakeLlm } from './helpers/fake-llm.js';
import type { FakeLlm } from './helpers/fake-llm.js';
import { ROOT, runCli, tempDir, testHome } from './helpers/fixtures.js';

interface AnalyzeJson {
  report_path: string;
  charts: { id: string; kind: string; title: string | null }[];
  tables: unknown[];
  output: string;
  warnings: string[];
  session_id: string;
  mode: string;
  planner: string;
  planner_fallback: string | null;
  insights: { text: string; analysis: number }[];
  summary: string | null;
}

function analyze(
  file: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): { status: number | null; json: AnalyzeJson | null; stderr: string; stdout: string } {
  const out = join(tempDir(), 'report.html');
  const r = runCli(['analyze', file, '--json', '-o', out, ...extra], {
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '', ...env },
  });
  let json: AnalyzeJson | null = null;
  try {
    json = JSON.parse(r.stdout) as AnalyzeJson;
  } catch {
    json = null;
  }
  return { status: r.status, json, stderr: r.stderr, stdout: r.stdout };
}

void test('the sales example: a full report with trend, ranking, distribution and number-backed findings', () => {
  const r = analyze(join(ROOT, 'examples', 'sales.csv'));
  assert.equal(r.status, 0, r.stderr);
  const json = r.json;
  assert.ok(json);
  assert.deepEqual(
    Object.keys(json).filter((k) =>
      [
        'report_path',
        'charts',
        'tables',
        'output',
        'warnings',
        'session_id',
        'mode',
        'planner',
        'insights',
      ].includes(k),
    ).length,
    9,
  );
  assert.equal(json.mode, 'fast');
  assert.equal(json.planner, 'heuristic');
  const kinds = json.charts.map((c) => c.kind);
  for (const kind of ['line', 'bar', 'histogram'])
    assert.ok(kinds.includes(kind), `a ${kind} chart in ${kinds.join(',')}`);
  assert.ok(json.charts.length >= 5);
  assert.ok(json.insights.length >= 3, 'findings');
  assert.ok(
    json.insights.filter((i) => i.analysis > 0).every((i) => /\d/.test(i.text)),
    'every computed finding carries a number',
  );
  const html = readFileSync(json.report_path, 'utf8');
  assert.match(html, /Key findings/);
  assert.match(html, /Code behind every number/);
  assert.ok(statSync(json.report_path).size < 5.3 * 1024 * 1024, 'report within 5.3 MB');
});

void test('a question is answered first', () => {
  const r = analyze(join(ROOT, 'examples', 'sales.csv'), [
    '-q',
    'Which region has the highest revenue?',
  ]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.json?.charts[0]?.kind, 'bar');
  assert.equal(r.json?.charts[0]?.title, 'Which region has the highest revenue?');
});

void test(
  'the air-quality example renders and every chart draws in Chromium without console errors',
  { skip: findChromium() ? false : 'no Chromium' },
  async () => {
    const r = analyze(join(ROOT, 'examples', 'air-quality.csv'));
    assert.equal(r.status, 0, r.stderr);
    const json = r.json;
    assert.ok(json);
    const seen = await renderReport(json.report_path, { timeoutMs: 60_000 });
    assert.equal(seen.plotCount, json.charts.length);
    assert.equal(seen.expectedCharts, json.charts.length);
    assert.deepEqual(seen.consoleErrors, []);
    assert.deepEqual(seen.failedRequests, []);
  },
);

function write(name: string, content: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, content);
  return path;
}

void test('awkward but valid input still gives a useful report', () => {
  const oneColumn = write(
    'one.csv',
    `value\n${Array.from({ length: 300 }, (_, i) => (i * 37) % 101).join('\n')}\n`,
  );
  const latin1 = write(
    'latin.csv',
    Buffer.from(
      `ville;ventes;catégorie\n${Array.from({ length: 200 }, (_, i) => `Orléans${i % 4};${(i * 3) % 97};${['é', 'è', 'à'][i % 3]}`).join('\n')}\n`,
      'latin1',
    ),
  );
  const titled = write(
    'titled.csv',
    `Quarterly sales report 2024\nregion,units,price\n${Array.from({ length: 150 }, (_, i) => `R${i % 5},${i % 13},${((i * 7) % 50) + 1}`).join('\n')}\n`,
  );
  for (const file of [oneColumn, latin1, titled]) {
    const r = analyze(file);
    assert.equal(r.status, 0, `${file}: ${r.stderr}`);
    assert.ok((r.json?.charts.length ?? 0) + (r.json?.tables.length ?? 0) >= 1, file);
  }
  const t = analyze(titled);
  assert.ok(
    t.json?.warnings.some((w) => /skipped 1 line/.test(w)) ||
      t.json?.charts.some((c) => /units|price|region/.test(c.title ?? '')),
    'the title row was recognised',
  );
});

void test('a 5,000-column file: profile and plan stay bounded', () => {
  const header = Array.from({ length: 5000 }, (_, i) => `c${i}`).join(',');
  const rows = Array.from({ length: 40 }, (_, r) =>
    Array.from({ length: 5000 }, (_, c) => (r * 31 + c * 7) % 97).join(','),
  );
  const wide = write('wide.csv', `${header}\n${rows.join('\n')}\n`);
  const started = performance.now();
  // Under 512 MB: reading the sample's 5,000 columns at once took over 500 MB of a 1.5 MB file.
  const r = analyze(wide, ['--memory-mb', '512']);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(performance.now() - started < 90_000);
  assert.ok((r.json?.charts.length ?? 0) <= 12);
});

void test('bad input: one line, exit 2, no stack trace', () => {
  const dir = tempDir();
  const cases: [string, RegExp][] = [
    [join(dir, 'missing.csv'), /data file not found/],
    [dir, /is a directory, not a data file\n {2}hint: .*parquet, xlsx.*`opsmind batch <folder>`/],
    [write('empty.csv', ''), /data file is empty/],
    [write('header.csv', 'a,b,c\n'), /header but no data rows/],
    // One line of 20,190 numbers (statsmodels' poisson_resid.csv): refused at once, as pandas does.
    [
      write('vector.csv', Array.from({ length: 20_190 }, (_, i) => (i / 7).toFixed(2)).join(', ')),
      /header but no data rows/,
    ],
    [
      write('binary.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0, 1, 2])),
      /looks like a binary file/,
    ],
  ];
  for (const [file, message] of cases) {
    const r = analyze(file);
    assert.equal(r.status, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('  hint:')).length,
      1,
      r.stderr,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(r.stdout, '');
  }
});

void test('a NUL byte far past the start (the CLI looks at its first 64 KiB only): the session refuses the file, exit 2, no session kept', () => {
  const lines = ['id,name'];
  for (let i = 0, size = 0; size < 6_000_000; i += 1) {
    lines.push(`${i},name${i}`);
    size += (lines.at(-1)?.length ?? 0) + 1;
  }
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  bytes[5_000_000] = 0;
  const home = tempDir();
  const r = analyze(write('late-nul.csv', bytes), [], { OPSMIND_HOME: home });
  assert.equal(r.status, 2, r.stderr);
  assert.match(
    r.stderr,
    /looks like a binary file, not a data table \(a NUL byte at offset 5,000,000\)/,
  );
  assert.equal(r.stdout, '');
  const listed = runCli(['sessions', 'list'], { env: { OPSMIND_HOME: home } });
  assert.doesNotMatch(listed.stdout, /late-nul/, listed.stdout);
});

void test('--mode deep without an LLM exits 3 with how to configure one; a bad --mode is a usage error', () => {
  const deep = analyze(join(ROOT, 'examples', 'sales.csv'), ['--mode', 'deep']);
  assert.equal(deep.status, 3);
  assert.match(deep.stderr, /deep mode needs an LLM/);
  const bad = analyze(join(ROOT, 'examples', 'sales.csv'), ['--mode', 'turbo']);
  assert.equal(bad.status, 2);
});

/** Runs analyze against a fake LLM (async, so the server in this process can answer). */
function analyzeWithLlm(
  llm: FakeLlm,
  file: string,
): Promise<{ status: number | null; json: AnalyzeJson }> {
  return new Promise((resolve, reject) => {
    const out = join(tempDir(), 'llm-report.html');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'opsmind.js'), 'analyze', file, '--json', '-o', out],
      {
        env: {
          ...process.env,
          OPSMIND_HOME: testHome(),
          OPENAI_BASE_URL: llm.baseUrl,
          OPENAI_API_KEY: 'sk-test',
          OPSMIND_MODEL: 'fake-planner',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('close', (status) => {
      try {
        resolve({ status, json: JSON.parse(stdout) as AnalyzeJson });
      } catch {
        reject(new Error(`no JSON (status ${status}): ${stderr}`));
      }
    });
  });
}

const VALID_PLAN = {
  analyses: [
    {
      title: 'Revenue by region',
      why: 'Which region earns most.',
      chart: 'bar',
      transform: { type: 'group', by: 'region', measure: 'revenue', agg: 'sum', top_n: 10 },
      options: { sort: 'descending' },
    },
    {
      title: 'Units distribution',
      why: 'Typical order size.',
      chart: 'histogram',
      transform: { type: 'distribution', column: 'units' },
    },
  ],
  notes: ['planned by the model'],
};
const INVALID_PLAN = {
  analyses: [
    {
      title: 'Revenue by Region',
      why: 'x',
      chart: 'bar',
      transform: { type: 'group', by: 'Region', measure: 'revenue', agg: 'sum' },
    },
  ],
  notes: [],
};
const SUMMARY = 'West leads the regions.';

void test('LLM planner: a valid plan is used', async () => {
  const llm = await startFakeLlm([
    { kind: 'json', body: completion({ text: JSON.stringify(VALID_PLAN) }) },
    { kind: 'json', body: completion({ text: SUMMARY }) },
  ]);
  try {
    const r = await analyzeWithLlm(llm, join(ROOT, 'examples', 'sales.csv'));
    assert.equal(r.status, 0);
    assert.equal(r.json.planner, 'llm');
    assert.deepEqual(
      r.json.charts.map((c) => c.title),
      ['Revenue by region', 'Units distribution'],
    );
    assert.equal(r.json.summary, SUMMARY);
    const first = llm.requests[0]?.body as { response_format?: { type: string }; model?: string };
    assert.equal(first.response_format?.type, 'json_schema');
    assert.equal(first.model, 'fake-planner');
  } finally {
    await llm.close();
  }
});

void test('LLM planner: an invalid plan is sent back with the errors, and the fix is used', async () => {
  const llm = await startFakeLlm([
    { kind: 'json', body: completion({ text: JSON.stringify(INVALID_PLAN) }) },
    {
      kind: 'json',
      body: completion({ text: `\`\`\`json\n${JSON.stringify(VALID_PLAN)}\n\`\`\`` }),
    },
    { kind: 'json', body: completion({ text: SUMMARY }) },
  ]);
  try {
    const r = await analyzeWithLlm(llm, join(ROOT, 'examples', 'sales.csv'));
    assert.equal(r.status, 0);
    assert.equal(r.json.planner, 'llm');
    const retry = JSON.stringify(llm.requests[1]?.body);
    assert.match(retry, /column \\"Region\\" is not in the data; did you mean \\"region\\"\?/);
  } finally {
    await llm.close();
  }
});

void test('LLM planner: invalid twice falls back to the heuristic plan, and the report says why', async () => {
  const llm = await startFakeLlm([
    { kind: 'json', body: completion({ text: 'I think you should chart revenue.' }) },
    { kind: 'json', body: completion({ text: JSON.stringify(INVALID_PLAN) }) },
    { kind: 'json', body: completion({ text: 'Revenue was 99,999,999 dollars.' }) },
  ]);
  try {
    const r = await analyzeWithLlm(llm, join(ROOT, 'examples', 'sales.csv'));
    assert.equal(r.status, 0);
    assert.equal(r.json.planner, 'heuristic');
    assert.match(r.json.planner_fallback ?? '', /invalid twice/);
    assert.equal(r.json.summary, null, 'a summary with invented numbers is dropped');
    assert.ok(r.json.warnings.some((w) => /numbers not in the findings/.test(w)));
    assert.match(readFileSync(r.json.report_path, 'utf8'), /invalid twice/);
  } finally {
    await llm.close();
  }
});

void test('an analyze session replays to the same charts, tables and findings without Python', () => {
  const r = analyze(join(ROOT, 'examples', 'sales.csv'));
  assert.equal(r.status, 0, r.stderr);
  const json = r.json;
  assert.ok(json);
  const out = join(tempDir(), 'replay.html');
  const replay = runCli(['sessions', 'replay', json.session_id, '-o', out, '--json'], {
    env: { OPSMIND_PYTHON: '/nonexistent/python' },
  });
  assert.equal(replay.status, 0, replay.stderr);
  const replayed = JSON.parse(replay.stdout) as AnalyzeJson;
  assert.deepEqual(replayed.charts, json.charts);
  assert.deepEqual(replayed.tables, json.tables);
  const html = readFileSync(out, 'utf8');
  for (const insight of json.insights.slice(0, 3))
    assert.ok(
      html.includes(
        insight.text
          .replace(/&/g, '&#38;')
          .replace(/</g, '&#60;')
          .replace(/>/g, '&#62;')
          .replace(/"/g, '&#34;')
          .replace(/'/g, '&#39;'),
      ),
      insight.text,
    );
});

void test('the terminal says when it lists only some of the findings, with counts in words', () => {
  const out = join(tempDir(), 'partial.html');
  const r = runCli(['analyze', join(ROOT, 'examples', 'sales.csv'), '--no-llm', '-o', out]);
  assert.equal(r.status, 0, r.stderr);
  const json = analyze(join(ROOT, 'examples', 'sales.csv'), ['--no-llm']).json;
  const total = json?.insights.length ?? 0;
  const listed = r.stdout.split('\n').filter((l) => l.startsWith('  • ')).length;
  assert.ok(total > 12, `the example has more findings than the terminal lists (${total})`);
  assert.equal(listed, 12);
  assert.match(
    r.stdout,
    new RegExp(`^  \\(12 of ${total} findings; all of them are in the report\\)$`, 'm'),
  );
  assert.match(r.stdout, /\(\d+ charts, (1 table|\d+ tables); planner heuristic; session /);
  assert.match(r.stderr, /\[1\/3\] get_data_info: [\d,]+ rows × \d+ columns/);
  assert.match(r.stderr, /\[2\/3\] plan_analysis: \d+ analyses by the heuristic planner/);
});

void test('a spreadsheet export: CR LF lines, a header name on two lines; one finding a line in the terminal', () => {
  const rows = Array.from(
    { length: 60 },
    (_, i) => `${i + 1},${['North', 'South', '"East\nside"'][i % 3]},${(i * 7) % 23}.5`,
  );
  const file = write('export.csv', `id,region,"Revenue\n(USD)"\r\n${rows.join('\r\n')}\r\n`);
  const r = analyze(file, ['--no-llm']);
  assert.equal(r.status, 0, r.stderr);
  // The report and --json keep the name as written…
  assert.ok(
    r.json?.insights.some((i) => i.text.includes('Revenue\n(USD)')),
    JSON.stringify(r.json?.insights.map((i) => i.text)),
  );
  // …the terminal's list shows it on one line, each finding one bullet.
  const out = join(tempDir(), 'export.html');
  const plain = runCli(['analyze', file, '--no-llm', '-o', out]);
  assert.equal(plain.status, 0, plain.stderr);
  const listed = plain.stdout.split('\n').slice(1, plain.stdout.split('\n').indexOf(''));
  assert.ok(listed.length > 0);
  for (const line of listed) assert.match(line, /^ {2}(• |\(\d+ of )/, plain.stdout);
  assert.match(plain.stdout, /Revenue \(USD\)/);
});
