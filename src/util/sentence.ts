/** Text shown among sentences. */

/** Names listed as a reader says them: "a", "a and b", "a, b and c". */
export function listed(names: readonly string[]): string {
  return names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * A profile warning as a line of a report or the terminal, among sentences: its first letter
 * capitalised ("Dates stored as text in: date"). The profile keeps the words as both profiles
 * write them (and `--json` gives them so); a warning never starts with a value of the data.
 */
export function warningSentence(warning: string): string {
  return warning.charAt(0).toUpperCase() + warning.slice(1);
}
