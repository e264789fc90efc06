import { closesFence, type Fence, fenceOpener, isBlank } from "../_markdown.js";

/** One `@path` import written in a text. */
export interface ImportToken {
  /** Offset of the `@`. */
  start: number;
  /** Offset just past the path (trailing punctuation is not part of it). */
  end: number;
  /** The path as written, without the `@` (and without the quotes of a quoted one). */
  path: string;
  /** Written as `@"path"`, which may hold spaces. */
  quoted?: true;
  /** 1-based line and column of the `@`. */
  line: number;
  column: number;
}

/** Characters that end a sentence or a bracket rather than a path: stripped from a path's end. */
const TRAILING = new Set([".", ",", ";", ":", "!", "?", ")", "]", "}", '"', "'"]);

const LETTER = /^\p{L}$/u;
const SPACE = /^\s$/u;

function isSpace(c: string | undefined): boolean {
  if (c === undefined) return false;
  const code = c.charCodeAt(0);
  if (code < 128)
    return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || code === 11;
  return SPACE.test(c);
}

/** Can the path after an `@` start at `i`? `./`, `../`, `~/`, `/`, a letter, digit, `_` or `-`. */
function pathStarts(text: string, i: number): boolean {
  const c = text[i];
  if (c === undefined) return false;
  if (c === "/" || c === "_" || c === "-" || (c >= "0" && c <= "9")) return true;
  if (c === "." || c === "~") {
    if (text[i + 1] === "/") return true;
    return c === "." && text[i + 1] === "." && text[i + 2] === "/";
  }
  const code = c.charCodeAt(0);
  if (code < 128) return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");
  // One code point (a surrogate pair counts as one) decides.
  return LETTER.test(String.fromCodePoint(text.codePointAt(i) ?? 0));
}

/** Backtick runs of the whole text, each with the index of the next run of the same length. */
function backtickRuns(text: string): { starts: number[]; next: number[] } {
  const starts: number[] = [];
  const lengths: number[] = [];
  for (let i = text.indexOf("`"); i !== -1; ) {
    let end = i;
    while (text[end] === "`") end++;
    starts.push(i);
    lengths.push(end - i);
    i = text.indexOf("`", end);
  }
  const next: number[] = new Array(starts.length).fill(-1);
  const lastOfLength = new Map<number, number>();
  for (let r = starts.length - 1; r >= 0; r--) {
    const length = lengths[r] ?? 0;
    next[r] = lastOfLength.get(length) ?? -1;
    lastOfLength.set(length, r);
  }
  return { starts, next };
}

/**
 * Line starts, and for each line the offset where its paragraph ends (the
 * start of the next blank or fence-like line, else the text's end). A code
 * span never reaches past that point.
 */
function lineTable(text: string): { starts: number[]; paragraphEnd: number[] } {
  const starts: number[] = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const paragraphEnd: number[] = new Array(starts.length).fill(text.length);
  let end = text.length;
  for (let l = starts.length - 1; l >= 0; l--) {
    paragraphEnd[l] = end;
    const from = starts[l] ?? 0;
    const to = (starts[l + 1] ?? text.length + 1) - 1;
    if (isBlank(text, from, to) || fenceOpener(text, from, to)) end = from;
  }
  return { starts, paragraphEnd };
}

/**
 * Finds the `@path` imports of a Markdown text in one left-to-right pass.
 *
 * An import is an `@` at the start of a line or after whitespace, followed by a
 * path that starts with `./`, `../`, `~/`, `/`, a letter, digit, `_` or `-` and
 * runs to the next whitespace; trailing `. , ; : ! ? ) ] } " '` are not part of
 * it. So `user@example.com` and `git@host:org/repo` are not imports. A path
 * with spaces is written in quotes, `@"doc ü/x.md"`, closed on the same line
 * (an unclosed or empty one is text). Nothing is
 * found inside fenced code blocks (closed by the same character, at least as
 * many; unclosed, they run to the end), inline code spans (a run of N
 * backticks to the next run of exactly N in the same paragraph) or HTML
 * comments (`<!--` to `-->`; unclosed, to the end).
 *
 * Cost is linear in the text: every character is looked at a bounded number
 * of times, and no regular expression sees more than one character.
 */
