interface Fence {
  char: "`" | "~";
  length: number;
}

/** CommonMark fence opener: up to 3 spaces, 3+ backticks or tildes; a backtick fence's info string has no backtick. */
const OPENING_FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** A closer is the same character, at least as long as the opener, and nothing but whitespace after it. */
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

function openingFence(line: string): Fence | undefined {
  const match = OPENING_FENCE.exec(line);
  const run = match?.[1];
  if (run === undefined) return undefined;
  const char = run[0] === "`" ? "`" : "~";
  if (char === "`" && match?.[2]?.includes("`")) return undefined;
  return { char, length: run.length };
}

function closesFence(line: string, fence: Fence): boolean {
  const run = CLOSING_FENCE.exec(line)?.[1];
  return run !== undefined && run[0] === fence.char && run.length >= fence.length;
}

function trimLineEnd(line: string): string {
  return line.replace(/[ \t]+$/, "");
}

/**
 * Normalises CRLF/CR to LF, trims trailing spaces and tabs on each line and
 * collapses runs of blank lines to one blank line — outside fenced code blocks
 * only, since whitespace inside a code sample can be meaningful. Fences are
 * ``` or ~~~ indented up to 3 spaces and closed by the same character with at
 * least the opener's length; an unclosed fence runs to the end. The start and
 * end of the whole text are not trimmed.
 */
export function formatPrompt(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const out: string[] = [];
  let fence: Fence | undefined;
  let previousBlank = false;
  const lastIndex = lines.length - 1;

  lines.forEach((raw, index) => {
    if (fence !== undefined) {
      if (closesFence(raw, fence)) {
        fence = undefined;
        out.push(trimLineEnd(raw));
      } else {
        out.push(raw);
      }
      previousBlank = false;
      return;
    }
    const line = trimLineEnd(raw);
    fence = openingFence(line);
    const blank = line === "";
    // The last element is what follows the final newline, not a line of its
    // own: dropping it would eat the newline that ends the blank line before it.
    if (blank && previousBlank && index !== lastIndex) return;
    out.push(line);
    previousBlank = blank;
  });
  return out.join("\n");
}
