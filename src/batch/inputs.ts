/**
 * The files of a batch: paths, folders (their data files, recursively) and globs (`*`, `?`,
 * `**`, `{a,b}`) expanded, or the datasets of a --config file; each given a unique output name
 * from its file name; then the share of one shard. Shards split by a hash of the file's series
 * key (its name with any date taken out), so every file of a dated series lands in the same
 * shard and its "what changed" needs nothing from another shard.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** One file to report on. */
export interface BatchInput {
  /** The resolved path. */
  file: string;
  /** Unique in the batch; the report is `<name>.html`. */
  name: string;
  /** Its own question or script (a config file's), else the batch's. */
  question?: string;
  script?: string;
  /** A config's choice of what in the file is the table: an Excel sheet, a JSON wrapper's key. */
  sheet?: string;
  records?: string;
}

const DATA = /\.(csv|tsv|tab|txt|json|jsonl|ndjson|parquet|pq|xlsx|xlsm)(\.gz)?$/i;

/** The configuration file of a scheduled batch. */
export const ConfigSchema = z.object({
  datasets: z
    .array(
      z.object({
        path: z.string().min(1),
        name: z
          .string()
          .regex(/^[\w.-]+$/, 'a name is letters, digits, ".", "_" and "-"')
          .optional(),
        question: z.string().max(500).optional(),
        script: z.string().optional(),
        /** The sheet of an Excel file (default: the first), as analyze's --sheet. */
        sheet: z.string().min(1).optional(),
        /** The key of a JSON wrapper whose records are the table, as analyze's --records. */
        records: z.string().min(1).optional(),
      }),
    )
    .min(1),
  out_dir: z.string().optional(),
  jobs: z.number().int().min(1).max(64).optional(),
  mode: z.enum(['fast', 'deep']).optional(),
  question: z.string().max(500).optional(),
  script: z.string().optional(),
});
export type BatchConfig = z.infer<typeof ConfigSchema>;

/** Reads and checks a --config file (exit 2 with the problem when it is not valid). */
export function readConfig(path: string): { config: BatchConfig; dir: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new OpsmindError(
      `cannot read the batch config ${path}: ${(error as Error).message}`,
      ExitCode.BAD_INPUT,
    );
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new OpsmindError(
      `the batch config ${path} is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ')}`,
      ExitCode.BAD_INPUT,
    );
  return { config: parsed.data, dir: dirname(resolve(path)) };
}

function globRegex(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] ?? '';
    if (c === '*' && pattern[i + 1] === '*') {
      out += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{') {
      const end = pattern.indexOf('}', i);
      if (end < 0) out += '\\{';
      else {
        out += `(?:${pattern
          .slice(i + 1, end)
          .split(',')
          .map((p) => p.replace(/[.+^$()|[\]\\]/g, '\\$&'))
          .join('|')})`;
        i = end;
      }
    } else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function walk(dir: string, depth: number, out: string[]): void {
  if (depth > 8) return;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(path, depth + 1, out);
    else if (e.isFile()) out.push(path);
    else if (e.isSymbolicLink()) {
      // A linked file counts; a linked folder is not followed (no loops).
      try {
        if (statSync(path).isFile()) out.push(path);
      } catch {
        /* a dangling link */
      }
    }
  }
}

