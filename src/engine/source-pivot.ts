/**
 * A pivot table exported in its compact layout writes each group's label once, on its first row,
 * and leaves the cells below it blank down to the group's subtotal ("North", "", "", "North
 * Total"). Those blanks are the group's: filled with its label, in file order, so every row is
 * charted with its group — not as a blank group beside a region that lost its rows. Only a blank
 * between a label and that label's own subtotal is filled. The sandbox's reader fills the same
 * cells (opsmind_data._fill_pivot_labels).
 */
import { ident, literal } from './duckdb.js';
import type { DuckDb } from './duckdb.js';
import { describeData } from './source-common.js';
import { DATA_RELATION } from './types.js';
import { SUBTOTAL_LABEL } from '../agent/semantics-aggregates.js';

/** The leftmost text columns looked at: a pivot's row labels come first. */
const PIVOT_COLUMNS = 10;

/** Fills each compact pivot's blank label cells with their group's label; one warning per column. */
export async function fillPivotLabels(db: DuckDb, signal?: AbortSignal): Promise<string[]> {
  const texts = (await describeData(db, signal))
    .filter((column) => column.type === 'VARCHAR')
    .slice(0, PIVOT_COLUMNS);
  if (texts.length === 0) return [];
  const label = literal(SUBTOTAL_LABEL);
  const data = ident(DATA_RELATION);
  const checks = texts.map(
    (c) =>
      `count(*) FILTER (WHERE ${ident(c.name)} IS NULL), count(*) FILTER (WHERE regexp_full_match(trim(${ident(c.name)}), ${label}))`,
  );
  const [row = []] = (await db.all(`SELECT ${checks.join(', ')} FROM ${data}`, signal)).rows;
  const warnings: string[] = [];
  for (const [i, column] of texts.entries()) {
    if (!(Number(row[2 * i]) > 0 && Number(row[2 * i + 1]) > 0)) continue;
    const c = ident(column.name);
    const stem = (text: string) =>
      `lower(coalesce(nullif(regexp_extract(trim(${text}), ${label}, 1), ''), nullif(regexp_extract(trim(${text}), ${label}, 2), '')))`;
    const around = `SELECT rowid AS r, last_value(${c} IGNORE NULLS) OVER (ORDER BY rowid ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev, first_value(${c} IGNORE NULLS) OVER (ORDER BY rowid ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS next FROM ${data}`;
    const [filled = {}] = await db.objects(
      `WITH f AS (${around}) SELECT count(*) AS n, min(prev) AS example FROM f JOIN ${data} ON ${data}.rowid = f.r WHERE ${data}.${c} IS NULL AND ${stem('next')} = lower(trim(prev))`,
      signal,
    );
    const n = Number(filled.n);
    if (!(n > 0)) continue;
    await db.run(
      `UPDATE ${data} SET ${c} = f.prev FROM (${around}) AS f WHERE ${data}.rowid = f.r AND ${data}.${c} IS NULL AND ${stem('f.next')} = lower(trim(f.prev))`,
      signal,
    );
    warnings.push(
      `filled ${n} blank ${JSON.stringify(column.name)} cell(s) with the group label above them, as a pivot table's compact layout leaves them blank down to the group's subtotal (such as ${JSON.stringify(String(filled.example))})`,
    );
    const heading = await dropHeadings(db, column.name, signal);
    if (heading) warnings.push(heading);
  }
  return warnings;
}

/**
 * Leaves out the rows that hold only a group's label, every other cell blank, above the group's
 * rows (QuickBooks' "Checking" over its transactions): a report's heading, not a record, which
 * would count once more in the rows of its group. The table is written again in its order, so
 * rowids stay 0 … rows − 1. The sandbox's reader does the same (opsmind_data._drop_headings).
 */
async function dropHeadings(
  db: DuckDb,
  name: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const data = ident(DATA_RELATION);
  const others = (await describeData(db, signal)).filter((c) => c.name !== name);
  const c = ident(name);
  const bare = others.length ? others.map((o) => `${ident(o.name)} IS NULL`).join(' AND ') : 'true';
  const headings = `SELECT r FROM (SELECT rowid AS r, ${c} AS v, lead(${c}) OVER (ORDER BY rowid) AS nx, ${bare} AS bare FROM ${data}) WHERE bare AND v IS NOT NULL AND nx = v AND NOT regexp_full_match(trim(v, ' '), ${literal(SUBTOTAL_LABEL)})`;
  const [found = {}] = await db.objects(
    `SELECT count(*) AS n, min(${c}) AS example FROM ${data} WHERE rowid IN (${headings})`,
    signal,
  );
  const n = Number(found.n);
  if (!(n > 0)) return null;
  await db.run(
    `CREATE OR REPLACE TABLE ${data} AS SELECT * FROM ${data} WHERE rowid NOT IN (${headings}) ORDER BY rowid`,
    signal,
  );
  return `left out ${n} row(s) that hold only a group's label in ${JSON.stringify(name)}, above the group's rows, every other cell blank (such as ${JSON.stringify(String(found.example))}): a report's heading, not a record`;
}
