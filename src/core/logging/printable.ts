// C0 controls (ESC, BEL, CR, LF…), DEL, C1 controls (a lone 0x9b is CSI on some terminals), and the Unicode
// controls that reorder or break what follows (bidi overrides and isolates, line and paragraph separators).
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its job
const unsafe = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` safe to print on a terminal: each control character is shown as its escape (`\x1b`, `\u009b`), so
 * a server's string can neither move the cursor, set the window title, write the clipboard (OSC 52) nor
 * hide a link (OSC 8), and the reader still sees that it was there.
 */
export function printable(text: string): string {
  return text.replace(unsafe, (char) => {
    const code = char.charCodeAt(0);
    // C0 as `\x1b`, the rest as a JSON escape (`\u009b`), so escaped JSON stays JSON.
    return code <= 0x1f
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
