/**
 * run_sql: one read-only SELECT on the session's engine (DuckDB over the table "data"), for
 * questions a plan does not answer. The engine is locked (no file but the data, no extension,
 * no setting change) and the statement is typed by DuckDB's own parser, so nothing but a
 * SELECT runs. The model reads a bounded table: at most `max_rows` rows, long values cut.
 */
import { z } from 'zod';
import type { SelectResult } from '../../engine/engine.js';
import { OpsmindError } from '../../shared/exit-codes.js';
import { terminalText } from '../../util/terminal-text.js';
import { toolError } from './tool.js';
import type { Tool, ToolErrorDisplay } from './tool.js';

/** What a person sees: the query and the rows it returned. */
export interface SqlDisplay {
  kind: 'sql';
  sql: string;
  result: SelectResult;
}

/** Longest value shown in a cell; the rest is cut with "…". */
const MAX_CELL = 120;

const schema = z.object({
  sql: z
    .string()
    .min(1)
    .max(20_000)
    .describe(
      'one DuckDB SELECT (or WITH … SELECT) over the table "data"; aggregate in SQL rather than reading raw rows',
    ),
  max_rows: z
    .number()
    .int()
    .min(1)
    .max(200)
    .optional()
    .describe('rows to return (default 50, at most 200)'),
});

function cell(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint'
        ? String(value)
        : (JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)) ??
          '');
  const flat = terminalText(text).replace(/[\t\n|]/g, (c) => (c === '|' ? '\\|' : ' '));
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** The rows as a pipe-separated table with a header of names and types. */
export function sqlResultText(result: SelectResult): string {
  const header = result.columns.map((c, i) => `${cell(c)} (${result.types[i] ?? '?'})`).join(' | ');
  const lines = result.rows.map((row) => row.map(cell).join(' | '));
  const shown = `${result.rows.length} row${result.rows.length === 1 ? '' : 's'}`;
  const tail = result.more
    ? `first ${shown} shown; the query returns more (aggregate, filter or add LIMIT to see what matters)`
    : shown;
  return [`columns: ${header}`, ...lines, `(${tail})`].join('\n');
}

/** The run_sql tool; a query DuckDB rejects is a tool error with DuckDB's reason. */
export const runSqlTool: Tool<'run_sql', typeof schema, SqlDisplay | ToolErrorDisplay> = {
  name: 'run_sql',
  description:
    'Run one read-only DuckDB SELECT over the table "data" (every row of the dataset, typed as get_data_info shows). Returns at most max_rows rows; use it for exact counts, sums, group-bys and filters.',
  schema,
  example: { sql: 'SELECT count(*) AS rows FROM data' },
  async execute(args, ctx) {
    const engine = ctx.engine;
    if (!engine?.select)
      return toolError('run_sql needs the DuckDB engine, and this session has none');
    try {
      const result = await engine.select(args.sql, args.max_rows ?? 50, ctx.signal);
      return {
        forModel: sqlResultText(result),
        forDisplay: { kind: 'sql', sql: args.sql, result },
        ok: true,
      };
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      if (error instanceof OpsmindError) return toolError(`the query failed: ${error.message}`);
      throw error;
    }
  },
};