/** The files one argument names: itself, a folder's data files, or a glob's matches (sorted). */
function expand(arg: string): string[] {
  if (!/[*?{]/.test(arg)) {
    const full = resolve(arg);
    let stat;
    try {
      stat = statSync(full);
    } catch {
      throw new OpsmindError(`no such file or folder: ${arg}`, ExitCode.BAD_INPUT);
    }
    if (!stat.isDirectory()) return [full];
    const files: string[] = [];
    walk(full, 0, files);
    return files.filter((f) => DATA.test(f)).sort();
  }
  const parts = arg.split('/');
  const fixed: string[] = [];
  for (const part of parts) {
    if (/[*?{]/.test(part)) break;
    fixed.push(part);
  }
  const base = resolve(fixed.join('/') || '.');
  const regex = globRegex(resolve(arg).split(sep).join('/'));
  const files: string[] = [];
  walk(base, 0, files);
  return files.filter((f) => regex.test(f.split(sep).join('/'))).sort();
}

/** A name for the report: the file's stem, made safe; a clash gets its folder's name in front. */
function names(files: readonly string[]): string[] {
  const stem = (f: string, parents: number): string => {
    const dirs = dirname(f).split(sep).filter(Boolean).slice(-parents);
    const base = basename(f).replace(/\.gz$/i, '');
    return (
      [...(parents ? dirs : []), basename(base, extname(base))]
        .join('-')
        .replace(/[^\w.-]+/g, '_')
        .replace(/^[._-]+/, '')
        .slice(0, 120) || 'data'
    );
  };
  const out = files.map((f) => stem(f, 0));
  for (let parents = 1; parents <= 4; parents++) {
    const seen = new Map<string, number>();
    for (const n of out) seen.set(n, (seen.get(n) ?? 0) + 1);
    let clash = false;
    out.forEach((n, i) => {
      if ((seen.get(n) ?? 0) > 1) {
        out[i] = stem(files[i] ?? '', parents);
        clash = true;
      }
    });
    if (!clash) break;
  }
  const used = new Map<string, number>();
  return out.map((n) => {
    const k = (used.get(n) ?? 0) + 1;
    used.set(n, k);
    return k === 1 ? n : `${n}-${k}`;
  });
}

/** Whether `path` is `dir` or inside it. */
function within(dir: string, path: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/**
 * The batch's files from arguments, in a stable order, each once; nothing from inside
 * `exclude` (the output folder, when it sits in an input folder).
 */
export function inputsFromArgs(args: readonly string[], exclude?: string): BatchInput[] {
  const files = [...new Set(args.flatMap(expand))].filter(
    (f) => !exclude || !within(resolve(exclude), f),
  );
  if (!files.length)
    throw new OpsmindError(
      `no data files found in ${args.join(' ')}`,
      ExitCode.BAD_INPUT,
      'pass files, folders or a quoted glob like "data/*.csv"',
    );
  const given = names(files);
  return files.map((file, i) => ({ file, name: given[i] ?? basename(file) }));
}

/** The batch's files from a config file (paths relative to the config's folder). */
export function inputsFromConfig(config: BatchConfig, dir: string): BatchInput[] {
  const files = config.datasets.map((d) => (isAbsolute(d.path) ? d.path : join(dir, d.path)));
  const given = names(files);
  const out = config.datasets.map((d, i) => ({
    file: files[i] ?? d.path,
    name: d.name ?? given[i] ?? basename(d.path),
    ...(d.question ? { question: d.question } : {}),
    ...(d.script ? { script: isAbsolute(d.script) ? d.script : join(dir, d.script) } : {}),
    ...(d.sheet ? { sheet: d.sheet } : {}),
    ...(d.records ? { records: d.records } : {}),
  }));
  const seen = new Set<string>();
  for (const i of out) {
    if (seen.has(i.name))
      throw new OpsmindError(
        `two datasets of the config are named "${i.name}"`,
        ExitCode.BAD_INPUT,
      );
    seen.add(i.name);
  }
  return out;
}

/** A dated file's place in its series: the name with the date taken out, and the date. */
export function seriesOf(name: string): { key: string; date: string } | null {
  const m =
    /(?<![0-9])((?:19|20)\d{2})([-_.]?)(0[1-9]|1[0-2])(?:\2(0[1-9]|[12]\d|3[01]))?(?![0-9])/.exec(
      name,
    );
  if (!m || m.index === undefined) return null;
  const date = [m[1], m[3], m[4]].filter(Boolean).join('-');
  return { key: `${name.slice(0, m.index)}*${name.slice(m.index + m[0].length)}`, date };
}

/** Parses --shard K/N (1 ≤ K ≤ N). */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new OpsmindError(
      `--shard must be K/N with 1 ≤ K ≤ N, got "${value}"`,
      ExitCode.BAD_INPUT,
    );
  return { index, count };
}

/** Whether a file belongs to shard K of N: by a hash of its series key (or name), never its content. */
export function inShard(input: BatchInput, shard: { index: number; count: number }): boolean {
  const key = seriesOf(input.name)?.key ?? input.name;
  const hash = createHash('sha256').update(key).digest().readUInt32BE(0);
  return hash % shard.count === shard.index - 1;
}
