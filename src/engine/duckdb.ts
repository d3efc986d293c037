/**
 * The embedded DuckDB database fast mode runs on: one in-memory instance per
 * session, bounded (memory limit, threads, a spill directory of its own), and
 * locked once the data source is attached — external access off but for the
 * data file itself, configuration frozen — so no query, however it was
 * written, can read or write another file, load an extension or lift a limit.
 */
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync } from 'node:fs';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { duckdbApi } from './duckdb-api.js';
import { useIdle } from '../util/idle.js';

/** How an engine database is bounded. */
export interface DuckDbOptions {
  /** DuckDB's memory limit; beyond it, operators spill to `tempDir` or the query fails. */
  memoryMb: number;
  threads: number;
  /** The spill directory: inside the session's own temp dir, created if missing. */
  tempDir: string;
  /** Spill at most this much (DuckDB's max_temp_directory_size). */
  maxTempMb?: number;
}

/** A query's result: column names, DuckDB type names, and row-major JS values. */
export interface QueryResult {
  columns: string[];
  types: string[];
  rows: unknown[][];
}

/** A SQL identifier, quoted so no column name can change a query (`"` doubled; NUL refused). */
export function ident(name: string): string {
  if (name.includes('\u0000'))
    throw new OpsmindError('a column name holds a NUL character', ExitCode.BAD_INPUT);
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal (`'` doubled; NUL refused). */
export function literal(text: string): string {
  if (text.includes('\u0000'))
    throw new OpsmindError('a value holds a NUL character', ExitCode.BAD_INPUT);
  return `'${text.replaceAll("'", "''")}'`;
}

/** A JS value as DuckDB returns it, made JSON-ready: BIGINT/HUGEINT → number, DECIMAL → number, dates → ISO text. */
export function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date)
    return Number.isNaN(value.getTime()) ? null : value.toISOString().replace('Z', '');
  if (Array.isArray(value)) return value.map(plainValue);
  return value;
}

/** DuckDB's error text in one line, limits said in the user's words. */
function explain(error: unknown, limits: DuckDbOptions): OpsmindError {
  if (error instanceof OpsmindError) return error;
  const lines = (error instanceof Error ? error.message : String(error))
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  // A CSV error's first line is only "CSV Error on Line: N"; the reason follows it.
  const text =
    (/^CSV Error on Line/i.test(lines[0] ?? '') ? lines.slice(0, 2).join(': ') : lines[0]) ??
    'query failed';
  if (/out of memory|could not allocate|failed to allocate/i.test(text))
    return new OpsmindError(
      `the query needs more than the ${limits.memoryMb} MB memory limit (raise it with --memory-mb): ${text}`,
      ExitCode.SANDBOX,
    );
  if (/max_temp_directory_size|temp(orary)? directory .*(full|size)|No space left/i.test(text))
    return new OpsmindError(
      `the query spilled more than its disk allowance: ${text}`,
      ExitCode.SANDBOX,
    );
  if (/INTERRUPT/i.test(text))
    return new OpsmindError('the query was cancelled', ExitCode.INTERNAL);
  return new OpsmindError(text, ExitCode.INTERNAL);
}

/** Results of at most this many rows are kept for a repeated query. */
const CACHED_ROWS = 20_000;
/** How often a query being cancelled is interrupted again, until it is back. */
const INTERRUPT_MS = 20;
/** At most this many results are kept. */
const CACHED_QUERIES = 512;

/**
 * One bounded DuckDB database. Queries issued together run on up to `threads` connections, all
 * opened with it (the settings `lock` makes are global: they bind every connection), so a slow
 * query does not hold back a quick one. Once locked, the result of
 * a read-only query (SELECT, WITH) is kept and a repeated query is answered from it: two charts
 * of one plan often need the same statistics; a DESCRIBE's result is kept before too. Any
 * statement run with `run` (which may change a table) clears them.
 */
