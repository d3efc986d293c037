/** Nearest-name suggestions for misspelt parameters, kinds and columns. */

/** Levenshtein edit distance between two strings. */
export function editDistance(a: string, b: string): number {
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

/**
 * Up to `limit` candidates close to `name`: exact match ignoring case and
 * spaces first, then by edit distance within a third of the length (at least 2).
 */
export function nearest(name: string, candidates: readonly string[], limit = 3): string[] {
  const norm = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');
  const target = norm(name);
  const budget = Math.max(2, Math.floor(target.length / 3));
  return candidates
    .map((candidate) => {
      const c = norm(candidate);
      const score = c === target ? 0 : c.includes(target) || target.includes(c) ? 1 : editDistance(c, target) + 1;
      return { candidate, score };
    })
    .filter(({ score, candidate }) => score <= budget + 1 && candidate !== name)
    .sort((a, b) => a.score - b.score)
    .slice(0, limit)
    .map(({ candidate }) => candidate);
}

/** `; did you mean "a" or "b"?` or an empty string when nothing is close. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  const quoted = suggestions.map((s) => `"${s}"`);
  const last = quoted.pop() ?? '';
  return `; did you mean ${quoted.length ? `${quoted.join(', ')} or ${last}` : last}?`;
}
