/**
 * What an MCP tool result may carry: text only, masked (unless the server runs with --no-mask),
 * cleaned of terminal controls, and cut at the server's cap with a marker that says how much
 * was cut and where the whole of it is. A client model's context is never flooded.
 */
import { terminalText } from '../util/terminal-text.js';
import { maskNote, maskText } from './mask.js';
import type { MaskCounts } from './mask.js';

/** The default cap of one tool result, in characters (about 6k tokens). */
export const DEFAULT_RESULT_CHARS = 24_000;

/** How results are shaped. */
export interface ResultPolicy {
  mask: boolean;
  maxChars: number;
}

/** A tool result as the SDK sends it. */
export interface TextResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** `text` cut to `max` characters at a line end when one is near, with a visible marker. */
export function capText(text: string, max: number, where?: string): string {
  if (text.length <= max) return text;
  const marker = (cut: number): string =>
    `\n… [truncated: ${cut.toLocaleString('en-US')} more characters not shown${where ? `; ${where}` : ''}]`;
  const room = Math.max(0, max - marker(text.length).length);
  const lineEnd = text.lastIndexOf('\n', room);
  let end = lineEnd > room * 0.8 ? lineEnd : room;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // never half of a surrogate pair
  return text.slice(0, end) + marker(text.length - end);
}

/** The result text a client reads: masked, without terminal controls, capped. */
export function shapeText(text: string, policy: ResultPolicy, where?: string): string {
  let out = terminalText(text);
  if (policy.mask) {
    const counts: MaskCounts = { email: 0, phone: 0, card: 0 };
    out = maskText(out, counts);
    const note = maskNote(counts);
    // The note is kept whole at the end, even when the text before it is cut.
    if (note)
      return `${capText(out, Math.max(0, policy.maxChars - note.length - 1), where)}\n${note}`;
  }
  return capText(out, policy.maxChars, where);
}

/** A text result (an error when `isError`). */
export function textResult(
  text: string,
  policy: ResultPolicy,
  options: { isError?: boolean; traceId?: string; where?: string } = {},
): TextResult {
  return {
    content: [{ type: 'text', text: shapeText(text, policy, options.where) }],
    ...(options.isError ? { isError: true } : {}),
    ...(options.traceId ? { _meta: { trace_id: options.traceId } } : {}),
  };
}
