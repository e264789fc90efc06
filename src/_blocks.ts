/**
 * CommonMark's block structure, read only as far as the closers need it: which
 * containers (block quotes, list items) and which leaf block (a paragraph, a
 * fenced code block, an HTML block) are open after each line. Headings,
 * thematic breaks and indented code end by themselves and are kept as "no
 * leaf"; inline text is not read, and link reference definitions only as far
 * as a setext underline after them needs (a paragraph's text is read for
 * them at most once before it ends or is taken whole). Plain character codes,
 * no regular expressions: a line is read a bounded number of times per open
 * container it matches, and each such match uses up a character of the line
 * (or a blank line skips to the next block quote by a binary search), so a
 * reading is linear in the text (n log n at worst).
 */

/** An open fenced code block: its character and how many of them opened it. */
export interface Fence {
  char: "`" | "~";
  length: number;
}

/**
 * A block quote, or a list item and the columns its content is indented by.
 * Shared and never changed ({@link containerOf}): a line can open a container
 * per character, and a stack of them costs a slot each, not an object.
 */
export interface Container {
  readonly quote: boolean;
  readonly indent: number;
  /** Holds a block yet: an empty list item ends at a blank line. */
  readonly filled: boolean;
}

const QUOTES: readonly Container[] = [false, true].map((filled) =>
  Object.freeze({ quote: true, indent: 0, filled }),
);
/** List items by indent (a marker's indent, up to nine digits and `.`, up to four spaces: a few dozen). */
const ITEMS = new Map<number, readonly Container[]>();

/** The one container of each kind, indent and filling. */
export function containerOf(quote: boolean, indent: number, filled: boolean): Container {
  if (quote) return QUOTES[filled ? 1 : 0] as Container;
  let pair = ITEMS.get(indent);
  if (pair === undefined) {
    pair = [false, true].map((f) => Object.freeze({ quote: false, indent, filled: f }));
    ITEMS.set(indent, pair);
  }
  return pair[filled ? 1 : 0] as Container;
}

/** A leaf that runs on: a paragraph ({@link Paragraph}), a fence (with its opener's indent), an HTML block of CommonMark's kind 1-7. */
export type Leaf = Paragraph | { kind: "fence"; fence: Fence; indent: number } | Html;

/**
 * A paragraph, and its text while it starts with `[` and so may be link
 * reference definitions only: its lines from their first character that is
 * not a space or tab, each ended by a line feed, as CommonMark keeps them.
 * A setext underline after a paragraph of definitions only is no underline
 * (`===` goes on as the paragraph's text, `---` is a thematic break). Once
 * the text starts otherwise, `definitions` is left out: a paragraph's text.
 */
export interface Paragraph {
  kind: "paragraph";
  definitions?: string;
}

/** An HTML block of kind `type`; kinds 1-5 end at a line holding `closer`. */
export interface Html {
  kind: "html";
  type: number;
  closer: string;
}

/** What is open after some lines: containers outermost first, then the leaf (undefined: none). */
export interface Reading {
  containers: Container[];
  /** Where the block quotes sit in `containers`, in order. */
  quotes: number[];
  leaf: Leaf | undefined;
  /**
   * What the last line read started, its leaf ended on it or not: a paragraph (one
   * going on is not), an HTML block (`<!-- x -->` ends on its line and leaves no leaf).
   */
  started?: "paragraph" | "html" | undefined;
}

/** A paragraph of text (not link reference definitions). */
export const PARAGRAPH: Leaf = { kind: "paragraph" };

const TAB = 0x09;
const SPACE = 0x20;
const GREATER = 0x3e;
const LESS = 0x3c;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const HASH = 0x23;
const DASH = 0x2d;
const PLUS = 0x2b;
const STAR = 0x2a;
const UNDERSCORE = 0x5f;
const EQUALS = 0x3d;
const BANG = 0x21;
const QUESTION = 0x3f;
const SLASH = 0x2f;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const LINE_FEED = 0x0a;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;

/** Four columns of indentation make indented code (and stop every other block from starting). */
const CODE_INDENT = 4;

