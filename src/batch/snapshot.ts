/**
 * A file's snapshot for "what changed": its columns and types from the profile, and — in SQL
 * over every row, on the session's locked DuckDB engine — each key measure's sum, mean and
 * count, the values of each small category, and 101 percentiles of each measure. Which columns
 * are measures, and whether one is summed or averaged, comes from the profile's semantics (what
 * each column means), never from its name alone.
 */
import type { DataProfile } from '../agent/profile.js';
import type { AnalysisEngine } from '../engine/engine.js';
import { ident } from '../engine/duckdb.js';
import { MAX_CATEGORY_VALUES } from './types.js';
import type { Snapshot } from './types.js';

/** Roles whose totals add up across rows; other measures are compared by their mean. */
const SUMMED = new Set(['amount', 'count']);
/** Numeric roles that are measures at all. */
const MEASURES = new Set(['amount', 'count', 'level', 'ratio', 'stock', 'cumulative']);
/** At most this many measures and categories are measured (the widest files stay cheap). */
const MAX_COLUMNS = 40;

const PERCENTILES = Array.from({ length: 101 }, (_, i) => (i / 100).toFixed(2)).join(', ');

function finite(value: unknown): number | null {
  const n = typeof value === 'bigint' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** The snapshot of the engine's data, given its profile (with semantics). */
export async function snapshotOf(
  engine: AnalysisEngine,
  profile: DataProfile,
  signal?: AbortSignal,
): Promise<Snapshot> {
  const select = engine.select?.bind(engine);
  if (!select) throw new Error('a snapshot needs the DuckDB engine');
  const roles = new Map(profile.semantics?.columns.map((c) => [c.name, c.role]) ?? []);
  const columns = profile.column_profiles.map((c) => ({
    name: c.name,
    type: c.semantic === 'numeric' ? c.dtype : c.semantic,
  }));
  const typed = await select('SELECT * FROM data LIMIT 0', 1, signal);
  const numericSql = new Set(
    typed.columns.filter((_, i) =>
      /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL)/.test(
        typed.types[i] ?? '',
      ),
    ),
  );
  const measureCols = profile.column_profiles
    .filter((c) => numericSql.has(c.name) && MEASURES.has(roles.get(c.name) ?? ''))
    .slice(0, MAX_COLUMNS);
  const categoryCols = profile.column_profiles
    .filter(
      (c) =>
        (c.semantic === 'category' || c.semantic === 'boolean') &&
        c.distinct <= MAX_CATEGORY_VALUES,
    )
    .slice(0, MAX_COLUMNS);

  const measures: Snapshot['measures'] = [];
  const quantiles: Snapshot['quantiles'] = [];
  for (const c of measureCols) {
    const col = ident(c.name);
    const r = await select(
      `SELECT sum(${col})::DOUBLE, avg(${col})::DOUBLE, count(${col}), quantile_cont(${col}, [${PERCENTILES}])::DOUBLE[] FROM data`,
      1,
      signal,
    );
    const [sum, mean, count, q] = r.rows[0] ?? [];
    const role = roles.get(c.name) ?? 'level';
    measures.push({
      column: c.name,
      role,
      stat: SUMMED.has(role) ? 'sum' : 'mean',
      sum: finite(sum),
      mean: finite(mean),
      count: finite(count) ?? 0,
    });
    if (Array.isArray(q) && q.every((v) => finite(v) !== null))
      quantiles.push({ column: c.name, q: q.map((v) => finite(v) ?? 0) });
  }
  const categories: Snapshot['categories'] = [];
  for (const c of categoryCols) {
    const col = ident(c.name);
    const r = await select(
      `SELECT DISTINCT CAST(${col} AS VARCHAR) AS v FROM data WHERE ${col} IS NOT NULL ORDER BY 1`,
      MAX_CATEGORY_VALUES,
      signal,
    );
    if (!r.more) categories.push({ column: c.name, values: r.rows.map((row) => String(row[0])) });
  }
  return { rows: profile.rows, columns, measures, categories, quantiles };
}