export class DuckDb {
  private closed = false;
  /** Whether the connections and the database are closed (close, once none is busy). */
  private shut = false;
  private locked = false;
  private readonly results = new Map<string, Promise<QueryResult>>();
  private readonly connections: DuckDBConnection[];
  private readonly idle: DuckDBConnection[];
  private opened = 1;
  private keptTables = 0;
  /** Connections being interrupted, each with the timer that repeats it until the connection is back. */
  private readonly interrupting = new Map<DuckDBConnection, ReturnType<typeof setInterval>>();
  private readonly waiting: {
    resolve: (c: DuckDBConnection) => void;
    reject: (e: Error) => void;
  }[] = [];

  private constructor(
    private readonly instance: DuckDBInstance,
    connection: DuckDBConnection,
    readonly options: DuckDbOptions,
  ) {
    this.connections = [connection];
    this.idle = [connection];
  }

  /** Opens an in-memory database with its limits (they can only be tightened until `lock`). */
  static async open(options: DuckDbOptions): Promise<DuckDb> {
    mkdirSync(options.tempDir, { recursive: true, mode: 0o700 });
    const instance = await duckdbApi().DuckDBInstance.create(':memory:', {
      memory_limit: `${Math.max(16, Math.floor(options.memoryMb))}MB`,
      threads: String(Math.max(1, Math.floor(options.threads))),
      temp_directory: options.tempDir,
      max_temp_directory_size: `${Math.max(64, Math.floor(options.maxTempMb ?? 8192))}MB`,
      preserve_insertion_order: 'true',
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      // Not ~/.duckdb: nothing of the host's home is touched, or named in an error message. Beside
      // the spill directory, not in it: outside the allowed directories, so nothing can be
      // installed there (INSTALL fails on the directory before any download).
      home_directory: `${options.tempDir}-home`,
      secret_directory: `${options.tempDir}-home/secrets`,
      extension_directory: `${options.tempDir}-home/extensions`,
    });
    // Every connection at once: one opened while a query runs waits for it (a sniff, ~50 ms).
    const [connection, ...more] = await Promise.all(
      Array.from({ length: Math.max(1, Math.floor(options.threads)) }, () => instance.connect()),
    );
    if (!connection) throw new OpsmindError('no DuckDB connection', ExitCode.INTERNAL);
    const db = new DuckDb(instance, connection, options);
    for (const extra of more) db.adopt(extra);
    return db;
  }

  /** A connection opened with the database, idle until a query needs it. */
  private adopt(connection: DuckDBConnection): void {
    this.connections.push(connection);
    this.idle.push(connection);
    this.opened += 1;
  }

  /** DuckDB's version, e.g. "v1.5.6". */
  async version(): Promise<string> {
    const result = await this.all('SELECT version()');
    const version = result.rows[0]?.[0];
    return typeof version === 'string' ? version : 'unknown';
  }

  /**
   * From now on the database reads only `allowedPaths` (the data file), writes no file but its
   * spill directory, loads no extension, and its configuration cannot change.
   */
  async lock(allowedPaths: readonly string[]): Promise<void> {
    if (this.locked) return;
    const list = allowedPaths.map(literal).join(', ');
    await this.run(`SET allowed_paths = [${list}]`);
    await this.run(`SET allowed_directories = [${literal(this.options.tempDir)}]`);
    await this.run('SET enable_external_access = false');
    await this.run('SET lock_configuration = true');
    this.locked = true;
  }

  /** Whether `lock` has run. */
  get isLocked(): boolean {
    return this.locked;
  }

  /** Runs a statement, discarding its result. */
  async run(sql: string, signal?: AbortSignal): Promise<void> {
    this.results.clear();
    await this.guard(signal, async (connection) => {
      await connection.run(sql);
    });
  }

  /** Runs a query and reads every row (JSON-ready values: `plainValue`); a copy of a kept result for a repeated one. */
  async all(sql: string, signal?: AbortSignal): Promise<QueryResult> {
    if (!this.cacheable(sql)) return this.read(sql, signal);
    let result = this.results.get(sql);
    if (!result) {
      result = this.read(sql, signal);
      this.results.set(sql, result);
      result.then(
        (r) => r.rows.length > CACHED_ROWS && this.results.delete(sql),
        () => this.results.delete(sql),
      );
      if (this.results.size > CACHED_QUERIES)
        this.results.delete(this.results.keys().next().value as string);
    }
    const kept = await result;
    return {
      columns: [...kept.columns],
      types: [...kept.types],
      rows: kept.rows.map((r) => [...r]),
    };
  }

