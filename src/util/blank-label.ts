/**
 * A text value that shows nothing, named so a reader sees it: "" is "(empty)", a value of
 * whitespace alone is `(blank "  ")`, its characters escaped as JSON writes them with every
 * character past ASCII as \uXXXX (Python's json.dumps), so no two such values look the same.
 * Other text is itself. A JSON file's "" is a value, not a missing one, and a chart's category
 * or a finding's "the top 3 (C, O, )" showed it as nothing at all. The preamble's findings name
 * it the same way (opsmind_insights._blank_label).
 */
import { asciiEscaped } from './ascii-escaped.js';

const BLANK = /^[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$/;

/** `text` as a label: "(empty)", `(blank " ")` or itself. */
export function blankLabel(text: string): string {
  if (text === '') return '(empty)';
  if (!BLANK.test(text)) return text;
  return `(blank ${asciiEscaped(JSON.stringify(text))})`;
}
