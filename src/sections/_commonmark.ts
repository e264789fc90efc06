import { createRequire } from "node:module";
import { eachLine, freshReading, readLine } from "../_blocks.js";
import { isJsSpace } from "../_text.js";

type CommonMark = typeof import("commonmark");

let loaded: CommonMark | undefined;

/**
 * Most block quotes and list items open at once that the renderer is given
 * (no document nests so deep): it opens each one a line starts at a cost
 * that grows with those already open (one line of 15,000 nested `- ` took it
 * 1.5 s; 60,000, minutes).
 */
const MAX_RENDER_DEPTH = 128;

/**
 * Most open block quotes and list items the renderer may walk, summed over
 * a text's lines: each line is matched against every container open at its
 * start, outermost first (2,000 nested list items kept open by 2,000 blank
 * lines took it 0.25 s). Some 0.1 s of its work.
 */
const MAX_RENDER_WALK = 1_500_000;

/**
 * Most block nodes (paragraphs, list items, block quotes, HTML blocks …) the
 * renderer makes for one text: each costs it, and the tree builder after it,
 * some microseconds and hundreds of bytes (rev66c F7: 256 KB of `- ` x 100
 * then `<pre>` made 248,000 of them, 2.7 MB of HTML, 2 s and 340 MB). A
 * Markdown text of 512 KiB with a node every 16 bytes still fits.
 */
export const MAX_RENDER_NODES = 32_768;

/**
 * Most inline work the renderer does for one text, counted before each
 * paragraph or heading is read as its length times its inline starts
 * ({@link inlineStarts}), and for each link reference definition as the length of what is left of its
 * paragraph. Every inline step reads at most its paragraph from one start, or
 * walks at most the starts before it, so this bounds any quadratic of the
 * inline reader, modelled or not: emphasis before links (rev66b F2, 0.3 ns a
 * unit, 256 KB 17 s) stops at 0.1 s, the slowest step known (`[a](`, 4 ns a
 * unit) at about 1 s. A paragraph of 46 KB with a start every 8 characters fits.
 */
export const MAX_INLINE_WORK = 2 ** 28;

/**
 * Most characters of HTML the renderer writes for one text: what the tree
 * builder then reads, and a reference link's destination is written again
 * at each use (100 KB of destination used 40,000 times made a string past
 * V8's longest: a RangeError out of the check). A link's destination and
 * title in an image's alt text count too: the renderer escapes them at each
 * use and writes nothing (rev68e F2: 40 KB of `&` used 20,000 times, 17 s).
 */
export const MAX_RENDER_HTML = 2 * 1024 * 1024;

/** Thrown by a metered renderer past one of its bounds; caught by {@link commonmarkHtml} only. */
const OVER = new Error("more than the renderer reads in bounded time");

/**
 * The HTML CommonMark's reference renderer (`commonmark`, the spec's own
 * JavaScript implementation) makes of `markdown`, raw HTML passed on as it
 * is; undefined when its block structure is more than the renderer reads in
 * linear time (containers past {@link MAX_RENDER_DEPTH} or
 * {@link MAX_RENDER_WALK}, as sysprompt's block reader reads them: rev64b F1,
 * a 250 KB `AGENTS.md` held it minutes), or when the renderer, metered as it
 * works, passes {@link MAX_RENDER_NODES}, {@link MAX_INLINE_WORK} or
 * {@link MAX_RENDER_HTML} (rev66b F2, rev66c F7): its cost on any text is
 * then bounded, whatever shape makes it slow. Loaded on first use only: most
 * renders never ask (a repository text with no `<` is not read).
 */
export function commonmarkHtml(
  markdown: string,
  onLimit?: (limit: RenderLimit) => void,
): string | undefined {
  const nesting = renderNesting(markdown);
  if (nesting !== undefined) {
    onLimit?.(nesting);
    return undefined;
  }
  if (regexWork(markdown) > MAX_REGEX_WORK) {
    onLimit?.(RENDER_WORK);
    return undefined;
  }
  loaded ??= createRequire(import.meta.url)("commonmark") as CommonMark;
  const parser = new loaded.Parser();
  const renderer = new loaded.HtmlRenderer();
  // Another version's internals: unmetered, so not rendered (no bound of its own: said as any check that failed).
  if (!metered(parser as unknown as ParserInternals, renderer as unknown as RendererInternals))
    return undefined;
  try {
    return renderer.render(parser.parse(markdown));
  } catch (error) {
    if (error !== OVER) throw error;
    onLimit?.(RENDER_WORK);
    return undefined;
  }
}

