/**
 * Terminal injection: escape sequences in data values, column names, file
 * names and program output never reach the terminal. The sanitiser on its
 * own, then the built binary (`analyze`, `run`, `sessions list/show`) on a
 * CSV whose cells, header and name carry clear-screen, window-title, OSC 52
 * clipboard, OSC 8 link, C1 and `\r\x1b[K` line-forging sequences.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { terminalJson, terminalText } from '../src/util/terminal-text.js';
import { runCli, tempDir } from './helpers/fixtures.js';

/** What must never reach a terminal: C0 but TAB and LF (so ESC, BEL, CR, BS), DEL, C1. */
// eslint-disable-next-line no-control-regex -- the controls this test looks for
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

function assertClean(text: string, where: string): void {
  const found = CONTROL.exec(text);
  assert.equal(
    found,
    null,
    found
      ? `${where}: U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} near ${JSON.stringify(text.slice(Math.max(0, found.index - 30), found.index + 30))}`
      : '',
  );
}

/** Raw --json output must also be safe to `cat`: no U+2028/U+2029 either. */
function assertCleanJson(text: string, where: string): void {
  assertClean(text, where);
  assert.doesNotMatch(text, /[\u2028\u2029]/, `${where}: raw U+2028/U+2029`);
}

const HOSTILE = [
  '\x1b]0;title\x07\x1b[2J',
  '\x1b]52;c;aGVsbG8=\x07clip',
  '\x1b]8;;https://evil.example/\x07link\x1b]8;;\x07',
  'ok\r\x1b[Kwarning: forged',
  'c1\u009b2J\u0085x',
  'plain\u2028sep',
];

