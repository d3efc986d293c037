/**
 * Text columns judged: a sample of each says whether it looks like keys, dates or numbers, and
 * those that look like dates or numbers are then parsed over the whole column.
 */
import type { DuckDb } from './duckdb.js';
import type { ProfileColumn } from './profile-columns.js';
import { guessDateFormat } from './profile-dates.js';
import type { DetailRequest, DetailScan } from './profile-details.js';
import { createParsed, detailScan } from './profile-details.js';
import { sampleValues } from './profile-sample.js';
import type { ColumnScan } from './profile-scan.js';
import type { TextSampleVerdict } from './profile-semantic.js';
import { judgeSample } from './profile-semantic.js';
import type { ColumnTop } from './profile-top.js';

/** What judging found about a text column. */
export interface TextJudgement {
  verdict: TextSampleVerdict;
  detail: DetailScan | null;
}

/**
 * Judges every text column with two or more distinct values; results by column index. Leaves the
 * parsed table (profile-details.ts) behind for the scans after it; the caller drops it.
 */
export async function judgeTexts(
  db: DuckDb,
  columns: readonly ProfileColumn[],
  scans: ReadonlyMap<number, ColumnScan>,
  tops: ReadonlyMap<number, ColumnTop>,
  signal?: AbortSignal,
): Promise<Map<number, TextJudgement>> {
  const judged = columns
    .filter((c) => c.kind === 'text' && (tops.get(c.index)?.distinct ?? 0) > 1)
    .map((column) => ({ column, nonmissing: scans.get(column.index)?.nonmissing ?? 0 }));
  const samples = await sampleValues(db, judged, signal);
  const out = new Map<number, TextJudgement>();
  const requests: DetailRequest[] = [];
  for (const { column } of judged) {
    const verdict = judgeSample(column.name, samples.get(column.index) ?? []);
    out.set(column.index, { verdict, detail: null });
    if (verdict.keyLike || !(verdict.dateLike || verdict.style)) continue;
    // pandas infers one format from the first value (in file order) and parses all with it.
    const first = scans.get(column.index)?.first ?? '';
    const dates = verdict.dateLike ? { format: guessDateFormat(first) } : null;
    requests.push({ column, dates, numbers: verdict.style !== null });
  }
  if (requests.length === 0) return out;
  await createParsed(db, requests, signal);
  const details = await detailScan(db, requests, signal);
  for (const [index, detail] of details) {
    const judgement = out.get(index);
    if (judgement) judgement.detail = detail;
  }
  return out;
}
