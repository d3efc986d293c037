/** The DuckDB engine once locked: it reads no file, writes none, loads no extension, and no setting can change. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import { DuckDb, ident, literal } from '../src/engine/duckdb.js';
import { tempDir } from './helpers/fixtures.js';

let db: DuckDb;
const dir = tempDir();
const secret = join(dir, 'secret.csv');

before(async () => {
  writeFileSync(secret, 'a,b\n1,2\n');
  db = await DuckDb.open({ memoryMb: 128, threads: 1, tempDir: join(dir, 'spill') });
  await db.run(`CREATE TABLE data AS SELECT * FROM read_csv(${literal(secret)})`);
  await db.lock([]);
});
after(() => db.close());

void test('the attached data stays queryable after the lock', async () => {
  const r = await db.all('SELECT count(*) AS n FROM data');
  assert.deepEqual(r.rows, [[1]]);
});

for (const [what, sql] of [
  ['read a file', `SELECT * FROM read_csv(${literal(secret)})`],
  ['read /etc/passwd', `SELECT * FROM read_text('/etc/passwd')`],
  ['write a file', `COPY (SELECT 1) TO ${literal(join(dir, 'out.csv'))}`],
  ['attach a database', `ATTACH ${literal(join(dir, 'x.duckdb'))}`],
  ['install an extension', 'INSTALL httpfs'],
  ['load an extension', 'LOAD httpfs'],
  ['lift the memory limit', "SET memory_limit = '64GB'"],
  ['turn external access back on', 'SET enable_external_access = true'],
] as const) {
  void test(`a query cannot ${what}`, async () => {
    await assert.rejects(db.run(sql), (error: Error) => {
      assert.match(error.message, /disabled|locked|Permission|not allowed|Cannot/i);
      return true;
    });
  });
}

void test('identifiers and literals are quoted so no name changes a query', async () => {
  for (const name of ['a"b', 'x; DROP TABLE data; --', "it's", 'new\nline']) {
    const r = await db.all(`SELECT 1 AS ${ident(name)}, ${literal(name)} AS v`);
    assert.deepEqual(r.columns, [name, 'v']);
    assert.deepEqual(r.rows, [[1, name]]);
  }
  assert.throws(() => ident('nul\u0000'), /NUL/);
});

void test('a cancelled query ends with the abort reason', async () => {
  const controller = new AbortController();
  const running = db.all(
    'SELECT count(*) FROM range(2000000000) a, range(10) b',
    controller.signal,
  );
  setTimeout(() => controller.abort(new Error('stopped by the user')), 100);
  await assert.rejects(running, /stopped by the user/);
});

void test('every pooled connection is locked: queries issued together cannot read a file or lift a limit', async () => {
  const db = await DuckDb.open({ memoryMb: 256, threads: 4, tempDir: join(tempDir(), 'spill') });
  try {
    await db.run('CREATE TABLE data AS SELECT * FROM range(100000) t(i)');
    await db.lock([]);
    const slow = 'SELECT sum(i) AS s FROM data, range(100)';
    const tries = [
      slow,
      `${slow} -- 2`,
      `${slow} -- 3`,
      "SELECT * FROM read_csv('/etc/passwd')",
      "SELECT * FROM read_text('/etc/hostname')",
      "SELECT current_setting('enable_external_access') AS e, current_setting('lock_configuration') AS l",
    ];
    const results = await Promise.allSettled(tries.map((q) => db.all(q)));
    assert.equal(
      (db as unknown as { connections: unknown[] }).connections.length,
      4,
      'four connections, no more',
    );
    for (const r of results.slice(0, 3)) assert.equal(r.status, 'fulfilled');
    for (const r of results.slice(3, 5)) {
      assert.equal(r.status, 'rejected');
      assert.match(String(r.reason), /Permission Error|disabled/);
    }
    const settings = results[5];
    assert.ok(settings?.status === 'fulfilled');
    assert.deepEqual(settings.value.rows, [[false, true]]);
    await assert.rejects(
      db.run('SET enable_external_access = true'),
      /Cannot change configuration/,
    );
  } finally {
    db.close();
  }
});

/**
 * Runs `body` (lines of TypeScript with `db`, a fresh database, and `SLOW`, a query of seconds, in
 * scope) three times in a child process, each ending with a check that `db` is closed; its stdout lines.
 */
function probe(name: string, body: string[]): string[] {
  // In a child process: closing DuckDB under a running query crashed the process (SIGSEGV) or
  // hung it in closeSync, e.g. `opsmind run` on a file whose early locale sample was still running.
  const file = join(dir, `${name}.mts`);
  const engine = pathToFileURL(join(import.meta.dirname, '..', 'src', 'engine', 'duckdb.ts')).href;
  writeFileSync(
    file,
    [
      `import { DuckDb } from ${JSON.stringify(engine)};`,
      "const SLOW = 'SELECT count(*) FROM range(300000000) a WHERE hash(a.range) % 7 = 1';",
      `const spill = ${JSON.stringify(join(dir, `${name}-spill`))};`,
      'async function assertClosed(db) {',
      "  await db.all('SELECT 1').then(() => { throw new Error('still open'); }, (e) => { if (!/closed/.test(e.message)) throw e; });",
      '}',
      'for (let i = 0; i < 3; i++) {',
      '  const db = await DuckDb.open({ memoryMb: 256, threads: 2, tempDir: spill + i });',
      ...body.map((line) => `  ${line}`),
      '  await assertClosed(db);',
      '}',
    ].join('\n'),
  );
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.deepEqual([r.status, r.signal], [0, null], r.stderr);
  return r.stdout.trim().split('\n');
}

void test('closing the database while a query runs interrupts it and closes once it is back: no crash, no hang', () => {
  const lines = probe('close-running', [
    'const slow = db.all(SLOW);',
    "await db.all('SELECT 1');",
    'db.close();',
    "console.log(await slow.then(() => 'finished', (e) => e.message));",
  ]);
  assert.deepEqual(lines, Array(3).fill('the query was cancelled'));
});

void test('a query closed or aborted before DuckDB has begun it is cancelled all the same, not run to its end', () => {
  // DuckDB clears an interrupt when a query begins: one sent while the query is still on its way
  // to its thread was lost, and the query ran for seconds (the close, or a cancelled MCP call, waited).
  const lines = probe('cancel-early', [
    'const controller = new AbortController();',
    'const aborted = db.all(SLOW, controller.signal);',
    'await new Promise((resolve) => setImmediate(resolve));',
    'controller.abort();',
    "console.log(await aborted.then(() => 'finished', (e) => `aborted: ${e.message}`));",
    'const slow = db.all(SLOW);',
    'await new Promise((resolve) => setImmediate(resolve));',
    'db.close();',
    "console.log(await slow.then(() => 'finished', (e) => e.message));",
  ]);
  assert.deepEqual(
    lines,
    Array(3).fill(['aborted: This operation was aborted', 'the query was cancelled']).flat(),
  );
});
