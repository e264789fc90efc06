import { type Container, eachLine, freshReading, type Leaf, readLine } from "../_blocks.js";
import { isJsSpace } from "../_text.js";

/**
 * What an HTML reader of a Markdown text's rendering meets as markup: the
 * text, the same length, with each `<` that CommonMark prints as text
 * (`&lt;`) written as `_`. A Markdown renderer passes raw HTML on as it is
 * (HTML blocks, and inline tags, comments, `<?…?>`, declarations and CDATA
 * complete within their paragraph) and escapes every other `<`: in fenced
 * code, in code spans, after a backslash, in autolinks, and a tag or comment
 * not complete within its paragraph. The HTML reader (src/sections/html-reading.ts)
 * reads this text, so that it meets the markup a reader of the rendered
 * prompt meets. Only what is surely text is written out: a `<` left is read
 * as markup, and markup read too eagerly hides more, never less. End tags in
 * indented lines and after `](` (a link's destination) are written out too:
 * an end tag read as text only hides more. Linear.
 * `inlineReading`: "markdown-it" (the default) reads as markdown-it 15 does too:
 * once a paragraph's `<?`, `<!--`, `<![CDATA[` or `<!X` has no end in it,
 * every later one of that paragraph is text (its one `skipHtmlSpecial` flag;
 * the tags inside are then markup: rev92c F1), where CommonMark reads a
 * complete comment; "commonmark" reads each as CommonMark does only.
 */
export function markdownAsHtml(
  text: string,
  inlineReading: MarkdownReading = "markdown-it",
): string {
  return readMarkdown(text, inlineReading).view;
}

/** {@link markdownAsHtml}, and whether markdown-it's reading wrote out a `<` CommonMark's keeps (`skipped`). */
function readMarkdown(
  text: string,
  inlineReading: MarkdownReading,
): { view: string; skipped: boolean } {
  if (!text.includes("<") && !text.includes(">") && !text.includes('"'))
    return { view: text, skipped: false };
  const out = text.split("");
  let changed = false;
  let skipped = false;
  const mute = (at: number) => {
    out[at] = "_";
    changed = true;
  };
  const reading = freshReading();
  const skipsSpecials = inlineReading === "markdown-it";
  // The paragraph being read: its first offset (-1: none).
  let paragraph = -1;
  let paragraphEnd = -1;
  // An HTML block was read since the last other block.
  let afterHtml = false;
  const inline = (from: number, to: number) => {
    if (from < to && readInline(text, from, to, mute, skipsSpecials)) skipped = true;
  };
  eachLine(text, (from, to) => {
    const before = reading.leaf;
    const closer = readLine(reading, text, from, to);
    const after = reading.leaf;
    const lineText = text.slice(from, to);
    const inFence = isFence(after) || (isFence(before) && (closer || after === before));
    const inHtml =
      isHtml(after) ||
      (isHtml(before) && (closer || after === before)) ||
      // A one-line HTML block of kinds 1-5 (`<!-- x -->`, `<script>…</script>`) leaves no leaf,
      // in a block quote or list item too (rev64e F2: the raw line's `> ` hid it).
      reading.started === "html";
    const inParagraph = after?.kind === "paragraph";
    if (inHtml) afterHtml = true;
    else if (afterHtml && lineText.trim() !== "") {
      // A block after an HTML block starts with the renderer's own tag (`<p>`, `<hr />`, `<pre>`):
      // its `>` ends a start tag the HTML block left open (`<div hidden` then a blank line).
      // Not where a `>` would end a comment the renderer's tag does not (rev64e F1: `<!--`
      // then `>` is `<!-->`, closed; `<!--\n</blockquote>` is not).
      const code = text.charCodeAt(from - 1);
      if ((code === 0x0a || code === 0x0d) && !endsLikeCommentEnd(text, from - 1)) {
        out[from - 1] = ">";
        changed = true;
      }
      afterHtml = false;
    }
    // A new paragraph ends the one before it (rev64e F4: one a block quote interrupts).
    if (paragraph !== -1 && (!inParagraph || reading.started === "paragraph")) {
      inline(paragraph, paragraphEnd);
      paragraph = -1;
    }
    if (inFence) {
      muteMarkup(text, from, to, mute);
      return;
    }
    if (inHtml) return;
    if (inParagraph) {
      if (paragraph === -1) paragraph = from;
      paragraphEnd = to;
      return;
    }
    if (lineText.trim() === "") return;
    if (indentOf(text, from) >= 4) {
      // Indented code: all its markup is text (rev61a F1: a start tag left in it ate the next real one).
      muteMarkup(text, from, to, mute);
      return;
    }
    // A heading or another one-line block: its inline text.
    inline(from, to);
  });
  if (paragraph !== -1) inline(paragraph, paragraphEnd);
  return { view: changed ? out.join("") : text, skipped };
}

