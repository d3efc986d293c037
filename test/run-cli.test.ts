/** End-to-end: the built binary's `opsmind run`, its report, its --json output and its errors. */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { test } from 'node:test';
import { ROOT, runCli, salesCsv, tempDir } from './helpers/fixtures.js';

const GOOD = `
total = df["revenue"].sum()
print(f"Total revenue: {total:,.0f}")
declare_chart("bar", df.groupby("region")["revenue"].sum(), title="Revenue by region", sort="descending")
declare_table(df.describe(), title="Summary statistics")
declare_chart("line", x="date", y="revenue", title="Daily revenue")
`;

function setup(script: string): { dir: string; data: string; script: string } {
  const dir = tempDir();
  const scriptPath = join(dir, 'analysis.py');
  writeFileSync(scriptPath, script);
  return { dir, data: salesCsv(dir), script: scriptPath };
}

void test('run --json prints exactly one JSON object with the documented keys, and writes the report', () => {
  const s = setup(GOOD);
  const out = join(s.dir, 'out', 'report.html');
  const r = runCli(['run', s.script, '--data', s.data, '-o', out, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as Record<string, unknown>;
  assert.deepEqual(Object.keys(json).sort(), [
    'charts',
    'images',
    'isolation',
    'output',
    'report_path',
    'session_id',
    'tables',
    'warnings',
  ]);
  assert.equal(json.report_path, out);
  assert.deepEqual(json.charts, [
    { id: 'c1', kind: 'bar', title: 'Revenue by region' },
    { id: 'c2', kind: 'line', title: 'Daily revenue' },
  ]);
  assert.deepEqual(json.tables, [{ id: 't1', title: 'Summary statistics' }]);
  assert.match(String(json.output), /^Total revenue: [\d,]+\n$/);
  assert.deepEqual(json.warnings, []);
  const html = readFileSync(out, 'utf8');
  assert.match(html, /<title>analysis\.py on sales\.csv<\/title>/);
  assert.ok(
    html.indexOf('data-chart-id="c1"') < html.indexOf('data-table-id="t1"'),
    'declaration order',
  );
  assert.ok(
    html.indexOf('data-table-id="t1"') < html.indexOf('data-chart-id="c2"'),
    'declaration order',
  );
  assert.match(html, /sales\.csv \(400 rows\)/, 'provenance names the source');
  assert.doesNotMatch(html, /<script src=/, 'Plotly is inlined');
  const summary = JSON.parse(readFileSync(join(s.dir, 'out', 'report.json'), 'utf8')) as {
    spec: { version: number };
  };
  assert.equal(summary.spec.version, 1);
});

void test('run without --json prints the script output on stdout and the report path on stderr', () => {
  const s = setup(GOOD);
  const r = runCli(['run', s.script, '--data', s.data], { cwd: s.dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^Total revenue: /);
  assert.match(
    r.stderr,
    /report: .*analysis-report\.html \(2 charts, 1 table; session [a-z2-9]{8}\)/,
  );
  assert.ok(existsSync(join(s.dir, 'analysis-report.html')));
});

void test('a script that raises: traceback on stderr, exit 1, and the report keeps what came before', () => {
  const s = setup(
    `declare_chart("bar", x="region", y="revenue", title="Before")\nprint("halfway")\ndf["no_such_column"]\n`,
  );
  const out = join(s.dir, 'partial.html');
  const r = runCli(['run', s.script, '--data', s.data, '-o', out, '--json']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /File "analysis\.py", line 3/);
  assert.match(r.stderr, /KeyError: 'no_such_column'/);
  assert.doesNotMatch(r.stderr, /opsmind_run\.py/, 'runner frames are hidden');
  const json = JSON.parse(r.stdout) as { charts: unknown[]; output: string };
  assert.equal(json.charts.length, 1);
  assert.equal(json.output, 'halfway\n');
  const html = readFileSync(out, 'utf8');
  assert.match(html, /data-chart-id="c1"/);
  assert.match(html, /The program stopped with KeyError at line 3/);
});

void test('an unknown parameter yields the precise error and the rest of the report still renders', () => {
  const s = setup(
    `declare_chart("line", x="date", y="revenue", title="Fine")\ndeclare_chart("bar", x="region", y="revenue", titel="Typo")\ndeclare_chart("pie", names="region", values="revenue")\n`,
  );
  const out = join(s.dir, 'r.html');
  const r = runCli(['run', s.script, '--data', s.data, '-o', out, '--json']);
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as { charts: { id: string }[]; warnings: string[] };
  assert.deepEqual(
    json.charts.map((c) => c.id),
    ['c1', 'c3'],
  );
  assert.ok(
    json.warnings.includes('chart 2 (bar): unknown parameter "titel"; did you mean "title"?'),
    json.warnings.join('\n'),
  );
  const html = readFileSync(out, 'utf8');
  assert.match(html, /data-failed-id="c2"/);
  assert.match(html, /unknown parameter &#34;titel&#34;; did you mean &#34;title&#34;\?/);
});

void test('bad input: one line, exit 2, no stack trace', () => {
  const s = setup(GOOD);
  const empty = join(s.dir, 'empty.csv');
  writeFileSync(empty, '');
  const binary = join(s.dir, 'image.csv');
  writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2, 3]));
  const cases: [string[], RegExp][] = [
    [['run', s.script, '--data', join(s.dir, 'missing.csv')], /data file not found/],
    [['run', s.script, '--data', s.dir], /is a directory/],
    [['run', s.script, '--data', empty], /data file is empty/],
    [['run', s.script, '--data', binary], /looks like a binary file/],
    [['run', join(s.dir, 'nope.py'), '--data', s.data], /cannot read script/],
    [['run', s.script], /required option '-d, --data <file>' not specified/],
    [
      ['run', s.script, '--data', s.data, '--timeout', 'soon'],
      /--timeout must be a positive number/,
    ],
  ];
  for (const [args, message] of cases) {
    const r = runCli(args, { cwd: s.dir });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(r.stdout, '');
  }
});

void test('a file pandas cannot parse is a one-line data error (exit 2)', () => {
  const s = setup(GOOD);
  const broken = join(s.dir, 'broken.csv');
  writeFileSync(broken, 'a,b\n1,2\n"unterminated,3\n4,5\n');
  const r = runCli(['run', s.script, '--data', broken]);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^opsmind: cannot read .*broken\.csv: /);
  assert.equal(r.stderr.trim().split('\n').length, 1);
});

