/** Nearest-name suggestions for misspelt parameters, kinds and columns. */

/** Levenshtein edit distance between two strings. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const cur = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** Longest name compared by edit distance (a quadratic cost). */
const MAX_COMPARED = 64;

/**
 * Up to `limit` candidates close to `name`: exact match ignoring case and
 * spaces first, then by edit distance within a third of the length (at least 2).
 */
export function nearest(name: string, candidates: readonly string[], limit = 3): string[] {
  const norm = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');
  const target = norm(name);
  const budget = Math.max(2, Math.floor(target.length / 3));
  // The distance is at least the difference in length, and names from a crafted spec can be
  // megabytes long: only names of a typeable length are compared letter by letter.
  const comparable = (c: string) =>
    c.length <= MAX_COMPARED &&
    target.length <= MAX_COMPARED &&
    Math.abs(c.length - target.length) <= budget;
  return candidates
    .map((candidate) => {
      const c = norm(candidate);
      const score =
        c === target
          ? 0
          : c.includes(target) || target.includes(c)
            ? 1
            : comparable(c)
              ? editDistance(c, target) + 1
              : Infinity;
      return { candidate, score };
    })
    .filter(({ score, candidate }) => score <= budget + 1 && candidate !== name)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** Longest name a message quotes in full. */
const MAX_QUOTED = 80;

/** A name in double quotes, cut past 80 characters (with its length), so a crafted name cannot flood a message. */
export function quote(name: string): string {
  return name.length <= MAX_QUOTED
    ? `"${name}"`
    : `"${name.slice(0, MAX_QUOTED)}…" (${name.length.toLocaleString('en-US')} characters)`;
}

/** `; did you mean "a" or "b"?` or an empty string when nothing is close. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map(quote);
  const last = quoted.pop() ?? '';
  return `; did you mean ${quoted.length ? `${quoted.join(', ')} or ${last}` : last}?`;
}
