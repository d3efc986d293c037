/** What the table `data` of a test's DuckDB holds: its schema, and its rows in file order. */
import type { DuckDb } from '../../src/engine/duckdb.js';

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
