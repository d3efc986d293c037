/** The session store on a real SQLite file: migrations, events, artifacts, locks. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, SCHEMA_VERSION } from '../src/store/migrations.js';
import { SessionStore } from '../src/store/session-store.js';
import { ROOT, tempDir } from './helpers/fixtures.js';

const NEW = {
  command: 'run',
  mode: 'script',
  dataPath: '/data/x.csv',
  dataSha256: 'ab'.repeat(32),
  dataSize: 10,
};

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
}

void test('migrations from an empty file: WAL, latest version, every table; opening again changes nothing', () => {
  const path = join(tempDir(), 'a.db');
  SessionStore.open(path).close();
  const store = SessionStore.open(path);
  assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  assert.equal(store.db.pragma('journal_mode', { simple: true }), 'wal');
  assert.deepEqual(tables(store.db), [
    'artifacts',
    'batch_files',
    'batch_runs',
    'events',
    'session_locks',
    'sessions',
  ]);
  assert.deepEqual(migrate(store.db), [], 'idempotent');
  store.close();
});

void test('migrations from the previous schema keep the data', () => {
  const path = join(tempDir(), 'old.db');
  const old = new Database(path);
  migrate(old, 1);
  old
    .prepare(
      `INSERT INTO sessions VALUES ('oldsess1', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'run', 'script', NULL, '/d.csv', 'x', 1, 'done', 'old')`,
    )
    .run();
  old
    .prepare(
      `INSERT INTO events VALUES ('oldsess1', 1, 'session_finished', '{"type":"session_finished","status":"done"}', '2026-01-01T00:00:00Z')`,
    )
    .run();
  assert.equal(old.pragma('user_version', { simple: true }), 1);
  old.close();
  const store = SessionStore.open(path);
  assert.equal(store.db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
  assert.equal(store.session('oldsess1').title, 'old');
  assert.equal(store.events('oldsess1')[0]?.type, 'session_finished');
  assert.deepEqual(store.artifacts('oldsess1'), []);
  store.close();
});

void test('a database from a newer OpsMind is refused with a clear message', () => {
  const path = join(tempDir(), 'new.db');
  const db = new Database(path);
  db.pragma('user_version = 99');
  db.close();
  assert.throws(() => SessionStore.open(path), /schema version 99, newer than this OpsMind/);
});

void test('events are numbered per session, stored as JSON, and never renumbered', () => {
  const store = SessionStore.open(join(tempDir(), 'e.db'));
  const a = store.createSession(NEW);
  const b = store.createSession(NEW);
  assert.equal(store.append(a.session.id, { type: 'warning', message: 'one' }).seq, 1);
  assert.equal(store.append(b.session.id, { type: 'warning', message: 'b' }).seq, 1);
  assert.equal(store.append(a.session.id, { type: 'warning', message: 'two' }).seq, 2);
  assert.deepEqual(
    store.events(a.session.id).map((e) => [e.seq, e.type === 'warning' ? e.message : '']),
    [
      [1, 'one'],
      [2, 'two'],
    ],
  );
  assert.throws(
    () =>
      store.db
        .prepare(`INSERT INTO events VALUES (?, 1, 'warning', '{}', 'now')`)
        .run(a.session.id),
    /UNIQUE|PRIMARY KEY/,
  );
  assert.throws(
    () =>
      store.db
        .prepare(`INSERT INTO events VALUES (?, 9, 'warning', 'not json', 'now')`)
        .run(a.session.id),
    /CHECK/,
  );
  a.lock.release();
  b.lock.release();
  store.close();
});

void test('artifacts and their event are stored atomically; odd names are refused by the schema', () => {
  const store = SessionStore.open(join(tempDir(), 'art.db'));
  const { session, lock } = store.createSession(NEW);
  store.appendWithArtifacts(
    session.id,
    1,
    [{ name: 'render_spec.json', content: Buffer.from('{}') }],
    { type: 'artifact_added', step: 1, charts: [], tables: [] },
  );
  assert.equal(store.artifacts(session.id, 1)[0]?.name, 'render_spec.json');
  for (const name of ['', '/etc/passwd', '../x']) {
    assert.throws(
      () =>
        store.appendWithArtifacts(session.id, 2, [{ name, content: Buffer.from('x') }], {
          type: 'warning',
          message: 'never stored',
        }),
      /CHECK/,
    );
  }
  assert.equal(store.events(session.id).length, 1, 'the failed transaction left no event behind');
  lock.release();
  store.close();
});

void test('session ids resolve by unique prefix; unknown and ambiguous ids are clear errors', () => {
  const store = SessionStore.open(join(tempDir(), 'p.db'));
  const { session, lock } = store.createSession(NEW);
  assert.equal(store.session(session.id.slice(0, 5)).id, session.id);
  assert.throws(() => store.session('zzzzzzzzzz'), /no session "zzzzzzzzzz"/);
  lock.release();
  store.close();
});

const LOCK_SCRIPT = `
import { SessionStore } from ${JSON.stringify(join(ROOT, 'src/store/session-store.ts'))};
const store = SessionStore.open(process.argv[1]);
try { store.lockSession(process.argv[2]).release(); console.log('LOCKED'); } catch (e) { console.log('REFUSED ' + e.message); }
store.close();`;

void test('one runner per session: a second process is refused with the holder named; a dead holder is swept', () => {
  const path = join(tempDir(), 'lock.db');
  const store = SessionStore.open(path);
  const { session, lock } = store.createSession(NEW);
  const second = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', LOCK_SCRIPT, path, session.id],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.match(
    second.stdout,
    new RegExp(`REFUSED session ${session.id} is being run by process ${process.pid}`),
  );
  lock.release();
  store.db
    .prepare('INSERT INTO session_locks VALUES (?, ?, ?, ?, ?)')
    .run(
      session.id,
      2 ** 22 + 12345,
      (spawnSync('hostname', { encoding: 'utf8' }).stdout || '').trim(),
      new Date().toISOString(),
      new Date().toISOString(),
    );
  store.close();
  const reopened = SessionStore.open(path);
  assert.equal(
    reopened.session(session.id).status,
    'interrupted',
    "a dead runner's session is marked interrupted on open",
  );
  const third = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', LOCK_SCRIPT, path, session.id],
    { cwd: ROOT, encoding: 'utf8' },
  );
  assert.match(third.stdout, /LOCKED/);
  reopened.close();
});