  /**
   * Whether a result may be kept: a read-only query once the data is locked; a DESCRIBE at any
   * time (reading a file describes its table after each step, and every change goes through `run`).
   */
  private cacheable(sql: string): boolean {
    return /^\s*DESCRIBE\b/i.test(sql) || (this.locked && /^\s*(SELECT|WITH)\b/i.test(sql));
  }

  private async read(sql: string, signal?: AbortSignal): Promise<QueryResult> {
    return this.guard(signal, async (connection) => {
      const reader = await connection.runAndReadAll(sql);
      return {
        columns: reader.columnNames(),
        types: reader.columnTypes().map(String),
        rows: reader.getRowsJS().map((row) => row.map(plainValue)),
      };
    });
  }

  /**
   * Keeps the result of a read-only query (SELECT, WITH) as a table of the database and returns
   * its quoted name, so that the queries of one analysis which all start from the same aggregate
   * (its groups, its periods) read it instead of aggregating every row again. The table is
   * derived from `data`, which cannot change once locked, so kept results stay valid until
   * `dropKept`.
   */
  async keep(sql: string, signal?: AbortSignal): Promise<string> {
    if (!this.locked || !/^\s*(SELECT|WITH)\b/i.test(sql))
      throw new OpsmindError(
        'only a read-only query of the locked data is kept',
        ExitCode.INTERNAL,
      );
    const name = ident(`_opsmind_kept_${++this.keptTables}`);
    await this.guard(signal, async (connection) => {
      await connection.run(`CREATE TABLE ${name} AS ${sql}`);
    });
    return name;
  }

  /** Drops tables `keep` made (once their analysis is done), and the results kept of queries that read them. */
  async dropKept(names: readonly string[], signal?: AbortSignal): Promise<void> {
    for (const name of names) {
      if (!/^"_opsmind_kept_\d+"$/.test(name))
        throw new OpsmindError(`not a kept table: ${name}`, ExitCode.INTERNAL);
      await this.guard(signal, async (connection) => {
        await connection.run(`DROP TABLE IF EXISTS ${name}`);
      });
      for (const sql of [...this.results.keys()]) if (sql.includes(name)) this.results.delete(sql);
    }
  }

