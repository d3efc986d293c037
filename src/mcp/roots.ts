/**
 * The datasets an MCP client may name: files under the allowed roots, and nothing else. A name
 * is resolved to its real path (every symlink followed) and refused unless that path is inside a
 * root's real path, so `../`, an absolute path elsewhere, or a symlink leading out all fail
 * with the same clear tool error, before any byte of the file is read.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { checkDataFile } from '../sandbox/data-file.js';
import { OpsmindError } from '../shared/exit-codes.js';
import { ExitCode } from '../shared/exit-codes.js';

/** The extensions list_datasets shows (the engine reads them; `.gz` of the text ones too). */
const DATA_EXTENSIONS = [
  '.csv',
  '.tsv',
  '.tab',
  '.txt',
  '.json',
  '.jsonl',
  '.ndjson',
  '.parquet',
  '.pq',
  '.xlsx',
  '.xlsm',
];

/** How deep list_datasets looks under a root, and how many files it lists at most. */
const MAX_DEPTH = 4;
const MAX_LISTED = 500;

/** One dataset as list_datasets shows it. */
export interface DatasetEntry {
  /** The name to pass to the other tools: its path relative to its root. */
  dataset: string;
  bytes: number;
  modified: string;
}

/** A dataset the client may not use, or that cannot be read; a tool error, never a crash. */
export class DatasetError extends Error {
  override name = 'DatasetError';
}

function isDataName(name: string): boolean {
  const lower = name.toLowerCase().replace(/\.gz$/, '');
  return DATA_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The allowed roots, as real paths. */
export class DatasetRoots {
  readonly roots: readonly string[];

  constructor(roots: readonly string[]) {
    if (roots.length === 0) throw new OpsmindError('give at least one --root', ExitCode.BAD_INPUT);
    this.roots = roots.map((root) => {
      let real: string;
      try {
        real = realpathSync(resolve(root));
      } catch {
        throw new OpsmindError(`--root ${root} does not exist`, ExitCode.BAD_INPUT);
      }
      if (!statSync(real).isDirectory())
        throw new OpsmindError(`--root ${root} is not a directory`, ExitCode.BAD_INPUT);
      return real;
    });
  }

  /**
   * The real path of `dataset` (relative to a root, tried in order, or absolute), checked: inside
   * a root after following symlinks, a regular non-empty readable file that is not binary junk.
   */
  resolve(dataset: string): string {
    if (dataset.includes('\u0000')) throw new DatasetError('a dataset name cannot contain NUL');
    const candidates = isAbsolute(dataset)
      ? [dataset]
      : this.roots.map((root) => join(root, dataset));
    let outside = false;
    for (const candidate of candidates) {
      let real: string;
      try {
        real = realpathSync(candidate);
      } catch {
        continue;
      }
      if (!this.roots.some((root) => inside(root, real))) {
        outside = true;
        continue;
      }
      try {
        return checkDataFile(real);
      } catch (error) {
        throw new DatasetError(
          error instanceof Error ? error.message.replace(real, dataset) : String(error),
        );
      }
    }
    if (outside)
      throw new DatasetError(
        `${dataset} is outside the allowed roots; list_datasets shows the files this server may read`,
      );
    throw new DatasetError(`dataset not found: ${dataset}; list_datasets shows the files here`);
  }

  /** The name a real path is shown by: relative to the first root holding it. */
  nameOf(realPath: string): string {
    const root = this.roots.find((r) => inside(r, realPath));
    return root ? relative(root, realPath).split(sep).join('/') : realPath;
  }

  /** The data files under the roots (hidden entries and node_modules skipped), sorted by name. */
  list(): { datasets: DatasetEntry[]; truncated: boolean } {
    const found = new Map<string, DatasetEntry>();
    let truncated = false;
    const walk = (root: string, dir: string, depth: number): void => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (found.size >= MAX_LISTED) {
          truncated = true;
          return;
        }
        if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (depth < MAX_DEPTH) walk(root, path, depth + 1);
          continue;
        }
        if (!isDataName(entry.name) || !(entry.isFile() || entry.isSymbolicLink())) continue;
        let real: string;
        try {
          real = realpathSync(path);
        } catch {
          continue;
        }
        if (!this.roots.some((r) => inside(r, real))) continue; // a symlink leading out
        const stat = statSync(real);
        if (!stat.isFile() || stat.size === 0) continue;
        const name = relative(root, path).split(sep).join('/');
        if (!found.has(name))
          found.set(name, {
            dataset: name,
            bytes: stat.size,
            modified: stat.mtime.toISOString(),
          });
      }
    };
    for (const root of this.roots) walk(root, root, 0);
    return {
      datasets: [...found.values()].sort((a, b) => (a.dataset < b.dataset ? -1 : 1)),
      truncated,
    };
  }
}
