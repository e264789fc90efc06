/**
 * What an HTML reader of the rendered prompt never shows, decided by an
 * HTML tree builder (parse5, the HTML standard's tokenizer and tree
 * construction) instead of hand rules: which element hides what, where it
 * ends (scope boundaries, same-name nesting, formatting elements a reader
 * opens again, raw text, foster parenting), and what closes what a text
 * leaves open. The Markdown is first read as CommonMark passes it on
 * ({@link markdownAsHtml}): the reader meets only the `<` a Markdown renderer
 * passes on as markup. Three readers use it: the section check
 * (`withoutHidden`, src/sections/user-text.ts), the closers at each
 * repository text's end (`closeHiddenRuns`) and the slash-template guard
 * (`HiddenRuns`). An HTML tree builder is not linear on hostile nesting in
 * memory and time (about 1 s and 800 MB per MiB of `<b>`), so a reading
 * stops at {@link MAX_HTML_CHARS} characters or {@link MAX_HTML_TAGS} tags, and each
 * caller says what it does then.
 */
import type { DefaultTreeAdapterMap, defaultTreeAdapter, Parser } from "parse5";
import { HTML_ELEMENTS } from "../_html-elements.js";
import {
  commonmarkHtml,
  commonmarkWork,
  MAX_COMMONMARK_WORK,
  RENDER_WORK,
  type RenderLimit,
} from "./_commonmark.js";
import { loadParse5 } from "./_parse5.js";
import {
  blocksToText,
  markdownAsHtml,
  markdownAsHtmlWithBlocks,
  withBlocks,
} from "./markdown-html.js";
import type { RenderStop } from "./render.js";

/** Which of the renderer's bounds stopped a check, told by {@link followingShown}'s `onLimit`. */
export type { RenderLimit };

type Element = DefaultTreeAdapterMap["element"];
type ParentNode = DefaultTreeAdapterMap["parentNode"];
type ChildNode = DefaultTreeAdapterMap["childNode"];
type TextNode = DefaultTreeAdapterMap["textNode"];

/** Most characters one reading takes. */
export const MAX_HTML_CHARS = 1024 * 1024;
/** Most elements one reading makes (a reader rebuilds formatting elements for each paragraph: a few thousand `<b id=N>` then as many paragraphs made millions, rev61b F1). */
export const MAX_HTML_ELEMENTS = 40_000;
/** Most open elements the closers of one reading walk (the slash guard asks at each placeholder). */
export const MAX_HTML_WORK = 2_000_000;
/** Thrown by a reading's element maker past {@link MAX_HTML_ELEMENTS}. */
const TOO_MUCH = new Error("too much HTML");
/** Most writes to one reading (each copies the reader's unread buffer, up to the text's length). */
export const MAX_HTML_WRITES = 4096;
/** Most `<` one reading takes: the tree's depth, and the tree builder's work, are bounded by it. */
export const MAX_HTML_TAGS = 20_000;

/**
 * Elements whose content no HTML reader shows by default: data (`<datalist>`
 * too), a closed `<details>` past its summary (the whole element counts),
 * `<svg>` drawing, media, `<canvas>` and `<object>` fallback (rev56c F5,
 * rev58c F5), a `<select>`'s text (only its options are drawn, in a list).
 * `<noscript>` is shown where scripts are off, as in most Markdown viewers,
 * so it is not among them. A hand list: an element left off it is read as shown.
 */
const NEVER_SHOWN: ReadonlySet<string> = new Set([
  "script",
  "style",
  "template",
  "title",
  "noembed",
  "noframes",
  "iframe",
  "details",
  "svg",
  "video",
  "audio",
  "object",
  "canvas",
  "datalist",
  "select",
  // Drawn as a bar or a gauge, and a ruby's fallback parentheses: their text is not (rev61a F11).
  "progress",
  "meter",
  "rp",
  // MathML Core's own style sheet: a phantom is drawn invisible (`visibility: hidden`), an
  // annotation is never drawn (rev74c F1, F4). Only a `<semantics>`' first child is drawn: the
  // whole element counts (as `<details>`), its text after that child too.
  "mphantom",
  "annotation",
  "annotation-xml",
  "semantics",
  // Drawn as a button or a frame, none of their content (rev89c F1, F2: Chromium 156's permission
  // elements, an empty 300x150 `<fencedframe>`); an `<option>` outside a `<select>` is not drawn.
  // Kept whole by test/browser/html-elements.browser.ts, which puts a text in every element
  // HTML knows in the installed Chromium and fails on one that hides it and is not read so here.
  "option",
  "fencedframe",
  "geolocation",
  "usermedia",
  "camera",
  "microphone",
]);

/**
 * Whether a style, as CSS reads it ({@link cssText}), hides: a `display` of
 * `none` or a `visibility` of `hidden` or `collapse`, or either through a
 * custom property (`display:var(--x)`), read as hiding: the safe side (rev59b
 * F8: `--x:none;display:var(--x)` hid with no word). Each declaration read
 * once (rev61b F4: a regular expression run from every `display:` to the next
 * `;` took 15 s on a 256 KB style).
 */
function hidingStyle(css: string): boolean {
  for (const declaration of css.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon === -1) continue;
    const name = declaration.slice(0, colon).trimEnd();
    const value = declaration.slice(colon + 1).trimStart();
    const display = name.endsWith("display");
    if (!display && !name.endsWith("visibility")) continue;
    if (/var\s*\(/.test(value)) return true;
    if (display ? value.startsWith("none") : /^(?:hidden|collapse)/.test(value)) return true;
  }
  return false;
}

/**
 * Whether element `name` with these attributes (names, decoded values) is
 * never shown: one of {@link NEVER_SHOWN}, or `hidden`, `popover` (shown only
 * when a script opens it), a hiding style, a `<dialog>` not `open`.
 */
export function hides(name: string, attributes: ReadonlyMap<string, string>): boolean {
  if (NEVER_SHOWN.has(name.toLowerCase())) return true;
  if (attributes.has("hidden") || attributes.has("popover")) return true;
  if (name === "dialog" && !attributes.has("open")) return true;
  if (hidingMathAttribute(attributes)) return true;
  const style = attributes.get("style");
  return style !== undefined && hidingStyle(cssText(style));
}

/**
 * Whether MathML's presentation attributes hide an element's text (rev74c F1,
 * F5): a `mathcolor` other than a plain colour name or an opaque `#rgb` /
 * `#rrggbb` (`transparent`, `#0000`, `rgba(…)`: the safe side), a `mathsize`
 * of zero or computed (`0`, `0em`, `calc(…)`). Any element: a reader applies them as CSS.
 */
