/** Sessions end to end: recording, list/show/replay/export/rm, replay equality, kill -9 crashes, 8 concurrent writers. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { ROOT, runCli, salesCsv, tempDir } from './helpers/fixtures.js';

const SCRIPT = `
print("total", int(df["revenue"].sum()))
declare_chart("bar", x="region", y="revenue", sort="descending", title="Revenue by region")
declare_table(df.groupby("channel")["revenue"].sum(), title="By channel")
declare_chart("line", x="date", y="revenue", title="Daily revenue")
`;

function setup(script = SCRIPT): { dir: string; db: string; data: string; script: string } {
  const dir = tempDir();
  const scriptPath = join(dir, 'analysis.py');
  writeFileSync(scriptPath, script);
  return { dir, db: join(dir, 'sessions.db'), data: salesCsv(dir), script: scriptPath };
}

interface Summary {
  report_path: string;
  charts: { id: string; kind: string; title: string | null }[];
  tables: { id: string; title: string | null }[];
  session_id: string;
}

void test('run records a session; list, show, replay, export and rm work on it; the replay equals the original', () => {
  const s = setup();
  const original = runCli([
    '--db',
    s.db,
    'run',
    s.script,
    '--data',
    s.data,
    '-o',
    join(s.dir, 'orig.html'),
    '--json',
  ]);
  assert.equal(original.status, 0, original.stderr);
  const summary = JSON.parse(original.stdout) as Summary;
  assert.match(summary.session_id, /^[a-z2-9]{8}$/);

  const list = JSON.parse(runCli(['--db', s.db, 'sessions', 'list', '--json']).stdout) as {
    id: string;
    status: string;
    command: string;
    charts: number;
  }[];
  assert.deepEqual(
    list.map((r) => [r.id, r.status, r.command, r.charts]),
    [[summary.session_id, 'done', 'run', 3]],
  );

  const show = JSON.parse(
    runCli(['--db', s.db, 'sessions', 'show', summary.session_id.slice(0, 4), '--json']).stdout,
  ) as { events: { seq: number; type: string }[] };
  assert.deepEqual(
    show.events.map((e) => e.type),
    [
      'session_started',
      'step_started',
      'program_finished',
      'artifact_added',
      'report_written',
      'session_finished',
    ],
  );
  assert.deepEqual(
    show.events.map((e) => e.seq),
    [1, 2, 3, 4, 5, 6],
  );

  const replay = runCli(
    [
      '--db',
      s.db,
      'sessions',
      'replay',
      summary.session_id,
      '-o',
      join(s.dir, 'replay.html'),
      '--json',
    ],
    { env: { OPSMIND_PYTHON: '/nonexistent/python' } },
  );
  assert.equal(replay.status, 0, `replay needs no Python: ${replay.stderr}`);
  const replayed = JSON.parse(replay.stdout) as Summary;
  assert.deepEqual(replayed.charts, summary.charts);
  assert.deepEqual(replayed.tables, summary.tables);
  const specOf = (path: string) =>
    (JSON.parse(readFileSync(path, 'utf8')) as { spec: { charts: unknown[]; tables: unknown[] } })
      .spec;
  assert.deepEqual(
    specOf(join(s.dir, 'replay.json')).charts,
    specOf(join(s.dir, 'orig.json')).charts,
    'same specs',
  );
  assert.deepEqual(
    specOf(join(s.dir, 'replay.json')).tables,
    specOf(join(s.dir, 'orig.json')).tables,
  );
  assert.match(
    readFileSync(join(s.dir, 'replay.html'), 'utf8'),
    /total \d+/,
    'the narrative is replayed too',
  );

  const out = join(s.dir, 'export');
  assert.equal(runCli(['--db', s.db, 'sessions', 'export', summary.session_id, out]).status, 0);
  assert.equal(readFileSync(join(out, 'steps', '1', 'program.py'), 'utf8'), SCRIPT);
  for (const f of [
    'session.json',
    'data.sha256',
    'report.html',
    'steps/1/render_spec.json',
    'steps/1/artifacts/c1.json',
  ])
    assert.ok(existsSync(join(out, f)), f);
  assert.match(readFileSync(join(out, 'data.sha256'), 'utf8'), /^[0-9a-f]{64} {2}\S+sales\.csv\n$/);

  assert.equal(runCli(['--db', s.db, 'sessions', 'rm', summary.session_id]).status, 0);
  assert.deepEqual(JSON.parse(runCli(['--db', s.db, 'sessions', 'list', '--json']).stdout), []);
  const gone = runCli(['--db', s.db, 'sessions', 'show', summary.session_id]);
  assert.equal(gone.status, 2);
  assert.match(gone.stderr, /no session/);
});

void test('a failing script leaves a failed session whose replay still shows what came before the error', () => {
  const s = setup(
    'declare_chart("bar", x="region", y="revenue", title="Before")\nraise ValueError("boom")\n',
  );
  const r = runCli([
    '--db',
    s.db,
    'run',
    s.script,
    '--data',
    s.data,
    '-o',
    join(s.dir, 'f.html'),
    '--json',
  ]);
  assert.equal(r.status, 1);
  const id = (JSON.parse(r.stdout) as Summary).session_id;
  const list = JSON.parse(runCli(['--db', s.db, 'sessions', 'list', '--json']).stdout) as {
    status: string;
  }[];
  assert.equal(list[0]?.status, 'failed');
  const replay = JSON.parse(
    runCli(['--db', s.db, 'sessions', 'replay', id, '-o', join(s.dir, 'fr.html'), '--json']).stdout,
  ) as Summary;
  assert.deepEqual(
    replay.charts.map((c) => c.title),
    ['Before'],
  );
});

function spawnRun(s: ReturnType<typeof setup>, extra: string[] = []) {
  return spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'opsmind.js'),
      '--db',
      s.db,
      'run',
      s.script,
      '--data',
      s.data,
      '-o',
      join(s.dir, `r-${Math.random()}.html`),
      '--json',
      ...extra,
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

void test('crash test: kill -9 at random points (12 times) leaves a sound database, no half-written event, interrupted sessions, and replay works', async () => {
  const s = setup(
    `import time\n${SCRIPT}\ntime.sleep(0.5)\ndeclare_chart("pie", names="region", values="revenue")\n`,
  );
  for (let i = 0; i < 12; i += 1) {
    const child = spawnRun(s);
    // Listen before the kill: a run that finishes first has already closed.
    const closed = new Promise((resolve) => child.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 2600));
    child.kill('SIGKILL');
    await closed;
  }
  const list = runCli(['--db', s.db, 'sessions', 'list', '--json']);
  assert.equal(list.status, 0, list.stderr);
  const sessions = JSON.parse(list.stdout) as { id: string; status: string }[];
  assert.ok(sessions.length >= 1 && sessions.length <= 12);
  assert.ok(
    sessions.every((x) => x.status === 'interrupted' || x.status === 'done'),
    JSON.stringify(sessions),
  );
  assert.ok(
    sessions.some((x) => x.status === 'interrupted'),
    'at least one kill landed mid-run',
  );
  const db = new Database(s.db, { readonly: true });
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  for (const { id } of sessions) {
    const rows = db
      .prepare('SELECT seq, payload FROM events WHERE session_id = ? ORDER BY seq')
      .all(id) as { seq: number; payload: string }[];
    assert.deepEqual(
      rows.map((r) => r.seq),
      rows.map((_, i) => i + 1),
      'events are numbered without gaps',
    );
    for (const row of rows) assert.doesNotThrow(() => JSON.parse(row.payload));
    const added = rows.some(
      (r) => (JSON.parse(r.payload) as { type: string }).type === 'artifact_added',
    );
    const artifacts = (
      db.prepare('SELECT COUNT(*) AS n FROM artifacts WHERE session_id = ?').get(id) as {
        n: number;
      }
    ).n;
    assert.equal(added, artifacts > 0, 'artifacts exist exactly when their event does');
    const replay = runCli([
      '--db',
      s.db,
      'sessions',
      'replay',
      id,
      '-o',
      join(s.dir, `replay-${id}.html`),
      '--json',
    ]);
    assert.equal(replay.status, 0, replay.stderr);
  }
  db.close();
});

void test('concurrency: 8 processes on one database at once all complete, with no SQLITE_BUSY', async () => {
  const s = setup();
  const results = await Promise.all(
    Array.from(
      { length: 8 },
      () =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawnRun(s);
          let stderr = '';
          child.stderr.on('data', (c: Buffer) => {
            stderr += c.toString();
          });
          child.once('close', (code) => resolve({ code, stderr }));
        }),
    ),
  );
  for (const r of results) {
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /SQLITE_BUSY|database is locked/);
  }
  const sessions = JSON.parse(runCli(['--db', s.db, 'sessions', 'list', '--json']).stdout) as {
    status: string;
    events: number;
  }[];
  assert.equal(sessions.length, 8);
  assert.ok(
    sessions.every((x) => x.status === 'done' && x.events === 6),
    JSON.stringify(sessions),
  );
});