const isSpaceOrTab = (code: number) => code === SPACE || code === TAB;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isLetter = (code: number) => (code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a;

/** JavaScript's `\s` (CommonMark's HTML patterns are written with it). */
function isJsSpace(code: number): boolean {
  if (code === SPACE || (code >= 0x09 && code <= 0x0d)) return true;
  return code > 0x7f && /\s/.test(String.fromCharCode(code));
}

/**
 * Where one line is read from: `offset` in the text and the `column` it stands
 * for (a tab runs to the next multiple of four, and a container can take part
 * of one), then the next character that is not a space or tab.
 */
class Cursor {
  text = "";
  end = 0;
  offset = 0;
  column = 0;
  next = 0;
  nextColumn = 0;
  indent = 0;
  blank = false;
  /** Where a thematic break was ruled out on this line, per marker (`*`, `-`, `_`): from, to. */
  private readonly noBreak = new Int32Array(6);
  private noBreakLine = -1;
  private lineStart = 0;

  start(text: string, from: number, to: number): void {
    this.text = text;
    this.end = to;
    this.offset = from;
    this.column = 0;
    this.next = -1;
    this.lineStart = from;
    // The memo is of this text's line at this offset: another text's line there is another line.
    this.noBreakLine = -1;
  }

  /**
   * Finds the next character that is not a space or tab, and the indent up to
   * it. Columns count from the line's start, so a `next` found before still
   * holds while the cursor has not passed it: each space is looked at once.
   */
  look(): void {
    if (this.offset <= this.next) {
      this.indent = this.nextColumn - this.column;
      this.blank = this.next >= this.end;
      return;
    }
    let at = this.offset;
    let column = this.column;
    while (at < this.end) {
      const code = this.text.charCodeAt(at);
      if (code === SPACE) column++;
      else if (code === TAB) column += 4 - (column % 4);
      else break;
      at++;
    }
    this.next = at;
    this.nextColumn = column;
    this.indent = column - this.column;
    this.blank = at >= this.end;
  }

  toNext(): void {
    this.offset = this.next;
    this.column = this.nextColumn;
  }

  /** Moves on `count` characters, or `count` columns (a tab may be taken in part). */
  advance(count: number, columns: boolean): void {
    let left = count;
    while (left > 0 && this.offset < this.end) {
      if (this.text.charCodeAt(this.offset) === TAB) {
        const toStop = 4 - (this.column % 4);
        if (columns) {
          const step = Math.min(left, toStop);
          this.column += step;
          if (step === toStop) this.offset++;
          left -= step;
        } else {
          this.column += toStop;
          this.offset++;
          left--;
        }
      } else {
        this.offset++;
        this.column++;
        left--;
      }
    }
  }

  code(at: number): number {
    return at < this.end ? this.text.charCodeAt(at) : -1;
  }

  /**
   * True when the line from `next` holds only `code` (three or more) and
   * spaces and tabs. `- - - x` starts list items one inside the other, each
   * asking again: the first other character found is kept, so the line is
   * read once per marker.
   */
  thematicBreak(code: number): boolean {
    const known = this.noBreak;
    if (this.noBreakLine !== this.lineStart) {
      known.fill(-1);
      this.noBreakLine = this.lineStart;
    }
    const slot = code === STAR ? 0 : code === DASH ? 2 : 4;
    const from = known[slot] as number;
    if (from !== -1 && this.next >= from && this.next <= (known[slot + 1] as number)) return false;
    let count = 0;
    let at = this.next;
    for (; at < this.end; at++) {
      const x = this.text.charCodeAt(at);
      if (x === code) count++;
      else if (!isSpaceOrTab(x)) break;
    }
    if (at >= this.end && count >= 3) return true;
    known[slot] = this.next;
    known[slot + 1] = at;
    return false;
  }
}

const cursor = new Cursor();

/** A reading with nothing open. */
export function freshReading(leaf?: Leaf): Reading {
  return { containers: [], quotes: [], leaf };
}

/**
 * A copy of `r` with its outermost `limit` containers at most. A line of `n`
 * characters that is not blank continues at most `4n` containers (each takes
 * a column or more, a tab gives four), so read with a shorter line a copy
 * ends as the whole reading would: the line fails a container the copy has.
 */
export function copyReading(r: Reading, limit = Number.POSITIVE_INFINITY): Reading {
  const containers = r.containers.slice(0, limit);
  let quotes = r.quotes.length;
  while (quotes > 0 && (r.quotes[quotes - 1] as number) >= containers.length) quotes--;
  return { containers, quotes: r.quotes.slice(0, quotes), leaf: r.leaf };
}

/**
 * Equal readings read every later line alike. Stacks deeper than `budget`
 * (and 8) are not compared (they stay apart): the caller bounds the work.
 */
export function sameReading(a: Reading, b: Reading, budget = 0): boolean {
  const n = a.containers.length;
  const most = Math.max(8, budget);
  if (n !== b.containers.length || n > most || !sameLeaf(a.leaf, b.leaf, most)) return false;
  for (let i = 0; i < n; i++) {
    const x = a.containers[i] as Container;
    const y = b.containers[i] as Container;
    if (x.quote !== y.quote || x.indent !== y.indent || x.filled !== y.filled) return false;
  }
  return true;
}

function sameLeaf(a: Leaf | undefined, b: Leaf | undefined, most: number): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === "fence")
    return (
      b.kind === "fence" &&
      a.fence.char === b.fence.char &&
      a.fence.length === b.fence.length &&
      a.indent === b.indent
    );
  if (a.kind === "html") return b.kind === "html" && a.type === b.type && a.closer === b.closer;
  if (b.kind !== "paragraph") return false;
  const x = a.definitions;
  const y = b.definitions;
  if (x === undefined || y === undefined) return x === y;
  return x.length <= most && x === y;
}