function hidingMathAttribute(attributes: ReadonlyMap<string, string>): boolean {
  const color = attributes.get("mathcolor")?.trim().toLowerCase();
  if (
    color !== undefined &&
    (color === "transparent" || !/^(?:[a-z]+|#[0-9a-f]{3}|#[0-9a-f]{6})$/.test(color))
  )
    return true;
  const size = attributes.get("mathsize")?.trim().toLowerCase();
  return size !== undefined && (size.includes("(") || /^[+-]?0*(?:\.0*)?(?:[a-z]+|%)?$/.test(size));
}

/**
 * Whether `text` may hold an element that {@link hides}: a start tag of a name
 * in {@link NEVER_SHOWN} or `<dialog`, or the word `hidden`, `popover` or
 * `style` anywhere (an attribute's name). A text with none opens no hiding
 * element, however an HTML parser reads it. Linear, one expression.
 */
export function mayHoldHiding(text: string): boolean {
  return text.includes("<") && HIDING_WORDS.test(text);
}

const HIDING_WORDS = new RegExp(
  `<(?:${[...NEVER_SHOWN, "dialog"].join("|")})(?=[\\t\\n\\f\\r />]|$)|hidden|popover|style|mathcolor|mathsize`,
  "i",
);

/** {@link hides} of each element, decided once (rev61b F2: asked again at every closer). */
const HIDES = new WeakMap<Element, boolean>();

function elementHides(element: Element): boolean {
  let known = HIDES.get(element);
  if (known === undefined) {
    known = hides(element.tagName, new Map(element.attrs.map((a) => [a.name, a.value])));
    HIDES.set(element, known);
  }
  return known;
}

/**
 * A style attribute's value as CSS reads it (rev58f F5): comments dropped
 * (one between `display:` and `none`), escapes decoded (`display:n\one`,
 * `display:\6e one`), ASCII lowered. Linear: an unclosed comment runs to the end once.
 */
function cssText(style: string): string {
  return style
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(
      /\\(?:([0-9a-f]{1,6})[ \t\n\r\f]?|([^\n\r\f]))/gi,
      (_, hex?: string, char?: string) => {
        if (hex === undefined) return char ?? "";
        const code = Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
          ? String.fromCodePoint(code)
          : "\ufffd";
      },
    )
    .replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** Whether `text` holds more than {@link MAX_HTML_TAGS} `<`, or more than {@link MAX_HTML_CHARS} characters with a `<`. */
export function tooMuchHtml(text: string): boolean {
  if (!text.includes("<")) return false;
  if (text.length > MAX_HTML_CHARS) return true;
  let tags = 0;
  for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at + 1))
    if (++tags > MAX_HTML_TAGS) return true;
  return false;
}

/** A `<table` start tag's name and what may follow it in a tag (white space, `/`, `>`), any case. */
const TABLE_START = /<table(?=[\t\n\f\r />])/gi;

/** Where each `<table` of `text` that may start a tag ({@link TABLE_START}) is, in order: no reading, linear. */
export function tableStartTags(text: string): number[] {
  return [...text.matchAll(TABLE_START)].map((m) => m.index);
}

/** What {@link tablesOutOfParagraphs} writes before each of {@link quirksTableStarts}' `<table`. */
export const PARAGRAPH_END = "</p>";

/**
 * The offsets, in order, of the `<` of each `<table` start tag of `text` (a
 * Markdown text not yours) that an HTML parser of its rendering meets while
 * a `<p>` element is open, the renderer's (`Build [fast <table> now](x)`) or
 * the text's own (`<p>See: <table>`). Only there does the parser read a page
 * in quirks mode (no doctype: a browser opening `markdown-it prompt.md >
 * prompt.html`, or cmark's output) otherwise than in the no-quirks mode every
 * check of ours reads in (a fragment in a `<div>`): in no-quirks mode the
 * table closes that `<p>`, in quirks mode it does not, and the `<p>` (or the
 * renderer's `<a>`/`<em>` in it) then holds every later word of the prompt,
 * the end tag of the prompt's element around the text among them
 * (`</rule>`: `<p>` is special, so it is ignored). parse5's tree builder
 * asks the document's mode nowhere else (`tableStartTagInBody`; the HTML
 * standard's tree construction names quirks mode only there): each such
 * place is one where the no-quirks reading closes a `<p>` for a table start
 * tag (reviews rev93h F2, rev97a F1). Read as {@link shownParts} reads: the
 * renderer's blocks put in, with scripts on and off, markdown-it's and
 * CommonMark's inline readings. More HTML than one reading takes: every
 * `<table` of the text.
 */
export function quirksTableStarts(text: string): number[] {
  if (!/<table/i.test(text)) return [];
  // Past the reading's cap every `<table` is taken, but one a `</p>` already stands before (the
  // text read before, rev99b F3). Only there: a place a reading returns has a `<p>` open at it,
  // whatever stands before, a `</p>` inside a bogus comment or a tag's attribute too (rev102b F3).
  const every = () => tableStartTags(text).filter((at) => !endsParagraphAt(text, at));
  if (tooMuchHtml(text)) return every();
  const at = new Set<number>();
  try {
    const readings = [withBlocks(text)];
    if (readings[0]?.skipped === true) readings.push(withBlocks(text, "commonmark"));
    for (const { html, inserted } of readings) {
      const toText = blocksToText(inserted);
      for (const scripting of /noscript/i.test(html) ? [true, false] : [true])
        for (const place of tablesClosingParagraphs(html, scripting)) {
          const inText = toText(place);
          if (inText !== undefined) at.add(inText);
        }
    }
  } catch (error) {
    if (error !== TOO_MUCH) throw error;
    return every();
  }
  return [...at].sort((a, b) => a - b);
}

/**
 * `text` (a text not yours) with {@link PARAGRAPH_END} written before each
 * of {@link quirksTableStarts}: the `<p>` is then closed in both modes, and
 * the tree is the one the no-quirks reading built (there the table's start
 * tag closed it just so, `_closePElement`), in an `<a>` or emphasis too. Not
 * the `<table` written `&lt;`: that would make what its attributes hold
 * markup (`<table title='<!--'>`), and show a table's cells as words.
 */
export function tablesOutOfParagraphs(text: string): string {
  return paragraphEndsAt(text, quirksTableStarts(text));
}

/** `text` with {@link PARAGRAPH_END} written before each of `places`. */
function paragraphEndsAt(text: string, places: readonly number[]): string {
  if (places.length === 0) return text;
  let out = "";
  let copied = 0;
  for (const place of places) {
    out += `${text.slice(copied, place)}${PARAGRAPH_END}`;
    copied = place;
  }
  return out + text.slice(copied);
}

/**
 * {@link tablesOutOfParagraphs} of `text` as the last step of the check of a
 * text not yours, where that check is paid ({@link paidCheck}): the reading
 * renders the Markdown and runs the tree builder over it, once more with
 * scripts off for a `<noscript>` (about 1.2 s a MiB), so it is done only
 * inside a running check that the scope's budget held, and charged to that
 * budget on top of the check ({@link CheckBudget}: its characters and the
 * render's stop time). Outside one (the check refused: past the budget or the
 * stop time, a check budget of 0, a text cut at its cap, a skill's expansion
 * or a hook's text over what an unscoped check takes) `text` is returned
 * unread: its check's fallback wrote every `<` of the original as text, so no
 * `<table` of it is left, nor a `</p>` it never had (review rev101b F1, F2).
 * Run on the final text, after every fallback of the check: none of them
 * writes an added `</p>` as text.
 */
export function tablesApartInCheck(text: string): string {
  const places = quirksTableStartsInCheck(text);
  return places === undefined ? text : paragraphEndsAt(text, places);
}

/**
 * {@link quirksTableStarts} of `text` inside a paid check (charged, as
 * {@link tablesApartInCheck} says), or undefined outside one (not read); []
 * for a text with no `<table`.
 */
export function quirksTableStartsInCheck(text: string): number[] | undefined {
  if (!/<table/i.test(text)) return [];
  if (!paid) return undefined;
  if (budget !== undefined && prepaid !== Number.POSITIVE_INFINITY)
    budget.left = Math.max(0, budget.left - text.length);
  return quirksTableStarts(text);
}

/** Whether {@link PARAGRAPH_END} (any case) is right before `at` in `text`. */
function endsParagraphAt(text: string, at: number): boolean {
  const from = at - PARAGRAPH_END.length;
  return from >= 0 && text.slice(from, at).toLowerCase() === PARAGRAPH_END;
}

/** Where, in `html`, a no-quirks tree builder closes a `<p>` for a `<table>` start tag ({@link quirksTableStarts}). */
function tablesClosingParagraphs(html: string, scriptingEnabled: boolean): number[] {
  const parser = cappedFragmentParser(MAX_HTML_ELEMENTS, scriptingEnabled, { locations: true });
  const places: number[] = [];
  const { html: names } = loadParse5();
  const hooks = parser as unknown as {
    onStartTag(token: { tagID: number; location: { startOffset: number } | null }): void;
    _closePElement(): void;
  };
  const onStartTag = hooks.onStartTag.bind(parser);
  const closeParagraph = hooks._closePElement.bind(parser);
  let table: number | undefined;
  hooks.onStartTag = (token) => {
    table = token.tagID === names.TAG_ID.TABLE ? token.location?.startOffset : undefined;
    onStartTag(token);
    table = undefined;
  };
  // A table start tag closes a `<p>` only in `tableStartTagInBody`, when the mode is not quirks.
  hooks._closePElement = () => {
    if (table !== undefined) places.push(table);
    table = undefined;
    closeParagraph();
  };
  parser.tokenizer.write(html, true);
  return places;
}

/** The element a Markdown text is read in: a viewer puts the rendered prompt in one. */
function fragmentContext(): Element {
  const { defaultTreeAdapter, html } = loadParse5();
  return defaultTreeAdapter.createElement("div", html.NS.HTML, []);
}

function textNode(value: string): TextNode {
  return { nodeName: "#text", value, parentNode: null };
}

/**
 * The tree builder's own adapter, except that each run of characters is a
 * text node of its own: its place in the text is then its own (one run
 * placed before a table and one after it are not one node spanning the
 * table between them).
 */
function ownTextNodes(): typeof defaultTreeAdapter {
  const { defaultTreeAdapter } = loadParse5();
  return {
    ...defaultTreeAdapter,
    insertText(parent: ParentNode, text: string): void {
      defaultTreeAdapter.appendChild(parent, textNode(text));
    },
    insertTextBefore(parent: ParentNode, text: string, reference: ChildNode): void {
      defaultTreeAdapter.insertBefore(parent, textNode(text), reference);
    },
  };
}

/**
 * The tokenizer's states (parse5's, by number) and what ends each: a start
 * tag (in a quoted value: its quote too), a comment, a bogus comment or
 * declaration, CDATA. Raw text (`<script>`, `<textarea>` …) ends with its
 * element's end tag; `<plaintext>` never ends.
 */
function tokenCloser(state: number): string | undefined {
  if (state === 0) return "";
  // `<`, `</` or a tag's name (`x </div`, opencode's output as it is): a tag's, as its attributes' are.
  if (state >= 5 && state <= 7) return ">";
  if (state >= 1 && state <= 30) return undefined; // raw text: its element's end tag
  if (state === 35 || state === 58 || state === 64) return '">';
  if (state === 36 || state === 59 || state === 65) return "'>";
  if (state >= 42 && state <= 51) return COMMENT_CLOSER;
  if (state >= 68 && state <= 70) return "]]>";
  return ">";
}

/** {@link rawMarkupCloser}'s answer for a comment left open, and only for one. */
export const COMMENT_CLOSER = "-->";

/**
 * What ends the markup an HTML parser fed `text` raw is still in at its end
 * (the tokenizer's own ending, {@link tokenCloser}: `'>`, `">`, `/>` for a tag,
 * a bogus comment or an end tag, `-->`, `]]>` for CDATA in `<svg>`); "" when
 * it ends in the data state or in raw text (`<script>`, `<plaintext>`: their
 * elements' end tags are the closers' business); undefined when it cannot be
 * told (more HTML than one reading takes, past {@link MAX_VERIFIED_CHARS}). A
 * host's tool result that ends `<a href='` took the files given on touch after
 * it, your glob rule among them, into the attribute's value (review rev82c F3).
 * Linear ({@link unendedMarkupAt}) unless some markup is left unended there.
 */
export function rawMarkupCloser(text: string): string | undefined {
  return rawMarkupEnd(text)?.closer;
}

/**
 * {@link rawMarkupCloser}, and `tag`, the name (lower-cased, as far as it is written) of the start
 * or end tag `text` ends inside, whose ending the closer would write (`x <system-reminder b='`:
 * `system-reminder`); undefined when it cannot be told.
 */
export function rawMarkupEnd(text: string): { closer: string; tag?: string } | undefined {
  if (unendedMarkupAt(text) === -1) return { closer: "" };
  if (text.length > MAX_VERIFIED_CHARS) return undefined;
  try {
    const parser = cappedFragmentParser(MAX_HTML_ELEMENTS + text.length / 4, true);
    parser.tokenizer.write(text, false);
    const tokenizer = parser.tokenizer as unknown as {
      state: number;
      returnState: number;
      currentToken: { type: number; tagName?: string } | null;
    };
    const state =
      tokenizer.state === 71 || tokenizer.state === 72 ? tokenizer.returnState : tokenizer.state;
    const token = tokenCloser(state) ?? "";
    // Written where a line starts (after the host's line break), a lone `>` is a block quote's
    // marker to CommonMark: `/>` ends a tag, an end tag or a bogus comment all the same.
    const closer = token === ">" ? "/>" : token;
    // A tag's name or attributes (parse5's TAG_NAME, then BEFORE_ATTRIBUTE_NAME to
    // SELF_CLOSING_START_TAG), its token a start or end tag (3, 4).
    const inTag = state === 7 || (state >= 31 && state <= 39);
    const current = tokenizer.currentToken;
    const tag =
      inTag && current !== null && (current.type === 3 || current.type === 4)
        ? current.tagName
        : undefined;
    return tag === undefined ? { closer } : { closer, tag };
  } catch (error) {
    if (error !== TOO_MUCH) throw error;
    return undefined;
  }
}

/** What each closer's line starts with ({@link withHtmlClosed}). */
export const EMPTY_COMMENT = "<!---->";

/** Most closers added in one go: each ends a run, a tag, or the elements down to one that hides. */
const MAX_CLOSERS = 8;

/** Most characters the closers of one text add (some 120 end tags): more is too much, and the text's markup is written as text (rev64e F6: a 152 KB text grew to 1 MB). */
export const MAX_CLOSER_CHARS = 1024;

/**
 * A Markdown text read as it is fed, by an HTML tree builder: what it leaves
 * open at its end that hides what would follow ({@link closer}).
 */
export class HtmlReading {
  /** How many elements that hide were made: none, and only an open run (a tag, a comment, raw text) can hide what follows. */
  private hiding = 0;
  /** Elements made, by both readings: past {@link MAX_HTML_ELEMENTS}, too much (rev61b F1). */
  private elements = 0;
  /** Open elements walked by the closers asked: past {@link MAX_HTML_WORK}, too much (rev61b F2). */
  private work = 0;
  /**
   * Read with scripts on (`<noscript>` is raw text) and, once a `noscript` is met, off (its
   * content is markup): a reader may do either. Until then the text written is kept, for the
   * second reading to start from.
   */
  private readonly parsers: FragmentParser[] = [this.parser(true)];
  private unreadOff: string[] | undefined = [];
  /** The text fed and not yet read (a line's Markdown is judged with its whole paragraph): read at {@link closer}. */
  private pending = "";
  private read = 0;
  private tags = 0;
  /** Past {@link MAX_HTML_CHARS}, {@link MAX_HTML_TAGS} or {@link MAX_HTML_WRITES}: nothing more is read. */
  private over = false;
  private writes = 0;
  /** Whether {@link pending} holds a `<`. */
  private pendingMarkup = false;
  /** The closer of the text written so far, once asked (undefined: not asked since the last write). */
  private last: { closer: string | undefined } | undefined;

  private parser(scriptingEnabled: boolean): FragmentParser {
    const { Parser, defaultTreeAdapter } = loadParse5();
    return Parser.getFragmentParser(fragmentContext(), {
      treeAdapter: {
        ...defaultTreeAdapter,
        createElement: (tagName, namespaceURI, attrs) => {
          if (++this.elements > MAX_HTML_ELEMENTS) throw TOO_MUCH;
          const element = defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
          if (elementHides(element)) this.hiding++;
          return element;
        },
      },
      scriptingEnabled,
    });
  }

  /** Whether a closer left out the blocks' end tags after a boundary (`blocksOnce`). */
  compacted = false;

  /**
   * `countTags`: false when the text's own `<` were counted before it was read with the
   * renderer's tags put in (those are not the text's). `blocksOnce`: the blocks' end tags
   * ({@link MARKDOWN_BLOCKS}) once, after the last boundary a closer closes, not after each.
   * `captures`: a repository text's end ({@link withHtmlClosed}), where every element left
   * open, and every formatting element a reader would open again, is closed as well as those
   * that hide ({@link closerOf}); the slash guard closes only what hides.
   */
  constructor(
    private readonly countTags = true,
    private readonly blocksOnce = false,
    readonly captures = false,
  ) {}

  feed(text: string): void {
    this.pending += text;
    if (!this.pendingMarkup && text.includes("<")) this.pendingMarkup = true;
  }

  /**
   * What ends, at the end of the text fed, the innermost run left open (a
   * start tag, a comment, raw text) or else every element from the
   * innermost open one down to the outermost one that hides (end tags on
   * one string), or a formatting element that hides and that a reader would
   * open again for the next text (`<b hidden>` left by `</p>`); "" when
   * nothing hides what follows; undefined when nothing can end it
   * (`<plaintext>`) or the text is {@link tooMuch}.
   */
  closer(): string | undefined {
    this.take();
    if (this.over) return undefined;
    if (this.last !== undefined) return this.last.closer;
    let found: string | undefined = "";
    for (const parser of this.parsers) {
      this.work += parser.openElements.depth;
      if (this.work > MAX_HTML_WORK) {
        this.over = true;
        return undefined;
      }
      found = closerOf(
        parser,
        this.captures || this.hiding > 0,
        this.blocksOnce ? this : undefined,
        this.captures,
      );
      if (found !== "") break;
    }
    this.last = { closer: found };
    return found;
  }

  private take(): void {
    if (this.pending === "" || this.over) return;
    const text = this.pending;
    // Text with no `<` read in text or raw text changes no state a closer is asked of: it is
    // written with the next text that may (the reader's buffer is flattened at each write, so
    // each of many small writes would copy it again: 200,000 placeholders' blanks took 23 s).
    if (!this.pendingMarkup && this.last !== undefined && this.parsers.every(inText)) return;
    this.pending = "";
    this.pendingMarkup = false;
    this.read += text.length;
    if (this.countTags)
      for (let at = text.indexOf("<"); at !== -1; at = text.indexOf("<", at + 1)) this.tags++;
    if (
      this.read > MAX_HTML_CHARS ||
      this.tags > MAX_HTML_TAGS ||
      ++this.writes > MAX_HTML_WRITES
    ) {
      this.over = true;
      return;
    }
    this.last = undefined;
    try {
      if (this.unreadOff !== undefined) {
        if (/noscript/i.test(text)) {
          const off = this.parser(false);
          for (const piece of this.unreadOff) off.tokenizer.write(piece, false);
          this.parsers.push(off);
          this.unreadOff = undefined;
        } else this.unreadOff.push(text);
      }
      for (const parser of this.parsers) parser.tokenizer.write(text, false);
    } catch (error) {
      if (error !== TOO_MUCH) throw error;
      this.over = true;
    }
  }
}

/** Whether the reading is in text or raw text (no tag, comment or reference half read). */
function inText(parser: FragmentParser): boolean {
  return (parser.tokenizer as unknown as { state: number }).state <= PLAINTEXT;
}

/** The elements whose content HTML reads as raw text (or escapable raw text) to their own end tag: a tag inside one is its text. */
const RAW_TEXT: readonly string[] = [
  "script",
  "style",
  "textarea",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
];

/**
 * Whether an element of `name`, with no attribute, printed around a text
 * keeps a reader from showing that text as written: one that {@link hides}
 * ({@link NEVER_SHOWN}, a `<dialog>` not open), one whose content is raw text
 * ({@link RAW_TEXT}) or never ends (`<plaintext>`: every later text of the
 * prompt is its characters), or `<math>` (its text is MathML's, outside any
 * element of its that draws text). A trusted project's section may not be
 * printed in one (`tag: template` around your `{{> base}}`: review rev82f F2).
 */
export function wrapperHides(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    hides(lower, NO_ATTRIBUTES) ||
    RAW_TEXT.includes(lower) ||
    lower === "plaintext" ||
    lower === "math"
  );
}