void test('a runaway script is stopped by --timeout and the report still says why', () => {
  const s = setup('import time\ndeclare_chart("bar", x="region", y="revenue")\ntime.sleep(60)\n');
  const r = runCli([
    'run',
    s.script,
    '--data',
    s.data,
    '--timeout',
    '2',
    '--json',
    '-o',
    join(s.dir, 't.html'),
  ]);
  assert.notEqual(r.status, 0);
  const json = JSON.parse(r.stdout) as { warnings: string[] };
  assert.ok(
    json.warnings.some((w) => /wall-clock limit of 2 s exceeded/.test(w)),
    json.warnings.join('\n'),
  );
});

void test('the host environment is not visible to the script', () => {
  const s = setup(
    'import os\nprint(sorted(k for k in os.environ if "KEY" in k or "TOKEN" in k))\n',
  );
  const r = runCli(['run', s.script, '--data', s.data, '--json', '-o', join(s.dir, 'e.html')], {
    env: { OPENAI_API_KEY: 'sk-canary', GITHUB_TOKEN: 'canary' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { output: string }).output, '[]\n');
});

void test('--help and --version exit 0', () => {
  assert.equal(runCli(['--help']).status, 0);
  const v = runCli(['--version']);
  assert.equal(v.status, 0);
  assert.equal(
    v.stdout.trim(),
    (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
});

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

void test("--keep-workdir moves the run's work dir (renamed, links and FIFOs untouched) and names it on stderr and in --json", () => {
  const s = setup(`${GOOD}
import os
os.symlink("/etc/passwd", "link-to-passwd")
try:
    os.mkfifo("a-fifo")
except OSError:
    pass
`);
  const out = join(s.dir, 'kept.html');
  const r = runCli(['run', s.script, '--data', s.data, '-o', out, '--json', '--keep-workdir'], {
    timeoutMs: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const json = JSON.parse(r.stdout) as { workdir?: string; output: string };
  const workdir = json.workdir ?? assert.fail('no workdir in --json');
  assert.equal(dirname(workdir), tmpdir());
  assert.match(basename(workdir), /^opsmind-workdir-/);
  assert.ok(r.stderr.includes(`workdir: ${workdir}`), r.stderr);
  assert.match(
    readFileSync(join(workdir, '.opsmind', 'program.py'), 'utf8'),
    /declare_chart\("bar"/,
  );
  assert.ok(existsSync(join(workdir, 'artifacts', 'c1.json')));
  // The sandbox may hand back regular files only; whatever is there was moved, never followed or read.
  const link = lstatOrNull(join(workdir, 'link-to-passwd'));
  if (link)
    assert.ok(
      link.isSymbolicLink() && readlinkSync(join(workdir, 'link-to-passwd')) === '/etc/passwd',
      'a link stays a link',
    );
  const fifo = lstatOrNull(join(workdir, 'a-fifo'));
  if (fifo) assert.ok(fifo.isFIFO(), 'a FIFO stays a FIFO');
  rmSync(workdir, { recursive: true, force: true });
});

void test('without --keep-workdir nothing is kept and --json has no workdir', () => {
  const s = setup(GOOD);
  const r = runCli(['run', s.script, '--data', s.data, '-o', join(s.dir, 'r.html'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  assert.equal((JSON.parse(r.stdout) as { workdir?: string }).workdir, undefined);
  assert.doesNotMatch(r.stderr, /workdir:/);
});

void test('the JSON summary never overwrites a report.json OpsMind did not write; --summary names another file', () => {
  const s = setup(GOOD);
  const theirs = join(s.dir, 'report.json');
  writeFileSync(theirs, '{"mine": true}\n');
  const out = join(s.dir, 'report.html');
  const refused = runCli(['run', s.script, '--data', s.data, '-o', out]);
  assert.equal(refused.status, 2);
  assert.equal(
    refused.stderr,
    `opsmind: refusing to overwrite ${theirs}: the report's JSON summary goes there, and that file was not written by OpsMind\n  hint: name another file with --summary FILE, or move report.json away\n`,
  );
  assert.equal(readFileSync(theirs, 'utf8'), '{"mine": true}\n');
  assert.ok(!existsSync(out), 'nothing was run or written');

  const named = join(s.dir, 'elsewhere', 'summary.json');
  const ok = runCli(['run', s.script, '--data', s.data, '-o', out, '--summary', named]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(readFileSync(theirs, 'utf8'), '{"mine": true}\n');
  const summary = JSON.parse(readFileSync(named, 'utf8')) as {
    written_by: string;
    report_path: string;
  };
  assert.match(summary.written_by, /^opsmind \d+\.\d+\.\d+/);
  assert.equal(summary.report_path, out);
});

void test('a summary OpsMind wrote (with its marker, or from before it) is replaced on the next run', () => {
  const s = setup(GOOD);
  const out = join(s.dir, 'report.html');
  assert.equal(runCli(['run', s.script, '--data', s.data, '-o', out]).status, 0);
  const again = runCli(['run', s.script, '--data', s.data, '-o', out]);
  assert.equal(again.status, 0, again.stderr);
  writeFileSync(
    join(s.dir, 'report.json'),
    JSON.stringify({
      report_path: out,
      charts: [],
      tables: [],
      output: '',
      warnings: [],
      spec: null,
    }),
  );
  assert.equal(
    runCli(['run', s.script, '--data', s.data, '-o', out]).status,
    0,
    'an older summary without the marker',
  );
  assert.match(readFileSync(join(s.dir, 'report.json'), 'utf8'), /"written_by": "opsmind /);
});

void test('counts are singular for one: "1 chart, 1 table"', () => {
  const s = setup(
    'declare_chart("bar", x="region", y="revenue", title="One")\ndeclare_table(df.head(), title="Only")\n',
  );
  const r = runCli(['run', s.script, '--data', s.data], { cwd: s.dir });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /\(1 chart, 1 table; session /);
});
