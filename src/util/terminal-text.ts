/**
 * Text from data, programs and models is hostile when it reaches a terminal: a
 * CSV cell can clear the screen, retitle the window, write the clipboard
 * (OSC 52), plant a link (OSC 8) or, with `\r\x1b[K`, overwrite a line to
 * forge a warning. Everything printed to a terminal or a log goes through
 * `terminalText` (text) or `terminalJson` (--json output) first.
 */

/**
 * One pass, left to right, over what a terminal would act on:
 * - string sequences — OSC (ESC ] or U+009D), DCS (ESC P / U+0090), SOS (ESC X / U+0098),
 *   PM (ESC ^ / U+009E), APC (ESC _ / U+009F) — with their body, up to BEL or ST
 *   (ESC \ or U+009C); an unterminated one to the end of its line;
 * - CSI (ESC [ or U+009B) with its parameter, intermediate and final bytes;
 * - any other escape: ESC, intermediate bytes, one final byte (ESC c, ESC 7, ESC ( B);
 * - CR LF (kept as LF), then every other C0 control but TAB and LF, DEL and C1.
 */
const CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching terminal controls is what this module is for
  /(?:\x1b[\]PX^_]|[\u0090\u0098\u009d-\u009f])[^\x07\x1b\u009c\n]*(?:\x07|\x1b\\|\u009c)?|(?:\x1b\[|\u009b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?|\x1b[\x20-\x2f]*[\x30-\x7e]?|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

// eslint-disable-next-line no-control-regex -- as above
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * `text` with every terminal control removed: whole escape sequences (not
 * just their ESC, so no printable tail is left), C0 controls except `\n` and
 * `\t`, DEL and C1 controls. A lone `\r` is removed (`\r\n` becomes `\n`), so
 * no line can be overwritten. Printable text, including non-ASCII, is kept.
 */
export function terminalText(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (match) => (match === '\r\n' ? '\n' : ''));
}

const JSON_UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;

/**
 * `value` as one line of JSON that is also safe to `cat`: every string in it
 * cleaned by `terminalText`, and DEL, C1 and U+2028/U+2029 (in keys too)
 * written as `\u` escapes. JSON.stringify already escapes the C0 controls.
 */
export function terminalJson(value: unknown): string {
  const json =
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? terminalText(v) : v)) ??
    'null';
  return json.replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