/**
 * Which of its bounds {@link commonmarkHtml} (or the renderer's inline
 * bound before it, {@link commonmarkWork}) stopped at, so that a warning
 * says what stopped the check, not that the text left HTML open (rev71b
 * F1: 129 nested `>` and a balanced `<kbd>` were said to leave HTML open):
 * block quotes and list items nested `depth` deep, past `most`
 * ({@link MAX_RENDER_DEPTH}, as the first line past it has them); the
 * lines' walk over them past `most` ({@link MAX_RENDER_WALK}); or more
 * work for the renderer than it is given (its regular expressions, block
 * nodes, inline work, HTML written).
 */
export type RenderLimit =
  | { kind: "depth"; depth: number; most: number }
  | { kind: "walk"; most: number }
  | { kind: "work" };

/** The {@link RenderLimit} of the renderer's work. */
export const RENDER_WORK: RenderLimit = { kind: "work" };

/** The parts of commonmark 0.31's parser that {@link metered} wraps (own properties of each instance). */
interface ParserInternals {
  addChild(tag: string, offset: number): unknown;
  inlineParser: {
    parse(block: { _string_content: string | null }): void;
    parseReference(text: string, refmap: unknown): number;
  };
}

/**
 * The parts of commonmark 0.31's HTML renderer that write its output (every write is one of
 * `lit` and `tag`) or compute what `tag` may then not write (`link`).
 */
interface RendererInternals {
  buffer: string;
  disableTags: number;
  lit(text: string): void;
  tag(name: string, attributes: unknown, selfClosing: boolean): void;
  link(node: { destination: string | null; title: string | null }, entering: boolean): void;
}

/**
 * `parser` and `renderer` with each step that makes a block node, reads a
 * paragraph's inlines or a link definition, or writes HTML counted, and
 * {@link OVER} thrown past its bound. Wraps this instance's methods only;
 * false (nothing wrapped) when one is not there.
 */
function metered(parser: ParserInternals, renderer: RendererInternals): boolean {
  const wrapped = [
    parser.addChild,
    parser.inlineParser?.parse,
    parser.inlineParser?.parseReference,
    renderer.lit,
    renderer.tag,
    renderer.link,
  ];
  if (!wrapped.every((method) => typeof method === "function")) return false;
  let nodes = 0;
  let inline = 0;
  const charge = (work: number) => {
    inline += work;
    if (inline > MAX_INLINE_WORK) throw OVER;
  };
  const { addChild } = parser;
  parser.addChild = function (tag, offset) {
    if (++nodes > MAX_RENDER_NODES) throw OVER;
    return addChild.call(this, tag, offset);
  };
  const inlines = parser.inlineParser;
  const { parse, parseReference } = inlines;
  inlines.parse = function (block) {
    const content = block._string_content ?? "";
    charge(content.length * inlineStarts(content));
    parse.call(this, block);
  };
  inlines.parseReference = function (text, refmap) {
    charge(text.length);
    return parseReference.call(this, text, refmap);
  };
  // What the renderer escaped and did not write: a link's destination and title inside an
  // image's alt text, where `tag` writes nothing (rev68e F2).
  let unwritten = 0;
  const { lit, tag, link } = renderer;
  renderer.lit = function (text) {
    lit.call(this, text);
    if (this.buffer.length + unwritten > MAX_RENDER_HTML) throw OVER;
  };
  renderer.tag = function (name, attributes, selfClosing) {
    tag.call(this, name, attributes, selfClosing);
    if (this.buffer.length + unwritten > MAX_RENDER_HTML) throw OVER;
  };
  renderer.link = function (node, entering) {
    if (entering && this.disableTags > 0) {
      unwritten += (node.destination?.length ?? 0) + (node.title?.length ?? 0);
      if (this.buffer.length + unwritten > MAX_RENDER_HTML) throw OVER;
    }
    link.call(this, node, entering);
  };
  return true;
}

