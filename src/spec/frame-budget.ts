/**
 * The byte budgets for frame data (host-limits.ts): what one chart or table
 * may use, what one report may render, and what one session may store. A
 * declaration over budget is refused with a sentence saying which budget and
 * by how much; the rest of the report renders.
 */
import {
  MAX_FRAME_BYTES,
  REPORT_FRAME_BYTES,
  REPORT_OUTPUT_CHARS,
  SESSION_FRAME_BYTES,
  megabytes,
} from './host-limits.js';

/** The budgets of one report (a run, or a replay of a whole session). */
export class FrameBudget {
  private reportBytes = 0;
  private newBytes = 0;
  private outputChars = 0;
  private readonly counted = new Set<string>();

  /** `storedBytes`: what the session stored before this report's run (0 for a new session or a replay). */
  constructor(private readonly storedBytes = 0) {}

  /** Why a declaration whose frame `key` is `bytes` long may not render, or null when it fits. */
  refusal(file: string, key: string, bytes: number): string | null {
    if (bytes > MAX_FRAME_BYTES)
      return `its data file "${file}" is ${megabytes(bytes)}, over the ${megabytes(MAX_FRAME_BYTES)} one chart or table may use; not rendered`;
    if (this.reportBytes + bytes > REPORT_FRAME_BYTES) {
      return `its data (${megabytes(bytes)} in "${file}") would take this report past its ${megabytes(REPORT_FRAME_BYTES)} budget for chart and table data (${megabytes(this.reportBytes)} used); not rendered`;
    }
    const stored = this.storedBytes + this.newBytes;
    if (!this.counted.has(key) && stored + bytes > SESSION_FRAME_BYTES) {
      return `its data (${megabytes(bytes)} in "${file}") would take this session past its ${megabytes(SESSION_FRAME_BYTES)} budget for stored data (${megabytes(stored)} stored); not rendered`;
    }
    return null;
  }

  /** Why a built chart or table of `chars` characters may not join the report, or null when it fits. */
  outputRefusal(chars: number): string | null {
    if (this.outputChars + chars <= REPORT_OUTPUT_CHARS) return null;
    return `it would take this report past ${(REPORT_OUTPUT_CHARS / 1e6).toFixed(0)} million characters of charts and tables (it has ${(chars / 1e6).toFixed(1)} million); not rendered`;
  }

  /** Counts a rendered declaration: its frame against the report (and, once per file, the session), its output against the report. */
  charge(key: string, bytes: number, chars: number): void {
    this.reportBytes += bytes;
    this.outputChars += chars;
    if (this.counted.has(key)) return;
    this.counted.add(key);
    this.newBytes += bytes;
  }
}