/** Whether `text` before the line break at `at` ends in `--` or `--!`: a `>` there ends a comment. */
function endsLikeCommentEnd(text: string, at: number): boolean {
  let end = at;
  if (text.charCodeAt(end - 1) === 0x0d) end--;
  if (text.charCodeAt(end - 1) === 0x21) end--;
  return text.charCodeAt(end - 1) === 0x2d && text.charCodeAt(end - 2) === 0x2d;
}

/** Writes out each `<`, `>` and `"` of `text[from, to)`: text a renderer escapes (`&lt;`, `&gt;`, `&quot;`). */
function muteMarkup(text: string, from: number, to: number, mute: (at: number) => void): void {
  for (let at = from; at < to; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x3c || code === 0x3e || code === 0x22) mute(at);
  }
}

function isFence(leaf: Leaf | undefined): boolean {
  return leaf !== undefined && leaf.kind === "fence";
}

function isHtml(leaf: Leaf | undefined): boolean {
  return leaf !== undefined && leaf.kind === "html";
}

/** The columns of spaces and tabs the line at `from` starts with (a tab to the next multiple of four), at most 4. */
function indentOf(text: string, from: number): number {
  let column = 0;
  for (let at = from; column < 4 && at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x20) column++;
    else if (code === 0x09) column += 4 - (column % 4);
    else break;
  }
  return column;
}

// Its destination holds no ASCII control, space, `<` or `>`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: CommonMark's autolink excludes them
const URI_AUTOLINK = /<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\u0000-\u0020<>]*>/y;
const EMAIL_AUTOLINK =
  /<[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*>/y;
const CLOSING_TAG = /<\/[A-Za-z][A-Za-z0-9-]*[ \t]*(?:(?:\r\n?|\n)[ \t]*)?>/y;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Reads a paragraph's (or a heading's) text `text[from, to)` as CommonMark's
 * inline parser does, from left to right, and calls `mute` on each `<` it
 * prints as text: code spans (a run of backticks to the next run of the same
 * length), backslash escapes, autolinks, and a `<` that starts no raw HTML
 * complete before `to`. Raw HTML (an open tag in CommonMark's stricter form
 * {@link openTagEnds}, a closing tag, a comment, `<?…?>`, a declaration,
 * CDATA) is skipped whole. An end tag after `](` is muted too (a link's
 * destination). Linear: each closer is looked for once from where it was
 * last not found.
 */