/**
 * How many characters of `text` start an inline step of commonmark's that
 * may read past its own line (a code span, raw HTML or an autolink, a link's
 * destination, label or title) or that such a step walks (the delimiter and
 * bracket stacks): each `` ` ``, `[` and `]`; a `<` but before white space
 * (no tag, comment or autolink starts so); a `!` before `[` (else it is
 * text); a `*` but between white space, a `_` but between letters or digits
 * (neither opens nor closes, so neither is kept). A line break, `\` and `&`
 * read their line, two characters and an entity's 33 at most; quotes act
 * only with `smart`, which is off. Linear.
 */
function inlineStarts(text: string): number {
  let starts = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x60 || code === 0x5b || code === 0x5d) starts++;
    else if (code === 0x3c) {
      if (!isSpace(text.charCodeAt(i + 1))) starts++;
    } else if (code === 0x21) {
      if (text.charCodeAt(i + 1) === 0x5b) starts++;
    } else if (code === 0x2a) {
      if (!isSpace(text.charCodeAt(i - 1)) || !isSpace(text.charCodeAt(i + 1))) starts++;
    } else if (code === 0x5f) {
      if (!isAlnum(text.charCodeAt(i - 1)) || !isAlnum(text.charCodeAt(i + 1))) starts++;
    }
  }
  return starts;
}

/** A space, tab or line break; NaN (before the start, past the end) is not one. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** An ASCII letter or digit. */
function isAlnum(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a)
  );
}

/** Most {@link commonmarkWork} a text may take to be rendered (some 0.2 s at worst). */
export const MAX_COMMONMARK_WORK = 20_000_000;

/** What a link destination's `](` costs per character read, against a `<!` or `<?`: its scan reads each character slowly. */
const DESTINATION_WEIGHT = 7;

/**
 * What `commonmark` would spend on `text`'s inline scans that run to a
 * closer or to their paragraph's end (it tries each at every start, so one
 * paragraph of them is quadratic: 200 KB of `[a](` took 320 s, of `a <!X`
 * 54 s): a link destination after `](` to the next white space, a `<?`,
 * `<!--`, `<![CDATA[` or `<!X` to its closer, each at most to the next blank
 * line. Past {@link MAX_COMMONMARK_WORK} the text is not rendered. Linear:
 * each search goes on from where the last one found.
 */
export function commonmarkWork(text: string): number {
  let work = 0;
  const next = new Map<string | RegExp, number>();
  // The next match of `what` at or after `at` (text.length: none); asked at growing `at`.
  const nextAt = (what: string | RegExp, at: number): number => {
    const known = next.get(what);
    if (known !== undefined && known >= at) return known;
    let found: number;
    if (typeof what === "string") found = text.indexOf(what, at);
    else {
      what.lastIndex = at;
      found = what.exec(text)?.index ?? -1;
    }
    const place = found === -1 ? text.length : found;
    next.set(what, place);
    return place;
  };
  const blank = /\n[ \t]*(?:\r\n?|\n)|\r[ \t]*\r/g;
  const space = /\s/g;
  const starts = /\]\(|<[!?]/g;
  for (let m = starts.exec(text); m !== null; m = starts.exec(text)) {
    const at = m.index;
    const end = nextAt(blank, at);
    let reach: number;
    let weight = 1;
    if (m[0] === "](") {
      reach = nextAt(space, at);
      weight = DESTINATION_WEIGHT;
    } else if (m[0] === "<?") reach = nextAt("?>", at);
    else if (text.startsWith("<!--", at)) reach = nextAt("-->", at);
    else if (text.startsWith("<![CDATA[", at)) reach = nextAt("]]>", at);
    else reach = nextAt(">", at);
    work += weight * (Math.min(reach, end) - at);
    if (work > MAX_COMMONMARK_WORK) return work;
  }
  return work;
}

/**
 * Most {@link regexWork} a text may take to be rendered: some 1.5 ns a unit
 * (rev67c: a heading's 100,000 spaces, 1e10 units, 16.6 s), so 0.05-0.15 s.
 */
export const MAX_REGEX_WORK = 30_000_000;

/** Most `\`+punctuation pairs whose cost is counted exactly; a title with more is past any bound. */
const MAX_COUNTED_PAIRS = 40;

