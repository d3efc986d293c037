/**
 * The summary transform: what pandas 1.5's describe(include="all").T shows,
 * one row per column — count, mean, std, min, quartiles and max of numbers;
 * count, unique, top and freq of text and booleans; and for dates those plus
 * first and last — each statistic a column in the order pandas unites them,
 * empty (NULL) where it does not apply.
 */
import { finiteOf } from './profile-columns.js';
import type { Transform } from '../agent/plan.js';
import { ident, literal } from './duckdb.js';
import { added } from './sql-group.js';
import { columnOf } from './sql-rows.js';
import { noFindings, over, queryRow, tableOf } from './sql-spec.js';
import type { Ctx, Outcome } from './sql-spec.js';
import type { ColumnDtype } from '../spec/schema.js';
import { coarseType, isFloat, isNumber, isTemporal, isoText } from './sql-text.js';
import type { Column, Cte } from './sql-text.js';

type Summary = Extract<Transform, { type: 'summary' }>;

const NUMERIC = ['count', 'mean', 'std', 'min', '25%', '50%', '75%', 'max'] as const;
const CATEGORICAL = ['count', 'unique', 'top', 'freq'] as const;
const DATES = [...CATEGORICAL, 'first', 'last'] as const;
type Stat = (typeof NUMERIC)[number] | (typeof DATES)[number];

/** The type each statistic column has across rows (pandas writes counts of numbers as floats). */
const TYPE: Readonly<Record<Stat, string>> = {
  count: 'DOUBLE',
  unique: 'BIGINT',
  top: 'VARCHAR',
  freq: 'BIGINT',
  first: 'TIMESTAMP',
  last: 'TIMESTAMP',
  mean: 'DOUBLE',
  std: 'DOUBLE',
  min: 'DOUBLE',
  '25%': 'DOUBLE',
  '50%': 'DOUBLE',
  '75%': 'DOUBLE',
  max: 'DOUBLE',
};

interface Described {
  column: Column;
  stats: readonly Stat[];
  exprs: Partial<Record<Stat, string>>;
  top?: Cte;
}

function numeric(column: Column): Described {
  const c = `CAST(${ident(column.name)} AS DOUBLE)`;
  const present = isFloat(column.type)
    ? `count(${c}) FILTER (WHERE NOT isnan(${c}))`
    : `count(${c})`;
  // One aggregate for the three quartiles: DuckDB computes the identical call once.
  const q = (p: number): string =>
    `quantile_cont(${c}, [0.25, 0.5, 0.75])[${[0.25, 0.5, 0.75].indexOf(p) + 1}]`;
  return {
    column,
    stats: NUMERIC,
    exprs: {
      count: present,
      // Compensated (favg), as the group means are (aggregateSql) and pandas' pairwise mean is accurate.
      mean: added('avg', c, true),
      // NaN with an infinity among the values, as pandas has it (DuckDB's own fails the query).
      std: isFloat(column.type)
        ? `CASE WHEN count_if(isinf(${c})) = 0 THEN stddev_samp(${finiteOf(c)}) END`
        : `stddev_samp(${c})`,
      min: `min(${c})`,
      '25%': q(0.25),
      '50%': q(0.5),
      '75%': q(0.75),
      max: `max(${c})`,
    },
  };
}

// value_counts()[0]: the most frequent value, ties in order of first appearance.
function categorical(ctx: Ctx, column: Column, i: number, hasDates: boolean): Described {
  const c = ident(column.name);
  const top = `top_${i}`;
  const text = isTemporal(column.type)
    ? isoText(c)
    : column.type === 'VARCHAR'
      ? c
      : `CAST(${c} AS VARCHAR)`;
  const sql = [
    `SELECT ${text} AS top, count(*) AS freq`,
    'FROM source',
    `WHERE ${c} IS NOT NULL`,
    `GROUP BY ${c}`,
    `ORDER BY freq DESC, min(${ident(ctx.rows.row)})`,
    'LIMIT 1',
  ].join('\n');
  const exprs: Described['exprs'] = {
    count: `count(${c})`,
    unique: `count(DISTINCT ${c})`,
    top: `(SELECT top FROM ${top})`,
    freq: `(SELECT freq FROM ${top})`,
  };
  if (hasDates) Object.assign(exprs, { first: `min(${c})`, last: `max(${c})` });
  return { column, stats: hasDates ? DATES : CATEGORICAL, exprs, top: [top, sql] };
}

/**
 * The statistic columns in the order describe() unites the columns' own lists: shortest list first
 * (pandas' reorder_columns sorts them by length, stably), so a text column's count, unique, top
 * and freq come before a number's mean even when the number is the first column.
 */
function union(described: readonly Described[]): Stat[] {
  const out: Stat[] = [];
  const lists = described.map((d) => d.stats).sort((a, b) => a.length - b.length);
  for (const stats of lists) for (const s of stats) if (!out.includes(s)) out.push(s);
  return out;
}

function rowSql(d: Described, i: number, stats: readonly Stat[]): string {
  const values = stats.map((s) => `${d.exprs[s] ?? `NULL::${TYPE[s]}`} AS ${ident(s)}`);
  return `SELECT ${i} AS position, ${literal(d.column.name)} AS "column", ${values.join(', ')}\nFROM source`;
}

/** The dtype pandas infers for the top column: its values' one type, or "other" when they mix. */
function topDtype(described: readonly Described[]): ColumnDtype {
  const kinds = new Set(
    described
      .filter(
        (d) => d.stats.includes('top') && (!isTemporal(d.column.type) || d.stats.includes('first')),
      )
      .map((d) => coarseType(d.column.type)),
  );
  const [only] = kinds;
  return kinds.size === 1 && only ? only : 'other';
}

/** Which date columns have any value (describe() gives first and last only to those). */
async function datesWithValues(ctx: Ctx, columns: readonly Column[]): Promise<Set<string>> {
  const dates = columns.filter((c) => isTemporal(c.type));
  if (dates.length === 0) return new Set();
  const counts = dates.map((c, i) => `count(${ident(c.name)}) AS "${i}"`).join(', ');
  const row = await queryRow(ctx, over(ctx, [], `SELECT ${counts}\nFROM source`));
  return new Set(dates.filter((_, i) => Number(row[String(i)]) > 0).map((c) => c.name));
}

/** The summary transform of an analysis: the described table. */
export async function summaryAnalysis(ctx: Ctx, t: Summary): Promise<Outcome> {
  const columns = t.columns?.length
    ? t.columns.map((n) => columnOf(ctx.rows, n))
    : ctx.rows.columns;
  if (columns.length === 0)
    throw new Error('ValueError: Cannot describe a DataFrame without columns');
  const dated = await datesWithValues(ctx, columns);
  const described = columns.map((c, i) =>
    isNumber(c.type) ? numeric(c) : categorical(ctx, c, i, dated.has(c.name)),
  );
  const stats = union(described);
  const rows = described.map((d, i) => rowSql(d, i, stats)).join('\nUNION ALL\n');
  const tops = described.flatMap((d) => (d.top ? [d.top] : []));
  const sql = over(
    ctx,
    [...tops, ['described', rows]],
    'SELECT * EXCLUDE (position)\nFROM described\nORDER BY position',
  );
  const declared = await tableOf(ctx, sql, 60, { sourceRows: columns.length });
  const dtypes: Record<string, ColumnDtype> = { top: topDtype(described) };
  const sourceColumns = declared.sourceColumns.map((c) => ({
    ...c,
    dtype: dtypes[c.name] ?? c.dtype,
  }));
  return { declared: { ...declared, sourceColumns, dtypes }, findings: noFindings };
}