function readInline(
  whole: string,
  start: number,
  end: number,
  muteWhole: (at: number) => void,
  skipsSpecials: boolean,
): boolean {
  // Read on the paragraph's own text: every search stays inside it (linear over many paragraphs).
  // A block quote's marks at its lines' starts are not the paragraph's text (CommonMark strips
  // them): read as spaces, and written out (rev61a F7: one ended a tag spanning two lines).
  const raw = whole.slice(start, end);
  const text = raw.includes(">") ? withoutQuoteMarks(raw, (at) => muteWhole(start + at)) : raw;
  const from = 0;
  const to = text.length;
  const mute = (at: number) => muteWhole(start + at);
  const spans = backtickRuns(text, from, to);
  const tagEnds = openTagEnds(text, from, to);
  // Closers not found from some offset on: none after it either.
  const missing = new Map<string, number>();
  const closerAt = (closer: string, at: number) => {
    const past = missing.get(closer);
    if (past !== undefined && past <= at) return -1;
    const found = text.indexOf(closer, at);
    if (found === -1 || found + closer.length > to) {
      missing.set(closer, at);
      return -1;
    }
    return found;
  };
  // A `<?`, `<!--`, `<![CDATA[` or `<!X` of this paragraph found no end: every later one is text.
  let specialUnended = false;
  let skipped = false;
  let run = 0;
  // The link reference definitions it starts with: a destination's `<` is text (rev101b F3).
  let at = definitionsEnd(text, from, to, mute);
  // The link openers (`[`, `![`: true) not yet closed, as CommonMark's delimiter stack keeps them.
  const openers: boolean[] = [];
  const nextOf = nextFinder(text, to);
  while (at < to) {
    const code = text.charCodeAt(at);
    if (code === 0x5b) {
      openers.push(
        at > from && text.charCodeAt(at - 1) === 0x21 && text.charCodeAt(at - 2) !== 0x5c,
      );
      at++;
      continue;
    }
    if (code === 0x5d) {
      // A link's destination in angle brackets (`[a](<table>)`): its `<` is text, no tag (rev101b
      // F3). A link opener closed, a link or not, leaves none open before it (a link holds no link;
      // one a reference may make is not told here): no later `](<` is taken for a destination then.
      const image = openers.pop();
      const link = image === undefined ? -1 : angleDestinationAt(text, at + 1, to, nextOf);
      if (image === false) openers.length = 0;
      if (link === -1) {
        at++;
        continue;
      }
      // Its destination and title are an attribute's value: nothing in them is markup, nor a `[`.
      for (let i = at + 1; i < link; i++) {
        const c = text.charCodeAt(i);
        if (c === 0x3c || c === 0x3e || c === 0x22) mute(i);
      }
      at = link;
      continue;
    }
    if (code === 0x5c) {
      // A backslash escape: the next character is text.
      const next = text[at + 1] ?? "";
      if (at + 1 < to && ASCII_PUNCTUATION.test(next)) {
        if (next === "<") mute(at + 1);
        at += 2;
      } else at++;
      continue;
    }
    if (code === 0x60) {
      while (run < spans.length && (spans[run] as BacktickRun).at < at) run++;
      const opener = spans[run];
      if (opener === undefined || opener.at !== at) {
        at++;
        continue;
      }
      const close = opener.next === -1 ? undefined : spans[opener.next];
      if (close === undefined) {
        at += opener.length;
        continue;
      }
      muteMarkup(text, at, close.at, mute);
      at = close.at + close.length;
      continue;
    }
    if (code === 0x3e || code === 0x22) {
      // Text a renderer escapes (`&gt;`, `&quot;`): it ends no tag, value or comment opened before.
      mute(at);
      at++;
      continue;
    }
    if (code !== 0x3c) {
      at = nextSpecial(text, at + 1, to);
      continue;
    }
    const special = skipsSpecials ? specialAt(text, at) : false;
    if (special && specialUnended) {
      mute(at);
      skipped = true;
      at++;
      continue;
    }
    const end = rawHtmlEnd(text, at, to, tagEnds, closerAt);
    if (end === -1 && special) specialUnended = true;
    if (end !== -1) {
      at = end;
      continue;
    }
    // Text, or an autolink (text too: its `<` is printed as a link's).
    mute(at);
    URI_AUTOLINK.lastIndex = at;
    EMAIL_AUTOLINK.lastIndex = at;
    const link = URI_AUTOLINK.exec(text) ?? EMAIL_AUTOLINK.exec(text);
    at = link !== null && link.index + link[0].length <= to ? link.index + link[0].length : at + 1;
  }
  // An end tag right after `](<` (`[a](</div>)`) ends nothing, a link or not: the safe side for an end tag.
  for (let lt = text.indexOf("](</", from); lt !== -1 && lt < to; lt = text.indexOf("](</", lt + 4))
    mute(lt + 2);
  return skipped;
}

/** `text` (a paragraph's lines) with each line's block-quote marks (`>`, up to three spaces before, one after) as spaces, the same length; `mark` gets each mark's offset. */
function withoutQuoteMarks(text: string, mark: (at: number) => void): string {
  return text.replace(
    /(^|\r\n?|\n)((?:[ \t]{0,3}>[ \t]?)+)/g,
    (_match, lead: string, marks: string, at: number) => {
      for (let i = 0; i < marks.length; i++) if (marks[i] === ">") mark(at + lead.length + i);
      return lead + " ".repeat(marks.length);
    },
  );
}