/** The first block quote at or after `from` in the stack, or the stack's length. */
function quoteFrom(r: Reading, from: number): number {
  const q = r.quotes;
  let lo = 0;
  let hi = q.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((q[mid] as number) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < q.length ? (q[lo] as number) : r.containers.length;
}

/** Closes the containers from `matched` on and the leaf: a line that did not continue them starts a block. */
function closeAbove(r: Reading, matched: number): true {
  truncate(r, matched);
  r.leaf = undefined;
  return true;
}

function truncate(r: Reading, length: number): void {
  if (r.containers.length <= length) return;
  r.containers.length = length;
  while (r.quotes.length > 0 && (r.quotes[r.quotes.length - 1] as number) >= length) r.quotes.pop();
}

/** A container starts in the innermost one; a paragraph open there ends. */
function push(r: Reading, c: Container): void {
  fill(r);
  r.leaf = undefined;
  if (c.quote) r.quotes.push(r.containers.length);
  r.containers.push(c);
}

/** A leaf starts in the innermost container, which then holds a block. */
function setLeaf(r: Reading, leaf: Leaf | undefined): void {
  fill(r);
  r.leaf = leaf;
}

/** The innermost container holds a block. */
function fill(r: Reading): void {
  const last = r.containers.length - 1;
  const parent = r.containers[last];
  if (parent !== undefined && !parent.filled)
    r.containers[last] = containerOf(parent.quote, parent.indent, true);
}

/**
 * A bullet item's line (`-`, `*` or `+`, one space, a letter) that starts a
 * new item over what is open: nothing, or a paragraph of text outside every
 * container, or anything in one list item (the line does not continue it,
 * and starts an item, which a lazy paragraph line cannot be). The most
 * common line of an AGENTS.md, read without the cursor.
 */
function bulletItemLine(r: Reading, text: string, from: number): boolean {
  const marker = text.charCodeAt(from);
  if (marker !== DASH && marker !== STAR && marker !== PLUS) return false;
  if (text.charCodeAt(from + 1) !== SPACE || !isLetter(text.charCodeAt(from + 2))) return false;
  const leaf = r.leaf;
  if (r.containers.length === 0)
    return leaf === undefined || (leaf.kind === "paragraph" && leaf.definitions === undefined);
  const only = r.containers[0] as Container;
  return r.containers.length === 1 && !only.quote;
}

/** Where the line `text[from, to)` goes on after its leading white space, `>` and list markers (`-`, `*`, `+`, `1.`, `1)`). */
export function afterMarkers(text: string, from: number, to: number): number {
  let at = from;
  for (;;) {
    while (at < to && isSpaceOrTab(text.charCodeAt(at))) at++;
    const code = text.charCodeAt(at);
    let next = at;
    if (code === GREATER) next = at + 1;
    else if (code === 0x2d || code === 0x2a || code === 0x2b) next = at + 1;
    else {
      while (
        next < to &&
        next - at < 9 &&
        text.charCodeAt(next) >= 0x30 &&
        text.charCodeAt(next) <= 0x39
      )
        next++;
      const mark = text.charCodeAt(next);
      if (next === at || (mark !== 0x2e && mark !== 0x29)) return at;
      next++;
    }
    const after = text.charCodeAt(next);
    if (code !== GREATER && next < to && after !== SPACE && after !== TAB) return at;
    at = next;
  }
}

/**
 * Reads the line `text[from, to)` (no line break in it) into `r`, as
 * CommonMark's block parser does: the open containers it continues, then a
 * leaf's continuation or end, then the blocks it starts, then a lazy
 * paragraph line or a new paragraph. True when the line is the closer of
 * the fenced code or HTML block (kind 1-5) open before it: a leaf that ends
 * another way (its block quote or list item not continued, CommonMark 5.1)
 * ends before the line (review rev57b F6).
 */
export function readLine(r: Reading, text: string, from: number, to: number): boolean {
  if (r.started !== undefined) r.started = undefined;
  // Most lines of a prompt are text starting with a letter, outside every container: such a
  // line starts no block and closes none but a kind 1-5 HTML block (read below), so it
  // starts a paragraph or goes on in the leaf (formatPrompt reads every line of a section).
  if (bulletItemLine(r, text, from)) {
    // `- text`: a list item of indent 2 holding a paragraph, in place of what was open.
    truncate(r, 0);
    r.containers.push(containerOf(false, 2, true));
    r.leaf = PARAGRAPH;
    r.started = "paragraph";
    return false;
  }
  if (r.containers.length === 0 && isLetter(text.charCodeAt(from))) {
    const leaf = r.leaf;
    if (leaf === undefined) {
      r.leaf = PARAGRAPH;
      r.started = "paragraph";
      return false;
    }
    if (
      (leaf.kind === "paragraph" && leaf.definitions === undefined) ||
      leaf.kind === "fence" ||
      (leaf.kind === "html" && leaf.type >= 6)
    )
      return false;
  }
  const c = cursor;
  c.start(text, from, to);
  const stack = r.containers;
  let matched = 0;
  while (matched < stack.length) {
    c.look();
    if (c.blank) {
      // Only a block quote needs a character; list items go on over a blank line.
      matched = quoteFrom(r, matched);
      const last = stack[matched - 1];
      if (matched === stack.length && last !== undefined && !last.quote && !last.filled) matched--;
      break;
    }
    const container = stack[matched] as Container;
    if (container.quote) {
      if (c.indent >= CODE_INDENT || c.code(c.next) !== GREATER) break;
      c.toNext();
      c.advance(1, false);
      if (isSpaceOrTab(c.code(c.offset))) c.advance(1, true);
    } else {
      if (c.indent < container.indent) break;
      c.advance(container.indent, true);
    }
    matched++;
  }
  c.look();
  const leaf = r.leaf;
  const allMatched = matched === stack.length;
  if (allMatched && leaf !== undefined && leaf.kind !== "paragraph") {
    if (leaf.kind === "fence") {
      if (!(c.indent < CODE_INDENT && closesFenceAt(c, leaf.fence))) return false;
      r.leaf = undefined;
      return true;
    }
    if (!(c.blank && leaf.type >= 6)) {
      if (!(leaf.type <= 5 && holdsCloser(text, c.offset, to, leaf))) return false;
      r.leaf = undefined;
      return true;
    }
    // A blank line ends an HTML block of kind 6 or 7.
    r.leaf = undefined;
  }
  const paragraphGoesOn = allMatched && leaf?.kind === "paragraph" && !c.blank;
  // `closed`: the unmatched blocks are closed (or none was left unmatched).
  let closed = allMatched && (leaf === undefined || paragraphGoesOn);
  let inParagraph = paragraphGoesOn;
  let tipParagraph = r.leaf?.kind === "paragraph";
  for (;;) {
    c.look();
    const indented = c.indent >= CODE_INDENT;
    const first = c.code(c.next);
    if (!indented && !mayStartBlock(first)) break;
    if (indented) {
      if (!tipParagraph && !c.blank) {
        if (!closed) closed = closeAbove(r, matched);
        setLeaf(r, undefined); // indented code: ends by itself
        return false;
      }
      break;
    }
    if (first === GREATER) {
      c.toNext();
      c.advance(1, false);
      if (isSpaceOrTab(c.code(c.offset))) c.advance(1, true);
      if (!closed) closed = closeAbove(r, matched);
      push(r, containerOf(true, 0, false));
      matched = stack.length;
      inParagraph = false;
      tipParagraph = false;
      continue;
    }
    if (
      isAtxHeading(c) ||
      (inParagraph && isSetextLine(c) && underlines(r)) ||
      isThematicBreak(c)
    ) {
      if (!closed) closed = closeAbove(r, matched);
      setLeaf(r, undefined);
      return false;
    }
    const fence = fenceAt(c);
    if (fence !== undefined) {
      if (!closed) closed = closeAbove(r, matched);
      setLeaf(r, { kind: "fence", fence, indent: c.indent });
      return false;
    }
    if (first === LESS) {
      const html = htmlStart(c);
      // Kind 7 cannot interrupt a paragraph, nor follow one as a lazy line.
      if (html !== undefined && (html.type < 7 || (!inParagraph && !(!closed && tipParagraph)))) {
        if (!closed) closed = closeAbove(r, matched);
        setLeaf(r, html);
        r.started = "html";
        if (html.type <= 5 && holdsCloser(text, c.offset, to, html)) r.leaf = undefined;
        return false;
      }
    }
    const item = listItemAt(c, inParagraph);
    if (item === 0) break;
    if (!closed) closed = closeAbove(r, matched);
    push(r, containerOf(false, item, false));
    matched = stack.length;
    inParagraph = false;
    tipParagraph = false;
  }
  c.look();
  // A lazy line: a paragraph goes on in containers this line did not continue.
  if (!closed && !c.blank && tipParagraph) {
    addLine(r, text, c.next, to);
    return false;
  }
  if (!closed) closed = closeAbove(r, matched);
  if (inParagraph) {
    addLine(r, text, c.next, to);
    return false;
  }
  if (c.blank) return false;
  const definitions = c.code(c.next) === OPEN_BRACKET ? `${text.slice(c.next, to)}\n` : undefined;
  setLeaf(r, definitions === undefined ? PARAGRAPH : { kind: "paragraph", definitions });
  r.started = "paragraph";
  return false;
}

/** The line `text[from, to)` goes on the paragraph open in `r`. */
function addLine(r: Reading, text: string, from: number, to: number): void {
  const leaf = r.leaf;
  if (leaf?.kind !== "paragraph" || leaf.definitions === undefined) return;
  // Its text starts with `[` unless its definitions were just taken off (`===` follows them).
  // (Not asked of the joined string: a character of it would flatten it, at each line.)
  const first = leaf.definitions === "" ? text.charCodeAt(from) : OPEN_BRACKET;
  r.leaf =
    first === OPEN_BRACKET
      ? { kind: "paragraph", definitions: `${leaf.definitions}${text.slice(from, to)}\n` }
      : PARAGRAPH;
}

/**
 * True when a setext underline makes the paragraph open in `r` a heading:
 * CommonMark first takes the link reference definitions off its start, and
 * a paragraph they were all of has none (it goes on, empty).
 */
function underlines(r: Reading): boolean {
  const leaf = r.leaf;
  if (leaf?.kind !== "paragraph" || leaf.definitions === undefined) return true;
  let rest = leaf.definitions;
  for (;;) {
    const length = rest.charCodeAt(0) === OPEN_BRACKET ? definitionLength(rest) : 0;
    if (length === 0) break;
    rest = rest.slice(length);
  }
  if (rest.length > 0) return true;
  r.leaf = { kind: "paragraph", definitions: "" };
  return false;
}

/** Past the label, colon and destination of the link reference definition `s` starts with, else -1 ({@link definitionLength}). */
function definitionHead(s: string): number {
  const end = s.length;
  const code = (at: number) => (at < end ? s.charCodeAt(at) : -1);
  // Label.
  let at = 1;
  for (;;) {
    const x = code(at);
    if (x === -1 || x === OPEN_BRACKET) return -1;
    if (x === CLOSE_BRACKET) break;
    at += x === BACKSLASH ? 2 : 1;
    if (at > 1000) return -1;
  }
  if (at > 1000 || s.slice(1, at).trim() === "") return -1;
  at++;
  if (code(at) !== COLON) return -1;
  at = spacesAndLine(s, at + 1);
  // Destination.
  if (code(at) === LESS) {
    at++;
    for (;;) {
      const x = code(at);
      if (x === GREATER) break;
      if (x === -1 || x === LESS || x === LINE_FEED) return -1;
      if (x === BACKSLASH) {
        if (isLineTerminator(code(at + 1))) return -1;
        at++;
      }
      at++;
    }
    at++;
  } else {
    const start = at;
    let open = 0;
    let x = code(at);
    for (; x !== -1; x = code(at)) {
      if (x === BACKSLASH && isAsciiPunctuation(code(at + 1))) at += 2;
      else if (x === OPEN_PAREN) {
        open++;
        at++;
      } else if (x === CLOSE_PAREN) {
        if (open < 1) break;
        open--;
        at++;
      } else if (x === SPACE || (x >= 0x09 && x <= 0x0d)) break;
      else at++;
    }
    if ((at === start && x !== CLOSE_PAREN) || open !== 0) return -1;
  }
  return at;
}

/**
 * True when `s` starts a link reference definition whose title is open at
 * its end (`[x]: /u "` and lines with no closing quote): what follows may
 * still be that title, which no reader shows, once a later line closes it.
 */
export function definitionTitleOpen(s: string): boolean {
  const at = definitionHead(s);
  if (at === -1) return false;
  const titleStart = spacesAndLine(s, at);
  if (titleStart === at || titleStart >= s.length) return false;
  const open = s.charCodeAt(titleStart);
  if (open !== 0x22 && open !== 0x27 && open !== OPEN_PAREN) return false;
  return titleEnd(s, titleStart) === -1 && !s.includes("\n\n", titleStart);
}

/**
 * The length of the link reference definition `s` starts with (0: none), as
 * commonmark.js reads one: a label of up to 999 characters in brackets, a
 * colon, spaces and at most one line break, a destination (`<…>` on one line,
 * or characters up to a space with parentheses balanced), then an optional
 * title (`"…"`, `'…'`, `(…)`, after spaces or a line break) and spaces to the
 * line's end; a title with more after it is not one, and the definition ends
 * with its destination's line if nothing else is on it. Each character is
 * looked at a bounded number of times.
 */
export function definitionLength(s: string): number {
  const at = definitionHead(s);
  if (at === -1) return 0;
  const destinationEnd = at;
  const titleStart = spacesAndLine(s, at);
  if (titleStart !== destinationEnd) {
    const afterTitle = titleEnd(s, titleStart);
    if (afterTitle !== -1) {
      const lineEnd = spacesToLineEnd(s, afterTitle);
      if (lineEnd !== -1) return lineEnd;
    }
  }
  const lineEnd = spacesToLineEnd(s, destinationEnd);
  return lineEnd === -1 ? 0 : lineEnd;
}

/** Past spaces, at most one line feed and spaces after it. */
function spacesAndLine(s: string, from: number): number {
  let at = from;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at) === LINE_FEED) {
    at++;
    while (s.charCodeAt(at) === SPACE) at++;
  }
  return at;
}

