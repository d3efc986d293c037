/**
 * The batch's pages: index.html (every file with its status, rows, key findings, what changed
 * and a link to its report; no script, so it opens anywhere) and the "What changed" section
 * each report gets in its slot once the batch is known. Every string from a file or a model
 * is escaped.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { CHANGES_SLOT } from '../report/html.js';
import { REPORT_CSS } from '../report/html-parts.js';
import { escapeHtml } from '../../renderers/table.js';
import { againstText, changeLines } from './changes.js';
import type { BatchIndex, Changes, Entry } from './types.js';
import { PSI_MODERATE, PSI_SIGNIFICANT } from './types.js';

const INDEX_CSS = `
table.files { width:100%; border-collapse:collapse; background:var(--card); font-size:14px; }
table.files th, table.files td { text-align:left; vertical-align:top; padding:8px 10px; border-bottom:1px solid var(--line); }
table.files th { background:#eef1f4; }
.status-done { color:#1a7f37; font-weight:600; }
.status-failed { color:var(--err); font-weight:600; }
.reused { color:var(--muted); font-size:12px; }
ul.tight { margin:0; padding-left:18px; }
.changes h3 { font-size:14px; margin:8px 0 2px; }
`;

function changeList(c: Changes): string {
  return `<h3>${escapeHtml(againstText(c))}</h3><ul class="tight">${changeLines(c)
    .map((l) => `<li>${escapeHtml(l)}</li>`)
    .join('')}</ul>`;
}

function entryChanges(entry: Entry): Changes[] {
  return [entry.changes.previous_run, entry.changes.series].filter((c): c is Changes => c !== null);
}

const PSI_NOTE = `Distribution shifts are the population stability index of each measure over the earlier file's deciles, estimated from each file's percentiles: below ${PSI_MODERATE} stable, ${PSI_MODERATE}–${PSI_SIGNIFICANT} moderate, ${PSI_SIGNIFICANT} and above significant. Totals are compared for amounts and counts, means for levels and ratios.`;

/** A report's "What changed" section (empty when the file has nothing to compare with). */
export function changesSection(entry: Entry): string {
  const changes = entryChanges(entry);
  if (!changes.length) return '';
  return `<section class="card changes" id="changes"><h2>What changed</h2>${changes.map(changeList).join('')}<p class="provenance">${escapeHtml(PSI_NOTE)}</p></section>`;
}

/** Puts the section in the report's slot (atomically); false when the report has no slot. */
export function fillChanges(reportPath: string, section: string): boolean {
  let html: string;
  try {
    html = readFileSync(reportPath, 'utf8');
  } catch {
    return false;
  }
  const start = html.indexOf(CHANGES_SLOT);
  if (start < 0) return false;
  const endMarker = '<!--/opsmind:changes-->';
  const end = html.indexOf(endMarker, start);
  if (end < 0 && !section) return true; // an empty slot stays as it is
  const after = end >= 0 ? end + endMarker.length : start + CHANGES_SLOT.length;
  const next = `${html.slice(0, start)}${CHANGES_SLOT}${section}${endMarker}${html.slice(after)}`;
  if (next === html) return true;
  const tmp = `${reportPath}.${process.pid}.tmp`;
  writeFileSync(tmp, next);
  renameSync(tmp, reportPath);
  return true;
}

function row(entry: Entry): string {
  const name = entry.report
    ? `<a href="${escapeHtml(encodeURI(entry.report))}">${escapeHtml(entry.name)}</a>`
    : escapeHtml(entry.name);
  const status =
    entry.status === 'done'
      ? `<span class="status-done">done</span>${entry.reused ? '<div class="reused">unchanged: report kept</div>' : ''}`
      : `<span class="status-failed">failed</span><div>${escapeHtml(entry.error ?? '')}</div>`;
  const findings = entry.findings.length
    ? `<ul class="tight">${entry.findings
        .slice(0, 3)
        .map((f) => `<li>${escapeHtml(f)}</li>`)
        .join('')}</ul>`
    : '';
  const changes = entryChanges(entry);
  const changed = changes.length
    ? `<div class="changes">${changes.map(changeList).join('')}</div>`
    : '<span class="reused">nothing to compare with yet</span>';
  const size =
    entry.rows === null ? '' : `${entry.rows.toLocaleString('en-US')} × ${entry.columns ?? '?'}`;
  return `<tr id="file-${escapeHtml(entry.name)}"><td>${name}</td><td>${status}</td><td>${size}</td><td>${findings}</td><td>${changed}</td></tr>`;
}

/** index.html for the batch. */
export function indexHtml(index: BatchIndex, title: string): string {
  const t = index.totals;
  const facts = [
    `${t.files} files`,
    `${t.done} done`,
    `${t.failed} failed`,
    ...(t.reused ? [`${t.reused} unchanged and kept`] : []),
    ...(index.shard ? [`shard ${index.shard.index}/${index.shard.count}`] : []),
    `generated ${index.generated_at.slice(0, 19).replace('T', ' ')} UTC by ${index.tool}`,
  ];
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}${INDEX_CSS}</style>`,
    '</head><body>',
    `<header><h1>${escapeHtml(title)}</h1><p class="meta">${facts.map(escapeHtml).join(' · ')}</p></header>`,
    '<main>',
    '<table class="files"><thead><tr><th>file</th><th>status</th><th>rows × columns</th><th>key findings</th><th>what changed</th></tr></thead><tbody>',
    ...index.entries.map(row),
    '</tbody></table>',
    `<p class="provenance">${escapeHtml(PSI_NOTE)} The same data is in index.json.</p>`,
    '</main>',
    '</body></html>',
  ].join('\n');
}
