/**
 * `opsmind batch merge DIR... --out-dir OUT`: the folders of a sharded batch (each shard's
 * index.json and reports) made into one folder: the reports copied, one Plotly copy, one index
 * over every file. Shards must have run with the same settings and hold disjoint files. The
 * series comparisons are computed again over all the files, so a series split across shards
 * (which sharding by series key avoids) is still compared file to file.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import { readIndex, seriesChanges, writeIndex } from './index-file.js';
import { changesSection, fillChanges } from './index-page.js';
import { PLOTLY_FILE, REPORTS_DIR } from './run.js';
import type { BatchIndex, Entry } from './types.js';

/** Merges shard folders into `outDir`; returns the merged index. */
export function mergeShards(dirs: readonly string[], outDir: string): BatchIndex {
  if (!dirs.length)
    throw new OpsmindError('batch merge needs the shard folders to merge', ExitCode.BAD_INPUT);
  const out = resolve(outDir);
  const indexes = dirs.map((dir) => {
    const index = readIndex(dir);
    if (!index)
      throw new OpsmindError(
        `${dir} has no readable index.json: not a batch folder`,
        ExitCode.BAD_INPUT,
      );
    if (resolve(dir) === out)
      throw new OpsmindError(
        `the merged folder ${outDir} is one of the shards`,
        ExitCode.BAD_INPUT,
      );
    return { dir, index };
  });
  const settings = JSON.stringify(indexes[0]?.index.settings ?? {});
  for (const { dir, index } of indexes)
    if (JSON.stringify(index.settings) !== settings)
      throw new OpsmindError(
        `${dir} ran with other settings than ${indexes[0]?.dir}; merge shards of one batch`,
        ExitCode.BAD_INPUT,
      );
  mkdirSync(join(out, REPORTS_DIR), { recursive: true });
  const entries = new Map<string, Entry>();
  for (const { dir, index } of indexes) {
    const plotly = join(dir, PLOTLY_FILE);
    if (existsSync(plotly) && !existsSync(join(out, PLOTLY_FILE)))
      copyFileSync(plotly, join(out, PLOTLY_FILE));
    for (const entry of index.entries) {
      const held = entries.get(entry.name);
      if (held)
        throw new OpsmindError(
          `${entry.name} is in two shards (${held.file} and ${entry.file}); merge shards of one batch`,
          ExitCode.BAD_INPUT,
        );
      if (entry.report) {
        const source = join(dir, entry.report);
        if (existsSync(source)) {
          copyFileSync(source, join(out, entry.report));
          const summary = source.replace(/\.html$/, '.json');
          if (existsSync(summary))
            copyFileSync(summary, join(out, entry.report.replace(/\.html$/, '.json')));
        }
      }
      entries.set(entry.name, { ...entry, changes: { ...entry.changes, series: null } });
    }
  }
  const all = [...entries.values()];
  seriesChanges(all);
  for (const entry of all)
    if (entry.report) fillChanges(join(out, entry.report), changesSection(entry));
  return writeIndex(out, all, indexes[0]?.index.settings ?? {}, null);
}