const NO_ATTRIBUTES: ReadonlyMap<string, string> = new Map();

/**
 * Elements an end tag cannot reach past (scope boundaries, HTML's "in scope"),
 * and raw-text elements (what is inside them is text):
 * a Markdown renderer's own `</p>`, `</li>` … after one inside its paragraph
 * or list item is ignored, and its `<p>` or `<li>` is still open when the
 * boundary is closed (this reading does not see them), where it stops the
 * next end tag ({@link MARKDOWN_BLOCKS} are added after the boundary's).
 */
const BOUNDARIES: ReadonlySet<string> = new Set([
  "applet",
  "caption",
  "marquee",
  "object",
  "table",
  "td",
  "th",
  "template",
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignObject",
  "desc",
  "title",
  "svg",
  "math",
  "select",
  // Raw text: a renderer's `</p>` inside one is its text.
  ...RAW_TEXT,
]);

/** The renderer's containers, which a template of yours may wrap a text in too ({@link closerOf}). */
const CONTAINERS: ReadonlySet<string> = new Set(["li", "ul", "ol", "blockquote", "dl", "dd", "dt"]);

/** End tags of the blocks a Markdown renderer opens around inline HTML (each ignored when none is open; `</p>` then adds an empty paragraph). */
export const MARKDOWN_BLOCKS = "</p></li></ul></ol></blockquote></h1>";

type FragmentParser = ReturnType<typeof Parser.getFragmentParser<DefaultTreeAdapterMap>>;

/** The raw-text tokenizer states (`<script>`, `<textarea>`, `<noscript>` …) end with the current element's end tag; `<plaintext>` (4) never ends. */
const PLAINTEXT = 4;

/**
 * {@link HtmlReading.closer} for one reading. `captures`: every element left
 * open, not only the outermost that hides and those inside it, and every
 * formatting element a reader would open again, not only one that hides. For
 * a Markdown reader every element a text leaves open holds what follows it:
 * the prompt's own tags are text to CommonMark (`</repository_instructions>`:
 * an underscore is no tag name's), so none of them ends it, and a `<div>` a
 * raw reader ends by a `</div>` in a code span held your skill and every
 * later section; a `<s>` or `<font>` a paragraph's end left in the reader's
 * list is opened again in each later paragraph (rev67b F6).
 */
function closerOf(
  parser: FragmentParser,
  elements: boolean,
  once: { compacted: boolean } | undefined,
  captures = false,
): string | undefined {
  const tokenizer = parser.tokenizer as unknown as { state: number; returnState: number };
  const state =
    tokenizer.state === 71 || tokenizer.state === 72 ? tokenizer.returnState : tokenizer.state;
  const token = tokenCloser(state);
  if (token === undefined) {
    if (state === PLAINTEXT) return undefined;
    const current = parser.openElements.current as Element | undefined;
    if (current === undefined) return undefined;
    // With `captures`, the blocks the text opened are in the reading's stack, closed by the next closer.
    return captures ? `</${current.tagName}>` : `</${current.tagName}>${MARKDOWN_BLOCKS}`;
  }
  if (token !== "" || !elements) return token;
  const open = openElements(parser);
  // The outermost one that hides (with `captures`, the outermost of all): its end tag and those
  // of every element inside it (rev61a F9: the innermost was taken, one hidden element closed a time).
  const outer = captures ? (open.length > 0 ? 0 : -1) : open.findIndex(elementHides);
  if (outer !== -1) {
    const closed = open.slice(outer).reverse();
    // A list or block quote (the text's Markdown's) kept open by a boundary left in it
    // (`- item <table>`), whose end tags a raw reader, who sees no Markdown, would apply to yours
    // around the text (`{{#xml "li"}}`): not closed so, the text falls back (rev78e F2).
    if (
      captures &&
      closed.some((e) => CONTAINERS.has(e.tagName)) &&
      closed.some((e) => BOUNDARIES.has(e.tagName))
    )
      return undefined;
    // Once: after the last boundary only (rev64e F6: after each, 38 characters a boundary made
    // 19,000 `<object>` a closer of 875 KB); the check after the closers says whether it sufficed.
    let last = -1;
    for (let i = closed.length - 1; i >= 0 && last === -1; i--)
      if (BOUNDARIES.has((closed[i] as Element).tagName)) last = i;
    return closed
      .map((e, i) => {
        // With `captures` every element the text opened is closed, the renderer's blocks it wrote
        // among them (read with them put in): the blocks' end tags would end those around the text,
        // yours (`{{#xml "li"}}`) among them (rev78e F2).
        if (captures || !BOUNDARIES.has(e.tagName)) return `</${e.tagName}>`;
        if (once === undefined || i === last) return `</${e.tagName}>${MARKDOWN_BLOCKS}`;
        once.compacted = true;
        return `</${e.tagName}>`;
      })
      .join("");
  }
  return againFormatting(parser, open, captures)
    .map((e) => `</${e.tagName}>`)
    .join("");
}

/** The open elements, outermost first (the fragment's root left out). */
function openElements(parser: FragmentParser): Element[] {
  const stack = parser.openElements;
  const open: Element[] = [];
  for (let slot = stack.stackTop; slot !== -1; slot = stack.slotBelow(slot)) {
    const item = stack.items[slot] as Element | undefined;
    if (item?.tagName !== undefined && item.tagName !== "html") open.push(item);
  }
  return open.reverse();
}

