/** Writing a report: the HTML file and its JSON summary, atomically; the summary never clobbers a file OpsMind did not write. */
import {
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { ExitCode, OpsmindError } from '../shared/exit-codes.js';
import type { RenderSpec } from '../spec/schema.js';
import type { ValidationIssue } from '../spec/validate.js';
import { opsmindVersion } from '../util/version.js';
import { reportHtmlPieces } from './html.js';
import type { HtmlPiece, PlotlySource, ReportExtras } from './html.js';
import { captionOf } from '../agent/provenance.js';
import type { Derivation, Provenance } from '../agent/provenance.js';
import type { RenderedItem } from './render.js';
import { SUMMARY_MARKER, checkSummaryTarget, summaryTarget } from './summary-file.js';
import type { SummaryTarget } from './summary-file.js';

/** The machine-readable summary of a report (what `--json` prints, plus the failed declarations). */
export interface ReportSummary {
  report_path: string;
  charts: { id: string; kind: string; title: string | null; derivation?: Derivation }[];
  tables: { id: string; title: string | null; derivation?: Derivation }[];
  /** Captured matplotlib figures embedded in the report. */
  images: {
    id: string;
    title: string | null;
    width: number;
    height: number;
    bytes: number;
    source: string;
  }[];
  output: string;
  warnings: string[];
  issues: ValidationIssue[];
  /** Fast mode: what a row is, each column's role and what was not charted (see agent/provenance.ts). */
  table?: Provenance['table'];
  columns?: Provenance['columns'];
  skipped?: Provenance['skipped'];
}

/** What to write and where. */
export interface WriteReportInput {
  outPath: string;
  title: string;
  spec: RenderSpec | null;
  items: readonly RenderedItem[];
  output: string;
  warnings: readonly string[];
  meta: Readonly<Record<string, string>>;
  plotly?: PlotlySource;
  extras?: ReportExtras;
  /** Where the JSON summary goes (default: beside the HTML, never over a file OpsMind did not write). */
  summary?: SummaryTarget;
  /** Fast mode's provenance: the table's grain, column roles, skipped columns, each chart's derivation. */
  provenance?: Provenance;
  /** Leave the slot `opsmind batch` fills with what changed (report/html.ts CHANGES_SLOT). */
  changesSlot?: boolean;
}

function titleOf(item: RenderedItem): string | null {
  return typeof item.decl.params.title === 'string' ? item.decl.params.title : null;
}

/** A one-line error for a report file that cannot be written: a full disk (exit 3), else the path (exit 2). */
function unwritable(path: string, error: unknown): OpsmindError {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new OpsmindError(
      `cannot write ${path}: no space left on its disk`,
      ExitCode.CONFIG,
      'free some space, or write the report elsewhere with -o FILE; the session is kept (opsmind sessions replay rebuilds the report)',
    );
  const why =
    code === 'EISDIR'
      ? 'it is a directory'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? 'permission denied'
        : code === 'ENOTDIR' || code === 'ENOENT'
          ? 'its directory cannot be made'
          : (error as Error).message;
  return new OpsmindError(
    `cannot write ${path}: ${why}`,
    ExitCode.BAD_INPUT,
    'name another file with -o FILE',
  );
}

/** Writes the pieces one after the other: no copy of the whole report (Plotly's 4.6 MB) in memory. */
function writePieces(path: string, pieces: readonly HtmlPiece[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const piece of pieces) {
      const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    }
  } finally {
    closeSync(fd);
  }
}

function writeAtomic(path: string, content: string | readonly HtmlPiece[]): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    if (typeof content === 'string') writeFileSync(tmp, content);
    else writePieces(tmp, content);
    renameSync(tmp, path);
  } catch (error) {
    // A half-written temp file would keep a full disk full: it goes, whatever failed.
    rmSync(tmp, { force: true });
    throw unwritable(path, error);
  }
}

/**
 * The summary file's JSON: one top-level key per line, each value compact. Indenting a spec a
 * program wrote could multiply its size by its depth (and pass V8's string limit); this stays
 * the size of the data.
 */
function summaryJson(summary: Record<string, unknown>): string {
  const lines = Object.entries(summary)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

/** All warnings of a report: the spec's, each item's, and each failed declaration's problem. */
function reportWarnings(
  spec: RenderSpec | null,
  items: readonly RenderedItem[],
  extra: readonly string[],
): string[] {
  return [
    ...extra,
    ...(spec?.warnings ?? []),
    ...items.flatMap((i) => [...i.warnings, ...i.issues.map((x) => x.message)]),
  ];
}

/** Writes `outPath` (HTML) and the summary (beside it, same name with `.json`, unless named); returns the summary. Throws (exit 2) before writing anything when the summary would overwrite a file OpsMind did not write. */
export function writeReport(input: WriteReportInput): ReportSummary {
  const target = input.summary ?? summaryTarget(input.outPath, undefined);
  checkSummaryTarget(target, input.outPath);
  const warnings = reportWarnings(input.spec, input.items, input.warnings);
  const html = reportHtmlPieces({
    title: input.title,
    generatedAt: new Date(),
    source: input.spec?.source ?? null,
    items: input.items,
    narrative: input.output,
    warnings,
    programError: input.spec?.error ?? null,
    meta: input.meta,
    ...(input.plotly ? { plotly: input.plotly } : {}),
    ...(input.extras ? { extras: input.extras } : {}),
    ...(input.changesSlot ? { changesSlot: true } : {}),
    ...(input.provenance
      ? {
          captions: new Map(
            input.provenance.derivations.map((d) => [d.id, captionOf(d.derivation)]),
          ),
        }
      : {}),
  });
  writeAtomic(input.outPath, html);
  const rendered = input.items.filter((i) => i.built);
  const derived = new Map(input.provenance?.derivations.map((d) => [d.id, d.derivation]));
  const derivation = (id: string): { derivation?: Derivation } => {
    const d = derived.get(id);
    return d ? { derivation: d } : {};
  };
  const summary: ReportSummary = {
    report_path: input.outPath,
    ...(input.provenance
      ? {
          table: input.provenance.table,
          columns: input.provenance.columns,
          skipped: input.provenance.skipped,
        }
      : {}),
    charts: rendered
      .filter((i) => i.built?.type === 'plotly')
      .map((i) => ({
        id: i.decl.id,
        kind: i.decl.kind,
        title: titleOf(i),
        ...derivation(i.decl.id),
      })),
    tables: rendered
      .filter((i) => i.built?.type === 'html')
      .map((i) => ({ id: i.decl.id, title: titleOf(i), ...derivation(i.decl.id) })),
    images: rendered.flatMap((i) =>
      i.built?.type === 'image'
        ? [
            {
              id: i.decl.id,
              title: titleOf(i),
              width: i.built.width,
              height: i.built.height,
              bytes: i.built.bytes,
              source: i.built.source,
            },
          ]
        : [],
    ),
    output: input.output,
    warnings,
    issues: input.items.flatMap((i) => i.issues),
  };
  writeAtomic(
    target.path,
    summaryJson({ [SUMMARY_MARKER]: `opsmind ${opsmindVersion()}`, ...summary, spec: input.spec }),
  );
  return summary;
}
