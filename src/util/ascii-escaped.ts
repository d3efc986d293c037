/**
 * Text in ASCII: each other character written as its \u escape (lower-case hex, as Python's
 * json.dumps writes it), which means the same character in a regular expression, a string or an
 * identifier, and is text in a comment. The build writes the CLI's bundle so (esbuild keeps such
 * characters in comments and regular expression literals): an ASCII file becomes a string without
 * UTF-8 decoding (code-cache.ts reads it as latin1), 2 MB in 6 ms instead of 16. blankLabel uses
 * it for the JSON text of a blank value.
 */
export function asciiEscaped(text: string): string {
  // Without the u flag each UTF-16 unit is one match: a character past U+FFFF becomes its pair.
  return text.replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
