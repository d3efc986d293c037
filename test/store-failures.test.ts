/**
 * The session store on failing storage, with real files and real mounts: a
 * full disk (a tiny tmpfs), a file with garbage in the middle or in its
 * header, and a read-only location (a tmpfs remounted read-only, which holds
 * for root too; an immutable file with chattr +i). Each gives one message
 * naming the store, a hint, and exit 3; `sessions list` and `show` still read
 * a read-only store, including a WAL store left by a killed process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import Database from 'better-sqlite3';
import { SessionStore } from '../src/store/session-store.js';
import { ROOT, runCli, salesCsv, tempDir } from './helpers/fixtures.js';
import type { CliResult } from './helpers/fixtures.js';

const mounted: string[] = [];

function mountTmpfs(dir: string, size: string): boolean {
  mkdirSync(dir, { recursive: true });
  const ok = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]).status === 0;
  if (ok) mounted.push(dir);
  return ok;
}

function remountReadOnly(dir: string): void {
  assert.equal(spawnSync('mount', ['-o', 'remount,ro', dir]).status, 0, `remount ${dir} read-only`);
}

after(() => {
  for (const dir of mounted)
    if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
});

const CAN_MOUNT = mountTmpfs(join(tempDir(), 'probe'), '64k');
const NEEDS_MOUNT = CAN_MOUNT ? false : 'needs mount(8) of a tmpfs (root with CAP_SYS_ADMIN)';

/** One line `opsmind: …`, one `hint: …`, exit 3, never an internal error. */
function assertStoreError(r: CliResult, message: RegExp): void {
  assert.equal(r.status, 3, `exit 3, got ${String(r.status)}: ${r.stderr}`);
  assert.match(r.stderr, message);
  assert.match(r.stderr, /^opsmind: the session store .*\n {2}hint: .+\n$/);
  assert.doesNotMatch(r.stderr, /internal error|\n\s+at /);
}

const NEW = { command: 'run', mode: 'script', dataSha256: 'ab'.repeat(32), dataSize: 10 };

/** A real store with `sessions` finished sessions, each with events and an artifact; returns their ids. */
function fillStore(path: string, sessions: number): string[] {
  const store = SessionStore.open(path);
  const ids: string[] = [];
  for (let s = 0; s < sessions; s += 1) {
    const { session, lock } = store.createSession({
      ...NEW,
      dataPath: `/data/d${s}.csv`,
      title: `t${s}`,
    });
    for (let e = 0; e < 30; e += 1)
      store.append(session.id, { type: 'warning', message: `event ${e} `.repeat(20) });
    store.appendWithArtifacts(
      session.id,
      1,
      [{ name: 'artifacts/c1.json', content: Buffer.alloc(3000, 65) }],
      {
        type: 'artifact_added',
        step: 1,
        charts: [{ id: 'c1', kind: 'bar', title: null, seq: 1 }],
        tables: [],
      },
    );
    store.finish(session.id, 'done');
    lock.release();
    ids.push(session.id);
  }
  store.close();
  return ids;
}

function script(dir: string, code: string): string {
  const path = join(dir, 'job.py');
  writeFileSync(path, code);
  return path;
}

