/**
 * Crafted specs cannot unbound the host. A program that writes its own
 * render_spec.json and frames (test/helpers/crafted-spec.ts) gets, from the
 * real sandbox through the built binary: a finished run, a report with a
 * precise warning per refused declaration, a bounded store, and a normal run
 * afterwards. Then the parts on their own: depth scan, frame cache, budgets,
 * table bounds, and the session budget through a real sandbox.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { tableHtml } from '../renderers/table.js';
import { executeProgram } from '../src/agent/execute-program.js';
import { DEFAULT_LIMITS } from '../src/sandbox/limits.js';
import { findPython } from '../src/sandbox/python.js';
import { Sandbox } from '../src/sandbox/sandbox.js';
import { FrameBudget } from '../src/spec/frame-budget.js';
import { FrameCache } from '../src/spec/frame-cache.js';
import {
  MAX_FRAME_BYTES,
  REPORT_FRAME_BYTES,
  SESSION_FRAME_BYTES,
  TABLE_CELL_CHARS,
  TABLE_HTML_CHARS,
  TABLE_MAX_COLUMNS,
  TABLE_MAX_ROWS,
} from '../src/spec/host-limits.js';
import { deeperThan, parseJsonBounded } from '../src/util/json-depth.js';
import { CRAFTED_CASES } from './helpers/crafted-spec.js';
import { runCli, salesCsv, tempDir } from './helpers/fixtures.js';

const KB = 1024;
const MB = 1024 * KB;

interface RunJson {
  report_path: string;
  charts: unknown[];
  tables: unknown[];
  warnings: string[];
  session_id: string;
}

function storedBytes(home: string, sessionId: string): number {
  const db = new Database(join(home, 'sessions.db'), { readonly: true });
  try {
    return (
      db
        .prepare('SELECT COALESCE(SUM(bytes), 0) AS b FROM artifacts WHERE session_id = ?')
        .get(sessionId) as { b: number }
    ).b;
  } finally {
    db.close();
  }
}

function codeOf(name: string): string {
  const crafted = CRAFTED_CASES.find((c) => c.name === name);
  if (!crafted) throw new Error(`no crafted case ${name}`);
  return crafted.code;
}

/**
 * Runs a crafted program with `opsmind run --json`; checks it finished with a report, that a
 * replay from the store gives the same charts and warnings, then that a normal run works.
 */
function runCrafted(code: string): { json: RunJson; stored: number } {
  const dir = tempDir();
  const home = join(dir, 'home');
  const data = salesCsv(dir);
  const script = join(dir, 'crafted.py');
  writeFileSync(script, code);
  const r = runCli(['run', script, '--data', data, '-o', join(dir, 'r.html'), '--json'], {
    env: { OPSMIND_HOME: home },
  });
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as RunJson;
  assert.ok(existsSync(json.report_path), 'the report is written');
  const replay = runCli(
    ['sessions', 'replay', json.session_id, '-o', join(dir, 'replay.html'), '--json'],
    { env: { OPSMIND_HOME: home } },
  );
  assert.equal(replay.status, 0, replay.stderr);
  const replayed = JSON.parse(replay.stdout) as RunJson;
  assert.equal(
    replayed.charts.length + replayed.tables.length,
    json.charts.length + json.tables.length,
    'the replay renders the same',
  );
  for (const warning of json.warnings.filter((w) => /^(chart|table) \d+/.test(w)))
    assert.ok(
      replayed.warnings.includes(warning),
      `the replay says why, as the run did: ${warning}`,
    );
  writeFileSync(script, 'declare_chart("bar", x="region", y="revenue")\nprint("fine")\n');
  const next = runCli(['run', script, '--data', data, '-o', join(dir, 'next.html'), '--json'], {
    env: { OPSMIND_HOME: home },
  });
  assert.equal(next.status, 0, next.stderr);
  assert.equal(
    (JSON.parse(next.stdout) as RunJson).charts.length,
    1,
    'a normal run works afterwards',
  );
  return { json, stored: storedBytes(home, json.session_id) };
}

void test('100 charts over one 60 MB frame: each refused for its size, nothing of it stored', () => {
  const { json, stored } = runCrafted(codeOf('shared-frame'));
  assert.equal(json.charts.length, 0);
  assert.equal(json.warnings.length, 100);
  assert.match(
    json.warnings[0] ?? '',
    /^chart 1 \(bar\): its data file "artifacts\/big\.json" is 60\.0 MB, over the 8\.0 MB one chart or table may use; not rendered$/,
  );
  assert.ok(stored < 256 * KB, `${stored} bytes stored`);
});