/**
 * The formatting elements in the reader's list since its last marker that are
 * not `open`, newest first: a reader opens each again for the next text. Only
 * the newest that hides, unless `every` (each one, {@link closerOf}'s `captures`).
 */
function againFormatting(
  parser: FragmentParser,
  open: readonly Element[],
  every: boolean,
): Element[] {
  const list = parser.activeFormattingElements as unknown as {
    newest: FormattingEntry | null;
  };
  const isOpen = new Set(open);
  const again: Element[] = [];
  for (let entry = list.newest; entry !== null; entry = entry.older) {
    if (entry.type === 0) break;
    const element = entry.element as Element;
    if (isOpen.has(element)) continue;
    if (every) again.push(element);
    else if (elementHides(element)) return [element];
  }
  return again;
}

type FormattingEntry = { type: number; element?: Element; older: FormattingEntry | null };

/** Every formatting element in the reader's list, past its markers too, newest first. */
function againOpened(parser: FragmentParser): Element[] {
  const list = parser.activeFormattingElements as unknown as {
    newest: FormattingEntry | null;
  };
  const found: Element[] = [];
  for (let entry = list.newest; entry !== null; entry = entry.older)
    if (entry.type !== 0 && entry.element !== undefined) found.push(entry.element);
  return found;
}

/**
 * `text` with the closers ({@link HtmlReading.closer}), each on a line of its
 * own (`withLine`), of what it leaves open at its end that hides or holds what
 * would follow (`captures`: every element, every formatting element a reader
 * opens again), read as the Markdown it is ({@link markdownAsHtml}); undefined when
 * nothing can close it, it is more than a reading takes ({@link tooMuchHtml}),
 * its closers are more than {@link MAX_CLOSER_CHARS}, or a paragraph after
 * them would not be shown ({@link followingShown}, which tells `onLimit` the
 * renderer's bound it stopped at, if that was why).
 */
export function withHtmlClosed(
  text: string,
  withLine: (text: string, line: string) => string,
  onLimit?: (limit: RenderLimit) => void,
  captures = true,
): string | undefined {
  if (!text.includes("<")) return text;
  if (tooMuchHtml(text)) return undefined;
  // The blocks' end tags once where that suffices, else after each boundary (the slash guard's form).
  const once = new HtmlReading(false, true, captures);
  const closed = closedBy(once, text, withLine, onLimit);
  return closed !== undefined || !once.compacted
    ? closed
    : closedBy(new HtmlReading(false, false, captures), text, withLine, onLimit);
}

/** {@link withHtmlClosed} by `reading`, a fresh one. */
function closedBy(
  reading: HtmlReading,
  text: string,
  withLine: (text: string, line: string) => string,
  onLimit?: (limit: RenderLimit) => void,
): string | undefined {
  let out = text;
  const placed = reading.captures;
  // With the renderer's own block tags: what is open at the end is what a reader has open.
  reading.feed(markdownAsHtmlWithBlocks(text));
  for (let i = 0; i < MAX_CLOSERS; i++) {
    const closer = reading.closer();
    if (closer === undefined) return undefined;
    if (closer === "") return followingShown(out, "\n\n", onLimit, placed) ? out : undefined;
    // After an empty comment: the line is an HTML block then (CommonMark's kind 2), which a
    // Markdown renderer passes on as it is, never in a paragraph (where `"` is `&quot;` and
    // `-->` is `--&gt;`, and `</span>` after its `<p>` ends nothing), and which may follow any line.
    const next = withLine(out, `${EMPTY_COMMENT}${closer}`);
    if (next.length - text.length > MAX_CLOSER_CHARS) return undefined;
    const added = next.slice(out.length);
    reading.feed(added);
    out = next;
  }
  return reading.closer() === "" && followingShown(out, "\n\n", onLimit, placed) ? out : undefined;
}

/** Most characters {@link followingShown} renders (twice a context file's default cap: a capped file with its escapes and marker fits): the renderer, metered, and the tree take about 1 s at worst. */
export const MAX_VERIFIED_CHARS = 512 * 1024;

/**
 * Most characters {@link followingShown} renders, in all, within one
 * {@link withCheckBudget} scope (a render's assembly, its sections, one touch
 * call's text, one host tool result): each text costs 0.4-1.1 s per 255 KB,
 * so twelve of them took 6-7 s and 500 MB (rev65a F2). One text at
 * {@link MAX_VERIFIED_CHARS} still fits.
 */
export const CHECK_BUDGET_CHARS = 512 * 1024;

/**
 * What the warning for a text with HTML says when the render's budget
 * ({@link CHECK_BUDGET_CHARS}) was spent on the texts before it (rev65a F2):
 * said of a context file and of a rule file alike.
 */
export const OVER_BUDGET_WORDS = `holds HTML, and the check of what the repository's texts leave open spent its budget for this render (${CHECK_BUDGET_CHARS} characters, or its time: the render's deadline) on the texts before it or on this text's own fallbacks: every < in it is written as text (&lt;)`;

/**
 * What a text's check is charged on top of its length ({@link paidCheck}):
 * the fixed work of each text checked (its probe render's own paragraphs,
 * a reader and a tree made for it), about 100-350 µs a text measured, as
 * much as 150-250 characters of its own. 200 rules of 2,600 characters were
 * charged their length only (review rev91b F1).
 */
export const CHECK_TEXT_CHARS = 256;

/**
 * The budget of the scope running now, undefined outside one (where each
 * text is held to {@link UNSCOPED_CHECK_CHARS}). Module-level,
 * and safe in a long-lived process (pi's extension): {@link withCheckBudget}
 * sets it and puts the outer one back around one synchronous call, so no
 * other render or call runs while it is set, and nothing outlives the call.
 */
let budget: CheckBudget | undefined;

/**
 * A check budget several scopes spend in turn ({@link withCheckBudget} given
 * it): a render checks its texts in synchronous parts (the appended parts,
 * then the data, after the gathering's `await`s; then the render, from what
 * they left), and one render has one budget (rev68e F3: three scopes of their
 * own, the appended parts', the context files' and the render's, checked
 * 1.3 MB of a repository's markup).
 */
export interface CheckBudget {
  /** Characters left. */
  left: number;
  /**
   * The render's stop time (`renderStop` in src/render-system-prompt.ts, the
   * one its trusted project's sections stop at): past it, the budget is spent
   * ({@link checkAffordable}), and each text after takes the budget's instant
   * fallback, as when its characters run out. Before, the assembly's check
   * heard no deadline: 200 always rules of 2,600 characters of `- <x>N` took
   * 2.0-2.7 s of CPU at `--deadline 1000` (review rev91b F1).
   */
  stop?: RenderStop;
}

/**
 * Most characters of one text checked outside every {@link withCheckBudget}
 * scope: an entry point that sets none is bounded all the same (fail closed,
 * some 0.1-0.3 s a text), not unbounded (rev66e F1, F5: Gemini CLI's hook,
 * a skill's expansion and a project's APPEND_SYSTEM.md each checked up to
 * 1 MiB with no budget).
 */
export const UNSCOPED_CHECK_CHARS = 64 * 1024;

/**
 * True while the check of one text runs ({@link paidCheck}): that text was
 * charged when its work started.
 */
let paid = false;

/**
 * The renders of {@link followingShown} the running {@link paidCheck} paid
 * for: one (its charge covers the reading and one render), or all of them
 * for a text of yours. Each render past it is charged as it starts: a
 * text's fallbacks render it up to three times more (withHtmlClosed's second
 * reading, its markup as text, every `<` as `&lt;`), and were free (rev68e F3).
 */
let prepaid = 0;

/**
 * Whether the running {@link paidCheck} paid for one raw reading
 * ({@link rawHidingTags}) as well: its charge covers the reading, one render
 * and the raw reading of the text as printed. Each raw reading past it is
 * charged as it starts.
 */
let rawPrepaid = false;

/**
 * `run()` with {@link followingShown} held to `chars` characters in all: a
 * text with `<` longer than what is left is not rendered (as a text too long
 * to verify) and costs nothing, so what comes after may still be checked.
 * The texts come in a fixed order, so the same tree gives the same bytes. A
 * scope inside another shares the outer one's budget; given a
 * {@link CheckBudget}, a scope spends that one. `run` must be synchronous.
 */
export function withCheckBudget<T>(
  run: () => T,
  chars: number | CheckBudget = CHECK_BUDGET_CHARS,
): T {
  const outer = budget;
  budget = outer ?? (typeof chars === "number" ? { left: Math.max(0, chars) } : chars);
  try {
    return run();
  } finally {
    budget = outer;
  }
}

/** Whether the running scope's budget ({@link withCheckBudget}) still holds a check of `text`: false when a text with `<` is longer than what is left, or, outside every scope, than {@link UNSCOPED_CHECK_CHARS}; true for the render a {@link paidCheck} paid for. */
export function checkAffordable(text: string): boolean {
  if (!text.includes("<") || prepaid > 0) return true;
  // Past the render's stop time the budget is spent, for this render's every check after (rev91b F1).
  const stop = budget?.stop;
  if (budget !== undefined && stop !== undefined && budget.left > 0 && stop.clock() >= stop.at)
    budget.left = 0;
  return text.length <= (budget?.left ?? UNSCOPED_CHECK_CHARS);
}

/**
 * `run()`, the whole check of `text` (its reading, its closers' and
 * fallbacks' {@link followingShown}), charged to the scope's budget once,
 * when it starts, its length and {@link CHECK_TEXT_CHARS} (a text longer than
 * what is left is refused; one that fits may spend the rest): a text the reading gives up on has spent its share all the
 * same (rev66e F3: nine 262 KB texts paid 3.3 s of work and charged
 * nothing). `refused()` when it does not fit ({@link checkAffordable}),
 * nothing charged. `free`: a text of yours, checked whatever is left and
 * charged nothing (rev66e F2: a project that spent the budget had your
 * always rule's markup written `&lt;`); {@link MAX_VERIFIED_CHARS} still
 * bounds its work.
 */
export function paidCheck<T>(text: string, run: () => T, refused: () => T, free = false): T {
  if (paid) return run();
  if (!free) {
    if (!checkAffordable(text)) return refused();
    // Its length and a text's fixed work (rev91b F1); a text that fits is checked, the rest then spent.
    if (budget !== undefined && text.includes("<"))
      budget.left = Math.max(0, budget.left - text.length - CHECK_TEXT_CHARS);
  }
  paid = true;
  prepaid = free ? Number.POSITIVE_INFINITY : 1;
  rawPrepaid = true;
  try {
    return run();
  } finally {
    paid = false;
    prepaid = 0;
    rawPrepaid = false;
  }
}

/** The paragraph {@link followingShown} writes after a text: a word it does not hold (a run of `q` longer than any of its own). Linear. */
function probeFor(text: string): string {
  let longest = 0;
  for (let at = text.indexOf("q"); at !== -1; ) {
    let end = at;
    while (text.charCodeAt(end) === 0x71) end++;
    longest = Math.max(longest, end - at);
    at = text.indexOf("q", end);
  }
  return `Zprobe${"q".repeat(longest + 1)}`;
}

