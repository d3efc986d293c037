/**
 * What a work dir may make the host read, hold, render and store. A program
 * can write its own render_spec.json and frames, skipping the preamble and
 * its caps, so the host bounds everything it takes from a work dir itself;
 * every such bound is named here, in one place.
 */

const MB = 1024 * 1024;

/** Deepest nesting accepted in any JSON read from a work dir (spec, frames, profile, insights). */
export const MAX_JSON_DEPTH = 64;

/** Largest render_spec.json, profile.json or insights.json the host reads. */
export const MAX_JSON_FILE_BYTES = 16 * MB;

/** Largest data file one chart or table may use; the preamble's frames are far smaller. */
export const MAX_FRAME_BYTES = 8 * MB;

/** Declarations one spec may render; the preamble's programs declare tens. */
export const MAX_DECLARATIONS = 1000;

/** Rows one chart or table's data file may have; the preamble reduces charts to at most 5,000 points. */
export const MAX_FRAME_ROWS = 50_000;

/** Cells a heatmap grid may have (the preamble keeps at most 60 × 60). */
export const MAX_HEATMAP_CELLS = 250_000;

/** Frame data one report may render, counted per declaration (a frame shared by two counts twice). */
export const REPORT_FRAME_BYTES = 32 * MB;

/** Frame data one session may store, across all its runs (each stored file counted once). */
export const SESSION_FRAME_BYTES = 256 * MB;

/** Characters of chart JSON and table HTML one report may hold, far below V8's string limit. */
export const REPORT_OUTPUT_CHARS = 100_000_000;

/** Rows and columns a table shows, and characters per cell (longer cells are cut with a marker). */
export const TABLE_MAX_ROWS = 1000;
export const TABLE_MAX_COLUMNS = 200;
export const TABLE_CELL_CHARS = 10_000;

/** Characters of HTML one table may have; further rows are left out with a marker. */
export const TABLE_HTML_CHARS = 4 * MB;

/** `bytes` in megabytes for messages, e.g. `60.0 MB`. */
export function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}
