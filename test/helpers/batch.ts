/** Helpers for the end-to-end tests of `opsmind batch`: data files, the CLI, index.json, processes. */
import {
  createWriteStream,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { IndexSchema } from '../../src/batch/types.js';
import type { BatchIndex, Entry } from '../../src/batch/types.js';
import { runCli, tempDir } from './fixtures.js';
import type { CliResult } from './fixtures.js';

export const REGIONS = ['North', 'South', 'East', 'West', 'Central'];

/** One row of a sales-like table, as values. */
export interface SalesRow {
  date: string;
  region: string;
  channel: string;
  units: number;
  price: number;
  revenue: number;
}

/** `n` deterministic sales rows; `seed` varies the numbers between files. */
export function salesRows(n: number, seed = 0): SalesRow[] {
  const rows: SalesRow[] = [];
  for (let i = 0; i < n; i += 1) {
    const units = 1 + ((i * 7 + seed * 3) % 23);
    const price = (5 + ((i * 13 + seed) % 17)) * 1.25 + 0.49;
    rows.push({
      date: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 8))).toISOString().slice(0, 10),
      region: REGIONS[(i + seed) % REGIONS.length] ?? 'North',
      channel: i % 3 ? 'Online' : 'Retail',
      units,
      price: Math.round(price * 100) / 100,
      revenue: Math.round(units * price * 100) / 100,
    });
  }
  return rows;
}

/** Writes rows (objects with the same keys) as a CSV; returns the path. */
export function writeCsv(path: string, rows: readonly Record<string, string | number>[]): string {
  const header = Object.keys(rows[0] ?? {});
  const lines = [header.join(','), ...rows.map((r) => header.map((h) => String(r[h])).join(','))];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** Writes a sales CSV of `n` rows at `path`. */
export function salesFile(path: string, n: number, seed = 0): string {
  return writeCsv(path, salesRows(n, seed) as unknown as Record<string, number | string>[]);
}

/** Streams a big sales-like CSV of `rows` rows to `path` (a block repeated, so it is quick to make). */
export async function bigCsv(path: string, rows: number): Promise<void> {
  const block: string[] = [];
  for (let i = 0; i < 10_000; i += 1) {
    const units = 1 + ((i * 7) % 23);
    const price = 5 + ((i * 13) % 17);
    const day = new Date(Date.UTC(2020, 0, 1 + (i % 1500))).toISOString().slice(0, 10);
    block.push(
      `${day},${REGIONS[i % 5] ?? ''},${i % 3 ? 'Online' : 'Retail'},${units},${price},${units * price}\n`,
    );
  }
  const chunk = block.join('');
  const out = createWriteStream(path);
  out.write('date,region,channel,units,price,revenue\n');
  for (let written = 0; written < rows; written += block.length)
    if (
      !out.write(written + block.length <= rows ? chunk : block.slice(0, rows - written).join(''))
    )
      await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

const scratch: string[] = [];

/** A temp dir removed by {@link removeScratch} (the batch tests make a 130 MB file). */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  scratch.push(dir);
  return dir;
}

/** Removes every scratch dir (for `after`). */
export function removeScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A private OPSMIND_HOME: the session store of one scenario (its re-runs are incremental in it). */
export function newHome(): string {
  return scratchDir('opsmind-batch-home-');
}

/** `opsmind batch ...args` with `home` as OPSMIND_HOME. */
export function batch(
  home: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 150_000,
): CliResult {
  return runCli(['batch', ...args], { env: { OPSMIND_HOME: home, ...env }, timeoutMs });
}

/** A folder's index.json, checked against the schema. */
export function readIndexJson(dir: string): BatchIndex {
  return IndexSchema.parse(JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')));
}

/** The entry named `name` (fails the test when it is missing). */
export function entryOf(index: BatchIndex, name: string): Entry {
  const e = index.entries.find((x) => x.name === name);
  if (!e)
    throw new Error(`index has no entry ${name}: ${index.entries.map((x) => x.name).join(', ')}`);
  return e;
}

/** Every file under `dir` (relative paths, sorted). */
export function filesUnder(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

export { pidsWithEnv } from './host-procs.js';

/** A file's modification time in ms. */
export function mtimeOf(path: string): number {
  return statSync(path).mtimeMs;
}

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Sum of a numeric column over rows, as the CSV holds it. */
export function sumOf(rows: readonly SalesRow[], key: 'units' | 'revenue'): number {
  return rows.reduce((s, r) => s + r[key], 0);
}