void test('terminalText removes whole sequences, C0 (but \\t, \\n), DEL and C1, and lone CR', () => {
  const cases: [string, string][] = [
    ['\x1b]0;title\x07\x1b[2Jhello', 'hello'],
    ['a\x1b]52;c;aGVsbG8=\x07b', 'ab'],
    ['\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['ok\r\x1b[Kwarning: forged', 'okwarning: forged'],
    ['x\u009b2Jy\u009d0;t\u009cz\u0085', 'xyz'],
    ['\x1bP1$r\x1b\\after', 'after'],
    ['\x1b_apc\x07\x1b^pm\x1b\\\x1bXsos\x1b\\ok', 'ok'],
    ['a\x1bcb\x1b(Bc\x1b7d\x1b', 'abcd'],
    ['unterminated \x1b]0;title rest\nnext line', 'unterminated \nnext line'],
    ['tab\tkept\r\nCRLF\x00\x08\x7f', 'tab\tkept\nCRLF'],
    ['é 日本 • ✔', 'é 日本 • ✔'],
  ];
  for (const [input, expected] of cases)
    assert.equal(terminalText(input), expected, JSON.stringify(input));
});

void test('terminalJson keeps valid JSON that round-trips the text, with DEL, C1 and U+2028/9 as \\u escapes', () => {
  const value = { text: 'a\x1b[2Jb\u2028c', 'k\u0085': ['\u0085x\u009b2J', 'é'] };
  const json = terminalJson(value);
  assertCleanJson(json, 'json');
  assert.deepEqual(JSON.parse(json), { text: 'ab\u2028c', 'k\u0085': ['x', 'é'] });
});

function hostileData(dir: string): string {
  const path = join(dir, 'evil\x1b]0;pwned\x07\x1b[2J.csv');
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const lines = [['reg\x1b[31mion', 'rev\x07enue', 'const\x1b[2Jcol'].map(quote).join(',')];
  for (let i = 0; i < 60; i += 1)
    lines.push([quote(HOSTILE[i % HOSTILE.length] ?? ''), String(i * 10 + 5), 'same'].join(','));
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

void test('analyze: findings, warnings, progress and the file name reach the terminal cleaned; --json parses', () => {
  const dir = tempDir();
  const data = hostileData(dir);
  const plain = runCli(['analyze', data, '--no-llm', '-o', join(dir, 'a.html')], {
    env: { OPSMIND_PLAIN: '1' },
  });
  assert.equal(plain.status, 0, plain.stderr);
  assertClean(plain.stdout, 'analyze stdout');
  assertClean(plain.stderr, 'analyze stderr');
  assert.match(plain.stdout, /okwarning: forged/, 'the value is shown, minus its controls');
  assert.match(plain.stderr, /analyze evil\.csv /, 'the file name is shown, minus its controls');
  const json = runCli(['analyze', data, '--no-llm', '--json', '-o', join(dir, 'b.html')]);
  assert.equal(json.status, 0, json.stderr);
  assertCleanJson(json.stdout, 'analyze --json');
  const parsed = JSON.parse(json.stdout) as { insights: { text: string }[] };
  assert.ok(
    parsed.insights.some((i) => i.text.includes('okwarning: forged')),
    json.stdout,
  );
  assert.ok(parsed.insights.every((i) => !CONTROL.test(i.text)));
});

const SCRIPT = `
col = df.columns[0]
for v in df[col].unique():
    print(v)
print("direct \\x1b]0;title\\x07 \\x1b[2J done")
import sys
sys.stderr.write("stderr \\x1b]52;c;Zm9v\\x07 \\r\\x1b[Kwarning: fake\\n")
declare_chart("bar", x=col, y="no such \\x1b[2J column")
declare_chart("bar", x=col, y=df.columns[1], title="t\\x1b]0;x\\x07")
raise ValueError("bad \\x1b]8;;https://evil/\\x07value")
`;

void test('run: script stdout, stderr, traceback and warnings are cleaned; --json round-trips the output minus controls', () => {
  const dir = tempDir();
  const data = hostileData(dir);
  const script = join(dir, 'evil\x1b]0;t\x07.py');
  writeFileSync(script, SCRIPT);
  const r = runCli(['run', script, '--data', data, '-o', join(dir, 'r.html')]);
  assert.equal(r.status, 1, r.stderr);
  assertClean(r.stdout, 'run stdout');
  assertClean(r.stderr, 'run stderr');
  assert.match(r.stdout, /^okwarning: forged$/m);
  assert.match(r.stderr, /ValueError: bad value/);
  assert.match(r.stderr, /warning: chart 1 \(bar\): column "no such {2}column"/);
  const j = runCli(['run', script, '--data', data, '-o', join(dir, 'j.html'), '--json']);
  assertCleanJson(j.stdout, 'run --json');
  assertClean(j.stderr, 'run --json stderr');
  const parsed = JSON.parse(j.stdout) as {
    output: string;
    warnings: string[];
    charts: { title: string }[];
  };
  const printed = `${[...new Set(HOSTILE)].join('\n')}\ndirect \x1b]0;title\x07 \x1b[2J done\n`;
  assert.equal(parsed.output, terminalText(printed));
  assert.deepEqual(
    parsed.charts.map((c) => c.title),
    ['t'],
  );
});

void test('sessions list and show print file names, titles and events cleaned, as text and as JSON', () => {
  const dir = tempDir();
  const data = hostileData(dir);
  const script = join(dir, 'title\x1b]0;t\x07\r.py');
  writeFileSync(script, 'print(df.shape)\n');
  const home = { OPSMIND_HOME: join(dir, 'home') };
  const r = runCli(['run', script, '--data', data, '-o', join(dir, 's.html'), '--json'], {
    env: home,
  });
  assert.equal(r.status, 0, r.stderr);
  const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;
  const list = runCli(['sessions', 'list'], { env: home });
  assert.equal(list.status, 0, list.stderr);
  assertClean(list.stdout, 'sessions list');
  assert.match(list.stdout, new RegExp(`${id} .* evil\\.csv · title\\.py`));
  const show = runCli(['sessions', 'show', id], { env: home });
  assertClean(show.stdout, 'sessions show');
  assert.match(show.stdout, /data {5}.*evil\.csv/);
  for (const args of [
    ['sessions', 'list', '--json'],
    ['sessions', 'show', id, '--json'],
  ]) {
    const out = runCli(args, { env: home });
    assert.equal(out.status, 0, out.stderr);
    assertCleanJson(out.stdout, args.join(' '));
    assert.match(out.stdout, /evil\.csv/);
    JSON.parse(out.stdout);
  }
});