void test('12 tables over one 50 MB frame: no crash, each refused, the report written', () => {
  const { json, stored } = runCrafted(codeOf('big-tables'));
  assert.equal(json.tables.length, 0);
  assert.equal(json.warnings.length, 12);
  assert.match(json.warnings[11] ?? '', /^table 12: its data file .* is 50\.0 MB/);
  assert.ok(stored < 256 * KB, `${stored} bytes stored`);
});

void test('frames of rejected declarations are not stored; the valid chart and its frame are', () => {
  const { json, stored } = runCrafted(codeOf('rejected-frames'));
  assert.equal(json.charts.length, 1);
  assert.deepEqual(
    json.warnings.map((w) => w.replace(/;.*/, '')),
    ['chart 2 (bar): unknown parameter "titel"', 'chart 3 (nosuchkind): unknown kind "nosuchkind"'],
  );
  assert.ok(stored < 256 * KB, `${stored} bytes stored, the 6 MB frame is not among them`);
});

void test('200,000 nested arrays in the spec or in a frame are refused with a reason before parsing', () => {
  const spec = runCrafted(codeOf('deep-spec'));
  assert.deepEqual(spec.json.warnings, [
    'render_spec.json is not usable JSON: it nests arrays or objects more than 64 levels deep',
  ]);
  const frame = runCrafted(codeOf('deep-frame'));
  assert.equal(frame.json.charts.length, 1, 'the good chart renders');
  assert.deepEqual(frame.json.warnings, [
    'chart 1 (bar): data file "artifacts/deep.json" is not usable JSON: it nests arrays or objects more than 64 levels deep',
  ]);
});

void test('a frame of 330,000 rows is refused for its rows', () => {
  const { json } = runCrafted(codeOf('many-rows'));
  assert.match(
    json.warnings[0] ?? '',
    /has 327,680 rows, over the 50,000 one chart or table may use; not rendered$/,
  );
});

void test('the report budget: 5 tables over one 7.5 MB frame, 4 render and the 5th is refused; its frame stored once', () => {
  const code = codeOf('budget-edge').replace(
    /finish\(charts=.*\)\n$/,
    'finish(tables=[decl(i, "table", "artifacts/big.json", {"title": "t" + str(i)}, table=True) for i in range(1, 6)])\n',
  );
  const { json, stored } = runCrafted(code);
  assert.equal(json.tables.length, 4);
  assert.deepEqual(json.warnings, [
    'table 5: its data (7.5 MB in "artifacts/big.json") would take this report past its 32.0 MB budget for chart and table data (30.0 MB used); not rendered',
  ]);
  assert.ok(stored > 7 * MB && stored < 8 * MB, `${stored} bytes: the shared frame once`);
});

void test('5,000 declarations: the first 1,000 render, one warning stands for the rest', () => {
  const { json } = runCrafted(codeOf('many-declarations'));
  assert.equal(json.charts.length, 1000);
  assert.deepEqual(json.warnings, [
    "chart 1001 (bar): this and the 3,999 declarations after it were not rendered: a program's report renders at most 1,000",
  ]);
});

void test('megabyte-long column names: no quadratic suggestion search, and warnings quote them cut', () => {
  const { json } = runCrafted(codeOf('long-names'));
  assert.equal(json.warnings.length, 3);
  for (const w of json.warnings)
    assert.match(
      w,
      /^chart 1 \(bar\): column "x{80}…" \(1,048,576 characters\) \(parameter "y"\) is not in the data$/,
    );
});

void test('a table of 1 MB cells renders with each cell cut and marked', () => {
  const { json } = runCrafted(codeOf('wide-cells'));
  assert.equal(json.tables.length, 1);
  assert.deepEqual(json.warnings, []);
  const html = readFileSync(json.report_path, 'utf8');
  assert.match(html, /… \[1,038,579 more characters cut\]/);
  assert.ok(html.length < 6 * MB, `${html.length} characters of report`);
});

void test('deeperThan counts brackets outside strings only, in one pass', () => {
  assert.equal(deeperThan('[[["[[[[", {"a": "]]]]\\"[[["}]]]', 4), false);
  assert.equal(deeperThan('[[["[[[[", {"a": "]]]]\\"[[["}]]]', 3), true);
  assert.equal(deeperThan('[[[[1]]]]', 3), true);
  assert.equal(deeperThan(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 64), true);
  assert.deepEqual(parseJsonBounded('{"a": [[1]]}', 3), { a: [[1]] });
  assert.throws(() => parseJsonBounded('[[[[]]]]', 3), /more than 3 levels deep/);
});