  /**
   * A query written outside OpsMind (run_sql), read-only: exactly one statement, which DuckDB's
   * own parser types as SELECT (no DDL, DML, COPY, SET, ATTACH or CALL; the PRAGMAs DuckDB
   * itself rewrites to queries, such as table_info and show_tables, only read), reading at most
   * `maxRows` rows (chunk by chunk, never the whole result). `more` says rows were left unread.
   * Errors keep DuckDB's first lines (a binder error names the candidate columns).
   */
  async select(
    sql: string,
    maxRows: number,
    signal?: AbortSignal,
  ): Promise<QueryResult & { more: boolean }> {
    if (!this.locked) throw new OpsmindError('the engine is not locked yet', ExitCode.INTERNAL);
    return this.guard(signal, async (connection) => {
      try {
        if (!/[^\s;]/.test(sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '')))
          throw new OpsmindError(
            'send one SELECT statement; this text has none',
            ExitCode.BAD_INPUT,
          );
        const statements = await connection.extractStatements(sql);
        if (statements.count !== 1)
          throw new OpsmindError(
            `send exactly one SELECT statement (got ${statements.count})`,
            ExitCode.BAD_INPUT,
          );
        const prepared = await statements.prepare(0);
        const type = prepared.statementType;
        if (type !== duckdbApi().StatementType.SELECT)
          throw new OpsmindError(
            `only read-only SELECT queries run here; this is a ${String(duckdbApi().StatementType[type] ?? type)} statement`,
            ExitCode.BAD_INPUT,
          );
        const reader = await prepared.runAndReadUntil(maxRows + 1);
        const rows = reader.getRowsJS();
        return {
          columns: reader.columnNames(),
          types: reader.columnTypes().map(String),
          rows: rows.slice(0, maxRows).map((row) => row.map(plainValue)),
          more: rows.length > maxRows || !reader.done,
        };
      } catch (error) {
        if (error instanceof OpsmindError) throw error;
        const text = error instanceof Error ? error.message : String(error);
        if (/out of memory|could not allocate|INTERRUPT|max_temp_directory_size/i.test(text))
          throw explain(error, this.options);
        const lines = text
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        throw new OpsmindError(lines.slice(0, 3).join(' ') || 'query failed', ExitCode.BAD_INPUT);
      }
    });
  }

  /** Runs a query and returns its rows as objects keyed by column name. */
  async objects(sql: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
    const result = await this.all(sql, signal);
    return result.rows.map((row) =>
      Object.fromEntries(result.columns.map((name, i) => [name, row[i]])),
    );
  }

  /** A free connection: an idle one, a new one (up to `threads`), or the next released. */
  private async acquire(): Promise<DuckDBConnection> {
    const free = this.idle.pop();
    if (free) return free;
    if (this.opened < Math.max(1, this.options.threads)) {
      this.opened += 1; // counted before the await, so callers at once cannot open too many
      const connection = await this.instance.connect().catch((error: unknown) => {
        this.opened -= 1;
        throw error;
      });
      this.connections.push(connection);
      return connection;
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /**
   * Interrupts the query on `connection`, again every INTERRUPT_MS until it is back (release): an
   * interrupt that lands before DuckDB has begun the query is cleared when the query begins, and
   * the query would then run to its end.
   */
  private interrupt(connection: DuckDBConnection): void {
    connection.interrupt();
    if (this.interrupting.has(connection)) return;
    const timer = setInterval(() => connection.interrupt(), INTERRUPT_MS);
    timer.unref();
    this.interrupting.set(connection, timer);
  }

  private release(connection: DuckDBConnection): void {
    clearInterval(this.interrupting.get(connection));
    this.interrupting.delete(connection);
    const next = this.closed ? undefined : this.waiting.shift();
    if (next) next.resolve(connection);
    else this.idle.push(connection);
    if (this.closed) this.closeWhenIdle();
  }

  private async guard<T>(
    signal: AbortSignal | undefined,
    body: (connection: DuckDBConnection) => Promise<T>,
  ): Promise<T> {
    if (this.closed) throw new OpsmindError('the engine is closed', ExitCode.INTERNAL);
    signal?.throwIfAborted();
    const connection = await this.acquire();
    if (this.closed) {
      this.release(connection);
      throw new OpsmindError('the engine is closed', ExitCode.INTERNAL);
    }
    const stop = (): void => this.interrupt(connection);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      signal?.throwIfAborted();
      const running = body(connection);
      useIdle(); // this thread waits for DuckDB's: a good moment for work a run needs later
      const result = await running;
      signal?.throwIfAborted(); // a query that ended as it was cancelled is cancelled all the same
      return result;
    } catch (error) {
      if (signal?.aborted)
        throw signal.reason instanceof Error
          ? signal.reason
          : new OpsmindError('the query was cancelled', ExitCode.INTERNAL);
      throw explain(error, this.options);
    } finally {
      signal?.removeEventListener('abort', stop);
      this.release(connection);
    }
  }

  /**
   * Closes the connections and the database; idempotent. A query still running (one started
   * beside another and left behind when that one failed, say) runs on a thread of its own, and
   * closing the database under it crashed the process at random: it is interrupted, and the
   * database closes once every connection is back (release).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.waiting.splice(0))
      waiter.reject(new OpsmindError('the engine is closed', ExitCode.INTERNAL));
    for (const connection of this.connections)
      if (!this.idle.includes(connection)) this.interrupt(connection);
    this.closeWhenIdle();
  }

  /** The close itself, once no connection runs a query (or is being opened for one). */
  private closeWhenIdle(): void {
    if (this.shut || this.idle.length < this.opened) return;
    this.shut = true;
    for (const connection of this.connections) connection.closeSync();
    this.instance.closeSync();
  }
}
