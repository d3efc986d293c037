/**
 * The self-contained HTML report: charts and tables in declaration order,
 * the program's printed output as the narrative, provenance per chart, and
 * Plotly inlined (works offline, opened from disk) or linked.
 */
import { count } from '../util/plural.js';
import type { ProgramError, Source } from '../spec/schema.js';
import {
  REPORT_CSS,
  escapeHtml,
  imageProvenance,
  issueList,
  provenance,
  scriptJson,
  warningList,
} from './html-parts.js';
import { plotlyBundleBytes } from './plotly-validate.js';
import type { RenderedItem } from './render.js';
import { numberFormat } from '../util/number-format.js';

/** How the report gets Plotly: inlined (default, offline) or from a URL. */
export type PlotlySource = { mode: 'inline' } | { mode: 'link'; url: string };

/** Everything a report shows. */
export interface ReportInput {
  title: string;
  generatedAt: Date;
  source: Source | null;
  items: readonly RenderedItem[];
  /** What the program printed: the narrative. */
  narrative: string;
  warnings: readonly string[];
  programError: ProgramError | null;
  /** Facts for the header, e.g. `{ tool: 'opsmind 0.1.0', mode: 'run' }`. */
  meta: Readonly<Record<string, string>>;
  plotly?: PlotlySource;
  extras?: ReportExtras;
  /** A caption per declaration id, written from how its numbers were derived (fast mode). */
  captions?: ReadonlyMap<string, string>;
  /** Leave CHANGES_SLOT at the top of the report, for `opsmind batch` to fill once the batch is known. */
  changesSlot?: boolean;
}

/** Where `opsmind batch` puts a report's "What changed" section (mcp/batch fill it after the batch). */
export const CHANGES_SLOT = '<!--opsmind:changes-->';

/** Optional sections: key findings, a model-written summary, notes, and the code of each step. */
export interface ReportExtras {
  findings?: readonly string[];
  /** A short summary written by a model from the computed findings; labelled as such. */
  summary?: { text: string; model: string } | null;
  notes?: readonly string[];
  code?: readonly { title: string; code: string }[];
  /** Deep mode: each question and the model's final answer to it. */
  answers?: readonly { question: string; text: string; model: string }[];
}

function answersSection(extras: ReportExtras | undefined): string {
  const answers = extras?.answers ?? [];
  if (!answers.length) return '';
  const blocks = answers
    .map(
      (a) =>
        `<h3>${escapeHtml(a.question)}</h3><p class="summary">${escapeHtml(a.text || '(no final answer: see the steps below)')}</p>`,
    )
    .join('');
  return `<section class="card" id="answers"><h2>${answers.length > 1 ? 'Answers' : 'Answer'}</h2>${blocks}<p class="provenance">Written by ${escapeHtml(answers[0]?.model ?? 'the model')}; every number in it comes from code shown under "Code behind every number".</p></section>`;
}

function findingsSection(extras: ReportExtras | undefined): string {
  const findings = extras?.findings ?? [];
  const summary = extras?.summary;
  if (!findings.length && !summary) return '';
  const summaryHtml = summary
    ? `<p class="summary">${escapeHtml(summary.text)}</p><p class="provenance">Summary written by ${escapeHtml(summary.model)} from the findings below; every number in it comes from them.</p>`
    : '';
  const list = findings.length
    ? `<ul class="findings">${findings.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`
    : '';
  return `<section class="card" id="findings"><h2>Key findings</h2>${summaryHtml}${list}</section>`;
}

function notesSection(extras: ReportExtras | undefined): string {
  const notes = extras?.notes ?? [];
  return notes.length
    ? `<section class="card" id="notes"><h2>About the data</h2><ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul></section>`
    : '';
}

function codeSection(extras: ReportExtras | undefined): string {
  const code = extras?.code ?? [];
  if (!code.length) return '';
  const blocks = code
    .map(
      (c) =>
        `<details class="code"><summary>${escapeHtml(c.title)}</summary><pre><code>${escapeHtml(c.code)}</code></pre></details>`,
    )
    .join('');
  return `<section class="card" id="code"><h2>Code behind every number</h2>${blocks}</section>`;
}

function itemTitle(item: RenderedItem): string {
  const title = item.decl.params.title;
  return typeof title === 'string' && title ? title : item.label;
}

