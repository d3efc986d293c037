/**
 * Where a report's JSON summary goes, and the guard that keeps OpsMind from
 * overwriting a JSON file it did not write. The summary goes beside the HTML
 * (`report.html` → `report.json`) unless the person names it (`--summary`).
 * A file that is already there is replaced only when it carries OpsMind's
 * marker (or is a summary from before the marker); anything else is refused.
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';

/** The key every summary OpsMind writes starts with; its value names the writer, e.g. "opsmind 0.1.0". */
export const SUMMARY_MARKER = 'written_by';

/** Where the summary goes and whether the person chose that path. */
export interface SummaryTarget {
  path: string;
  /** True for `--summary FILE`: the person asked for that file, so it may be replaced. */
  named: boolean;
}

/** Summaries are far smaller; a bigger file is not one of ours. */
const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;

const MarkedSchema = z.object({ [SUMMARY_MARKER]: z.string().startsWith('opsmind') });
// Summaries written before the marker existed: the report path, its items and the spec.
const LegacySchema = z.object({
  report_path: z.string(),
  charts: z.array(z.unknown()),
  tables: z.array(z.unknown()),
  spec: z.unknown(),
});

/** The summary path beside an HTML report: the same name with `.json`. */
function defaultSummaryPath(htmlPath: string): string {
  return `${htmlPath.replace(/\.html?$/i, '')}.json`;
}

/** The summary target for a report at `htmlPath`, from the `--summary` flag if given. */
export function summaryTarget(htmlPath: string, flag: string | undefined): SummaryTarget {
  return flag
    ? { path: resolve(flag), named: true }
    : { path: defaultSummaryPath(htmlPath), named: false };
}

function readSmall(path: string): string | null {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_SUMMARY_BYTES) return null;
    const buffer = Buffer.alloc(size);
    const read = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** True when the file at `path` is a summary OpsMind wrote (a regular file with the marker, or the old shape). */
function writtenByOpsmind(path: string): boolean {
  try {
    if (!lstatSync(path).isFile()) return false;
    const text = readSmall(path);
    if (text === null) return false;
    const json: unknown = JSON.parse(text);
    return MarkedSchema.safeParse(json).success || LegacySchema.safeParse(json).success;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Throws (exit 2) when writing the summary would clobber the report itself or a file OpsMind did not write. */
function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when `a` and `b` name one file: the same path, or (through a link) the same inode. */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return false;
  }
}

/**
 * Refuses (exit 2, before any work) an output that is one of the command's inputs: `-o data.csv`
 * or `--summary data.csv` would replace the dataset (or the script) with the report.
 */
function refuseInputAsOutput(outputs: readonly string[], inputs: readonly string[]): void {
  for (const output of outputs)
    for (const input of inputs)
      if (sameFile(output, input))
        throw new OpsmindError(
          `refusing to write the report over its input ${input}`,
          ExitCode.BAD_INPUT,
          'name another file with -o FILE (and --summary FILE)',
        );
}

export function checkSummaryTarget(
  target: SummaryTarget,
  htmlPath: string,
  inputs: readonly string[] = [],
): void {
  refuseInputAsOutput([htmlPath, target.path], inputs);
  if (isDirectory(htmlPath))
    throw new OpsmindError(
      `cannot write the report to ${htmlPath}: it is a directory`,
      ExitCode.BAD_INPUT,
      `name a file, for example -o ${join(htmlPath, 'report.html')}`,
    );
  if (resolve(target.path) === resolve(htmlPath)) {
    throw new OpsmindError(
      `the report and its JSON summary would both be ${htmlPath}`,
      ExitCode.BAD_INPUT,
      'name the report with .html (-o report.html) or the summary with --summary FILE',
    );
  }
  if (target.named || !exists(target.path) || writtenByOpsmind(target.path)) return;
  throw new OpsmindError(
    `refusing to overwrite ${target.path}: the report's JSON summary goes there, and that file was not written by OpsMind`,
    ExitCode.BAD_INPUT,
    `name another file with --summary FILE, or move ${basename(target.path)} away`,
  );
}
