/**
 * matplotlib/seaborn figures end to end through the built binary: captured in the
 * sandbox, embedded in the report in declaration order, listed by `run --json`,
 * reproduced by `sessions replay`, written by `sessions export`, refused when the
 * file is not a real PNG; and `doctor` listing the analysis libraries.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { MAX_IMAGE_BYTES, MAX_IMAGES, readPng } from '../src/report/images.js';
import { preambleDir } from '../src/util/package-root.js';
import { runCli, salesCsv, tempDir } from './helpers/fixtures.js';

const PYTHON = '/usr/bin/python3';
const has = (module: string) => spawnSync(PYTHON, ['-I', '-c', `import ${module}`]).status === 0;
const NO_MATPLOTLIB = has('matplotlib')
  ? false
  : 'matplotlib is not installed (apt-get install python3-matplotlib)';
const NO_SEABORN = has('seaborn')
  ? NO_MATPLOTLIB
  : 'seaborn is not installed (apt-get install python3-seaborn)';

interface Image {
  id: string;
  title: string | null;
  width: number;
  height: number;
  bytes: number;
  source: string;
}
interface RunJson {
  report_path: string;
  charts: { id: string }[];
  images: Image[];
  warnings: string[];
  session_id: string;
}

const MATPLOTLIB = `
import matplotlib.pyplot as plt
by_region = df.groupby("region")["revenue"].sum()
fig, ax = plt.subplots()
by_region.plot(kind="bar", ax=ax, title="Revenue by region")
fig.savefig("revenue.png")
plt.show()
declare_chart("bar", by_region, title="Interactive revenue")
plt.figure()
plt.hist(df["units"], bins=10)
plt.title("Units")
`;

const SEABORN = `
import seaborn as sns
import matplotlib.pyplot as plt
sns.histplot(data=df, x="revenue", hue="channel").set_title("Revenue by channel")
plt.show()
sns.boxplot(data=df, x="region", y="units").set_title("Units by region")
`;

function run(script: string, extra: string[] = []): { json: RunJson; dir: string; stderr: string } {
  const dir = tempDir();
  const path = join(dir, 'figures.py');
  writeFileSync(path, script);
  const r = runCli(
    ['run', path, '--data', salesCsv(dir), '-o', join(dir, 'report.html'), '--json', ...extra],
    { cwd: dir },
  );
  assert.equal(r.status, 0, r.stderr);
  return { json: JSON.parse(r.stdout) as RunJson, dir, stderr: r.stderr };
}

/** The embedded PNGs of a report, decoded, in document order. */
function embedded(html: string): Buffer[] {
  return [
    ...html.matchAll(/<img class="figure" src="data:image\/png;base64,([A-Za-z0-9+/=]+)"/g),
  ].map((m) => Buffer.from(m[1] ?? '', 'base64'));
}

function assertPng(png: Buffer | undefined, image: Image | undefined): void {
  assert.ok(png && image);
  assert.equal(png.subarray(0, 8).toString('latin1'), '\x89PNG\r\n\x1a\n');
  assert.equal(png.length, image.bytes);
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [image.width, image.height]);
}

void test(
  'a matplotlib script: two PNG figures in the report, in order with the chart, in --json, replay and export',
  { skip: NO_MATPLOTLIB },
  () => {
    const { json, dir } = run(MATPLOTLIB);
    assert.deepEqual(
      json.images.map((i) => [i.id, i.title, i.source]),
      [
        ['f1', 'Revenue by region', 'savefig'],
        ['f2', 'Units', 'open_at_exit'],
      ],
    );
    assert.deepEqual(
      json.charts.map((c) => c.id),
      ['c1'],
    );
    assert.deepEqual(json.warnings, []);
    const html = readFileSync(json.report_path, 'utf8');
    const pngs = embedded(html);
    assert.equal(pngs.length, 2);
    json.images.forEach((image, n) => assertPng(pngs[n], image));
    const order = ['data-image-id="f1"', 'data-chart-id="c1"', 'data-image-id="f2"'].map((marker) =>
      html.indexOf(marker),
    );
    assert.ok(
      order.every((at, n) => at > 0 && (n === 0 || at > (order[n - 1] ?? 0))),
      `figure, chart, figure in declaration order: ${order.join(', ')}`,
    );
    assert.match(html, /captured when the program saved it · \d+ × \d+ px/);

    const replay = runCli([
      'sessions',
      'replay',
      json.session_id,
      '-o',
      join(dir, 'replay.html'),
      '--json',
    ]);
    assert.equal(replay.status, 0, replay.stderr);
    const replayed = JSON.parse(replay.stdout) as RunJson;
    assert.deepEqual(replayed.images, json.images);
    assert.deepEqual(
      embedded(readFileSync(replayed.report_path, 'utf8')),
      pngs,
      'replay embeds the same bytes, without Python',
    );

    const exported = join(dir, 'export');
    assert.equal(runCli(['sessions', 'export', json.session_id, exported]).status, 0);
    assert.deepEqual(readFileSync(join(exported, 'steps', '1', 'artifacts', 'f1.png')), pngs[0]);
    assert.equal(embedded(readFileSync(join(exported, 'report.html'), 'utf8')).length, 2);
  },
);

