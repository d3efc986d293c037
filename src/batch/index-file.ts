/**
 * index.json and index.html of a batch folder: written atomically (after every file, so a
 * killed run leaves an index of what it finished), read back as the previous run when the
 * session store has none (a scheduler's fresh machine with the folder kept), and the series
 * comparisons, which need every file's snapshot and so run once all are known.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { LedgerFile } from '../store/batch-ledger.js';
import { opsmindVersion } from '../util/version.js';
import { compareSnapshots } from './changes.js';
import { indexHtml } from './index-page.js';
import { seriesOf } from './inputs.js';
import { IndexSchema } from './types.js';
import type { BatchIndex, Entry } from './types.js';

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The index of `entries` (sorted by name). */
export function indexOf(
  entries: readonly Entry[],
  settings: Record<string, unknown>,
  shard: { index: number; count: number } | null,
): BatchIndex {
  const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    tool: `opsmind ${opsmindVersion()}`,
    generated_at: new Date().toISOString(),
    settings,
    shard,
    totals: {
      files: sorted.length,
      done: sorted.filter((e) => e.status === 'done').length,
      failed: sorted.filter((e) => e.status === 'failed').length,
      reused: sorted.filter((e) => e.reused).length,
    },
    entries: sorted,
  };
}

/** Writes index.json and index.html into the folder. */
export function writeIndex(
  outDir: string,
  entries: readonly Entry[],
  settings: Record<string, unknown>,
  shard: { index: number; count: number } | null,
): BatchIndex {
  const index = indexOf(entries, settings, shard);
  writeAtomic(join(outDir, 'index.json'), `${JSON.stringify(index, null, 1)}\n`);
  writeAtomic(join(outDir, 'index.html'), indexHtml(index, `Batch report: ${basename(outDir)}`));
  return index;
}

/** A folder's index.json, checked; null when it has none or it does not parse. */
export function readIndex(outDir: string): BatchIndex | null {
  try {
    return IndexSchema.parse(JSON.parse(readFileSync(join(outDir, 'index.json'), 'utf8')));
  } catch {
    return null;
  }
}

/** The folder's earlier index as the previous run of each file (when the store has no run of it). */
export function previousFromIndex(outDir: string): Map<string, LedgerFile> {
  const index = readIndex(outDir);
  const out = new Map<string, LedgerFile>();
  if (!index) return out;
  for (const entry of index.entries)
    out.set(entry.name, {
      run: entry.run,
      sha256: entry.sha256,
      settingsHash: entry.settings_hash,
      status: entry.status,
      entry,
      updatedAt: index.generated_at,
    });
  return out;
}

/** What changed along each dated series (`sales-2024-01`, `sales-2024-02`, …), set on its entries. */
export function seriesChanges(entries: Entry[]): void {
  const series = new Map<string, { date: string; entry: Entry }[]>();
  for (const entry of entries) {
    const place = seriesOf(entry.name);
    if (!place) continue;
    const list = series.get(place.key) ?? [];
    list.push({ date: place.date, entry });
    series.set(place.key, list);
  }
  for (const list of series.values()) {
    if (list.length < 2) continue;
    list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    let earlier: { date: string; entry: Entry } | null = null;
    for (const item of list) {
      const { entry } = item;
      entry.changes.series =
        earlier?.entry.snapshot && entry.snapshot && entry.status === 'done'
          ? compareSnapshots(
              earlier.entry.snapshot,
              entry.snapshot,
              {
                kind: 'series',
                name: earlier.entry.name,
                sha256: earlier.entry.sha256,
                when: earlier.date,
              },
              earlier.entry.sha256 === entry.sha256,
            )
          : null;
      if (entry.status === 'done' && entry.snapshot) earlier = item;
    }
  }
}