/** The next `\`, backtick, `<`, `>`, `"`, `[` or `]` from `at`, or `to`. */
function nextSpecial(text: string, at: number, to: number): number {
  for (let i = at; i < to; i++) {
    const code = text.charCodeAt(i);
    if (
      code === 0x5c ||
      code === 0x60 ||
      code === 0x3c ||
      code === 0x3e ||
      code === 0x22 ||
      code === 0x5b ||
      code === 0x5d
    )
      return i;
  }
  return to;
}

/**
 * The next offset of a character in `text` before `to` from an offset on, or
 * -1: each character's last answer kept, so asking from offsets that grow is
 * linear in all.
 */
function nextFinder(text: string, to: number): (char: string, at: number) => number {
  const last = new Map<string, { from: number; found: number }>();
  return (char, at) => {
    const known = last.get(char);
    if (known !== undefined && known.from <= at && (known.found === -1 || at <= known.found))
      return known.found;
    const index = text.indexOf(char, at);
    const found = index === -1 || index >= to ? -1 : index;
    last.set(char, { from: at, found });
    return found;
  };
}

/**
 * Blanks, with up to one line break among them, from `at`: where they end, as
 * commonmark.js reads them around a link's destination and title (its `spnl`:
 * spaces before the line break, none of them a tab; the next line's own blanks
 * are not the paragraph's). A tab before the break ends them: `[x]:\t` then
 * `<b>` on the next line is no link reference definition to commonmark.js,
 * and its `<b>` a live tag, where markdown-it reads a destination (fx101g).
 */
function blanksFrom(text: string, at: number, to: number): number {
  let i = spacesFrom(text, at, to);
  if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
  else if (text[i] === "\n" || text[i] === "\r") i++;
  else return i;
  while (i < to && (text[i] === " " || text[i] === "\t")) i++;
  return i;
}

/** Spaces (no tab: commonmark.js's reading of a link's parts) from `at`: where they end. */
function spacesFrom(text: string, at: number, to: number): number {
  let i = at;
  while (i < to && text[i] === " ") i++;
  return i;
}

/**
 * Where the `>` of a link destination in angle brackets starting at `lt` (a
 * `<`) ends: no line break, no `<` or `>` but escaped; -1 when there is none.
 */
function angleEnd(text: string, lt: number, to: number): number {
  for (let i = lt + 1; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c) i++;
    else if (code === 0x3e) return i + 1;
    else if (code === 0x3c || code === 0x0a || code === 0x0d) return -1;
  }
  return -1;
}

/**
 * Where a link title from `at` (its quote or parenthesis) ends, just past it, or -1
 * ({@link nextFinder}: a title with an escaped closer in it is not one here, the safe side).
 */
function titleEnd(text: string, at: number, next: (char: string, at: number) => number): number {
  const open = text[at];
  const close = open === "(" ? ")" : open;
  if (close !== '"' && close !== "'" && close !== ")") return -1;
  const found = next(close, at + 1);
  return found === -1 ? -1 : found + 1;
}

/**
 * Where an inline link with its destination in angle brackets ends (past its
 * `)`), `at` just past its text's `]`: `(`, blanks, `<dest>`, a title after
 * blanks or not, blanks, `)` (CommonMark's inline link), all before `to`; -1
 * when that is not there, and an HTML reader reads what follows as it would.
 */
function angleDestinationAt(
  text: string,
  at: number,
  to: number,
  next: (char: string, at: number) => number,
): number {
  if (text[at] !== "(") return -1;
  const lt = blanksFrom(text, at + 1, to);
  if (text[lt] !== "<") return -1;
  const gt = angleEnd(text, lt, to);
  if (gt === -1) return -1;
  let end = blanksFrom(text, gt, to);
  if (end > gt && text[end] !== ")") {
    const title = titleEnd(text, end, next);
    if (title === -1) return -1;
    end = blanksFrom(text, title, to);
  }
  return text[end] === ")" ? end + 1 : -1;
}

/**
 * Where the link reference definitions `text` starts with (from `from`: a
 * paragraph's text) end, each a line's start but for up to 3 spaces: `[label]:`,
 * blanks, a destination, a title on its line or none, nothing after it on the
 * line. The `<` of a destination in angle brackets is `mute`d: text to every
 * renderer (rev101b F3: `[spec]: <table>`). A definition read otherwise (a
 * title over lines) ends them: what follows is read as a paragraph's text.
 */
