/**
 * Bounded JSON: a linear pre-scan of the nesting depth before JSON.parse, so
 * that 200,000 nested arrays from a program are refused with a reason instead
 * of overflowing the stack later in JSON.stringify, zod or a renderer.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const OPEN_OBJECT = 123;
const CLOSE_ARRAY = 93;
const CLOSE_OBJECT = 125;

/** True when `text` nests arrays and objects deeper than `limit` (brackets inside strings do not count). */
export function deeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/** JSON.parse of `text`, refused before parsing when it nests deeper than `maxDepth`; throws with the reason. */
export function parseJsonBounded(text: string, maxDepth: number): unknown {
  if (deeperThan(text, maxDepth))
    throw new Error(`it nests arrays or objects more than ${maxDepth} levels deep`);
  return JSON.parse(text);
}
