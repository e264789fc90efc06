/**
 * Text from outside (a folder name, a command-line value) as one printable
 * line for pi's interface or a terminal: C0 and C1 control characters, DEL and
 * Unicode line breaks become `\uXXXX`, so no escape sequence or forged line
 * gets through.
 */
export function printable(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const unsafe =
      code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
    out += unsafe ? `\\u${code.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}
