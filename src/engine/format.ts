interface Fence {
  char: "`" | "~";
  length: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const BACKTICK = 0x60;
const TILDE = 0x7e;

// Everything below scans with charCodeAt instead of regular expressions: a
// section's text includes context files from the project, and patterns such as
// /[ \t]+$/ backtrack quadratically on a long run of spaces followed by
// another character. Each line is read a bounded number of times.

/**
 * The fence run that starts `line`: up to 3 spaces, then 3 or more backticks
 * or tildes (all of them, so the run is as long as it can be).
 */
function fenceRun(line: string): (Fence & { end: number }) | undefined {
  let start = 0;
  while (start < 3 && line.charCodeAt(start) === SPACE) start++;
  const code = line.charCodeAt(start);
  if (code !== BACKTICK && code !== TILDE) return undefined;
  let end = start;
  while (line.charCodeAt(end) === code) end++;
  if (end - start < 3) return undefined;
  return { char: code === BACKTICK ? "`" : "~", length: end - start, end };
}

/** CommonMark fence opener; a backtick fence's info string has no backtick. */
function openingFence(line: string): Fence | undefined {
  const run = fenceRun(line);
  if (run === undefined) return undefined;
  if (run.char === "`" && line.indexOf("`", run.end) >= 0) return undefined;
  return { char: run.char, length: run.length };
}

/** A closer is the same character, at least as long as the opener, and nothing but spaces or tabs after it. */
function closesFence(line: string, fence: Fence): boolean {
  const run = fenceRun(line);
  if (run === undefined || run.char !== fence.char || run.length < fence.length) return false;
  return trimmedEnd(line) <= run.end;
}

/** The length of `line` without its trailing spaces and tabs. */
function trimmedEnd(line: string): number {
  let end = line.length;
  while (end > 0) {
    const code = line.charCodeAt(end - 1);
    if (code !== SPACE && code !== TAB) break;
    end--;
  }
  return end;
}

function trimLineEnd(line: string): string {
  const end = trimmedEnd(line);
  return end === line.length ? line : line.slice(0, end);
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