function itemSection(
  item: RenderedItem,
  index: number,
  source: Source | null,
  caption: string | undefined,
): string {
  const { decl } = item;
  const anchor = `item-${index + 1}`;
  const heading = `<h2>${escapeHtml(itemTitle(item))}</h2>`;
  const subtitle =
    typeof decl.params.subtitle === 'string'
      ? `<p class="subtitle">${escapeHtml(decl.params.subtitle)}</p>`
      : '';
  const note =
    typeof decl.params.note === 'string'
      ? `<p class="note">${escapeHtml(decl.params.note)}</p>`
      : '';
  const idAttr =
    decl.kind === 'table' || item.built?.type === 'html' ? 'data-table-id' : 'data-chart-id';
  if (!item.built) {
    const noun = decl.kind === 'table' ? 'table' : decl.kind === 'image' ? 'figure' : 'chart';
    return `<section class="card failed" id="${anchor}" data-failed-id="${escapeHtml(decl.id)}">${heading}<p>This ${noun} could not be rendered:</p>${issueList(item.issues)}</section>`;
  }
  if (item.built.type === 'image') {
    const img = `<img class="figure" src="data:image/png;base64,${item.built.base64}" width="${item.built.width}" height="${item.built.height}" alt="${escapeHtml(itemTitle(item))}">`;
    return `<section class="card" id="${anchor}" data-image-id="${escapeHtml(decl.id)}">${heading}${img}<p class="provenance">${imageProvenance(item.built, item.step)}</p></section>`;
  }
  const body =
    item.built.type === 'plotly'
      ? `<div class="plotly-chart" id="plot-${index + 1}"></div><script type="application/json" id="fig-${index + 1}">${scriptJson(item.built.figure)}</script>`
      : `<div class="table-wrap">${item.built.html}</div>`;
  const title = item.built.type === 'plotly' ? '' : heading + subtitle;
  const sql = item.sql
    ? `<details class="code sql"><summary>SQL</summary><pre><code>${escapeHtml(item.sql)}</code></pre></details>`
    : '';
  const derived = caption ? `<p class="derivation">${escapeHtml(caption)}</p>` : '';
  return `<section class="card" id="${anchor}" ${idAttr}="${escapeHtml(decl.id)}">${title}${body}${note}${derived}<p class="provenance">${provenance(decl, source)}</p>${sql}</section>`;
}

function header(input: ReportInput): string {
  const s = input.source;
  const facts = [
    s
      ? `${escapeHtml(s.name)} · ${numberFormat().format(s.rows)} rows × ${numberFormat().format(s.columns)} columns`
      : '',
    ...Object.entries(input.meta).map(([k, v]) => `${escapeHtml(k)}: ${escapeHtml(v)}`),
    `generated ${escapeHtml(input.generatedAt.toISOString().replace('T', ' ').slice(0, 19))} UTC`,
  ].filter(Boolean);
  const toc =
    input.items.length > 1
      ? `<nav aria-label="Contents"><ol>${input.items.map((i, n) => `<li><a href="#item-${n + 1}">${escapeHtml(itemTitle(i))}</a></li>`).join('')}</ol></nav>`
      : '';
  return `<header><h1>${escapeHtml(input.title)}</h1><p class="meta">${facts.join(' · ')}</p>${toc}</header>`;
}

function errorSection(error: ProgramError | null): string {
  if (!error) return '';
  const where = error.line ? ` at line ${error.line}` : '';
  return `<section class="card program-error" id="program-error"><h2>The program stopped with ${escapeHtml(error.type)}${where}</h2><p>${escapeHtml(count(error.declarations_before, 'declaration'))} made before the error ${error.declarations_before === 1 ? 'is' : 'are'} shown above.</p><pre>${escapeHtml(error.traceback)}</pre></section>`;
}

const BOOT = `(function(){var els=document.querySelectorAll('.plotly-chart');for(var i=0;i<els.length;i++){var el=els[i];var id=el.id.slice(5);try{var fig=JSON.parse(document.getElementById('fig-'+id).textContent);Plotly.newPlot(el,fig.data,fig.layout,{responsive:true,displaylogo:false});}catch(e){el.textContent='This chart failed to draw: '+e.message;console.error('chart '+id+': '+e.message);}}})();`;

/** A piece of a report: text, or bytes embedded as they are (the inlined Plotly bundle). */
export type HtmlPiece = string | Buffer;

function plotlyTag(plotly: PlotlySource): HtmlPiece[] {
  if (plotly.mode === 'link')
    return [`<script src="${escapeHtml(plotly.url)}" charset="utf-8"></script>`];
  return ['<script>', plotlyBundleBytes(), '</script>'];
}

/** The complete HTML document for a report, in pieces written one after the other. */
export function reportHtmlPieces(input: ReportInput): HtmlPiece[] {
  const narrative = input.narrative.trim()
    ? `<section class="card narrative" id="narrative"><h2>Output</h2><pre>${escapeHtml(input.narrative.trimEnd())}</pre></section>`
    : '';
  const hasPlots = input.items.some((i) => i.built?.type === 'plotly');
  const lines: (HtmlPiece | HtmlPiece[])[] = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="generator" content="${escapeHtml(input.meta.tool ?? 'opsmind')}">`,
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    hasPlots ? plotlyTag(input.plotly ?? { mode: 'inline' }) : '',
    '</head><body>',
    header(input),
    '<main>',
    input.changesSlot ? CHANGES_SLOT : '',
    warningList(input.warnings),
    answersSection(input.extras),
    findingsSection(input.extras),
    narrative,
    ...input.items.map((item, index) =>
      itemSection(item, index, input.source, input.captions?.get(item.decl.id)),
    ),
    errorSection(input.programError),
    notesSection(input.extras),
    codeSection(input.extras),
    '</main>',
    `<footer>Made with ${escapeHtml(input.meta.tool ?? 'OpsMind')}. Charts are interactive: hover for values, drag to zoom, double-click to reset.</footer>`,
    hasPlots ? `<script>${BOOT}</script>` : '',
    '</body></html>',
  ];
  // One line each, as before: text lines are joined, a line of pieces keeps its bytes apart.
  const pieces: HtmlPiece[] = [];
  let text = '';
  for (const [i, line] of lines.entries()) {
    if (i > 0) text += '\n';
    for (const piece of Array.isArray(line) ? line : [line]) {
      if (typeof piece === 'string') text += piece;
      else {
        pieces.push(text, piece);
        text = '';
      }
    }
  }
  pieces.push(text);
  return pieces;
}
