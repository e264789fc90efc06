// A linear pass over template source that finds its tags without parsing it.
//
// Handlebars' own parser is a table-driven LR parser that copies its stack on
// every reduction, so its cost grows with nesting depth times length: 40,000
// nested `{{#if a}}` take seconds and a megabyte takes minutes. This scanner
// runs first, in one pass, to bound nesting and size before Handlebars sees
// the source, and again after a parse error to point at the block left open.
//
// It follows Handlebars' lexer closely enough for both jobs: comments, raw
// blocks (`{{{{raw}}}}…{{{{/raw}}}}`), escaped mustaches (`\{{`) and string
// and segment literals inside tags are skipped, so braces and parentheses in
// them never count. Every search moves forward, so the work is linear in the
// length of the source.
import { isJsSpace as isSpace } from "../_text.js";

export type TagKind = "open" | "close" | "else-chain" | "other";

export interface ScannedTag {
  /** `open`: `{{#x}}`, `{{^x}}`, `{{#> x}}`, `{{#*x}}`; `close`: `{{/x}}`; `else-chain`: `{{else x …}}`. */
  kind: TagKind;
  /** The block's name for `open` and `close`, else "". */
  name: string;
  /** Offset of the tag's `{{` in the source. */
  offset: number;
  /** Deepest subexpression nesting `((…))` inside the tag. */
  subexpressionDepth: number;
  /** Words inside the tag: path parts, parameters, hash keys and values, literals. */
  words: number;
  /** Set for an escaped `\{{`: a token of its own for Handlebars, but literal text, never a call. */
  escaped?: true;
}

const BACKSLASH = 0x5c;

/** Characters that end a block name, as the old `[^\s}~()]+` pattern read it. */
function endsName(code: number): boolean {
  return isSpace(code) || code === 0x7d || code === 0x7e || code === 0x28 || code === 0x29;
}

/** Characters that separate words inside a tag. */
function separatesWords(code: number): boolean {
  return (
    isSpace(code) ||
    code === 0x2e || // .
    code === 0x2f || // /
    code === 0x3d || // =
    code === 0x28 || // (
    code === 0x29 || // )
    code === 0x7c || // |
    code === 0x7e // ~
  );
}

/** A character of a Handlebars ID (`[^\s!"#%-,\.\/;->@\[-\^`\{-~]`). */
function isIdChar(code: number): boolean {
  if (Number.isNaN(code) || isSpace(code)) return false;
  return !(
    code === 0x21 ||
    code === 0x22 ||
    code === 0x23 ||
    (code >= 0x25 && code <= 0x2c) ||
    code === 0x2e ||
    code === 0x2f ||
    (code >= 0x3b && code <= 0x3e) ||
    code === 0x40 ||
    (code >= 0x5b && code <= 0x5e) ||
    code === 0x60 ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/**
 * `indexOf` for a search whose start only moves forward: once `needle` was
 * found at `at` (or not at all), asking again from before `at` costs nothing.
 * Without this, looking for two different closers from every comment opener
 * would rescan the rest of the source each time.
 */
function forwardSearch(source: string, needle: string): (from: number) => number {
  let lastFrom = -1;
  let lastAt = -1;
  return (from) => {
    if (lastFrom >= 0 && from >= lastFrom && (lastAt < 0 || lastAt >= from)) return lastAt;
    lastFrom = from;
    lastAt = source.indexOf(needle, from);
    return lastAt;
  };
}

/**
 * The end (exclusive) of a string or segment literal opening at `start`, read
 * like Handlebars' `"(\\"|[^"])*"`: `\` before the closing character escapes
 * it, but when no unescaped closer follows, the last escaped one closes it.
 * -1 when it never closes.
 */
function literalEnd(source: string, start: number, closer: number): number {
  let lastEscaped = -1;
  let i = start + 1;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === BACKSLASH && source.charCodeAt(i + 1) === closer) {
      lastEscaped = i + 1;
      i += 2;
    } else if (code === closer) {
      return i + 1;
    } else {
      i++;
    }
  }
  return lastEscaped < 0 ? -1 : lastEscaped + 1;
}

/**
 * Calls `visit` for each tag in source order; stops early when `visit`
 * returns false, and at the first tag, comment or raw block that never ends
 * (Handlebars fails there too). A tag that never ends is still visited.
 */
