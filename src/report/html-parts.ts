/** Small HTML builders for the report: escaping, provenance lines, issue lists. */
import { escapeHtml } from '../../renderers/table.js';
import type { Declaration, Source } from '../spec/schema.js';
import type { ValidationIssue } from '../spec/validate.js';
import type { BuiltImage } from './images.js';
import { numberFormat } from '../util/number-format.js';

export { escapeHtml };

/** JSON safe to embed inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

const REDUCTION_WORDS: Record<string, string> = {
  aggregated: 'aggregated',
  downsampled: 'downsampled keeping peaks and troughs',
  sampled: 'randomly sampled',
  binned: 'binned over all rows',
  summarized: 'summary statistics over all rows',
  truncated: 'first rows shown',
};

/** The aggregates whose rest the bar and pie preparers sum into "Other" (the preamble's is_additive). */
const ADDITIVE = new Set([undefined, null, 'sum', 'count']);

/**
 * What a top_n cap did to a declaration, by its kind: a bar's or pie's rest of a sum or count is
 * summed as "Other", the rest of a mean, median, min or max is left out; a box keeps its most
 * frequent groups, a line its largest series, a heatmap its largest rows and columns.
 */
function topWords(decl: Declaration): string {
  const cap = decl.data.cap === null ? '' : ` ${numberFormat().format(decl.data.cap)}`;
  switch (decl.kind) {
    case 'bar':
    case 'pie':
      return ADDITIVE.has(decl.params.agg as string | undefined)
        ? `the${cap} largest categories kept, the rest summed as "Other"`
        : `the${cap} largest categories kept, the rest left out (a ${String(decl.params.agg)} cannot be summed)`;
    case 'box':
      return `the${cap} most frequent groups kept, the rest left out`;
    case 'heatmap':
      return 'the largest rows and columns kept, the rest left out';
    default:
      return 'the largest series kept, the rest left out';
  }
}

/** One line saying where a declaration's numbers come from and whether they are exact. */
export function provenance(decl: Declaration, source: Source | null): string {
  const d = decl.data;
  const parts: string[] = [];
  if (source) parts.push(`${escapeHtml(source.name)} (${numberFormat().format(source.rows)} rows)`);
  parts.push(
    `${numberFormat().format(d.rows)} ${decl.kind === 'table' ? 'rows shown' : 'points plotted'} from ${numberFormat().format(d.source_rows)} rows declared`,
  );
  const words = d.reductions
    .filter((r) => r !== 'none')
    .map((r) => (r === 'top_n' ? topWords(decl) : (REDUCTION_WORDS[r] ?? r)));
  if (words.length) parts.push(escapeHtml(words.join(', ')));
  parts.push(d.sampled ? '<strong>sampled, not exact</strong>' : 'exact');
  return parts.join(' · ');
}

const CAPTURED_WHEN: Record<BuiltImage['source'], string> = {
  show: 'when the program showed it',
  savefig: 'when the program saved it',
  open_at_exit: 'still open when the program ended',
};

/** One line saying what a captured figure is: a static matplotlib image, when it was captured, its size and step. */
export function imageProvenance(image: BuiltImage, step: number | undefined): string {
  const parts = [`static image from matplotlib, captured ${CAPTURED_WHEN[image.source]}`];
  parts.push(
    `${numberFormat().format(image.width)} × ${numberFormat().format(image.height)} px`,
    `${numberFormat().format(Math.ceil(image.bytes / 1024))} KB PNG`,
  );
  if (step !== undefined) parts.push(`made by the code of step ${step}`);
  return parts.join(' · ');
}

/** The issues of a failed declaration, as a list. */
export function issueList(issues: readonly ValidationIssue[]): string {
  return `<ul class="issues">${issues.map((i) => `<li>${escapeHtml(i.message)}</li>`).join('')}</ul>`;
}

/** A `<ul>` of warnings, or nothing. */
export function warningList(warnings: readonly string[]): string {
  if (warnings.length === 0) return '';
  return `<section class="warnings" aria-label="Warnings"><h2>Warnings</h2><ul>${warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul></section>`;
}

/** The report's stylesheet (inlined). */
export const REPORT_CSS = `
:root { --fg:#1d232a; --muted:#5b6570; --line:#e3e7eb; --bg:#f6f7f9; --card:#fff; --accent:#2f6fdf; --warn:#9a6700; --err:#b42318; }
* { box-sizing: border-box; }
body { margin:0; font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; color:var(--fg); background:var(--bg); }
header, main, footer { max-width:1100px; margin:0 auto; padding:0 20px; }
header { padding-top:28px; }
h1 { font-size:26px; margin:0 0 6px; }
.meta { color:var(--muted); font-size:13px; }
nav ol { columns:2; color:var(--muted); font-size:14px; padding-left:20px; }
nav a { color:var(--accent); text-decoration:none; }
section.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:18px 20px; margin:18px 0; }
section.card h2 { font-size:18px; margin:0 0 4px; }
.subtitle { color:var(--muted); margin:0 0 8px; }
.provenance { color:var(--muted); font-size:12px; margin-top:8px; }
.note { font-size:14px; margin-top:6px; }
.derivation { font-size:13px; margin-top:4px; color:#333; }
.narrative pre, .code pre, .program-error pre { white-space:pre-wrap; word-break:break-word; background:#f0f2f5; padding:12px; border-radius:8px; font-size:13px; overflow:auto; }
.warnings { border-left:4px solid var(--warn); background:#fff8e6; padding:8px 16px; border-radius:6px; margin:18px 0; }
.warnings h2 { font-size:15px; margin:4px 0; }
.failed { border-color:#f3c1bc; }
.issues { color:var(--err); }
.program-error { border-left:4px solid var(--err); }
.findings li { margin:4px 0; }
.summary { font-size:16px; }
details.code summary { cursor:pointer; color:var(--accent); margin:6px 0; }
.table-wrap { overflow:auto; max-height:560px; }
img.figure { display:block; max-width:100%; height:auto; margin:8px 0; }
table.data-table { border-collapse:collapse; font-size:13px; width:100%; }
table.data-table th, table.data-table td { padding:5px 10px; border-bottom:1px solid var(--line); text-align:left; white-space:nowrap; }
table.data-table th { position:sticky; top:0; background:#fafbfc; }
table.data-table td.num { text-align:right; font-variant-numeric:tabular-nums; }
footer { color:var(--muted); font-size:12px; padding:24px 20px 40px; }
@media print { body { background:#fff; } section.card { break-inside:avoid; } }
`;