export function findImportTokens(text: string): ImportToken[] {
  const tokens: ImportToken[] = [];
  if (!text.includes("@")) return tokens;
  const lines = lineTable(text);
  const runs = backtickRuns(text);
  let run = 0;
  let line = 0;
  let lineStart = 0;
  let atLineStart = true;
  let i = 0;
  const n = text.length;
  /** The first `"` at or after the last place asked for: shared, so a line of `@"` stays linear. */
  let nextQuote = -1;
  /** After a jump: the line holding offset `i`, and whether `i` starts it. */
  const jumped = () => {
    while (line + 1 < lines.starts.length && (lines.starts[line + 1] ?? n) <= i) line++;
    lineStart = lines.starts[line] ?? 0;
    atLineStart = i === lineStart;
  };
  while (i < n) {
    if (atLineStart) {
      atLineStart = false;
      const fence = fenceOpener(text, i, (lines.starts[line + 1] ?? n + 1) - 1);
      if (fence) {
        i = skipFence(text, lines.starts, line, fence);
        jumped();
        continue;
      }
    }
    const c = text[i];
    if (c === "\n") {
      i++;
      line++;
      lineStart = i;
      atLineStart = true;
    } else if (c === "<" && text.startsWith("<!--", i)) {
      const close = text.indexOf("-->", i + 4);
      if (close === -1) break;
      i = close + 3;
      jumped();
    } else if (c === "`") {
      while (run < runs.starts.length && (runs.starts[run] ?? n) < i) run++;
      let end = i;
      while (text[end] === "`") end++;
      // Only a whole run opens a span; the scan never stops inside one, but say so.
      const closer = runs.starts[run] === i ? (runs.next[run] ?? -1) : -1;
      const closerStart = closer === -1 ? n : (runs.starts[closer] ?? n);
      // No closer in this paragraph: the backticks are literal text.
      i = closerStart < (lines.paragraphEnd[line] ?? n) ? closerStart + (end - i) : end;
      jumped();
    } else if (c === "@" && text[i + 1] === '"' && (i === lineStart || isSpace(text[i - 1]))) {
      // `@"doc ü/x.md"`: to the next quote on the same line; none there, and it is text.
      if (nextQuote < i + 2) nextQuote = text.indexOf('"', i + 2);
      const lineEnd = (lines.starts[line + 1] ?? n + 1) - 1;
      if (nextQuote !== -1 && nextQuote < lineEnd && nextQuote > i + 2) {
        tokens.push({
          start: i,
          end: nextQuote + 1,
          path: text.slice(i + 2, nextQuote),
          quoted: true,
          line: line + 1,
          column: i - lineStart + 1,
        });
        i = nextQuote + 1;
      } else {
        i += 2;
      }
    } else if (c === "@" && (i === lineStart || isSpace(text[i - 1])) && pathStarts(text, i + 1)) {
      let end = i + 1;
      while (end < n && !isSpace(text[end])) end++;
      while (end > i + 1 && TRAILING.has(text[end - 1] ?? "")) end--;
      if (end > i + 1) {
        tokens.push({
          start: i,
          end,
          path: text.slice(i + 1, end),
          line: line + 1,
          column: i - lineStart + 1,
        });
      }
      // The path holds no newline, so the line is unchanged.
      i = Math.max(end, i + 1);
    } else {
      i++;
    }
  }
  return tokens;
}

/** Offset of the line after the fence's closing line, or the text's end when it never closes. */
function skipFence(
  text: string,
  starts: readonly number[],
  openLine: number,
  fence: Fence,
): number {
  for (let l = openLine + 1; l < starts.length; l++) {
    const from = starts[l] ?? text.length;
    const to = (starts[l + 1] ?? text.length + 1) - 1;
    if (closesFence(text, from, to, fence)) return Math.min(to + 1, text.length);
  }
  return text.length;
}

/**
 * The `@` import paths of `text` as Claude Code reads them (2.1.332, its memory file reader): an
 * `@` at the start of the text or after whitespace, then a run of non-space characters in which
 * `\ ` stands for a space; cut at the first `#` (`@notes.md#usage` names `notes.md`), `\ `
 * unescaped (`@my\ notes/a.md` names `my notes/a.md`). Read over the whole text (Claude Code
 * skips code blocks and spans; these are more, never fewer): for judging what is yours, where a
 * path named by either reading, this module's ({@link findImportTokens}) or Claude Code's, is
 * counted (review rev107e F1). Linear: the pattern's two branches never match the same letter.
 */
export function claudeCodeImportPaths(text: string): string[] {
  const paths: string[] = [];
  if (!text.includes("@")) return paths;
  for (const match of text.matchAll(/(?:^|\s)@((?:[^\s\\]|\\ )+)/g)) {
    let path = match[1] ?? "";
    const hash = path.indexOf("#");
    if (hash !== -1) path = path.slice(0, hash);
    path = path.replaceAll("\\ ", " ");
    if (path !== "" && path !== "/" && !path.startsWith("@")) paths.push(path);
  }
  return paths;
}