void test(
  'a full disk: the run that cannot store its step ends with one clear message, exit 3; another store works',
  { skip: NEEDS_MOUNT },
  () => {
    const dir = tempDir();
    const disk = join(dir, 'disk');
    assert.ok(mountTmpfs(disk, '1m'));
    const db = join(disk, 'sessions.db');
    const job = script(
      dir,
      'declare_table(pd.DataFrame({"s": ["x" * 2000] * 1000}), max_rows=1000)\n',
    );
    const data = salesCsv(dir);
    const r = runCli(['--db', db, 'run', job, '--data', data, '-o', join(dir, 'r.html')]);
    assertStoreError(
      r,
      /^opsmind: the session store .*sessions\.db is full: no space left on its disk \(database or disk is full/,
    );
    assert.match(r.stderr, /hint: free some disk space/);
    const elsewhere = runCli([
      '--db',
      join(dir, 'other.db'),
      'run',
      job,
      '--data',
      data,
      '-o',
      join(dir, 'ok.html'),
    ]);
    assert.equal(elsewhere.status, 0, elsewhere.stderr);
  },
);

void test(
  'a full disk before the store exists: opening it is the same clear error',
  { skip: NEEDS_MOUNT },
  () => {
    const disk = join(tempDir(), 'disk');
    assert.ok(mountTmpfs(disk, '256k'));
    try {
      writeFileSync(join(disk, 'filler'), Buffer.alloc(1024 * 1024));
    } catch (error) {
      assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
    }
    assertStoreError(
      runCli(['--db', join(disk, 'sessions.db'), 'sessions', 'list']),
      /is full: no space left on its disk/,
    );
  },
);

function overwrite(path: string, at: number, length: number): void {
  let seed = 7;
  const garbage = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    garbage[i] = seed & 0xff;
  }
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, garbage, 0, length, at);
  } finally {
    closeSync(fd);
  }
}

void test('garbage in the middle of a real store: the commands that read it say it is damaged, exit 3', () => {
  const path = join(tempDir(), 'sessions.db');
  const ids = fillStore(path, 20);
  const size = statSync(path).size;
  overwrite(path, Math.floor(size * 0.3), Math.floor(size * 0.4));
  assertStoreError(
    runCli(['--db', path, 'sessions', 'list']),
    /^opsmind: the session store .* is damaged: database disk image is malformed/,
  );
  assert.match(
    runCli(['--db', path, 'sessions', 'list']).stderr,
    /hint: move it aside \(mv '.*sessions\.db' '.*sessions\.db\.damaged'\)/,
  );
  const shows = ids.map((id) => runCli(['--db', path, 'sessions', 'show', id, '--json']));
  assert.ok(
    shows.every((r) => r.status === 0 || r.status === 3),
    shows.map((r) => r.stderr).join(''),
  );
  const damaged = shows.filter((r) => r.status === 3);
  assert.ok(damaged.length > 0, 'some session lives in the damaged pages');
  for (const r of damaged) assertStoreError(r, /is damaged/);
});

void test('an event that is no JSON object, as garbage over a page can leave one: damaged, exit 3', () => {
  // Garbage in the middle of the file sometimes has SQLite return a payload of null or of broken
  // text rather than SQLITE_CORRUPT (the test above met it as an "internal error").
  for (const payload of ['null', '{"type": "warn', '[1, 2]', '\u0000\u0001garbage']) {
    const path = join(tempDir(), 'sessions.db');
    const [id] = fillStore(path, 1);
    const db = new Database(path);
    db.pragma('ignore_check_constraints = ON'); // the store's CHECK (json_valid) is what garbage skips
    db.prepare('UPDATE events SET payload = ? WHERE seq = 3').run(payload);
    db.close();
    assertStoreError(
      runCli(['--db', path, 'sessions', 'show', id ?? '', '--json']),
      /is damaged: event 3 of a session is not a JSON object/,
    );
  }
});

void test('garbage over the header: every command, reading or writing, says the store is damaged', () => {
  const dir = tempDir();
  const path = join(dir, 'sessions.db');
  fillStore(path, 2);
  overwrite(path, 0, 4096);
  assertStoreError(
    runCli(['--db', path, 'sessions', 'list']),
    /is damaged: file is not a database/,
  );
  assertStoreError(
    runCli([
      '--db',
      path,
      'run',
      script(dir, 'print(1)\n'),
      '--data',
      salesCsv(dir),
      '-o',
      join(dir, 'r.html'),
    ]),
    /is damaged: file is not a database/,
  );
});