/**
 * Whether a paragraph written after `text` (a blank line between) is shown:
 * the real pipeline, not {@link markdownAsHtml}'s prediction of it, CommonMark's
 * reference renderer, then parse5's tree (scripts on, and off too when a
 * `<noscript>` is there), and the paragraph's text in a text node that no
 * element that hides ({@link elementHides}) holds: not in a comment, an
 * attribute, a hidden element, nor in code ({@link READ_AS_CODE}); after a
 * blank line, a paragraph of its own at the top level, in no element the text
 * left open and no formatting element opened again ({@link placedLast}). The
 * last check on a repository text's closers (rev64e: five mis-readings of
 * the Markdown let a text hide what follows).
 * False when the tree is more than a reading takes (elements past
 * {@link MAX_HTML_ELEMENTS} and a fourth of the HTML's length: linear), or
 * the text longer than {@link MAX_VERIFIED_CHARS} or than what is left of
 * the scope's budget ({@link withCheckBudget}, which each text checked
 * spends), more than the renderer
 * takes inline ({@link commonmarkWork}), or more than the renderer may do
 * for one text (containers, block nodes, inline work, HTML: metered as it
 * works, {@link commonmarkHtml}). True for a text with no `<`: its fences are
 * closed by every caller first (`closeHiddenRuns`'s `blocks.close`).
 * `joiner`: what is between the text and the paragraph (a blank line; `" "`
 * for words printed on the text's last line). `onLimit`: told the renderer's
 * bound when one is why it is false ({@link RenderLimit}: rev71b F1).
 */
export function followingShown(
  text: string,
  joiner = "\n\n",
  onLimit?: (limit: RenderLimit) => void,
  captures = true,
): boolean {
  // No `<`, no raw HTML: the renderer writes only its own elements, none of which hides.
  if (!text.includes("<")) return true;
  // Judged with this joiner already, by the render {@link withOneRender} made.
  if (served?.joiners.includes(joiner) && served.text === text) return true;
  // A paragraph after a blank line is held by no element the text leaves open (placed).
  const placed = joiner === "\n\n" && captures ? "" : undefined;
  // Words on its last line are in no element it left open there (`<del>`, a white `<span>`: rev80c F3).
  const inline = joiner === "\n\n" ? undefined : "";
  return probesShown(text, (probe) => `${text}${joiner}${probe}\n`, [""], onLimit, placed, inline);
}

/**
 * A text whose one render showed words after it with each of `joiners`
 * ({@link withOneRender}): {@link followingShown} takes that answer.
 */
let served: { text: string; joiners: readonly string[] } | undefined;

/**
 * `run()`, in which {@link followingShown} of `text` with `joiner` (words on
 * its last line) or with a blank line (a paragraph after it) takes the answer
 * of one render of both, when both were shown there: `text`, `joiner`, a
 * word, a blank line, another word. A repository's text printed where your
 * words follow it was rendered twice, for its closers and for your words
 * (`closedOpenToYours`), each render charged to the render's one budget, so
 * 512 KiB of checks covered 256 KiB of its text (rev68e F3's budget, recorded
 * by rev70a). The word on its last line changes no reading of a paragraph
 * after it that shows both: it ends no fence and makes no line an HTML block
 * (a tag alone on its line, `<span hidden>`, is one; with a word after it, the
 * word is in the span), and what the reader has read before it is read alike.
 * When either is not shown, each check renders on its own, as before.
 */
export function withOneRender<T>(text: string, joiner: string, run: () => T): T {
  const outer = served;
  if (
    outer === undefined &&
    text.includes("<") &&
    probesShown(
      text,
      (probe) => `${text}${joiner}${probe}A\n\n${probe}B\n`,
      ["A", "B"],
      undefined,
      "B",
      joiner === "\n\n" ? undefined : "A",
    )
  )
    served = { text, joiners: [joiner, "\n\n"] };
  try {
    return run();
  } finally {
    served = outer;
  }
}

/**
 * Whether the words of `suffixes` (each after a probe word `text` does not
 * hold, {@link probeFor}) are each shown in the render of `markdown(probe)`:
 * {@link followingShown}'s render and reading, charged as it says
 * (`onLimit` too). `placed`: the suffix of the probe written last, after a
 * blank line, which must also be a paragraph of its own at the top level
 * ({@link probeShownIn}). `inline`: the suffix of the probe written on the
 * text's last line, which must be in no element but the renderer's blocks.
 */
function probesShown(
  text: string,
  markdown: (probe: string) => string,
  suffixes: readonly string[],
  onLimit?: (limit: RenderLimit) => void,
  placed?: string,
  inline?: string,
): boolean {
  if (text.length > MAX_VERIFIED_CHARS) return false;
  // Charged here, unless the running check paid for this render ({@link paidCheck}).
  if (!checkAffordable(text)) return false;
  if (prepaid > 0) prepaid--;
  else if (budget !== undefined) budget.left -= text.length;
  if (commonmarkWork(text) > MAX_COMMONMARK_WORK) {
    onLimit?.(RENDER_WORK);
    return false;
  }
  const probe = probeFor(text);
  const rendered = commonmarkHtml(markdown(probe), onLimit);
  if (rendered === undefined) return false;
  const limit = MAX_HTML_ELEMENTS + rendered.length / 4;
  const probes = suffixes.map((suffix) => probe + suffix);
  const last = placed === undefined ? undefined : probe + placed;
  const held = inline === undefined ? undefined : probe + inline;
  try {
    if (!probeShownIn(rendered, probes, true, limit, last, held)) return false;
    return !/noscript/i.test(rendered) || probeShownIn(rendered, probes, false, limit, last, held);
  } catch (error) {
    if (error !== TOO_MUCH) throw error;
    return false;
  }
}

/** A hiding element a raw reading's probe is in: its start tag's `<` (-1: none written), and the one around it. */
interface Hider {
  at: number;
  outer: Hider | undefined;
  /** A formatting element a raw reader keeps or opens again ({@link againOpened}): told only where the text's Markdown reads its tag as markup. */
  formatting?: true;
  /** Any other element of the text's open around the words after it (neither hiding nor capturing): never told, always ended by its end tag after the text (rev80c F2). */
  ended?: true;
}

/**
 * What hides a paragraph printed after `text` (`joiner` between) for an HTML
 * parser fed the raw prompt, which reads every `<` as markup, in code spans,
 * code blocks and over blank lines too (rev68c F8's reader): undefined when
 * it is shown (a text that cannot hold a hiding element, {@link mayHoldHiding}, opens none); else the offsets in
 * `text` of the `<` of the start tags of the hiding elements ({@link hides})
 * around it, or none when they cannot be told (the paragraph in no text node,
 * an element with no start tag in `text`, a text past
 * {@link MAX_VERIFIED_CHARS} or the scope's budget, a tree past
 * {@link MAX_HTML_ELEMENTS} and a fourth of its length). `` Use `<span
 * hidden>` for notes. `` is text to CommonMark, and a span that hid your words
 * after `{{content}}` to that parser (found while fixing rev70a F2). Charged
 * to the scope's budget as a render ({@link paidCheck} pays for one).
 */
export function rawHidingTags(
  text: string,
  joiner: string,
  reopened?: number[],
): number[] | undefined {
  const reads = reopened !== undefined && mayReopen(text);
  if (!mayHoldHiding(text) && !mayCapture(text) && !reads) return undefined;
  // A text that ends the reader's wrapper itself is read outside it, where nothing it leaves open
  // is told apart (rev76c F1, F2: `</x-w><div>` kept every later section in the div): not told.
  if (ENDS_WRAPPER.test(text)) return [];
  const probe = probeFor(text);
  // In an ordinary element of the reader's, as the prompt prints it in its own (rev74c F2).
  return rawHidersIn(
    `${WRAPPER}${text}${joiner}${probe}\n`,
    probe,
    text,
    1,
    WRAPPER.length,
    reads ? reopened : undefined,
  );
}

/**
 * HTML's formatting elements (those of its list of active formatting
 * elements): one a raw reader has open, or in that list, where a text ends is
 * opened again around every later text node of the prompt (rev78c F2: `` Wrap
 * it in `<code>` or `<b>` tags. ``, which CommonMark reads as text, put your
 * rules, skills and `<cwd>` in `code > b` for a raw reader; `<font
 * color=white @x>` drew them white).
 */
const FORMATTING = [
  "a",
  "b",
  "big",
  "code",
  "em",
  "font",
  "i",
  "nobr",
  "s",
  "small",
  "strike",
  "strong",
  "tt",
  "u",
];

const FORMATTING_NAMES = new Set(FORMATTING);

/**
 * Whether `text` may leave an element open or in the reader's list: a
 * formatting element ({@link FORMATTING}) or any other (rev80c F2: every
 * element of the text's open around the words after it is ended), i.e. a
 * start tag. Linear, one expression.
 */
export function mayReopen(text: string): boolean {
  return text.includes("<") && START_TAG.test(text);
}

const START_TAG = /<[A-Za-z]/;

/**
 * {@link rawHidingTags} of `text` with a word printed in it at each of
 * `places` (offsets in `text`, in order: a slash template's placeholders,
 * where your arguments go): the offsets in `text` of the `<` of the start tags
 * of the hiding elements around any of those words for an HTML parser fed the
 * raw text; undefined when each is shown; none when they cannot be told. The
 * one raw reading a repository's text and a project's slash template are
 * judged by (rev72c F1, F2: `` Load it with a `<script>` tag. `` or
 * `x <div/hidden>` before `$ARGUMENTS` hid your typed words). Charged as
 * {@link rawHidingTags}.
 */
export function rawHidingTagsAt(text: string, places: readonly number[]): number[] | undefined {
  if (places.length === 0 || !mayHoldHiding(text)) return undefined;
  const probe = probeFor(text);
  let raw = "";
  let from = 0;
  for (const at of places) {
    raw += `${text.slice(from, at)}${probe}`;
    from = at;
  }
  raw += text.slice(from);
  if (raw.length > MAX_VERIFIED_CHARS) return [];
  const tags = rawHidersIn(raw, probe, text, places.length);
  if (tags === undefined || tags.length === 0) return tags;
  // Each place moves what follows it on by the probe's length: mapped back to `text`, in one
  // sweep (both in order).
  const out: number[] = [];
  let passed = 0;
  for (const at of tags) {
    while (passed < places.length && (places[passed] as number) + passed * probe.length < at)
      passed++;
    out.push(at - passed * probe.length);
  }
  return out;
}

/**
 * The offsets in `raw` of the hiding start tags around the `count` words
 * `probe` in `raw`, read raw ({@link rawHidingTags}), charged as `text`'s check;
 * `raw` holds `text` from `offset` on (after the wrapper's start tag).
 */