export function scanTags(source: string, visit: (tag: ScannedTag) => boolean | undefined): void {
  const n = source.length;
  const commentClose = forwardSearch(source, "--}}");
  const commentCloseTrimmed = forwardSearch(source, "--~}}");
  let i = 0;
  while (i < n) {
    const open = source.indexOf("{{", i);
    if (open < 0) return;
    // `\{{` is literal text up to the next mustache; `\\{{` is a backslash and a real tag.
    const escaped =
      open - 1 >= i &&
      source.charCodeAt(open - 1) === BACKSLASH &&
      !(open - 2 >= i && source.charCodeAt(open - 2) === BACKSLASH);
    if (escaped) {
      // Literal text, but Handlebars still makes it a token of its own, so it counts as a tag.
      const literal: ScannedTag = {
        kind: "other",
        name: "",
        offset: open,
        subexpressionDepth: 0,
        words: 0,
        escaped: true,
      };
      if (!visitTag(literal)) return;
      i = open + 2;
      continue;
    }
    if (source.startsWith("{{", open + 2)) {
      // Nested `{{{{…` openers and closers inside a raw block are tokens of their own too.
      const end = skipRawBlock(source, open, (offset) =>
        visitTag({ kind: "other", name: "", offset, subexpressionDepth: 0, words: 1 }),
      );
      if (end < 0) return;
      i = end;
      continue;
    }
    let j = open + 2;
    if (source.charCodeAt(j) === 0x7e) j++; // ~
    if (source.startsWith("!--", j)) {
      const plain = commentClose(j + 1);
      const trimmed = commentCloseTrimmed(j + 1);
      const end =
        plain < 0
          ? trimmed < 0
            ? -1
            : trimmed + 5
          : trimmed < 0 || plain < trimmed
            ? plain + 4
            : trimmed + 5;
      if (!visitTag({ kind: "other", name: "", offset: open, subexpressionDepth: 0, words: 0 }))
        return;
      if (end < 0) return;
      i = end;
      continue;
    }
    if (source.charCodeAt(j) === 0x21) {
      // {{! comment }}
      const close = source.indexOf("}}", j + 1);
      if (!visitTag({ kind: "other", name: "", offset: open, subexpressionDepth: 0, words: 0 }))
        return;
      if (close < 0) return;
      i = close + 2;
      continue;
    }
    const { kind, name, bodyStart } = classify(source, j);
    const body = scanTagBody(source, bodyStart);
    const tag: ScannedTag = {
      kind,
      name,
      offset: open,
      subexpressionDepth: body.subexpressionDepth,
      words: body.words,
    };
    if (!visitTag(tag) || body.end < 0) return;
    i = body.end;
  }

  function visitTag(tag: ScannedTag): boolean {
    return visit(tag) !== false;
  }
}

/** What kind of tag starts at `j` (just after `{{` and an optional `~`), its name and where its body starts. */
function classify(source: string, j: number): { kind: TagKind; name: string; bodyStart: number } {
  const sigil = source.charCodeAt(j);
  if (sigil === 0x23 || sigil === 0x2f || sigil === 0x5e) {
    // # / ^
    let k = j + 1;
    if (sigil === 0x23 && (source.charCodeAt(k) === 0x3e || source.charCodeAt(k) === 0x2a)) k++; // #> #*
    if (sigil === 0x5e && isBareInverse(source, k)) {
      return { kind: "other", name: "", bodyStart: k };
    }
    while (k < source.length && isSpace(source.charCodeAt(k))) k++;
    let end = k;
    while (end < source.length && !endsName(source.charCodeAt(end))) end++;
    if (end === k) return { kind: "other", name: "", bodyStart: k };
    return { kind: sigil === 0x2f ? "close" : "open", name: source.slice(k, end), bodyStart: k };
  }
  let k = j;
  while (k < source.length && isSpace(source.charCodeAt(k))) k++;
  if (source.startsWith("else", k)) {
    const after = source.charCodeAt(k + 4);
    const wordChar =
      (after >= 0x30 && after <= 0x39) ||
      (after >= 0x41 && after <= 0x5a) ||
      (after >= 0x61 && after <= 0x7a) ||
      after === 0x5f;
    if (!wordChar && !isBareInverse(source, k + 4)) {
      return { kind: "else-chain", name: "", bodyStart: k + 4 };
    }
  }
  return { kind: "other", name: "", bodyStart: j };
}

/** Whether only spaces and an optional `~` stand between `k` and `}}`: `{{^}}`, `{{else}}`. */
function isBareInverse(source: string, k: number): boolean {
  let i = k;
  while (i < source.length && isSpace(source.charCodeAt(i))) i++;
  if (source.charCodeAt(i) === 0x7e) i++;
  return source.startsWith("}}", i);
}

/** Reads a tag's body up to its `}}`; `end` is -1 when the tag never ends. */
function scanTagBody(
  source: string,
  start: number,
): { end: number; subexpressionDepth: number; words: number } {
  let depth = 0;
  let deepest = 0;
  let words = 0;
  let inWord = false;
  let i = start;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === 0x7d && source.charCodeAt(i + 1) === 0x7d) {
      return { end: i + 2, subexpressionDepth: deepest, words };
    }
    if (code === 0x22 || code === 0x27 || code === 0x5b) {
      // "…", '…', […]
      const end = literalEnd(source, i, code === 0x5b ? 0x5d : code);
      if (end < 0) return { end: -1, subexpressionDepth: deepest, words };
      if (!inWord) words++;
      inWord = true;
      i = end;
      continue;
    }
    if (code === 0x28) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === 0x29 && depth > 0) {
      depth--;
    }
    if (separatesWords(code)) {
      inWord = false;
    } else if (!inWord) {
      words++;
      inWord = true;
    }
    i++;
  }
  return { end: -1, subexpressionDepth: deepest, words };
}

/**
 * The end (exclusive) of the raw block whose `{{{{` is at `open`, counting
 * nested `{{{{…` openers the way Handlebars' raw state does and calling
 * `visit` with the offset of every opener and closer; -1 when the block never
 * ends or `visit` returns false.
 */
function skipRawBlock(source: string, open: number, visit: (offset: number) => boolean): number {
  if (!visit(open)) return -1;
  const headEnd = source.indexOf("}}}}", open + 4);
  if (headEnd < 0) return -1;
  let level = 1;
  let at = headEnd + 4;
  for (;;) {
    const next = source.indexOf("{{{{", at);
    if (next < 0) return -1;
    if (source.charCodeAt(next + 4) === 0x2f) {
      let k = next + 5;
      while (isIdChar(source.charCodeAt(k))) k++;
      if (k > next + 5 && source.startsWith("}}}}", k)) {
        if (!visit(next)) return -1;
        level--;
        if (level === 0) return k + 4;
        at = k + 4;
      } else {
        at = next + 1;
      }
    } else {
      if (!visit(next)) return -1;
      level++;
      at = next + 4;
    }
  }
}