void test('FrameCache reads a shared file once and drops it after its last declaration', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'artifacts'));
  const file = 'artifacts/f.json';
  writeFileSync(join(dir, file), '{"columns": ["a"], "data": [[1], [2]]}');
  const cache = new FrameCache(dir, [file, file, null]);
  assert.deepEqual(cache.size(file), { ok: true, bytes: 38 });
  const first = cache.frame(file);
  rmSync(join(dir, file));
  assert.equal(
    cache.frame(file),
    first,
    'the second declaration gets the same parsed frame, not a new read',
  );
  cache.release(file);
  cache.release(file);
  assert.throws(() => cache.frame(file), /does not exist/, 'dropped after its last use');
});

void test('FrameBudget: per file, per report (counted per declaration), per session (counted per stored file)', () => {
  const budget = new FrameBudget(SESSION_FRAME_BYTES - 3 * MB);
  assert.match(
    budget.refusal('f', 'k', MAX_FRAME_BYTES + 1) ?? '',
    /over the 8\.0 MB one chart or table may use/,
  );
  assert.equal(budget.refusal('f', 'k', 2 * MB), null);
  budget.charge('k', 2 * MB, 100);
  assert.equal(
    budget.refusal('f', 'k', 2 * MB),
    null,
    'the same file again costs the session nothing more',
  );
  assert.match(
    budget.refusal('g', 'other', 2 * MB) ?? '',
    /past its 256\.0 MB budget for stored data \(255\.0 MB stored\)/,
  );
  const report = new FrameBudget();
  for (let i = 0; i < REPORT_FRAME_BYTES / MAX_FRAME_BYTES; i += 1)
    report.charge('k', MAX_FRAME_BYTES, 0);
  assert.match(
    report.refusal('f', 'k', 1) ?? '',
    /past its 32\.0 MB budget for chart and table data \(32\.0 MB used\)/,
  );
  assert.match(report.outputRefusal(100_000_001) ?? '', /past 100 million characters/);
});

void test('tableHtml is bounded whatever the frame: rows, columns, cell length and total size, each cut marked', () => {
  const long = `<b>${'x'.repeat(TABLE_CELL_CHARS * 3)}`;
  const wide = tableHtml({
    columns: Array.from({ length: TABLE_MAX_COLUMNS + 50 }, (_, i) => `c${i}`),
    data: [[long]],
  });
  assert.match(wide, /… 50 more columns not shown/);
  assert.match(wide, /… \[20,003 more characters cut\]/);
  assert.doesNotMatch(wide, /<b>/, 'still escaped');
  const tall = tableHtml({
    columns: ['a'],
    data: Array.from({ length: TABLE_MAX_ROWS + 7 }, (_, i) => [i]),
  });
  assert.equal((tall.match(/<tr>/g) ?? []).length, TABLE_MAX_ROWS + 1);
  assert.match(tall, /… 7 more rows not shown \(a table shows at most 1,000 rows\)/);
  const heavy = tableHtml({
    columns: ['a', 'b', 'c'],
    data: Array.from({ length: 900 }, () => [long, long, long]),
  });
  assert.ok(heavy.length < TABLE_HTML_CHARS + 100_000, `${heavy.length} characters`);
  assert.match(heavy, /more rows not shown \(the table reached 4 million characters\)/);
});

void test('the session budget: a run of a session that stored almost 256 MB may add no large frame', async () => {
  const dir = tempDir();
  const sandbox = await Sandbox.open({
    python: await findPython(),
    dataPath: salesCsv(dir),
    limits: DEFAULT_LIMITS,
    warm: false,
  });
  try {
    const code = `${codeOf('budget-edge').replace(/finish\(charts=.*\)\n$/, '')}frame("artifacts/small.json", 0.001)\nfinish(tables=[decl(1, "table", "artifacts/big.json", {}, table=True), decl(2, "table", "artifacts/small.json", {}, table=True)])\n`;
    const outcome = await executeProgram(sandbox, {
      code,
      scriptName: 'crafted.py',
      storedBytes: SESSION_FRAME_BYTES - 2 * MB,
    });
    assert.deepEqual(
      outcome.items.map((i) => Boolean(i.built)),
      [false, true],
    );
    assert.match(
      outcome.items[0]?.issues[0]?.message ?? '',
      /^table 1: its data \(7\.5 MB in "artifacts\/big\.json"\) would take this session past its 256\.0 MB budget for stored data \(254\.0 MB stored\); not rendered$/,
    );
    assert.equal(outcome.items[0]?.issues[0]?.code, 'over_budget');
  } finally {
    sandbox.close();
  }
});