function definitionsEnd(
  text: string,
  from: number,
  to: number,
  mute: (at: number) => void,
): number {
  let at = from;
  for (;;) {
    DEFINITION_LABEL.lastIndex = at;
    const label = DEFINITION_LABEL.exec(text);
    if (label === null || at + label[0].length > to) return at;
    // A label of white space only (JS trim()'s set: NBSP, U+3000, U+FEFF...) is none, as
    // commonmark.js's normalizeReference reads it: `[ ]: <table>` is a paragraph's live tag
    // (rev107f F2). So is one of over 999 characters as written, escapes counted (CommonMark:
    // at most 999 characters between the brackets; DEFINITION_LABEL counts 999 units, an escape
    // one): `[\a\a...]: <table>` of 1,200 is a paragraph's live tag (rev108c F4). A line
    // ending or indent counted here that commonmark.js drops errs to a live tag (a `</p>` more).
    const inner = label[0].slice(label[0].indexOf("[") + 1, -2);
    if (inner.length > 999 || inner.trim() === "") return at;
    const start = blanksFrom(text, at + label[0].length, to);
    let end: number;
    const angled = text[start] === "<";
    if (angled) end = angleEnd(text, start, to);
    else {
      end = start;
      while (end < to && !/[\s<]/.test(text[end] ?? " ")) end++;
      if (end === start) end = -1;
    }
    if (end === -1) return at;
    // Spaces only up to the title and the line's end, as commonmark.js reads them (`[x]: <b>\t`
    // is no definition to it: a live `<b>`).
    let after = spacesFrom(text, end, to);
    if (after > end && (text[after] === '"' || text[after] === "'" || text[after] === "(")) {
      const close = text[after] === "(" ? ")" : (text[after] as string);
      let title = -1;
      for (let i = after + 1; i < to && title === -1; i++) {
        if (text[i] === "\\") i++;
        else if (text[i] === "\n" || text[i] === "\r") break;
        else if (text[i] === close) title = i + 1;
      }
      if (title === -1) return at;
      after = spacesFrom(text, title, to);
    }
    if (after < to && text[after] !== "\n" && text[after] !== "\r") return at;
    if (angled) mute(start);
    if (after >= to) return to;
    at = text[after] === "\r" && text[after + 1] === "\n" ? after + 2 : after + 1;
  }
}

/**
 * A link reference definition's label and colon, at a line's start (up to 3 spaces). Sticky.
 * It counts 999 units, an escape one: `definitionsEnd` also bounds the label as written.
 */
const DEFINITION_LABEL = / {0,3}\[(?:[^[\]\\]|\\[\s\S]){1,999}\]:/y;

/**
 * Where the raw HTML that starts at `lt` (a `<`) ends, just past it, when it
 * is complete before `to`; -1 when the `<` is text.
 */
function rawHtmlEnd(
  text: string,
  lt: number,
  to: number,
  tagEnds: ReadonlyMap<number, number>,
  closerAt: (closer: string, at: number) => number,
): number {
  const next = text.charCodeAt(lt + 1);
  if (isLetter(next)) {
    const gt = tagEnds.get(lt);
    return gt === undefined ? -1 : gt + 1;
  }
  if (next === 0x2f) {
    CLOSING_TAG.lastIndex = lt;
    const m = CLOSING_TAG.exec(text);
    return m !== null && lt + m[0].length <= to ? lt + m[0].length : -1;
  }
  if (next === 0x3f) {
    const close = closerAt("?>", lt + 2);
    return close === -1 ? -1 : close + 2;
  }
  if (next !== 0x21) return -1;
  if (text.startsWith("<!--", lt)) {
    if (text.startsWith("<!-->", lt)) return lt + 5;
    if (text.startsWith("<!--->", lt)) return lt + 6;
    const close = closerAt("-->", lt + 4);
    return close === -1 ? -1 : close + 3;
  }
  if (text.startsWith("<![CDATA[", lt)) {
    const close = closerAt("]]>", lt + 9);
    return close === -1 ? -1 : close + 3;
  }
  if (isLetter(text.charCodeAt(lt + 2))) {
    const close = closerAt(">", lt + 2);
    return close === -1 ? -1 : close + 1;
  }
  return -1;
}

/**
 * Whether the `<` at `lt` starts what markdown-it 15 looks for the end of
 * once a paragraph (`scanSpecial`): `<?`, `<!--` (not `<!-->` nor `<!--->`,
 * complete as they are), `<![CDATA[`, `<!` and a letter.
 */