/** Past spaces and the line feed after them (or at the end), else -1. */
function spacesToLineEnd(s: string, from: number): number {
  let at = from;
  while (s.charCodeAt(at) === SPACE) at++;
  if (at >= s.length) return at;
  return s.charCodeAt(at) === LINE_FEED ? at + 1 : -1;
}

/** Past a link title (`"…"`, `'…'` or `(…)`, a backslash taking the next character) at `from`, else -1. */
function titleEnd(s: string, from: number): number {
  const open = s.charCodeAt(from);
  const close = open === OPEN_PAREN ? CLOSE_PAREN : open;
  if (open !== 0x22 && open !== 0x27 && open !== OPEN_PAREN) return -1;
  for (let at = from + 1; at < s.length; at++) {
    const x = s.charCodeAt(at);
    if (x === close) return at + 1;
    if (x === BACKSLASH) {
      if (at + 1 >= s.length) return -1;
      at++;
    } else if (open === OPEN_PAREN && x === OPEN_PAREN) return -1;
  }
  return -1;
}

function isLineTerminator(code: number): boolean {
  return code === -1 || code === LINE_FEED || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** CommonMark's escapable characters: ASCII punctuation. */
export function isAsciiPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/** `#`, a backtick, `~`, `*`, `+`, `_`, `=`, `<`, `>`, `-` or a digit: what a block other than a paragraph starts with. */
function mayStartBlock(code: number): boolean {
  return (
    code === HASH ||
    code === BACKTICK ||
    code === TILDE ||
    code === STAR ||
    code === PLUS ||
    code === UNDERSCORE ||
    code === EQUALS ||
    code === LESS ||
    code === GREATER ||
    code === DASH ||
    isDigit(code)
  );
}

/** A fenced code block's opener at the cursor: ``` or ~~~ (three or more); no backtick after a backtick run. */
function fenceAt(c: Cursor): Fence | undefined {
  const code = c.code(c.next);
  if (code !== BACKTICK && code !== TILDE) return undefined;
  let end = c.next;
  while (c.code(end) === code) end++;
  if (end - c.next < 3) return undefined;
  if (code === BACKTICK) {
    for (let i = end; i < c.end; i++) if (c.text.charCodeAt(i) === BACKTICK) return undefined;
  }
  return { char: code === BACKTICK ? "`" : "~", length: end - c.next };
}

/** True when the cursor's line closes `fence`: as many of its character or more, then spaces and tabs only. */
function closesFenceAt(c: Cursor, fence: Fence): boolean {
  const code = fence.char === "`" ? BACKTICK : TILDE;
  let end = c.next;
  while (c.code(end) === code) end++;
  if (end - c.next < fence.length) return false;
  for (let i = end; i < c.end; i++) if (!isSpaceOrTab(c.text.charCodeAt(i))) return false;
  return true;
}

function isAtxHeading(c: Cursor): boolean {
  let at = c.next;
  while (c.code(at) === HASH) at++;
  const n = at - c.next;
  if (n < 1 || n > 6) return false;
  const after = c.code(at);
  return after === -1 || isSpaceOrTab(after);
}

/** `===` or `---` and nothing after but spaces and tabs: a paragraph above becomes a heading. */
function isSetextLine(c: Cursor): boolean {
  const code = c.code(c.next);
  if (code !== EQUALS && code !== DASH) return false;
  let at = c.next;
  while (c.code(at) === code) at++;
  for (; at < c.end; at++) if (!isSpaceOrTab(c.text.charCodeAt(at))) return false;
  return true;
}

/** Three or more `*`, `-` or `_` (one of them), spaces and tabs between. */
function isThematicBreak(c: Cursor): boolean {
  const code = c.code(c.next);
  if (code !== STAR && code !== DASH && code !== UNDERSCORE) return false;
  return c.thematicBreak(code);
}

/**
 * A list item's marker at the cursor (`-`, `+`, `*`, or up to nine digits and
 * `.` or `)`), then a space, a tab or the line's end: the cursor moves to its
 * content and the item's content indent comes back (0: no marker). Inside a
 * paragraph only an item with text that is bulleted or numbered 1 starts.
 */
function listItemAt(c: Cursor, inParagraph: boolean): number {
  const first = c.code(c.next);
  let length = 0;
  if (first === DASH || first === PLUS || first === STAR) length = 1;
  else if (isDigit(first)) {
    let at = c.next;
    let value = 0;
    while (isDigit(c.code(at)) && at - c.next < 9) {
      value = value * 10 + (c.code(at) - 0x30);
      at++;
    }
    const delimiter = c.code(at);
    if (delimiter !== 0x2e && delimiter !== 0x29) return 0;
    if (inParagraph && value !== 1) return 0;
    length = at + 1 - c.next;
  } else return 0;
  const after = c.code(c.next + length);
  if (after !== -1 && !isSpaceOrTab(after)) return 0;
  if (inParagraph) {
    let empty = true;
    for (let at = c.next + length; at < c.end && empty; at++) {
      const x = c.text.charCodeAt(at);
      empty = isSpaceOrTab(x) || x === 0x0b || x === 0x0c;
    }
    if (empty) return 0;
  }
  const markerIndent = c.indent;
  c.toNext();
  c.advance(length, true);
  const startColumn = c.column;
  const startOffset = c.offset;
  do c.advance(1, true);
  while (c.column - startColumn < 5 && isSpaceOrTab(c.code(c.offset)));
  const spaces = c.column - startColumn;
  // Five spaces or more start indented code inside the item; an empty item takes one.
  if (spaces >= 5 || spaces < 1 || c.offset >= c.end) {
    c.column = startColumn;
    c.offset = startOffset;
    if (isSpaceOrTab(c.code(c.offset))) c.advance(1, true);
    return markerIndent + length + 1;
  }
  return markerIndent + length + spaces;
}

const RAW_NAMES = ["script", "pre", "style", "textarea"] as const;

/** CommonMark's kind 6: block-level tag names. */
const BLOCK_NAMES = new Set(
  (
    "address article aside base basefont blockquote body caption center col colgroup dd details " +
    "dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 " +
    "head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option " +
    "p param search section summary table tbody td tfoot th thead title tr track ul"
  ).split(" "),
);

/** The HTML block that starts at the cursor's `<`, or undefined. */
function htmlStart(c: Cursor): Html | undefined {
  const text = c.text;
  const at = c.next;
  const html = (type: number, closer: string): Html => ({ kind: "html", type, closer });
  const second = c.code(at + 1);
  if (second === BANG) {
    if (text.startsWith("--", at + 2)) return html(2, "-->");
    if (text.startsWith("[CDATA[", at + 2) && at + 9 <= c.end) return html(5, "]]>");
    if (isLetter(c.code(at + 2))) return html(4, ">");
    return undefined;
  }
  if (second === QUESTION) return html(3, "?>");
  for (const name of RAW_NAMES) {
    const end = at + 1 + name.length;
    if (end > c.end || text.slice(at + 1, end).toLowerCase() !== name) continue;
    const after = c.code(end);
    if (after === -1 || after === GREATER || isJsSpace(after)) return html(1, `</${name}>`);
  }
  let nameStart = at + 1;
  if (second === SLASH) nameStart++;
  let nameEnd = nameStart;
  while (isLetter(c.code(nameEnd)) || isDigit(c.code(nameEnd))) nameEnd++;
  if (nameEnd > nameStart && BLOCK_NAMES.has(text.slice(nameStart, nameEnd).toLowerCase())) {
    const after = c.code(nameEnd);
    if (
      after === -1 ||
      after === GREATER ||
      isJsSpace(after) ||
      (after === SLASH && c.code(nameEnd + 1) === GREATER)
    )
      return html(6, "");
  }
  return isWholeTag(c, at) ? html(7, "") : undefined;
}

/** True when the line from `<` at `at` is one open or closing tag, then white space only (kind 7). */
function isWholeTag(c: Cursor, from: number): boolean {
  let at = from + 1;
  const closing = c.code(at) === SLASH;
  if (closing) at++;
  if (!isLetter(c.code(at))) return false;
  while (isLetter(c.code(at)) || isDigit(c.code(at)) || c.code(at) === DASH) at++;
  const skipSpace = () => {
    const start = at;
    while (at < c.end && isJsSpace(c.text.charCodeAt(at))) at++;
    return at > start;
  };
  if (closing) {
    skipSpace();
    if (c.code(at) !== GREATER) return false;
  } else {
    for (;;) {
      const spaced = skipSpace();
      const code = c.code(at);
      if (code === GREATER) break;
      if (code === SLASH) {
        if (c.code(at + 1) !== GREATER) return false;
        at++;
        break;
      }
      if (!spaced || !isAttributeStart(code)) return false;
      while (isAttributeChar(c.code(at))) at++;
      const beforeValue = at;
      skipSpace();
      if (c.code(at) !== EQUALS) {
        at = beforeValue;
        continue;
      }
      at++;
      skipSpace();
      const quote = c.code(at);
      if (quote === 0x22 || quote === 0x27) {
        const close = c.text.indexOf(String.fromCharCode(quote), at + 1);
        if (close === -1 || close >= c.end) return false;
        at = close + 1;
      } else {
        const start = at;
        while (at < c.end && isUnquotedChar(c.text.charCodeAt(at))) at++;
        if (at === start) return false;
      }
    }
  }
  at++;
  skipSpace();
  return at >= c.end;
}

function isAttributeStart(code: number): boolean {
  return isLetter(code) || code === UNDERSCORE || code === 0x3a;
}

function isAttributeChar(code: number): boolean {
  return isAttributeStart(code) || isDigit(code) || code === 0x2e || code === DASH;
}

/** Not `"`, `'`, `=`, `<`, `>`, a backtick, a control or a space. */
function isUnquotedChar(code: number): boolean {
  return (
    code > SPACE &&
    code !== 0x22 &&
    code !== 0x27 &&
    code !== EQUALS &&
    code !== LESS &&
    code !== GREATER &&
    code !== BACKTICK
  );
}

/** True when `text[from, to)` holds the end of an HTML block of kind 1-5. */
function holdsCloser(text: string, from: number, to: number, leaf: Html): boolean {
  const line = text.slice(from, to);
  if (leaf.type !== 1) return line.includes(leaf.closer);
  const lower = line.toLowerCase();
  return RAW_NAMES.some((name) => lower.includes(`</${name}>`));
}

/** Calls `each(from, to)` for every line of `text`: LF, CR and CRLF end one; a final line break starts none. */
export function eachLine(text: string, each: (from: number, to: number) => void): void {
  const length = text.length;
  let start = 0;
  while (start < length) {
    let end = start;
    while (end < length) {
      const code = text.charCodeAt(end);
      if (code === 0x0a || code === 0x0d) break;
      end++;
    }
    each(start, end);
    if (end >= length) return;
    const crlf = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a;
    start = end + (crlf ? 2 : 1);
  }
}