/**
 * What `commonmark`'s own regular expressions would spend backtracking on
 * `text`, before or outside the meter (rev67c F1-F3, F7). Summed, each line:
 * the square of each of its space or tab runs (a heading's
 * `/[ \t]+#+[ \t]*$/`, a line break's `/ *$/` try each place of a run and
 * read it to its end: 100,000 spaces took 16.6 s and 51 s), and its longest
 * backtick run times its length (a fence's `` /^`{3,}(?!.*`)/ `` gives back
 * one backtick at a time and reads the line again each time: 60,000 took
 * 5.7 s). And each link title that never closes: from a `"`, `'` or `(`
 * to the next unescaped `"`, `'` or `(`/`)` or to the blank line that ends
 * its paragraph, 2 to the number of `\`+punctuation pairs in it times its
 * length (the title's expression reads such a pair two ways, so it tries
 * every combination before it fails: 26 pairs in an 82-byte `AGENTS.md`
 * took 7.3 s). An opener counts where commonmark tries a title: after a
 * link's destination and white space (read more loosely than commonmark
 * reads them: more titles charged, never fewer); a closed title costs
 * nothing (matched at the first try). And each `<!` and a run of letters
 * (a declaration, `<![A-Za-z]+[^>]*>`): the run times its distance to the
 * next `>` that is no block quote's marker, or to the blank line or end
 * that ends its paragraph (`[^>]*` crosses lines; with no `>` it reads the
 * rest again for each letter given back: `x <!` + 100,000 letters took
 * 7.2 s, rev70b F6). And each tag's attributes ({@link attributeWork}).
 * Linear.
 */
export function regexWork(text: string): number {
  let work = attributeWork(text);
  if (work > MAX_REGEX_WORK) return work;
  // Per title kind: where its open title starts (-1: none open) and the pairs in it.
  const quote = { at: -1, pairs: 0 };
  const apostrophe = { at: -1, pairs: 0 };
  const paren = { at: -1, pairs: 0 };
  const titles = [quote, apostrophe, paren];
  const fail = (title: { at: number; pairs: number }, end: number) => {
    if (title.at === -1) return;
    work +=
      title.pairs > MAX_COUNTED_PAIRS
        ? Number.POSITIVE_INFINITY
        : 2 ** title.pairs * (end - title.at);
    title.at = -1;
  };
  const open = (title: { at: number; pairs: number }, at: number) => {
    title.at = at;
    title.pairs = 0;
  };
  let lineStart = 0;
  let blank = true;
  let spaces = 0;
  let ticks = 0;
  let mostTicks = 0;
  let tickRuns = 0;
  // A title is tried only after a link's destination and white space: `](` or `]:`, perhaps
  // white space, the destination (`<` to `>`, else to the next white space), white space. A
  // block quote's `>` at a line's start is left out, as the renderer leaves it out.
  let destination: "none" | "next" | "in" | "angle" = "none";
  let titleMayFollow = false;
  let linePrefix = true;
  // The declarations open (no `>` yet): the sum of their letter runs, and of run x start.
  let runs = 0;
  let runsAt = 0;
  const closeDeclarations = (end: number) => {
    work += runs * end - runsAt;
    runs = 0;
    runsAt = 0;
  };
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 0x0a;
    if (code === 0x20 || code === 0x09) spaces++;
    else if (spaces > 0) {
      work += spaces * spaces;
      spaces = 0;
    }
    if (code === 0x60) {
      if (ticks === 0) tickRuns++;
      mostTicks = Math.max(mostTicks, ++ticks);
    } else ticks = 0;
    const before = i === 0 ? 0x0a : text.charCodeAt(i - 1);
    if (isWhite(code) && destination === "in") {
      titleMayFollow = true;
      destination = "none";
    }
    if (code === 0x0a || code === 0x0d) {
      if (destination === "angle") destination = "none";
      linePrefix = true;
      // Only a backtick after the run makes the fence's look-ahead fail and give back one more.
      if (tickRuns > 1) work += mostTicks * (i - lineStart);
      tickRuns = 0;
      // `\r\n` ends one line.
      if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      mostTicks = 0;
      // A blank line ends every paragraph, and so every title and link in one.
      if (blank || i === text.length) {
        for (const title of titles) fail(title, i);
        closeDeclarations(i);
        destination = "none";
        titleMayFollow = false;
      }
      lineStart = i + 1;
      blank = true;
      if (work > MAX_REGEX_WORK) return work;
      continue;
    }
    if (isWhite(code)) continue;
    blank = false;
    if (linePrefix && code === 0x3e) continue;
    linePrefix = false;
    if (code === 0x3e) closeDeclarations(i);
    else if (code === 0x3c && text.charCodeAt(i + 1) === 0x21) {
      let end = i + 2;
      while (end < text.length && isLetter(text.charCodeAt(end))) end++;
      runs += end - i - 2;
      runsAt += (end - i - 2) * i;
    }
    const opens = titleMayFollow;
    titleMayFollow = false;
    if (destination === "next") destination = code === 0x3c ? "angle" : "in";
    else if (destination === "angle" && code === 0x3e) destination = "in";
    if ((code === 0x28 || code === 0x3a) && before === 0x5d) destination = "next";
    if (code === 0x5c) {
      // A pair: read two ways when the second is punctuation other than `\`.
      const next = text.charCodeAt(i + 1);
      if (next !== 0x5c && isPunctuation(next))
        for (const title of titles) if (title.at !== -1) title.pairs++;
      // Its second character neither opens nor closes a title, nor starts a pair.
      if (next === 0x5c || next === 0x22 || next === 0x27 || next === 0x28 || next === 0x29) i++;
      continue;
    }
    // A quote closes an open title (matched), and may open the next.
    if (code === 0x22) {
      if (opens) open(quote, i);
      else quote.at = -1;
    } else if (code === 0x27) {
      if (opens) open(apostrophe, i);
      else apostrophe.at = -1;
    } else if (code === 0x28) {
      fail(paren, i);
      if (opens) open(paren, i);
    } else if (code === 0x29) paren.at = -1;
  }
  return work;
}