function rawHidersIn(
  raw: string,
  probe: string,
  text: string,
  count = 1,
  offset = 0,
  reopened?: number[],
): number[] | undefined {
  if (text.length > MAX_VERIFIED_CHARS) return [];
  if (rawPrepaid) rawPrepaid = false;
  else {
    if (!checkAffordable(text)) return [];
    if (prepaid === 0 && budget !== undefined) budget.left -= text.length;
  }
  const limit = MAX_HTML_ELEMENTS + raw.length / 4;
  // The probes are the last `count` words: a tag at or past the first of them is not the text's.
  const end = count === 1 ? text.length : raw.length;
  try {
    const wrapped = offset > 0;
    const on = rawHidersOf(raw, probe, true, limit, count, wrapped);
    const off = /noscript/i.test(raw)
      ? rawHidersOf(raw, probe, false, limit, count, wrapped)
      : undefined;
    if (on === undefined && off === undefined) return undefined;
    const tags = new Set<number>();
    const again = new Set<number>();
    let view: string | undefined;
    for (const list of [on, off])
      for (const hiders of list ?? [])
        for (let h: Hider | undefined = hiders; h !== undefined; h = h.outer) {
          const at = h.at - offset;
          if (h.at < 0 || at < 0 || at >= end) return [];
          // One both readers open (before a `<table>`, rev78e F3) is written `&lt;`; one only a
          // raw reader opens (`` Wrap it in `<code>` tags. ``, `<code/x>`: rev78c F2) is told in
          // `reopened`, to be closed after the text (an escape is shown in a code span).
          if (h.ended) {
            again.add(at);
            continue;
          }
          if (h.formatting) {
            view ??= markdownAsHtml(text);
            if (view.charCodeAt(at) !== 0x3c) {
              again.add(at);
              continue;
            }
          }
          tags.add(at);
        }
    for (const at of again) if (!tags.has(at)) reopened?.push(at);
    reopened?.sort((a, b) => a - b);
    // Only formatting elements a raw reader alone opens: shown once closed (`reopened`).
    if (tags.size === 0) return undefined;
    return [...tags].sort((a, b) => a - b);
  } catch (error) {
    if (error !== TOO_MUCH) throw error;
    return [];
  }
}

/** The attributes that change how any element's text is drawn or may be styled (a style sheet's hooks), `hidden` and `popover` apart ({@link hides}). */
const DRAWING_ATTRIBUTES = [
  "style",
  "dir",
  "lang",
  "xml:lang",
  "class",
  "id",
  "slot",
  "part",
  "is",
];

/**
 * Whether a text's element left open around your words changes nothing of
 * how they are drawn: an HTML element of no HTML name with none of
 * {@link DRAWING_ATTRIBUTES}. Real Markdown opens them by the hundred for a
 * raw reader (`<https://…>` autolinks, `Map<string, number>`, `<pkg>` in code
 * spans: 158 of 491 files would get an end-tag line, 10 more be written as
 * text past its bound, and most TypeScript files read on touch a line of up to
 * 500 characters); they are left open (known limit, rev80c F2).
 */
function drawsNothing(element: Element): boolean {
  if (element.namespaceURI !== "http://www.w3.org/1999/xhtml") return false;
  if (HTML_ELEMENTS.has(element.tagName)) return false;
  return !element.attrs.some((a) => DRAWING_ATTRIBUTES.includes(a.name));
}

/** The ordinary element {@link rawHidingTags} reads a text in, and its end tag, which a text that captures leaves unread. */
const WRAPPER = "<x-w>";
const WRAPPER_END = "</x-w>";

const MATHML = "http://www.w3.org/1998/Math/MathML";

/**
 * Elements an ordinary end tag cannot reach past, left open (HTML's "special"
 * elements that are not void, MathML's text integration points and
 * `<annotation-xml>`, SVG's `<foreignObject>`, `<desc>`, `<title>`): a text
 * that leaves one open keeps the prompt's own end tag
 * (`</repository_instructions>`) from ending anything, and every later section
 * inside it (rev74c F2). A text with none captures nothing: {@link rawHidingTags} skips it.
 */
const CAPTURING = [
  "address",
  "applet",
  "article",
  "aside",
  "blockquote",
  "body",
  "button",
  "caption",
  "center",
  "colgroup",
  "dd",
  "details",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "frameset",
  "h[1-6]",
  "head",
  "header",
  "hgroup",
  "html",
  "iframe",
  "li",
  "listing",
  "main",
  "marquee",
  "menu",
  "nav",
  "noembed",
  "noframes",
  "noscript",
  "object",
  "ol",
  "p",
  "plaintext",
  "pre",
  "script",
  "search",
  "section",
  "select",
  "style",
  "summary",
  "table",
  "tbody",
  "td",
  "template",
  "textarea",
  "tfoot",
  "th",
  "thead",
  "title",
  "tr",
  "ul",
  "xmp",
  "mi",
  "mo",
  "mn",
  "ms",
  "mtext",
  "annotation-xml",
  "foreignObject",
  "desc",
];

const CAPTURING_TAG = new RegExp(`<(?:${CAPTURING.join("|")})(?=[\\t\\n\\f\\r />]|$)`, "i");

const CAPTURING_NAME = new RegExp(`^(?:${CAPTURING.join("|")})$`, "i");

/** Whether `text` may leave open an element that captures what follows ({@link CAPTURING}). Linear, one expression. */
export function mayCapture(text: string): boolean {
  return text.includes("<") && (CAPTURING_TAG.test(text) || MATH_TAG.test(text));
}

/**
 * A `<math>` start tag: one left open where the words after the text are puts
 * them in MathML, outside any element of its that draws text ({@link rawHidersOf}
 * tells it; a bare `<math>` at a trusted SYSTEM.md's end was passed over by
 * the pre-filter, rev76c F4).
 */
const MATH_TAG = /<math(?=[\t\n\f\r />]|$)/i;

/** The wrapper's end tag ({@link WRAPPER_END}) in a text: what ends the reader's wrapper early. */
const ENDS_WRAPPER = /<\/x-w(?=[\t\n\f\r />]|$)/i;

/**
 * The hiding elements around `probe` in `raw` read as HTML ({@link rawHidingTags}):
 * undefined when shown, `{ at: -1 }` when in no text node. With them, every
 * element left open inside the wrapper when its end tag is read
 * ({@link WRAPPER_END}): those end tags are not reached past (rev74c F2).
 */
function rawHidersOf(
  raw: string,
  probe: string,
  scriptingEnabled: boolean,
  limit: number,
  count = 1,
  wrapped = false,
): Hider[] | undefined {
  const parser = cappedFragmentParser(limit, scriptingEnabled, { locations: true });
  parser.tokenizer.write(raw, false);
  let captors: Hider | undefined;
  const startOf = (element: Element) =>
    (element as { sourceCodeLocation?: SourceLocation | null }).sourceCodeLocation?.startTag
      ?.startOffset;
  // A `<math>` open where the words after the text are: they are MathML's (a prompt's custom base
  // prompt is in no element, rev74c F3), and a word there is in no token element.
  for (const element of openElements(parser)) {
    const at = element.namespaceURI === MATHML ? startOf(element) : undefined;
    if (at !== undefined) captors = { at, outer: captors };
  }
  // Every element of the text's open around the probe, told before the wrapper's end tag pops
  // it: a formatting one, in the reader's list or not (HTML's list keeps at most three identical
  // entries and drops the earliest, which stays open on the stack: four `` `<s>` ``, rev80c F1),
  // and any other (`<del>`, `<kbd>`, `<bdo dir=rtl>`, `<span style="color:white">`, a `Promise<T>`'s
  // `<t>`: rev80c F2), which holds your words after the text in your section, and every later
  // text of the prompt after a text printed in no element (a custom base prompt). One that
  // captures is told after that tag, one that hides by the probe's ancestors.
  if (wrapped) {
    const open = openElements(parser);
    const wrapper = open.findIndex((e) => e.tagName === "x-w");
    const ordinary = (e: Element) => !CAPTURING_NAME.test(e.tagName) && !elementHides(e);
    // From the outermost one told on, each is ended, one that draws nothing too: an end tag ends
    // the innermost element of its name, which may be one of those inside it.
    let from = -1;
    if (wrapper !== -1)
      from = open.findIndex(
        (e, i) =>
          i > wrapper &&
          startOf(e) !== undefined &&
          (FORMATTING_NAMES.has(e.tagName) || (ordinary(e) && !drawsNothing(e))),
      );
    if (from !== -1)
      for (const element of open.slice(from)) {
        const at = startOf(element);
        if (at === undefined) continue;
        if (FORMATTING_NAMES.has(element.tagName))
          captors = { at, outer: captors, formatting: true };
        else if (ordinary(element)) captors = { at, outer: captors, ended: true };
      }
  }
  parser.tokenizer.write(WRAPPER_END, false);
  // Still open above the wrapper after its end tag: what keeps the prompt's later text inside it.
  const open = openElements(parser);
  const wrapper = open.findIndex((e) => e.tagName === "x-w");
  let told = false;
  if (wrapper !== -1)
    for (const element of open.slice(wrapper + 1)) {
      const at = startOf(element);
      // Only those an end tag cannot reach past: one inside them (a JSX `<Button>`'s `<React.Fragment>`)
      // is ended with them; one the reader made with no tag of its own (a table's `<tbody>`) too.
      if (at !== undefined && CAPTURING_NAME.test(element.tagName)) {
        captors = { at, outer: captors };
        told = true;
      }
    }
  if (wrapper !== -1 && !told) return [{ at: -1, outer: undefined }];
  // A formatting element of the text's still in the reader's list after the wrapper's end tag: a
  // raw reader opens it again for the prompt's next words, or keeps it open (a `<a href>` or
  // `<font color="white">` before a `<table>`, whose copy in the table the closers end: rev78e F3).
  if (wrapped)
    for (const element of againOpened(parser)) {
      const at = startOf(element);
      if (at !== undefined) captors = { at, outer: captors, formatting: true };
    }
  parser.tokenizer.write("", true);
  const hidden = probeHiders(parser.getFragment(), probe, count);
  if (captors === undefined) return hidden;
  return [captors, ...(hidden ?? [])];
}

/** The hiding elements around each of the `count` words `probe` under `root`, one list entry for each hidden one: undefined when each is shown, `{ at: -1 }` for one in no text node. */
function probeHiders(root: ParentNode, probe: string, count: number): Hider[] | undefined {
  const stack: { node: ChildNode | ParentNode; hiders: Hider | undefined }[] = [
    { node: root, hiders: undefined },
  ];
  const hidden: Hider[] = [];
  let seen = 0;
  while (stack.length > 0 && seen < count) {
    const { node, hiders } = stack.pop() as {
      node: ChildNode | ParentNode;
      hiders: Hider | undefined;
    };
    if (node.nodeName === "#text") {
      const value = (node as TextNode).value;
      for (let at = value.indexOf(probe); at !== -1; at = value.indexOf(probe, at + probe.length)) {
        seen++;
        if (hiders !== undefined) hidden.push(hiders);
      }
      continue;
    }
    if (!("childNodes" in node)) continue;
    let around = hiders;
    if ("tagName" in node) {
      const element = node as Element;
      if (elementHides(element)) {
        const location = (element as { sourceCodeLocation?: SourceLocation | null })
          .sourceCodeLocation;
        around = { at: location?.startTag?.startOffset ?? -1, outer: hiders };
      }
      const content = (node as { content?: ParentNode }).content;
      if (content !== undefined) stack.push({ node: content, hiders: around });
    }
    const children = (node as ParentNode).childNodes;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i] as ChildNode, hiders: around });
  }
  // One in no text node: an attribute, a comment, dropped (a `<select>`'s text).
  if (seen < count) hidden.push({ at: -1, outer: undefined });
  return hidden.length === 0 ? undefined : hidden;
}

