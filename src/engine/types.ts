/**
 * The engine seam's shared types: what attaching a data source yields, and
 * what executing a compiled plan leaves behind. The DuckDB engine
 * (engine/duckdb-engine.ts) and the pandas engine (the sandbox running the
 * program compile-plan.ts writes) both produce these, so the pipeline, the
 * store and the report never ask which engine ran.
 */
import type { Finding } from '../shared/events.js';
import type { RenderSpec } from '../spec/schema.js';

/** The relation every engine query reads: the attached data source. */
export const DATA_RELATION = 'data';

/** The file formats an engine reads. */
export type SourceFormat = 'csv' | 'json' | 'jsonl' | 'parquet' | 'excel';

/** How numbers and dates in a text file were written. */
export interface SourceLocale {
  /** The decimal separator numbers were read with. */
  decimal: '.' | ',';
  /** The thousands separator numbers were read with, or null when none. */
  thousands: string | null;
  /** The field order of dates written with numbers only (31/12/2024), or null when the file has none. */
  dateOrder: 'DMY' | 'MDY' | 'YMD' | null;
}

/** What attaching a data source found, and how it read it. */
export interface SourceInfo {
  /** The path as the user gave it (resolved). */
  path: string;
  /** Its base name, shown in reports. */
  name: string;
  format: SourceFormat;
  /** The text encoding read (csv/json), or null for binary formats. */
  encoding: string | null;
  /** The field delimiter (csv), or null. */
  delimiter: string | null;
  compression: 'gzip' | null;
  /** The sheet read (excel), or null. */
  sheet: string | null;
  locale: SourceLocale;
  /** Lines above the header that were skipped (a title, notes). */
  skippedLines: number;
  rows: number;
  columns: number;
  sizeBytes: number;
  /** What a reader should know about how the file was read (fallback encoding, assumed date order…). */
  warnings: string[];
}

/** A plan's findings and the analyses that failed, as insights.json holds them. */
export interface InsightsFile {
  insights: (Omit<Finding, 'numbers'> & { numbers?: Finding['numbers'] })[];
  failed: { analysis: number; title: string; error: string }[];
}

/** What executing a compiled plan left in its work dir, read back. */
export interface EngineOutcome {
  /** The directory holding render_spec.json, the frame files and insights.json. */
  workdir: string;
  spec: RenderSpec | null;
  insights: InsightsFile;
  /** The SQL behind each declaration, by declaration id (empty for the pandas engine). */
  queries: Record<string, string>;
  /** Rows each analysis read (after its filters), by analysis number from 1. */
  rowsUsed: Record<number, number>;
  durationMs: number;
  warnings: string[];
}