/** Most non-ASCII white space characters of one tag's attributes counted exactly; more is past any bound. */
const MAX_COUNTED_SPACES = 40;

// Where a tag's reading stands, for attributeWork: in the tag's name, between attributes, after
// an `=` (before its value), in an unquoted value, in a double- or single-quoted value.
const NAME = 0;
const BETWEEN = 1;
const EQUALS = 2;
const UNQUOTED = 3;
const DOUBLE = 4;
const SINGLE = 5;

/** The tags read together in one {@link attributeWork} state: the earliest start, the most spaces counted, how many. */
interface TagRun {
  start: number;
  spaces: number;
  count: number;
}

/**
 * What commonmark's open-tag expression (`OPENTAG`, in `reHtmlTag` at each
 * `<` of a paragraph and in the HTML block start at a line's `<`) would
 * spend backtracking on `text`'s tags (rev68e F1). Its unquoted attribute
 * value excludes ASCII white space only, while its `\s` takes any Unicode
 * space (U+00A0, U+3000, U+FEFF …), so such a space after an `=` (before or
 * in an unquoted value) is read two ways: in the value, or the white space
 * before the next attribute; a tag that never ends so is tried every
 * combination (`<a b=c` + 24 x `\u00a0d\u00a0e=f` + `"`, 209 bytes, 22 s).
 * Each `<` and a letter starts a tag, read as far as the expression could
 * read it: to a `>` outside quotes, a `<`, `` ` `` or a quote that cannot be
 * there, or a blank line (a line's `>` and blanks at its start skipped, as a
 * block quote's); it costs 2 to the number of such spaces in it times its
 * length (none: nothing, the meter's `len x starts` bounds it). Read more
 * loosely than the expression reads it: more charged, never less. Linear:
 * tags read from one place on in one state are read together (at most six).
 */