/** The HTML tokenizer's tag states {@link unendedMarkupAt} tells apart (a self-closing `/` and a quoted value's end read as before an attribute's name). */
const TAG_NAME = 0;
const BEFORE_NAME = 1;
const ATTRIBUTE_NAME = 2;
const AFTER_ATTRIBUTE_NAME = 3;
const BEFORE_VALUE = 4;
const UNQUOTED_VALUE = 5;

/**
 * Where the markup an HTML tokenizer reading `text` raw is still in at its
 * end begins (its `<`), or -1 when it ends in the data state: any tag, comment
 * or declaration left unended. A start or end tag in its name, between or in
 * its attributes, quoted or not (`See <a href="docs`, `see <span hidden`,
 * `</x y`, `<br/`), a `<` or `</` or `<!` last, a bogus comment (`<?x`, `<!x`,
 * `</` then no letter), a declaration (`<!DOCTYPE`), a CDATA section whose
 * first `>` is not its `]]>`'s (in `<svg>` or `<math>` it runs to `]]>`, else
 * it is a bogus comment to `>`: the two readings part, rev72e F2) and a
 * comment with no end (`<!--`, which the closers end
 * first). Each took the prompt after it to its next `>` for an
 * HTML parser fed the raw prompt: the prompt's own end tag
 * (`</repository_append>`), and your words inside the repository's element,
 * or the rest of the prompt inside `<span hidden …>` (reviews rev68c F8,
 * rev70a F2, F9). Comments end at `-->`, `--!>` and `<!-->`/`<!--->`, other
 * bogus comments and declarations at `>`, read from the data state; the
 * text of a raw-text or RCDATA element (`<style>`, `<textarea>`, `<script>`
 * through its escaped states …) to its own end tag, as the tokenizer reads
 * it, a `<!--` in it no comment (rev89f F1); where the tree may read that
 * text as markup (after `<svg>`, `<math>`, `<select>`), both ways. Ending
 * inside such an element's text is -1: its end tag is the closers' business.
 * `from`: a place the tokenizer is in its data state (a tag's `<` it found
 * before). One step a character, no look-ahead past the markup read (parse5's
 * own tokenizer took 0.7 s for a MiB of tags; a `]]>` looked for at each
 * `<![CDATA[` took 83 s of CPU, rev72e F3).
 */
export function unendedMarkupAt(text: string, from = 0): number {
  return markupLeftOpenAt(text, from, true);
}

/** {@link unendedMarkupAt}; `raw`: a raw-text element's text is read as the tokenizer reads it (else as markup). */
function markupLeftOpenAt(text: string, from: number, raw: boolean): number {
  const length = text.length;
  // A start tag seen before a raw-text element that may make the tree read its text as markup.
  let foreign: boolean | undefined;
  let at = text.indexOf("<", from);
  const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
  while (at !== -1 && at < length) {
    const open = at;
    // A `<` last: what the prompt writes next is its tag's name or comment.
    if (open + 1 === length) return open;
    const next = text.charCodeAt(open + 1);
    if (next === 0x21) {
      // `<!`: a comment when `--` follows, else a bogus comment or declaration to `>`.
      if (text.startsWith("--", open + 2)) {
        if (text.charCodeAt(open + 4) === 0x3e) at = open + 5;
        else if (text.startsWith("->", open + 4)) at = open + 6;
        else {
          let end = open + 4;
          for (;;) {
            const dash = text.indexOf("--", end);
            if (dash === -1) return open;
            if (text.charCodeAt(dash + 2) === 0x3e) {
              at = dash + 3;
              break;
            }
            if (text.charCodeAt(dash + 2) === 0x21 && text.charCodeAt(dash + 3) === 0x3e) {
              at = dash + 4;
              break;
            }
            end = dash + 1;
          }
        }
      } else {
        const end = text.indexOf(">", open + 2);
        if (end === -1) return open;
        // A CDATA section is one in `<svg>` or `<math>` only (to `]]>`), else a bogus comment (to
        // `>`): which one needs the tree. Where the two end apart (a `>` before its `]]>`), the
        // rest is read two ways (rev72e F2): written as text, it is text for both.
        if (
          text.startsWith("[CDATA[", open + 2) &&
          (end < open + 11 || !text.startsWith("]]", end - 2))
        )
          return open;
        at = end + 1;
      }
      at = text.indexOf("<", at);
      continue;
    }
    if (next === 0x3f || (next === 0x2f && !isLetter(text.charCodeAt(open + 2)))) {
      // `<?`, and `</` then no letter (or nothing): a bogus comment to `>` (`</>` is nothing).
      const end = text.indexOf(">", open + 2);
      if (end === -1) return open;
      at = text.indexOf("<", end + 1);
      continue;
    }
    if (!isLetter(next) && next !== 0x2f) {
      at = text.indexOf("<", open + 1);
      continue;
    }
    // A start or end tag: to its `>` outside a quoted value, in the HTML tokenizer's tag states
    // (an `=` before an attribute's name is its name's first character, rev72e F1).
    at = open + (next === 0x2f ? 2 : 1);
    let state = TAG_NAME;
    let ended = false;
    let nameEnd = -1;
    while (at < length) {
      const c = text.charCodeAt(at);
      at++;
      if (state === TAG_NAME && (c === 0x3e || c === 0x2f || isBlank(c))) nameEnd = at - 1;
      if (c === 0x3e) {
        ended = true;
        break;
      }
      if (state === BEFORE_VALUE && (c === 0x22 || c === 0x27)) {
        // A quoted value, to its closing quote at once; then as before a name.
        const close = text.indexOf(String.fromCharCode(c), at);
        if (close === -1) return open;
        state = BEFORE_NAME;
        at = close + 1;
      } else if (isBlank(c)) {
        if (state === TAG_NAME || state === UNQUOTED_VALUE) state = BEFORE_NAME;
        else if (state === ATTRIBUTE_NAME) state = AFTER_ATTRIBUTE_NAME;
      } else if (state === BEFORE_VALUE) state = UNQUOTED_VALUE;
      else if (state === UNQUOTED_VALUE) continue;
      else if (c === 0x2f) state = BEFORE_NAME;
      else if (c === 0x3d && (state === ATTRIBUTE_NAME || state === AFTER_ATTRIBUTE_NAME))
        state = BEFORE_VALUE;
      else if (state !== TAG_NAME) state = ATTRIBUTE_NAME;
    }
    // Cut anywhere in it (its name, its attributes, a value, `/`): the prompt's next `>` ends it.
    if (!ended) return open;
    // A start tag's name, when it may be one of those below (3 to 8 letters).
    const named = next !== 0x2f && nameEnd - open > 3 && nameEnd - open < 10;
    const name = named ? text.slice(open + 1, nameEnd).toLowerCase() : "";
    if (raw && RAW_TEXT_ELEMENTS.has(name)) {
      // Its text is no markup to the tokenizer, to its own end tag (rev89f F1: a `<!--` in
      // `<style>` was read as a comment that ran over `</style><a href='`).
      const end = rawTextEnd(text, at, name);
      foreign ??= from > 0 && MAY_READ_RAW_TEXT_AS_MARKUP.test(text.slice(0, from));
      if (foreign) {
        // Where the tree may read it as markup (in `<svg>`, `<math>`, `<select>`), it is read
        // both ways: where the markup reading leaves something open over its end tag, the two
        // part, which the tokenizer's own reading tells (`rawMarkupCloser`), as for CDATA.
        const asMarkup = markupLeftOpenAt(end === -1 ? text : text.slice(0, end), at, false);
        if (asMarkup !== -1) return end === -1 ? asMarkup : open;
      }
      if (end === -1) return -1;
      at = end;
      continue;
    }
    if (name === "svg" || name === "math" || name === "select") foreign = true;
    at = text.indexOf("<", at);
  }
  return -1;
}

/**
 * The elements whose text the HTML tokenizer reads raw once the tree builder
 * has opened one (RCDATA, RAWTEXT, script data; `<noscript>` with scripting
 * on, as {@link rawMarkupCloser} reads): a `<!--` or a tag in one is text
 * to its end tag. `<plaintext>`, which no end tag ends, is read on as markup,
 * which only finds more.
 */
const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set([
  "title",
  "textarea",
  "style",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
  "script",
]);

/** A start tag before which a raw-text element's text may be markup to the tree: foreign content, a `<select>`. */
const MAY_READ_RAW_TEXT_AS_MARKUP = /<(?:svg|math|select)[\t\n\f\r />]/i;

/**
 * Where the end tag of the raw-text element `name` whose text starts at
 * `from` begins (its `<`, the tokenizer back in its tag states there), or
 * where a `<` cut at the text's end that may become one begins; -1 when the
 * tokenizer is still in its text at the end (its end tag is the closers'
 * business). `<script>`'s text is read through its escaped and double-escaped
 * states (`<!--<script>` keeps `</script>` from ending it, to `-->`), as the
 * tokenizer reads it. One step a character.
 */
function rawTextEnd(text: string, from: number, name: string): number {
  const length = text.length;
  const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
  const delimits = (c: number) => isBlank(c) || c === 0x2f || c === 0x3e;
  // The letters after `<` or `</` at `i`; "cut" when the text ends in them.
  const tagName = (i: number): string | undefined => {
    let j = i;
    while (j < length && isLetter(text.charCodeAt(j))) j++;
    if (j === length) return undefined;
    return delimits(text.charCodeAt(j)) ? text.slice(i, j).toLowerCase() : "";
  };
  if (name !== "script") {
    for (let lt = text.indexOf("<", from); lt !== -1; lt = text.indexOf("<", lt + 1)) {
      if (lt + 1 === length) return lt;
      if (text.charCodeAt(lt + 1) !== 0x2f) continue;
      const tag = tagName(lt + 2);
      if (tag === undefined || tag === name) return lt;
    }
    return -1;
  }
  const SCRIPT = 0;
  const ESCAPED = 1;
  const DOUBLE = 2;
  let mode = SCRIPT;
  let dashes = 0;
  for (let i = from; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x2d) {
      dashes++;
      continue;
    }
    if (c === 0x3e && dashes >= 2 && mode !== SCRIPT) mode = SCRIPT;
    dashes = 0;
    if (c !== 0x3c) continue;
    if (i + 1 === length) return i;
    const n = text.charCodeAt(i + 1);
    if (n === 0x2f) {
      const tag = tagName(i + 2);
      if (mode !== DOUBLE && (tag === undefined || tag === "script")) return i;
      if (mode === DOUBLE && tag === "script") mode = ESCAPED;
    } else if (mode === SCRIPT && n === 0x21) {
      // `<!--`: escaped, its dashes counted (`<!-->` ends it at once).
      if (i + 2 === length || (text.charCodeAt(i + 2) === 0x2d && i + 3 === length)) return i;
      if (text.startsWith("--", i + 2)) {
        mode = ESCAPED;
        dashes = 2;
        i += 3;
      }
    } else if (mode === ESCAPED && isLetter(n)) {
      const tag = tagName(i + 1);
      if (tag === undefined) return i;
      if (tag === "script") mode = DOUBLE;
    }
  }
  return -1;
}

