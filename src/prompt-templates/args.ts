/** Whitespace that separates arguments (and ends a slash-command name). */
export const ARGUMENT_WHITESPACE = /[ \t\n\r\f\v]/;

const QUOTES = new Set(["'", '"']);

/**
 * Splits slash-command arguments the way a shell would, but kindly to natural
 * language:
 *
 * - whitespace outside quotes separates arguments;
 * - `'` or `"` opens a quote only at the start of an argument, so the
 *   apostrophe in `don't` is an ordinary character;
 * - inside a quote, `\` directly before that quote character yields it; every
 *   other backslash is ordinary;
 * - the argument may continue after the closing quote (`"a"b` is `ab`), and a
 *   quoted empty string is an argument;
 * - a quote that never closes is plain text, and the rest is read normally.
 */
export function parseCommandArgs(text: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (ARGUMENT_WHITESPACE.test(text.charAt(i))) {
      i++;
      continue;
    }
    let arg = "";
    const start = i;
    while (i < text.length && !ARGUMENT_WHITESPACE.test(text.charAt(i))) {
      const char = text.charAt(i);
      const quoted = i === start && QUOTES.has(char) ? readQuoted(text, i) : undefined;
      if (quoted) {
        arg += quoted.value;
        i = quoted.end;
      } else {
        arg += char;
        i++;
      }
    }
    args.push(arg);
  }
  return args;
}

/**
 * Reads the quoted string opening at `open`; `undefined` when it never closes,
 * so the caller can keep the quote character as text.
 */
function readQuoted(text: string, open: number): { value: string; end: number } | undefined {
  const quote = text.charAt(open);
  let value = "";
  let i = open + 1;
  while (i < text.length) {
    const char = text.charAt(i);
    if (char === "\\" && text.charAt(i + 1) === quote) {
      value += quote;
      i += 2;
    } else if (char === quote) {
      return { value, end: i + 1 };
    } else {
      value += char;
      i++;
    }
  }
  return undefined;
}
