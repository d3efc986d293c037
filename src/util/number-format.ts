/**
 * The en-US number formats reports and texts use, each made once, on first use. The first
 * Intl.NumberFormat of a process loads ICU's number data (about 20 ms): not at start-up, where
 * every millisecond is on the critical path, but in the first wait on DuckDB (util/idle.ts).
 */
import { whenIdle } from './idle.js';

const made = new Map<string, Intl.NumberFormat>();

/** `new Intl.NumberFormat('en-US', options)`, kept for the next call with the same options. */
export function numberFormat(options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = JSON.stringify(options);
  let format = made.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', options);
    made.set(key, format);
  }
  return format;
}

whenIdle(() => numberFormat().format(1234.5));