/**
 * Elements whose text is read as code or raw text, not as the prompt's
 * structure: a probe in one (a fenced or indented code block, a `<pre>` the
 * text left open) is not shown as the paragraph it is. A fence line in an
 * HTML block opened a fence once the block's `<` was `&lt;`, and the check
 * took every later section, in `<pre><code>`, as shown (rev66e F8).
 */
const READ_AS_CODE: ReadonlySet<string> = new Set([
  "pre",
  "listing",
  "xmp",
  "plaintext",
  "textarea",
]);

/**
 * A parse5 fragment parser in {@link fragmentContext} whose tree holds at most
 * `limit` elements (past it, {@link TOO_MUCH} is thrown): the one set-up of
 * the readings that walk a whole tree ({@link probeShownIn}, {@link rawHidersOf},
 * the shown-text view). `base` is the tree adapter the elements come from
 * (text nodes of one's own, say); `locations` keeps each tag's offsets.
 */
function cappedFragmentParser(
  limit: number,
  scriptingEnabled: boolean,
  o: { locations?: boolean; base?: ReturnType<typeof loadParse5>["defaultTreeAdapter"] } = {},
): FragmentParser {
  let elements = 0;
  const { Parser, defaultTreeAdapter } = loadParse5();
  return Parser.getFragmentParser(fragmentContext(), {
    treeAdapter: {
      ...(o.base ?? defaultTreeAdapter),
      createElement: (tagName, namespaceURI, attrs) => {
        if (++elements > limit) throw TOO_MUCH;
        return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
      },
    },
    sourceCodeLocationInfo: o.locations === true,
    scriptingEnabled,
  });
}

/**
 * {@link followingShown} for one reading of `rendered`: each probe in a text
 * node no element that hides, or holds code ({@link READ_AS_CODE}), holds
 * (the first that holds it); `placed`, the probe written last after a blank
 * line, directly in the renderer's `<p>`, the fragment's last element, with
 * nothing the text left open around it ({@link placedLast}); `inline`, the
 * probe written on the text's last line, in no element but the renderer's
 * blocks ({@link RENDERER_BLOCKS}): none the text opened holds it (rev80c F3:
 * `Old rules: <del>always push` struck your words out on its line), but one
 * that draws nothing ({@link drawsNothing}, as the raw reading leaves open).
 */
function probeShownIn(
  rendered: string,
  probes: readonly string[],
  scriptingEnabled: boolean,
  limit: number,
  placed?: string,
  inline?: string,
): boolean {
  const left = new Set(probes);
  const parser = cappedFragmentParser(limit, scriptingEnabled);
  parser.tokenizer.write(rendered, true);
  const root = parser.getFragment();
  const stack: { node: ChildNode | ParentNode; hidden: boolean; held: boolean }[] = [
    { node: root, hidden: false, held: false },
  ];
  while (stack.length > 0) {
    const { node, hidden, held } = stack.pop() as {
      node: ChildNode | ParentNode;
      hidden: boolean;
      held: boolean;
    };
    if (node.nodeName === "#text") {
      // Each probe is in one text node: the first holding it says.
      for (const probe of left)
        if ((node as TextNode).value.includes(probe)) {
          if (hidden) return false;
          if (probe === placed && !placedLast(node as TextNode, root)) return false;
          if (probe === inline && held) return false;
          left.delete(probe);
          if (left.size === 0) return true;
        }
      continue;
    }
    if (!("childNodes" in node)) continue;
    let hides = hidden;
    let holds = held;
    if ("tagName" in node) {
      const element = node as Element;
      hides = hidden || elementHides(element) || READ_AS_CODE.has(element.tagName);
      holds = held || !(RENDERER_BLOCKS.has(element.tagName) || drawsNothing(element));
      const content = (node as { content?: ParentNode }).content;
      if (content !== undefined) stack.push({ node: content, hidden: hides, held: holds });
    }
    const children = (node as ParentNode).childNodes;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i] as ChildNode, hidden: hides, held: holds });
  }
  // In no text node: a comment, an attribute, a tag never ended.
  return false;
}

/**
 * The blocks the Markdown renderer writes around a paragraph's text (its
 * own inline elements, `<em>`, `<code>`, `<a>`, end before words printed
 * after the text's last line: any other element around them is the text's).
 */
const RENDERER_BLOCKS: ReadonlySet<string> = new Set([
  "p",
  "li",
  "ul",
  "ol",
  "blockquote",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
]);

/**
 * Whether text node `node` stands directly in a `<p>` that is `root`'s last
 * element: a paragraph written after a blank line, held by no element a
 * text before it left open (a `<div>`, a `<span>` on a line of its own: the
 * prompt's own tags are text to CommonMark, and end none of them), in no
 * formatting element a reader opened again for it (`<s>`, `<font>`: rev67b
 * F6), and not put before a table left open (foster parenting).
 */
function placedLast(node: TextNode, root: ParentNode): boolean {
  const paragraph = node.parentNode as Element | null;
  if (paragraph?.tagName !== "p" || paragraph.parentNode !== root) return false;
  for (let i = root.childNodes.length - 1; i >= 0; i--) {
    const child = root.childNodes[i] as ChildNode;
    if ("tagName" in child) return child === paragraph;
  }
  return false;
}

/**
 * Where the parts of `text` an HTML reader shows are: the text of every
 * element not inside one that hides, and the names and end tags of those
 * elements (a start tag's attributes are never shown: rev57b F5); comments,
 * declarations, what a tag swallowed and what the reader dropped are not.
 * Flat pairs of offsets [from, to), in order. Undefined when the text is
 * more than a reading takes ({@link tooMuchHtml}).
 */
export function shownParts(text: string): number[] | undefined {
  if (tooMuchHtml(text)) return undefined;
  // Read with the renderer's own block tags (rev61a F6: `</span>` inside a paragraph ends nothing),
  // each place mapped back to the text.
  const { html: view, inserted, skipped } = withBlocks(text);
  const toText = blocksToText(inserted);
  // Shown only where a reader with scripts on and one with them off both show it (they differ
  // only where a `<noscript>` is), and where CommonMark's reading of a paragraph's comments
  // shows it too (markdown-it's reads one after an unended `<?` as text: rev92c F1).
  try {
    const on = shownIn(view, true, toText);
    let shown = /noscript/i.test(view) ? intersection(on, shownIn(view, false, toText)) : on;
    if (skipped) {
      const strict = withBlocks(text, "commonmark");
      const strictText = blocksToText(strict.inserted);
      shown = intersection(shown, shownIn(strict.html, true, strictText));
      if (/noscript/i.test(strict.html))
        shown = intersection(shown, shownIn(strict.html, false, strictText));
    }
    return shown;
  } catch (error) {
    if (error !== TOO_MUCH) throw error;
    return undefined;
  }
}

/** {@link shownParts} for one reading of `view`, its places mapped back to the text by `toText`. */
function shownIn(
  view: string,
  scriptingEnabled: boolean,
  toText: (at: number) => number | undefined,
): number[] {
  // A range of the view, mapped back; nothing when either end lies in a tag the renderer put in.
  const push = (parts: number[], from: number, to: number) => {
    if (to <= from) return;
    const start = toText(from);
    const last = toText(to - 1);
    if (start !== undefined && last !== undefined) parts.push(start, last + 1);
  };
  const parser = cappedFragmentParser(MAX_HTML_ELEMENTS, scriptingEnabled, {
    locations: true,
    base: ownTextNodes(),
  });
  parser.tokenizer.write(view, true);
  const root = parser.getFragment();
  const parts: number[] = [];
  // Each node with whether an element around it hides it; a template's content is read as its children.
  const stack: { node: ChildNode | ParentNode; hidden: boolean }[] = [
    { node: root, hidden: false },
  ];
  while (stack.length > 0) {
    const { node, hidden } = stack.pop() as { node: ChildNode | ParentNode; hidden: boolean };
    const location = (node as { sourceCodeLocation?: SourceLocation | null }).sourceCodeLocation;
    if (node.nodeName === "#text") {
      if (!hidden && location) push(parts, location.startOffset, location.endOffset);
      continue;
    }
    if (!("childNodes" in node)) continue;
    let hides = hidden;
    if ("tagName" in node) {
      const element = node as Element;
      hides = hidden || elementHides(element);
      if (!hides && location?.startTag) {
        const start = location.startTag.startOffset;
        // `<name`, then its `>`: attributes left out.
        push(parts, start, start + 1 + element.tagName.length);
        push(parts, location.startTag.endOffset - 1, location.startTag.endOffset);
      }
      if (!hides && location?.endTag)
        push(parts, location.endTag.startOffset, location.endTag.endOffset);
      const content = (element as { content?: ParentNode }).content;
      if (content !== undefined) stack.push({ node: content, hidden: hides });
    }
    const children = (node as ParentNode).childNodes;
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ node: children[i] as ChildNode, hidden: hides });
  }
  return ordered(parts);
}

/** Flat pairs [from, to) in the text's order (foster parenting puts a node before the table it follows), empty ones dropped, touching ones joined. */
function ordered(parts: readonly number[]): number[] {
  const order: number[] = [];
  for (let i = 0; i < parts.length; i += 2) order.push(i);
  order.sort((a, b) => (parts[a] as number) - (parts[b] as number));
  const sorted: number[] = [];
  for (const i of order) {
    const from = parts[i] as number;
    const to = parts[i + 1] as number;
    if (to <= from) continue;
    const last = sorted.length - 1;
    if (last > 0 && (sorted[last] as number) >= from)
      sorted[last] = Math.max(sorted[last] as number, to);
    else sorted.push(from, to);
  }
  return sorted;
}

/** The offsets in both `a` and `b` (each {@link ordered}). */
function intersection(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i] as number, b[j] as number);
    const to = Math.min(a[i + 1] as number, b[j + 1] as number);
    if (from < to) out.push(from, to);
    if ((a[i + 1] as number) < (b[j + 1] as number)) i += 2;
    else j += 2;
  }
  return out;
}

type SourceLocation = {
  startOffset: number;
  endOffset: number;
  startTag?: { startOffset: number; endOffset: number };
  endTag?: { startOffset: number; endOffset: number };
};
