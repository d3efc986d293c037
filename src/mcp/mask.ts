/**
 * Masking of personal data in what an MCP client reads: values that look like e-mail addresses,
 * phone numbers or payment card numbers are replaced before a tool result leaves the process,
 * wherever they appear (profile samples, printed frames, SQL rows, tracebacks). Recognisers are
 * narrow on purpose so measures survive: a card number must pass the Luhn check, a phone number
 * must be written like one (a leading + or separators between digit groups, 9 to 15 digits),
 * and dates, decimals and plain integers are left alone.
 */

const EMAIL =
  /\b([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g;

/**
 * A card number as printed: 14–19 digits in one run, or in groups of four (Amex and Diners:
 * 4-6-5 and 4-6-4), split by a space or a dash. A digit or a decimal point right before it, or
 * a digit (or a decimal or thousands separator and a digit) right after, makes it part of a
 * larger number, which is left alone; so does a minus sign before it.
 */
const CARD =
  /(?<![\d.-])(?<!\d,)(?:\d{14,19}|\d{4}(?:[ -]\d{4}){3}(?:[ -]?\d{1,3})?|\d{4}[ -]\d{6}[ -]\d{4,5})(?!\d|[.,]\d|-\d)/g;

/** The first digits of the card networks (Visa, Mastercard, Amex, Diners, Discover, JCB, UnionPay). */
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[0478]|6)/;

/**
 * A phone number as people write one: +country and digit groups (`+49 30 1234567`,
 * `+1 (415) 555-0100`), a parenthesised area code (`(415) 555-0100`), the North American
 * `415-555-0100` / `415.555.0100`, or a trunk 0 with its area code (`030 1234567`,
 * `020 7946 0958`, `0171/1234567`); an extension (`x123`, `ext. 12`) is part of it. At least
 * ten digits. Digit runs split by single spaces (`10 20 30 40`) are printed numbers.
 */
const PHONE = new RegExp(
  [
    String.raw`\+\d{1,3}(?:[ -]?\(\d{1,4}\))?(?:[ -]?\d{1,8}){1,5}`,
    String.raw`\(\d{2,5}\)[ .-]?\d{3,4}[ .-]?\d{3,4}`,
    String.raw`\d{3}([.-])\d{3}\1\d{4}`,
    String.raw`0\d{1,4}(?:[ /-]\d{2,8}){1,3}`,
  ]
    .map((p) => `(?:${p})`)
    .join('|')
    .replace(/^/, String.raw`(?<![\w.+/-])(?:`)
    .concat(String.raw`)(?:\s?(?:x|ext\.?)\s?\d{1,5})?(?![\w/]|[.,-]\d)`),
  'g',
);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function maskCard(match: string): string {
  const digits = match.replace(/\D/g, '');
  if (!CARD_PREFIX.test(digits) || !luhn(digits) || /^(\d)\1+$/.test(digits)) return match;
  if (digits.length === 14 && !/^3[068]/.test(digits)) return match; // only Diners cards have 14
  return `[card ****${digits.slice(-4)}]`;
}

function maskPhone(match: string): string {
  const digits = match.replace(/\s?(?:x|ext\.?)\s?\d{1,5}$/, '').replace(/\D/g, '');
  if (digits.length < 10 || digits.length > 15) return match;
  // ISO dates and times (2024-01-15, 12.03.2024 10.30) are not phone numbers.
  if (/^\d{4}-\d{2}-\d{2}/.test(match) || /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}/.test(match))
    return match;
  return `[phone ***${digits.slice(-2)}]`;
}

/** How many values of each kind `mask` replaced. */
export interface MaskCounts {
  email: number;
  phone: number;
  card: number;
}

/** `text` with e-mail addresses, card numbers and phone numbers replaced; counts added to `counts`. */
export function maskText(text: string, counts?: MaskCounts): string {
  let out = text.replace(EMAIL, (_m, first: string, domain: string) => {
    if (counts) counts.email += 1;
    return `${first}***@${domain}`;
  });
  out = out.replace(CARD, (m) => {
    const masked = maskCard(m);
    if (counts && masked !== m) counts.card += 1;
    return masked;
  });
  out = out.replace(PHONE, (m) => {
    const masked = maskPhone(m);
    if (counts && masked !== m) counts.phone += 1;
    return masked;
  });
  return out;
}

/** A note for the end of a result when something was masked, else null. */
export function maskNote(counts: MaskCounts): string | null {
  const parts = [
    counts.email ? `${counts.email} e-mail address${counts.email === 1 ? '' : 'es'}` : '',
    counts.phone ? `${counts.phone} phone number${counts.phone === 1 ? '' : 's'}` : '',
    counts.card ? `${counts.card} card number${counts.card === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return parts.length
    ? `[masked: ${parts.join(', ')} — the server runs with masking on; the data itself is unchanged]`
    : null;
}