void test('a seaborn script: both figures reach the report', { skip: NO_SEABORN }, () => {
  const { json } = run(SEABORN);
  assert.deepEqual(
    json.images.map((i) => [i.title, i.source]),
    [
      ['Revenue by channel', 'show'],
      ['Units by region', 'open_at_exit'],
    ],
  );
  const pngs = embedded(readFileSync(json.report_path, 'utf8'));
  json.images.forEach((image, n) => assertPng(pngs[n], image));
});

void test(
  'a PNG the program swaps for something else after capture is refused at the file boundary',
  { skip: NO_MATPLOTLIB },
  () => {
    const { json } = run(`
import os
import matplotlib.pyplot as plt
plt.plot([1, 2]); plt.title("swapped")
plt.savefig("x.png")
plt.figure(); plt.plot([2, 1]); plt.title("linked")
plt.show()
with open("artifacts/f1.png", "wb") as handle:
    handle.write(b"GIF89a not a png at all, but long enough to have a header")
os.remove("artifacts/f2.png")
os.symlink("/etc/passwd", "artifacts/f2.png")
`);
    assert.deepEqual(json.images, []);
    assert.ok(
      json.warnings.includes('figure 1: "artifacts/f1.png" is not a PNG image'),
      json.warnings.join('\n'),
    );
    assert.ok(
      json.warnings.some((w) =>
        /^figure 2: .*artifacts\/f2\.png.*(symlink|does not exist|not a regular file)/.test(w),
      ),
      json.warnings.join('\n'),
    );
    const html = readFileSync(json.report_path, 'utf8');
    assert.match(html, /This figure could not be rendered/);
    assert.doesNotMatch(html, /root:x:0:0/);
  },
);

void test('readPng takes a real PNG and refuses a fake, an oversized file and a symlink', () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'artifacts'));
  const ihdr = Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'),
    Buffer.from([0, 0, 0, 13]),
    Buffer.from('IHDR'),
    Buffer.from([0, 0, 2, 128, 0, 0, 1, 224]),
  ]);
  writeFileSync(join(dir, 'artifacts', 'ok.png'), ihdr);
  const ok = readPng(dir, 'artifacts/ok.png');
  assert.deepEqual([ok.width, ok.height, ok.png.length], [640, 480, ihdr.length]);
  writeFileSync(
    join(dir, 'artifacts', 'fake.png'),
    Buffer.from('GIF89a................................'),
  );
  assert.throws(
    () => readPng(dir, 'artifacts/fake.png'),
    /"artifacts\/fake\.png" is not a PNG image/,
  );
  writeFileSync(
    join(dir, 'artifacts', 'big.png'),
    Buffer.concat([ihdr, Buffer.alloc(MAX_IMAGE_BYTES)]),
  );
  assert.throws(() => readPng(dir, 'artifacts/big.png'), /over the 2097152-byte limit/);
  symlinkSync(join(dir, 'artifacts', 'ok.png'), join(dir, 'artifacts', 'link.png'));
  assert.throws(() => readPng(dir, 'artifacts/link.png'), /is a symlink/);
});

void test('the host and the preamble agree on the image caps', () => {
  const code = `import sys; sys.path.insert(0, ${JSON.stringify(preambleDir())}); import opsmind_figures as f; print(f.MAX_IMAGES, f.MAX_IMAGE_BYTES)`;
  const out = spawnSync(PYTHON, ['-I', '-c', code], { encoding: 'utf8' });
  assert.equal(out.stdout.trim(), `${MAX_IMAGES} ${MAX_IMAGE_BYTES}`, out.stderr);
});

void test('doctor lists the analysis libraries the sandbox can import, with versions', () => {
  const r = runCli(['doctor', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout) as {
    libraries: { libraries: { name: string; version: string | null }[]; error: string | null };
  };
  assert.equal(report.libraries.error, null);
  const names = report.libraries.libraries.map((l) => l.name);
  assert.deepEqual(names.slice(0, 4), ['pandas', 'numpy', 'scipy', 'matplotlib']);
  assert.ok(
    names.includes('scikit-learn') && names.includes('statsmodels') && names.includes('pyarrow'),
  );
  const pandas = report.libraries.libraries.find((l) => l.name === 'pandas');
  assert.match(pandas?.version ?? '', /^\d+\.\d+/);
  const text = runCli(['doctor']).stdout;
  assert.match(text, /^libraries\s+pandas \d+\.\d+\S*, numpy \d+/m);
  for (const lib of report.libraries.libraries) {
    if (lib.version === null) assert.match(text, new RegExp(`not importable: .*${lib.name}`));
    else
      assert.ok(
        text.includes(`${lib.name} ${lib.version}`),
        `${lib.name} ${lib.version} is listed`,
      );
  }
});