function attributeWork(text: string): number {
  // No such space, no choice: most texts are passed over at once.
  if (!UNICODE_SPACE.test(text)) return 0;
  let work = 0;
  // The tags read so far, by state, and the ones read with the next character (swapped each step).
  let runs: (TagRun | undefined)[] = [
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ];
  let next: (TagRun | undefined)[] = [
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ];
  let active = 0;
  let lineStart = false;
  let blank = false;
  const stop = (run: TagRun, at: number) => {
    if (run.spaces === 0) return;
    work +=
      run.spaces > MAX_COUNTED_SPACES
        ? Number.POSITIVE_INFINITY
        : run.count * 2 ** run.spaces * (at - run.start);
  };
  for (let i = 0; i < text.length; i++) {
    if (active === 0) {
      i = text.indexOf("<", i);
      if (i === -1) break;
    }
    const code = text.charCodeAt(i);
    // `\r\n` ends one line.
    if (code === 0x0a && text.charCodeAt(i - 1) === 0x0d) continue;
    let ends = false;
    if (code === 0x0a || code === 0x0d) {
      // A blank line ends the paragraph, and every tag in it.
      ends = blank;
      lineStart = true;
      blank = true;
    } else if (lineStart && (code === 0x3e || code === 0x20 || code === 0x09)) {
      // A block quote's marker or a container's indentation: not the tag's.
      if (code === 0x3e) blank = false;
      continue;
    } else {
      lineStart = false;
      blank = false;
    }
    active = 0;
    for (let state = NAME; state <= SINGLE; state++) {
      const run = runs[state];
      if (!run) continue;
      runs[state] = undefined;
      const to = ends ? -1 : attributeStep(state, code);
      if (to === -1) {
        stop(run, i);
        continue;
      }
      // A Unicode space after an `=`: white space before the value, in it, or before the next attribute.
      if ((state === EQUALS || state === UNQUOTED) && isUnicodeSpace(code)) run.spaces++;
      const there = next[to];
      if (there) {
        there.start = Math.min(there.start, run.start);
        there.spaces = Math.max(there.spaces, run.spaces);
        there.count += run.count;
      } else {
        next[to] = run;
        active++;
      }
    }
    if (code === 0x3c && isLetter(text.charCodeAt(i + 1))) {
      const there = next[NAME];
      if (there) there.count++;
      else {
        next[NAME] = { start: i, spaces: 0, count: 1 };
        active++;
      }
    }
    [runs, next] = [next, runs];
    if (work > MAX_REGEX_WORK) return work;
  }
  for (const run of runs) if (run) stop(run, text.length);
  return work;
}

/** The state {@link attributeWork} reads `code` into from `state`; -1: no tag goes on. */
function attributeStep(state: number, code: number): number {
  if (state === DOUBLE) return code === 0x22 ? BETWEEN : DOUBLE;
  if (state === SINGLE) return code === 0x27 ? BETWEEN : SINGLE;
  if (code === 0x3e || code === 0x3c || code === 0x60) return -1;
  if (state === NAME && (isAlnum(code) || code === 0x2d)) return NAME;
  const white = isWhite(code) || isUnicodeSpace(code);
  if (state === NAME || state === BETWEEN) {
    if (code === 0x3d) return EQUALS;
    return code === 0x22 || code === 0x27 ? -1 : BETWEEN;
  }
  if (state === EQUALS) {
    if (code === 0x22) return DOUBLE;
    if (code === 0x27) return SINGLE;
    if (code === 0x3d) return -1;
    return white ? EQUALS : UNQUOTED;
  }
  // In an unquoted value: ASCII white space ends it, a Unicode space may not.
  if (code === 0x22 || code === 0x27) return -1;
  if (code === 0x3d) return EQUALS;
  return isWhite(code) ? BETWEEN : UNQUOTED;
}

/** Any character {@link isUnicodeSpace} takes. */
const UNICODE_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

/** A character JavaScript's `\s` takes ({@link isJsSpace}) that is not ASCII. */
function isUnicodeSpace(code: number): boolean {
  return code > 0x7f && isJsSpace(code);
}

/** An ASCII letter: what a tag's name starts with. */
function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** White space before a title, as commonmark reads it: a space, tab, line break, vertical tab or form feed. */
function isWhite(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d);
}

/** ASCII punctuation: what a `\` escapes. */
function isPunctuation(code: number): boolean {
  return (
    (code >= 0x21 && code <= 0x2f) ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x60) ||
    (code >= 0x7b && code <= 0x7e)
  );
}

/** Undefined when `markdown`'s containers stay within {@link MAX_RENDER_DEPTH} and {@link MAX_RENDER_WALK}, else the first it passes. Linear. */
function renderNesting(markdown: string): RenderLimit | undefined {
  const reading = freshReading();
  let walk = 0;
  let past: RenderLimit | undefined;
  eachLine(markdown, (from, to) => {
    if (past !== undefined) return;
    walk += reading.containers.length;
    readLine(reading, markdown, from, to);
    const depth = reading.containers.length;
    if (depth > MAX_RENDER_DEPTH) past = { kind: "depth", depth, most: MAX_RENDER_DEPTH };
    else if (walk > MAX_RENDER_WALK) past = { kind: "walk", most: MAX_RENDER_WALK };
  });
  return past;
}