function assertReadsButRefusesWrites(db: string, ids: string[], dir: string): void {
  const list = runCli(['--db', db, 'sessions', 'list']);
  assert.equal(list.status, 0, list.stderr);
  for (const id of ids) assert.match(list.stdout, new RegExp(`^${id} `, 'm'));
  const json = runCli(['--db', db, 'sessions', 'list', '--json']);
  assert.equal(json.status, 0, json.stderr);
  assert.deepEqual(
    (JSON.parse(json.stdout) as { id: string }[]).map((s) => s.id).sort(),
    [...ids].sort(),
  );
  const show = runCli(['--db', db, 'sessions', 'show', ids[0] ?? '']);
  assert.equal(show.status, 0, show.stderr);
  assert.match(show.stdout, /warning/);
  assertStoreError(
    runCli([
      '--db',
      db,
      'run',
      script(dir, 'print(1)\n'),
      '--data',
      salesCsv(dir),
      '-o',
      join(dir, 'r.html'),
    ]),
    /^opsmind: the session store .* is read-only: (EROFS|EPERM|EACCES)/,
  );
  assertStoreError(runCli(['--db', db, 'sessions', 'rm', ids[0] ?? '']), /is read-only/);
}

void test(
  'a read-only mount: sessions list and show read the store, writing commands say it is read-only',
  { skip: NEEDS_MOUNT },
  () => {
    const dir = tempDir();
    const disk = join(dir, 'disk');
    assert.ok(mountTmpfs(disk, '4m'));
    const db = join(disk, 'sessions.db');
    const ids = fillStore(db, 3);
    assert.equal(
      existsSync(`${db}-shm`),
      false,
      'a cleanly closed WAL store has no -shm for SQLite to read it with',
    );
    remountReadOnly(disk);
    assertReadsButRefusesWrites(db, ids, dir);
  },
);

const KILLED_WRITER = `
import { SessionStore } from ${JSON.stringify(join(ROOT, 'src/store/session-store.ts'))};
const store = SessionStore.open(process.argv[1]);
const { session } = store.createSession({ command: 'run', mode: 'script', dataPath: '/data/killed.csv', dataSha256: 'ab'.repeat(32), dataSize: 1 });
store.append(session.id, { type: 'warning', message: 'written before the kill' });
console.log(session.id);
process.kill(process.pid, 'SIGKILL');`;

void test(
  'a read-only mount holding a WAL store of a killed process: its last writes are read too',
  { skip: NEEDS_MOUNT },
  () => {
    const dir = tempDir();
    const disk = join(dir, 'disk');
    assert.ok(mountTmpfs(disk, '4m'));
    const db = join(disk, 'sessions.db');
    const [first = ''] = fillStore(db, 1);
    const killed = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', KILLED_WRITER, db],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const id = killed.stdout.trim();
    assert.match(id, /^[a-z2-9]{8}$/, killed.stderr);
    assert.ok(existsSync(`${db}-wal`), 'the kill left the write-ahead log');
    remountReadOnly(disk);
    const list = runCli(['--db', db, 'sessions', 'list', '--json']);
    assert.equal(list.status, 0, list.stderr);
    assert.deepEqual(
      (JSON.parse(list.stdout) as { id: string }[]).map((s) => s.id).sort(),
      [first, id].sort(),
    );
    const show = runCli(['--db', db, 'sessions', 'show', id, '--json']);
    assert.equal(show.status, 0, show.stderr);
    assert.match(show.stdout, /written before the kill/);
  },
);

function chattr(flag: '+i' | '-i', path: string): boolean {
  return spawnSync('chattr', [flag, path]).status === 0;
}

void test('an immutable store file (chattr +i, which holds for root): read in place, writes refused', (t) => {
  const dir = tempDir();
  const db = join(dir, 'sessions.db');
  const ids = fillStore(db, 2);
  if (!chattr('+i', db)) return t.skip('chattr +i is not supported here');
  try {
    assertReadsButRefusesWrites(db, ids, dir);
  } finally {
    chattr('-i', db);
  }
});