function specialAt(text: string, lt: number): boolean {
  const next = text.charCodeAt(lt + 1);
  if (next === 0x3f) return true;
  if (next !== 0x21) return false;
  if (text.startsWith("<!--", lt))
    return !text.startsWith("<!-->", lt) && !text.startsWith("<!--->", lt);
  return text.startsWith("<![CDATA[", lt) || isLetter(text.charCodeAt(lt + 2));
}

function isLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

type BacktickRun = { at: number; length: number; next: number };

/** The runs of backticks in `text[from, to)` not escaped, each with the place of the next run of its length (-1: none). */
function backtickRuns(text: string, from: number, to: number): BacktickRun[] {
  const runs: BacktickRun[] = [];
  for (let at = text.indexOf("`", from); at !== -1 && at < to; ) {
    let end = at;
    while (end < to && text.charCodeAt(end) === 0x60) end++;
    // An escaped first backtick is text; the rest of the run is a run.
    const start = text.charCodeAt(at - 1) === 0x5c && at > from ? at + 1 : at;
    if (end > start) runs.push({ at: start, length: end - start, next: -1 });
    at = text.indexOf("`", end);
  }
  const last = new Map<number, number>();
  for (let i = runs.length - 1; i >= 0; i--) {
    const r = runs[i] as BacktickRun;
    r.next = last.get(r.length) ?? -1;
    last.set(r.length, i);
  }
  return runs;
}

/** CommonMark's open tag, read one character at a time. */
const S = {
  Name: 0,
  Space: 1,
  Attribute: 2,
  AfterAttribute: 3,
  BeforeValue: 4,
  Unquoted: 5,
  Double: 6,
  Single: 7,
  AfterQuoted: 8,
  Slash: 9,
  End: 10,
  Fail: 11,
} as const;
type S = (typeof S)[keyof typeof S];
const STATES = 10;

/** White space in a tag as a Markdown renderer may read it (JavaScript's `\s`: a form feed, a no-break space too; rev61a F8): a `<` kept is markup, the safe side. */
const isSpace = isJsSpace;

function isAttributeStart(code: number): boolean {
  return isLetter(code) || code === 0x5f || code === 0x3a;
}

