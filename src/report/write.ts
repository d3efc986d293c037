/** Writing a report: the HTML file and its JSON summary, atomically. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { RenderSpec } from '../spec/schema.js';
import type { ValidationIssue } from '../spec/validate.js';
import { buildReportHtml } from './html.js';
import type { PlotlySource, ReportExtras } from './html.js';
import type { RenderedItem } from './render.js';

/** The machine-readable summary of a report (what `--json` prints, plus the failed declarations). */
export interface ReportSummary {
  report_path: string;
  charts: { id: string; kind: string; title: string | null }[];
  tables: { id: string; title: string | null }[];
  output: string;
  warnings: string[];
  issues: ValidationIssue[];
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
}

function titleOf(item: RenderedItem): string | null {
  return typeof item.decl.params.title === 'string' ? item.decl.params.title : null;
}

function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** All warnings of a report: the spec's, each item's, and each failed declaration's problem. */
export function reportWarnings(spec: RenderSpec | null, items: readonly RenderedItem[], extra: readonly string[]): string[] {
  return [...extra, ...(spec?.warnings ?? []), ...items.flatMap((i) => [...i.warnings, ...i.issues.map((x) => x.message)])];
}

/** Writes `outPath` (HTML) and the summary beside it (same name, `.json`); returns the summary. */
export function writeReport(input: WriteReportInput): ReportSummary {
  const warnings = reportWarnings(input.spec, input.items, input.warnings);
  const html = buildReportHtml({
    title: input.title, generatedAt: new Date(), source: input.spec?.source ?? null, items: input.items,
    narrative: input.output, warnings, programError: input.spec?.error ?? null, meta: input.meta,
    ...(input.plotly ? { plotly: input.plotly } : {}),
    ...(input.extras ? { extras: input.extras } : {}),
  });
  writeAtomic(input.outPath, html);
  const rendered = input.items.filter((i) => i.built);
  const summary: ReportSummary = {
    report_path: input.outPath,
    charts: rendered.filter((i) => i.built?.type === 'plotly').map((i) => ({ id: i.decl.id, kind: i.decl.kind, title: titleOf(i) })),
    tables: rendered.filter((i) => i.built?.type === 'html').map((i) => ({ id: i.decl.id, title: titleOf(i) })),
    output: input.output,
    warnings,
    issues: input.items.flatMap((i) => i.issues),
  };
  writeAtomic(input.outPath.replace(/\.html?$/i, '') + '.json', `${JSON.stringify({ ...summary, spec: input.spec }, null, 2)}\n`);
  return summary;
}
