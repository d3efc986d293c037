/** A test file's DuckDB, and what its table `data` holds: its schema, and its rows in file order. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { DuckDb } from '../../src/engine/duckdb.js';
import { attachSource } from '../../src/engine/source.js';

/**
 * A DuckDB for the calling file's tests (256 MB, 2 threads, spilling into `dir`), opened before
 * them; after them it is closed and `dir` removed. Returns its getter.
 */
export function testDatabase(dir: string): () => DuckDb {
  let db: DuckDb | null = null;
  before(async () => {
    db = await DuckDb.open({ memoryMb: 256, threads: 2, tempDir: join(dir, 'spill') });
  });
  after(() => {
    db?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    if (!db) throw new Error('the test database opens before the tests');
    return db;
  };
}

/** The table's column names and DuckDB types. */
export async function tableSchema(db: DuckDb): Promise<Record<string, string>> {
  const result = await db.all('DESCRIBE data');
  return Object.fromEntries(result.rows.map((row) => [String(row[0]), String(row[1])]));
}

/** Every row in file order (rowid), dates as DuckDB's text. */
export async function tableRows(db: DuckDb): Promise<Record<string, unknown>[]> {
  const cols = Object.entries(await tableSchema(db)).map(([name, type]) => {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    return /^(DATE|TIMESTAMP)/.test(type) ? `${quoted}::VARCHAR AS ${quoted}` : quoted;
  });
  return db.objects(`SELECT ${cols.join(', ')} FROM data ORDER BY rowid`);
}

/** Every row in file order as a JSON array of its values (dates as text). */
export async function tableValues(db: DuckDb): Promise<string[]> {
  return (await tableRows(db)).map((row) => JSON.stringify(Object.values(row)));
}

/** `text` written as `name` in `dir` and attached to `db` as `data`: its path and what the read said. */
export async function attachText(db: DuckDb, dir: string, name: string, text: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  return { path, info: await attachSource(db, path, { scratchDir: join(dir, 'scratch') }) };
}