function isAttributeChar(code: number): boolean {
  return isAttributeStart(code) || (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x2d;
}

function isUnquotedChar(code: number): boolean {
  return !(
    isSpace(code) ||
    code === 0x22 ||
    code === 0x27 ||
    code === 0x3d ||
    code === 0x3c ||
    code === 0x3e ||
    code === 0x60
  );
}

function step(state: S, code: number): S {
  switch (state) {
    case S.Name:
      if (isLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x2d) return S.Name;
      break;
    case S.Space:
      if (isSpace(code)) return S.Space;
      if (isAttributeStart(code)) return S.Attribute;
      break;
    case S.Attribute:
      if (isAttributeChar(code)) return S.Attribute;
      if (isSpace(code)) return S.AfterAttribute;
      if (code === 0x3d) return S.BeforeValue;
      break;
    case S.AfterAttribute:
      if (isSpace(code)) return S.AfterAttribute;
      if (code === 0x3d) return S.BeforeValue;
      if (isAttributeStart(code)) return S.Attribute;
      break;
    case S.BeforeValue:
      if (isSpace(code)) return S.BeforeValue;
      if (code === 0x22) return S.Double;
      if (code === 0x27) return S.Single;
      return isUnquotedChar(code) ? S.Unquoted : S.Fail;
    case S.Unquoted:
      if (isUnquotedChar(code)) return S.Unquoted;
      if (isSpace(code)) return S.Space;
      return code === 0x3e ? S.End : S.Fail;
    case S.Double:
      return code === 0x22 ? S.AfterQuoted : S.Double;
    case S.Single:
      return code === 0x27 ? S.AfterQuoted : S.Single;
    case S.AfterQuoted:
      if (isSpace(code)) return S.Space;
      break;
    case S.Slash:
      return code === 0x3e ? S.End : S.Fail;
    default:
      return S.Fail;
  }
  // Name, Space, Attribute, AfterAttribute, AfterQuoted: a tag may end or close itself here.
  if (state === S.Name && isSpace(code)) return S.Space;
  if (code === 0x2f) return S.Slash;
  return code === 0x3e ? S.End : S.Fail;
}

/**
 * Where each open tag in CommonMark's form (`<name`, attributes each after
 * whitespace, unquoted values without `"'=<>` and backticks, `/>` or `>`)
 * that starts in `text[from, to)` ends (its `>`), when it ends before `to`.
 * Every `<` and a letter is read as a tag of its own. Linear: the tags read
 * at once are kept by state, and those in the same state read on alike (the
 * groups merged smaller into larger), as in src/sections/start-tag.ts.
 */
function openTagEnds(text: string, from: number, to: number): Map<number, number> {
  const ends = new Map<number, number>();
  let groups: (number[] | undefined)[] = new Array(STATES).fill(undefined);
  let next: (number[] | undefined)[] = new Array(STATES).fill(undefined);
  let active = 0;
  for (let at = from; at < to; at++) {
    if (active === 0) {
      at = text.indexOf("<", at);
      if (at === -1 || at >= to) break;
    }
    const code = text.charCodeAt(at);
    active = 0;
    for (let state = 0; state < STATES; state++) {
      const group = groups[state];
      if (group === undefined) continue;
      groups[state] = undefined;
      const into = step(state as S, code);
      if (into === S.Fail) continue;
      if (into === S.End) {
        for (const lt of group) ends.set(lt, at);
        continue;
      }
      const there = next[into];
      if (there === undefined) {
        next[into] = group;
        active++;
      } else {
        const big = there.length >= group.length ? there : group;
        for (const lt of big === there ? group : there) big.push(lt);
        next[into] = big;
      }
    }
    if (code === 0x3c && at + 1 < to && isLetter(text.charCodeAt(at + 1))) {
      // A tag of its own from here: its name is read next.
      const there = next[S.Name];
      if (there === undefined) {
        next[S.Name] = [at];
        active++;
      } else there.push(at);
    }
    [groups, next] = [next, groups];
  }
  return ends;
}

/**
 * {@link markdownAsHtml} with the renderer's own block tags put in, as it
 * writes them around the text (`<p>` … `</p>`, `<blockquote>`, `<ul><li>` …
 * `</li></ul>`, `<h1>`, `<pre><code>`, `<hr />`): they change what an HTML
 * reader builds (rev61a F2-F4: `</span>` inside a paragraph ends nothing, a
 * `<p>` breaks out of `<math>`, `</li>` ends a `<?x` run an HTML block in a
 * list item left open). Not the same length: read only for what is open at
 * the end (the closers), never mapped back. Which list and which heading
 * level is not told apart (`<ul>`, `<h1>`): the same for a reader's tree.
 */
/** Most nested block quotes and list items whose tags are put in (87,000 nested list items would be as many elements). */
const MAX_BLOCK_DEPTH = 16;

export function markdownAsHtmlWithBlocks(text: string): string {
  return withBlocks(text).html;
}

/** Which renderer's reading of inline raw HTML {@link markdownAsHtml} takes where they differ. */
export type MarkdownReading = "markdown-it" | "commonmark";

/**
 * {@link markdownAsHtmlWithBlocks}, and where its tags were put: `inserted`
 * holds flat pairs (the offset in the HTML where tags start, how many
 * characters), in order, to map an offset of the HTML back to the text;
 * `skipped`: markdown-it's reading wrote out a `<` CommonMark's keeps.
 */
export function withBlocks(
  text: string,
  inlineReading: MarkdownReading = "markdown-it",
): { html: string; inserted: number[]; skipped: boolean } {
  const { view, skipped } = readMarkdown(text, inlineReading);
  const reading = freshReading();
  const out: string[] = [];
  const inserted: number[] = [];
  let length = 0;
  let copied = 0;
  const put = (at: number, tags: string) => {
    const piece = view.slice(copied, at);
    out.push(piece, tags);
    length += piece.length;
    if (tags !== "") inserted.push(length, tags.length);
    length += tags.length;
    copied = at;
  };
  // The outermost containers open after the last line, at most MAX_BLOCK_DEPTH (a deeper one puts in
  // no tag), and how many there were: no line's work grows with the depth (rev64b F1: copying 60,000
  // open list items at each of 130,000 blank lines held a render 30 s).
  let open: Container[] = [];
  let openCount = 0;
  let paragraph = false;
  let fence = false;
  const closeTags = (c: Container) => (c.quote ? "</blockquote>" : "</li></ul>");
  const openTags = (c: Container) => (c.quote ? "<blockquote>" : "<ul><li>");
  // Where the last line ended (its line break follows): a paragraph's `</p>` goes there.
  let lastEnd = 0;
  eachLine(text, (from, to) => {
    const before = reading.leaf;
    const closer = readLine(reading, text, from, to);
    const after = reading.leaf;
    const containers = reading.containers;
    const previousEnd = lastEnd;
    lastEnd = to;
    const count = containers.length;
    // How many outer containers go on from the last line; past the tracked ones, all that both have.
    let same = 0;
    while (
      same < open.length &&
      same < count &&
      (open[same] as Container).quote === (containers[same] as Container).quote
    )
      same++;
    if (same === MAX_BLOCK_DEPTH) same = Math.min(openCount, count);
    const lineText = text.slice(from, to);
    const blank = lineText.trim() === "";
    const inParagraph = after?.kind === "paragraph";
    const continues =
      inParagraph &&
      before?.kind === "paragraph" &&
      reading.started !== "paragraph" &&
      same === count;
    let tags = "";
    if (paragraph && !continues) {
      // Before the line break, as the renderer writes it (`x</p>\n<table>`): the break is then
      // text between blocks, where a reader opens a formatting element again (rev64e F5).
      put(previousEnd, "</p>");
      paragraph = false;
    }
    if (fence && !(isFence(before) && (closer || after === before))) {
      tags += "</code></pre>";
      fence = false;
    }
    if (!blank || same < openCount) {
      for (let i = open.length - 1; i >= same; i--) tags += closeTags(open[i] as Container);
      for (let i = same; i < Math.min(count, MAX_BLOCK_DEPTH); i++)
        tags += openTags(containers[i] as Container);
      open = containers.slice(0, MAX_BLOCK_DEPTH);
      openCount = count;
    }
    if (inParagraph && !paragraph) {
      tags += "<p>";
      paragraph = true;
    } else if (isFence(after) && !isFence(before)) {
      tags += "<pre><code>";
      fence = true;
    } else if (!blank && after === undefined && !isHtml(before) && reading.started !== "html") {
      // A heading, a thematic break or a line of indented code: the renderer's tags around it.
      const bare = lineText.replace(/^(?:[ \t]{0,3}>[ \t]?)+/, "").trimStart();
      if (/^#{1,6}(?:[ \t]|$)/.test(bare)) {
        put(from, `${tags}<h1>`);
        put(to, "</h1>");
        return;
      }
      if (/^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(bare)) tags += "<hr />";
      else tags += "<pre><code>";
      put(from, tags);
      if (tags.endsWith("<pre><code>")) put(to, "</code></pre>");
      return;
    }
    if (tags !== "") put(from, tags);
  });
  if (paragraph) put(lastEnd, "</p>");
  let end = "";
  // The renderer writes a line break after a block's last line, before its containers' end
  // tags (rev64e F3: `<div hidden</blockquote>` read `hidden<` as the attribute).
  const last = text.charCodeAt(text.length - 1);
  if (text.length > 0 && last !== 0x0a && last !== 0x0d) end += "\n";
  if (fence) end += "</code></pre>";
  for (let i = open.length - 1; i >= 0; i--) end += closeTags(open[i] as Container);
  put(view.length, end);
  return { html: out.join(""), inserted, skipped };
}

/** Maps offsets of {@link withBlocks}' HTML back to the text; undefined for one inside a put tag. */
export function blocksToText(inserted: readonly number[]): (at: number) => number | undefined {
  const count = inserted.length / 2;
  const shifts = new Array<number>(count);
  let total = 0;
  for (let i = 0; i < count; i++) {
    total += inserted[2 * i + 1] as number;
    shifts[i] = total;
  }
  return (at) => {
    // The last insertion starting at or before `at`, by a binary search.
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((inserted[2 * mid] as number) <= at) low = mid + 1;
      else high = mid;
    }
    const last = low - 1;
    if (last < 0) return at;
    const start = inserted[2 * last] as number;
    if (at < start + (inserted[2 * last + 1] as number)) return undefined;
    return at - (shifts[last] as number);
  };
}
