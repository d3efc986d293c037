/**
 * The sessions of one MCP client (one stdio connection, or one Streamable HTTP session): one
 * stored analysis session per dataset, opened on first use with its engine and a warm sandbox
 * warming up behind it, its calls run one at a time, and all of it closed when the client goes.
 * A session id is only found among the client's own, so one client never reaches another's.
 */
import { basename } from 'node:path';
import type { Provenance } from '../agent/provenance.js';
import { AnalysisSession } from '../session/analysis-session.js';
import type { SandboxSettings } from '../session/analysis-session.js';
import type { SessionStore } from '../store/session-store.js';
import { DatasetError } from './roots.js';

/** How the client's sessions are opened. */
export interface SessionSettings {
  store: SessionStore;
  sandbox: SandboxSettings;
  engineMemoryMb: number;
}

/** What in a file is the table: a workbook's sheet, a JSON wrapper's key (analyze's --sheet, --records). */
export interface TableChoice {
  sheet?: string;
  records?: string;
}

/** One dataset's session of the client. */
export interface ClientSession {
  readonly session: AnalysisSession;
  /** The dataset's name as the client gave it (list_datasets' form). */
  readonly dataset: string;
  readonly realPath: string;
  /** Its key among the client's sessions: the path and the table chosen in it. */
  readonly key: string;
  /** The provenance of the last analyze call (the report's captions and derivations). */
  provenance: Provenance | null;
  /** The end of the last queued call: calls of one session run one after another. */
  tail: Promise<unknown>;
  lastUsed: number;
}

/** The most sessions (datasets) a client keeps open; the least recently used one closes. */
export const MAX_OPEN_SESSIONS = 8;

/** One client's sessions. */
export class ClientSessions {
  private readonly byId = new Map<string, ClientSession>();
  private readonly byKey = new Map<string, Promise<ClientSession>>();
  private closed = false;
  private readonly stop = new AbortController();

  constructor(private readonly settings: SessionSettings) {}

  /** Aborted when the client goes: its running calls stop. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** The client's session for a dataset, or for one table of it (opened on first use). */
  forDataset(dataset: string, realPath: string, table: TableChoice = {}): Promise<ClientSession> {
    if (this.closed) return Promise.reject(new DatasetError('the client has disconnected'));
    const key = JSON.stringify([realPath, table.sheet ?? null, table.records ?? null]);
    let opening = this.byKey.get(key);
    if (!opening) {
      opening = this.open(dataset, realPath, key, table);
      this.byKey.set(key, opening);
      opening.catch(() => this.byKey.delete(key));
    }
    return opening;
  }

  private async open(
    dataset: string,
    realPath: string,
    key: string,
    table: TableChoice,
  ): Promise<ClientSession> {
    const session = await AnalysisSession.open({
      store: this.settings.store,
      dataPath: realPath,
      sourceName: dataset,
      command: 'mcp',
      mode: 'mcp',
      title: `MCP: ${basename(dataset)}`,
      sandbox: this.settings.sandbox,
      engine: {
        name: 'duckdb',
        memoryMb: this.settings.engineMemoryMb,
        ...(table.sheet ? { sheet: table.sheet } : {}),
      },
      model: null,
      ...(table.records ? { records: table.records } : {}),
    });
    if (this.closed) {
      session.close('interrupted');
      throw new DatasetError('the client has disconnected');
    }
    const entry: ClientSession = {
      session,
      dataset,
      realPath,
      key,
      provenance: null,
      tail: Promise.resolve(),
      lastUsed: Date.now(),
    };
    this.byId.set(session.id, entry);
    this.evict();
    return entry;
  }

  /** Closes the least recently used sessions beyond MAX_OPEN_SESSIONS (idle ones only). */
  private evict(): void {
    const open = [...this.byId.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const entry of open.slice(0, Math.max(0, open.length - MAX_OPEN_SESSIONS))) {
      void entry.tail.then(() => this.closeOne(entry));
    }
  }

  private closeOne(entry: ClientSession): void {
    this.byId.delete(entry.session.id);
    this.byKey.delete(entry.key);
    entry.session.close('done');
  }

  /** The client's session with this id (or unique prefix), else undefined. */
  byIdOrPrefix(id: string): ClientSession | undefined {
    const exact = this.byId.get(id);
    if (exact) return exact;
    const matches = [...this.byId.values()].filter(
      (e) => id.length >= 6 && e.session.id.startsWith(id),
    );
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** The client's open sessions, oldest first. */
  list(): ClientSession[] {
    return [...this.byId.values()];
  }

  /**
   * Runs `body` after the session's earlier calls. After the first one (get_data_info, most
   * often), Python starts loading the data in the background: it does not compete with that
   * call for the CPU, and the first run_code, while the client's model thinks, finds it warm.
   */
  run<T>(entry: ClientSession, body: () => Promise<T>): Promise<T> {
    const next = entry.tail.then(body, body);
    entry.tail = next.catch(() => undefined);
    entry.lastUsed = Date.now();
    return next.finally(() => {
      entry.lastUsed = Date.now();
      if (!this.closed) entry.session.sandbox().catch(() => undefined);
    });
  }

  /** Closes every session of the client (each after its running call); idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stop.abort(new DatasetError('the client has disconnected'));
    const entries = [...this.byId.values()];
    await Promise.all(
      entries.map(async (entry) => {
        await entry.tail;
        this.closeOne(entry);
      }),
    );
  }
}
