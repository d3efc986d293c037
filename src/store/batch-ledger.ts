/**
 * The batch ledger in the session store: each run of a batch (keyed by its output folder) and
 * each file's state in it, written as soon as it changes. A re-run reads it to skip files whose
 * content and settings are unchanged, and to find the previous run's snapshot of each file; a
 * run that died (kill -9, power loss) is marked interrupted by the next one, which redoes what
 * it left unfinished.
 */
import { randomBytes } from 'node:crypto';
import type { Entry } from '../batch/types.js';
import { EntrySchema } from '../batch/types.js';
import { processAlive } from '../util/process-alive.js';
import { asStoreError } from './errors.js';
import type { SessionStore } from './session-store.js';

/** A file's last state in an earlier run. */
export interface LedgerFile {
  run: string;
  sha256: string;
  settingsHash: string;
  status: 'running' | 'done' | 'failed';
  entry: Entry;
  updatedAt: string;
}

function now(): string {
  return new Date().toISOString();
}

/** The ledger over a store's database. */
export class BatchLedger {
  constructor(private readonly store: SessionStore) {}

  private guard<T>(operation: () => T): T {
    try {
      return operation();
    } catch (error) {
      throw asStoreError(error, this.store.path);
    }
  }

  /** Starts a run of the batch; earlier runs whose process is gone are marked interrupted. */
  startRun(batchKey: string, outDir: string, settings: Record<string, unknown>): string {
    const id = `b${randomBytes(6).toString('hex')}`;
    const db = this.store.db;
    this.guard(() =>
      db.transaction(() => {
        const running = db
          .prepare("SELECT id, pid FROM batch_runs WHERE batch_key = ? AND status = 'running'")
          .all(batchKey) as { id: string; pid: number }[];
        for (const r of running)
          if (!processAlive(r.pid))
            db.prepare("UPDATE batch_runs SET status = 'interrupted' WHERE id = ?").run(r.id);
        db.prepare(
          "INSERT INTO batch_runs (id, batch_key, out_dir, settings, started_at, status, pid) VALUES (?, ?, ?, ?, ?, 'running', ?)",
        ).run(id, batchKey, outDir, JSON.stringify(settings), now(), process.pid);
      })(),
    );
    return id;
  }

  /** Records a file's state in a run (replacing the earlier state of that run). */
  record(
    run: string,
    file: { name: string; sha256: string; settingsHash: string },
    status: 'running' | 'done' | 'failed',
    entry: Entry,
  ): void {
    this.guard(() =>
      this.store.db
        .prepare(
          'INSERT OR REPLACE INTO batch_files (run_id, name, sha256, settings_hash, status, entry, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        )
        .run(run, file.name, file.sha256, file.settingsHash, status, JSON.stringify(entry), now()),
    );
  }

  /** Ends a run. */
  finishRun(run: string, status: 'done' | 'failed' | 'interrupted'): void {
    this.guard(() =>
      this.store.db
        .prepare('UPDATE batch_runs SET status = ?, finished_at = ? WHERE id = ?')
        .run(status, now(), run),
    );
  }

  /**
   * Each file's newest finished state in earlier runs of the batch (before `run`), done or
   * failed — what its report on disk is now; with `only: 'done'`, its newest success (what its
   * data was when it last reported well). Rows that no longer parse are ignored.
   */
  latest(batchKey: string, run: string, only?: 'done'): Map<string, LedgerFile> {
    const rows = this.guard(
      () =>
        this.store.db
          .prepare(
            `SELECT f.run_id, f.name, f.sha256, f.settings_hash, f.status, f.entry, f.updated_at
             FROM batch_files f JOIN batch_runs r ON r.id = f.run_id
             WHERE r.batch_key = ? AND r.id <> ? AND f.status IN (${only ? "'done'" : "'done', 'failed'"})
             ORDER BY f.updated_at, r.started_at`,
          )
          .all(batchKey, run) as {
          run_id: string;
          name: string;
          sha256: string;
          settings_hash: string;
          status: 'done' | 'failed';
          entry: string;
          updated_at: string;
        }[],
    );
    const out = new Map<string, LedgerFile>();
    for (const r of rows) {
      let entry: Entry;
      try {
        entry = EntrySchema.parse(JSON.parse(r.entry));
      } catch {
        continue;
      }
      out.set(r.name, {
        run: r.run_id,
        sha256: r.sha256,
        settingsHash: r.settings_hash,
        status: r.status,
        entry,
        updatedAt: r.updated_at,
      });
    }
    return out;
  }
}
