import { BlockTracker, closingAfter, pageTagWarning } from "../_fence.js";
import { DOCUMENT_TAGS, escapeWrapperTags, HOST_ELEMENTS } from "../_prompt-text.js";
import { tableBodies, tableRunsAsText } from "../sections/gfm-tables.js";
import {
  EMPTY_COMMENT,
  MAX_HTML_CHARS,
  MAX_HTML_TAGS,
  PARAGRAPH_END,
  paidCheck,
  quirksTableStarts,
  rawHidingTagsAt,
  tableStartTags,
} from "../sections/html-reading.js";
import { markdownAsHtml } from "../sections/markdown-html.js";
import type { Diagnostic } from "../types.js";
import { HiddenRuns } from "./_hidden-runs.js";
import { ARGUMENT_WHITESPACE, parseCommandArgs } from "./args.js";
import { everyLtOf, markupAsText } from "./hidden-closers.js";
import { templateBodyLine } from "./parse.js";
import {
  type ArgumentGuard,
  MAX_EXPANDED_CHARS,
  placeholderStarts,
  placeholdersAsLetters,
  placeholdersAsRows,
  printedPlaces,
  type ReadRest,
  substituteArgs,
  substitutePlain,
  unusedArguments,
} from "./substitute.js";
import type { PromptTemplate } from "./types.js";

/** A slash command split into its name and the raw text of its arguments. */
export interface SlashCommand {
  name: string;
  /** Everything after the whitespace that ends the name (newlines included). */
  argsText: string;
}

/**
 * Splits `/name args…` into name and argument text; `undefined` unless `text`
 * starts with `/` directly followed by a name.
 */
export function splitSlashCommand(text: string): SlashCommand | undefined {
  if (!text.startsWith("/")) return undefined;
  let end = 1;
  while (end < text.length && !ARGUMENT_WHITESPACE.test(text.charAt(end))) end++;
  if (end === 1) return undefined;
  return { name: text.slice(1, end), argsText: text.slice(end + 1) };
}

/**
 * Expands `/name args…` with the template called `name`: the arguments are
 * parsed with {@link parseCommandArgs} and substituted into its content with
 * {@link substituteArgs}. Any other text, and an unknown name, comes back
 * unchanged; so does a command whose expansion would pass
 * {@link MAX_EXPANDED_CHARS} ({@link expandPromptTemplateResult} says so).
 */
/**
 * The host's elements (a chat's `<system>`, `<user>`, Claude Code's
 * `<system-reminder>`): a template that is not the user's own may open or
 * close none of them, so a project's `.pi/prompts/x.md` cannot end the
 * message and write a turn of the system or the user into your request.
 * Nor a start tag acting on the whole page ({@link DOCUMENT_TAGS}: `Review
 * this <body hidden> $ARGUMENTS`, rev80c F4).
 * Escaping can make the expansion longer than `maxChars` by four characters a tag.
 */
const HOST_ELEMENT_NAMES: ReadonlySet<string> = new Set([...HOST_ELEMENTS, DOCUMENT_TAGS]);

/** Only the start tags acting on the whole page ({@link DOCUMENT_TAGS}): held before the guard reads a template. */
const PAGE_TAGS_ONLY: ReadonlySet<string> = new Set([DOCUMENT_TAGS]);

export function expandPromptTemplate(
  text: string,
  templates: readonly (Pick<PromptTemplate, "name" | "content"> &
    Partial<Pick<PromptTemplate, "source" | "filePath">>)[],
): string {
  return expandPromptTemplateResult(text, templates).text;
}

/**
 * {@link expandPromptTemplate} with what went wrong: an expansion longer
 * than `maxChars` (default {@link MAX_EXPANDED_CHARS}) is not made; the text
 * comes back as typed, with an `expansion-too-large` error naming the
 * template's file. Arguments no placeholder takes are left out, as pi leaves
 * them out, with an `arguments-dropped` warning naming the file and the words. A template whose `source` is the project's or an option's
 * has the host's elements escaped in its expansion (your arguments with it),
 * and its own start tags that draw anything but their content in place; a
 * tag wholly in your arguments is your own text ({@link guardedExpansion}).
 */
export function expandPromptTemplateResult(
  text: string,
  templates: readonly (Pick<PromptTemplate, "name" | "content"> &
    Partial<Pick<PromptTemplate, "source" | "filePath">>)[],
  maxChars: number = MAX_EXPANDED_CHARS,
): { text: string; diagnostics: Diagnostic[] } {
  const command = splitSlashCommand(text);
  if (!command) return { text, diagnostics: [] };
  const template = templates.find((candidate) => candidate.name === command.name);
  if (!template) return { text, diagnostics: [] };
  const args = parseCommandArgs(command.argsText);
  const notYours = template.source === "project" || template.source === "option";
  let hidden: HiddenArguments | undefined;
  let expanded: string | undefined;
  let rawHiddenLine: number | undefined;
  // Its first start tag acting on the whole page, written `&lt;` (rev80c F4): said once.
  let pageTag: Diagnostic | undefined;
  const told = (line: number, tag: string) => {
    pageTag ??= pageTagWarning(template.filePath, line + templateBodyLine(template) - 1, tag);
  };
  if (notYours) {
    // No raw `<` in the template's GFM tables, which the guard's CommonMark reading cannot see (rev65b F1).
    // A placeholder's line may print a delimiter row (`${2:-| - |}`, your words).
    // Read raw too: a tag in a code span, or one CommonMark reads as text, is one to an HTML parser.
    // Its start tags acting on the whole page written `&lt;` first (rev80c F4): the guard judges
    // the markup that is printed (a `<style>` it read as raw text held `<div hidden>` unread).
    const held = escapeWrapperTags(template.content, PAGE_TAGS_ONLY, false, told);
    const raw = rawShownArguments(tableRunsAsText(held, (line) => line.includes("$")));
    const content = raw.content;
    rawHiddenLine = raw.line;
    // A fence or HTML block the template closes after your words wraps them, as a quote would
    // (```` ```\n$ARGUMENTS\n``` ````): only one it leaves open to its end, or a comment, hides
    // them. Judged with a plain value in each placeholder: a closer that is only a default
    // (`${1:-```}`) is gone once you type words.
    const wrapsOnly = closingAfter(substitutePlain(content, maxChars) ?? "") === "";
    ({ hidden, expanded } = guardedExpansion(content, args, maxChars, wrapsOnly, told));
    // The expansion is a message of its own: read from a blank line, what it leaves open closed.
    let closing = expanded === undefined ? "" : closingAfter(expanded);
    // Something still open at its end: the template did not close its blocks after your words.
    if (wrapsOnly && closing !== "") {
      ({ hidden, expanded } = guardedExpansion(content, args, maxChars, false, told));
      closing = expanded === undefined ? "" : closingAfter(expanded);
    }
    if (expanded !== undefined) expanded += closing;
  } else {
    expanded = substituteArgs(template.content, args, maxChars);
  }
  if (expanded !== undefined) {
    return {
      text: expanded,
      diagnostics: [
        ...droppedArguments(command.name, template, args),
        ...(pageTag === undefined ? [] : [pageTag]),
        ...guardWarnings(hidden?.diagnostics(command.name, template) ?? [], () =>
          rawHiddenArguments(command.name, template, rawHiddenLine),
        ),
      ],
    };
  }
  return {
    text,
    diagnostics: [
      {
        level: "error",
        code: "expansion-too-large",
        message: `/${command.name} expands to more than ${maxChars} characters (its placeholders times the arguments); left unexpanded, shorten the arguments or the template`,
        ...(template.filePath !== undefined ? { path: template.filePath } : {}),
      },
    ],
  };
}

/**
 * A template that is not yours, expanded with {@link HiddenArguments} guarding
 * your arguments (`wrapsOnly`: its own blocks closed after them are kept),
 * escaped after the substitution: a tag split by a placeholder (`<$0system>`,
 * `$0` empty) is whole only then. Your arguments are escaped as your own text
 * (the host's elements only): a tag wholly in them is yours, any other the
 * template's (review rev89c F3: `Review: $ARGUMENTS` wrote your typed
 * `<kbd class="key">` and `<input …>` `&lt;` and told it at a line of the
 * template); `onPageTag` is told the line of `content` the template's first
 * such tag comes from ({@link ExpansionPieces}).
 */
function guardedExpansion(
  content: string,
  args: readonly string[],
  maxChars: number,
  wrapsOnly: boolean,
  onPageTag?: (line: number, tag: string) => void,
): { hidden: HiddenArguments; expanded: string | undefined } {
  let hidden = new HiddenArguments(content, wrapsOnly, args, maxChars);
  let read = content;
  let pieces = new ExpansionPieces(hidden);
  let substituted = substituteArgs(content, args, maxChars, pieces);
  // The template read again with its markup as text (`text`), the guard's fallback.
  const asText = (text: string) => {
    read = text;
    hidden = new HiddenArguments(read, wrapsOnly, args, maxChars);
    hidden.markupAsText = true;
    pieces = new ExpansionPieces(hidden);
    substituted = substituteArgs(read, args, maxChars, pieces);
  };
  // Something the template opens before your words that nothing closes (`<plaintext>`), or
  // more markup than one reading takes: its markup is read as text.
  if (hidden.unclosable) asText(markupAsText(content));
  if (substituted === undefined) return { hidden, expanded: undefined };
  // No `<table` start tag of the template's while a `<p>` is open, read in the expansion as it is
  // printed (a default's, one a placeholder split): a page without a doctype opens it in the `<p>`,
  // or the renderer's own link or emphasis in it, around your words (rev93h F2, rev97a F1,
  // `tablesOutOfParagraphs`): a `</p>` is written before it. Yours is as you typed it. Past the
  // check's budget, not read: every `<` of the template is written `&lt;` (fx101g).
  let tables = templateTables(substituted, pieces);
  if (tables === undefined) {
    asText(everyLtOf(content));
    if (substituted === undefined) return { hidden, expanded: undefined };
    tables = [];
  }
  const told =
    onPageTag &&
    ((_line: number, tag: string, at: number) => onPageTag(lineOf(read, pieces.placeOf(at)), tag));
  const ended = pieces.written(substituted, tables, PARAGRAPH_END);
  return {
    hidden,
    expanded: escapeWrapperTags(ended, HOST_ELEMENT_NAMES, false, told, undefined, pieces.yours),
  };
}

/**
 * Where, in `expanded`, a `<table` start tag of the template's (in none of
 * your arguments' values, `pieces.yours`) meets an open `<p>`
 * ({@link quirksTableStarts}), read in a check of its own ({@link paidCheck}):
 * charged to the running scope's budget, outside one an expansion of at most
 * 64 KiB (`UNSCOPED_CHECK_CHARS`); undefined when refused (its reading, some
 * 1.2 s a MiB, ran outside every budget: fx101g). [] with no table start of
 * the template's, nothing read nor charged.
 */
function templateTables(expanded: string, pieces: ExpansionPieces): number[] | undefined {
  if (pieces.templates(tableStartTags(expanded)).length === 0) return [];
  return paidCheck(
    expanded,
    () => pieces.templates(quirksTableStarts(expanded)),
    () => undefined,
  );
}

/** The line (1-based) of `text` that `at` is on. */
function lineOf(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Watches {@link substituteArgs} write an expansion for `inner`: where your
 * arguments' values are in it ({@link yours}, adjacent ones joined), and
 * where each piece of the template's own text is, so that a place of the
 * expansion is told as the template's ({@link placeOf}).
 */
class ExpansionPieces implements ArgumentGuard {
  /** Your arguments' values, `[from, to)` in the expansion, in order. */
  readonly yours: [from: number, to: number][] = [];
  private size = 0;
  /** Where each piece of the template's text starts in the expansion, and in the template. */
  private readonly starts: number[] = [];
  private readonly from: number[] = [];
  private readonly lengths: number[] = [];

  constructor(private readonly inner: ArgumentGuard) {}

  feed(text: string, templateAt?: number, typed?: boolean): void {
    if (templateAt !== undefined) {
      this.starts.push(this.size);
      this.from.push(templateAt);
      this.lengths.push(text.length);
    } else if (typed === true && text !== "") {
      const last = this.yours[this.yours.length - 1];
      if (last !== undefined && last[1] === this.size) last[1] += text.length;
      else this.yours.push([this.size, this.size + text.length]);
    }
    this.size += text.length;
    this.inner.feed(text, templateAt, typed);
  }

  before(at: number, rest: ReadRest): string {
    return this.inner.before(at, rest);
  }

  /** The offsets of `places` (in order) in none of {@link yours}. */
  templates(places: readonly number[]): number[] {
    const out: number[] = [];
    let range = 0;
    for (const at of places) {
      while (range < this.yours.length && (this.yours[range] as [number, number])[1] <= at) range++;
      const mine = this.yours[range];
      if (mine === undefined || at < mine[0]) out.push(at);
    }
    return out;
  }

  /**
   * `expanded` with `before` written before each of `places` (in order), and
   * {@link yours} and the pieces' starts moved to match, so that a place of
   * the result is still told as the template's ({@link placeOf}).
   */
  written(expanded: string, places: readonly number[], before: string): string {
    if (places.length === 0) return expanded;
    // An offset after a place moves by `before`'s length for each; one at it stays (a piece that
    // starts at the `<` holds `before` too: the template's).
    const moved = (at: number) => {
      let low = 0;
      let high = places.length;
      while (low < high) {
        const mid = (low + high) >> 1;
        if ((places[mid] as number) < at) low = mid + 1;
        else high = mid;
      }
      return at + before.length * low;
    };
    for (const range of this.yours) {
      range[0] = moved(range[0]);
      range[1] = moved(range[1]);
    }
    for (let i = 0; i < this.starts.length; i++) this.starts[i] = moved(this.starts[i] as number);
    let out = "";
    let copied = 0;
    for (const at of places) {
      out += `${expanded.slice(copied, at)}${before}`;
      copied = at;
    }
    return out + expanded.slice(copied);
  }

  /** Where in the template the expansion's `at` is from: in a value (or a closer), its placeholder. */
  placeOf(at: number): number {
    let [low, high] = [0, this.starts.length - 1];
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= at) low = mid;
      else high = mid - 1;
    }
    const start = this.starts[low] ?? 0;
    return (this.from[low] ?? 0) + Math.min(Math.max(at - start, 0), this.lengths[low] ?? 0);
  }
}

/**
 * Closes, ahead of each argument, the code block, HTML block or comment a
 * template that is not yours left open there: `<!-- notes\n$ARGUMENTS` or
 * ```` ```text\n$ARGUMENTS ```` would give your words to the model as a
 * comment or code the project opened; and moves them off a code fence's line
 * (```` ```$ARGUMENTS ````, an info string) and out of a link reference
 * definition (`[//]: # ($ARGUMENTS)`) ({@link BlockTracker.closerHere}). Remembers the template's lines where
 * that happened for an `arguments-hidden` warning.
 */
/** The character {@link placeholdersAsRows} writes a default with in the table reading. */
const ROW_MARK = "\0";

class HiddenArguments implements ArgumentGuard {
  private readonly tracker = new BlockTracker();
  private readonly runs = new HiddenRuns();
  /** Set when the template's markup could not be read through and is printed as text ({@link guardedExpansion}). */
  markupAsText = false;
  /** The last character fed: a closer's line starts after a line break. */
  private lastFed = "\n";
  /** The template as the HTML reader meets it ({@link markdownAsHtml}), read once when first fed. */
  private view: string | undefined;
  /** Where a GFM renderer may read the template's table rows ({@link tableBodies}), read when first asked. */
  private bodies: number[] | undefined;
  /** The index in {@link bodies} of the first pair not ended before the last place asked. */
  private body = 0;
  /** The expansion for your words as it prints, its table rows and where each value is in it ({@link printedPlaces}). */
  private printed: { bodies: number[]; ats: number[]; places: number[] } | undefined;
  /** The index in {@link printed}'s `ats`, and in its `bodies`, of the last place asked. */
  private printedAt = 0;
  private printedBody = 0;
  /** How much of the next text fed is the lead {@link before} already fed. */
  private fedAhead = 0;
  private readonly lines: number[] = [];
  /** Where the template's line {@link line} ends (-1: not looked for yet). */
  private lineEnd = -1;
  private line = 1;

  /**
   * `commentsOnly`: the template closes its own blocks, so only an open `<!--` hides your words.
   * `args`: the words you typed, whose expansion's own table rows are read too ({@link inTableBody}).
   */
  constructor(
    private readonly content: string,
    private readonly commentsOnly = false,
    private readonly args: readonly string[] = [],
    private readonly maxChars = MAX_EXPANDED_CHARS,
  ) {}

  feed(text: string, templateAt?: number): void {
    const skip = Math.min(this.fedAhead, text.length);
    this.fedAhead -= skip;
    const rest = skip === 0 ? text : text.slice(skip);
    if (templateAt === undefined) {
      this.take(rest);
      return;
    }
    // The template's own text is read by the HTML reader as its Markdown passes it on (its code
    // spans, fences and escapes are text), judged on the whole template once.
    this.view ??= templateView(this.content);
    const from = templateAt + skip;
    this.tracker.feed(rest);
    this.runs.feed(this.view.slice(from, from + rest.length));
    if (rest !== "") this.lastFed = rest[rest.length - 1] as string;
  }

  /** Whether what the template printed before an argument could not be closed: the expansion is read as text. */
  get unclosable(): boolean {
    return this.runs.unclosable;
  }

  /** `code`: the text is code to the Markdown, read by the HTML reader as text. */
  private take(text: string, code = false): void {
    this.tracker.feed(text);
    this.runs.feed(code ? asText(text) : text);
    if (text !== "") this.lastFed = text[text.length - 1] as string;
  }

  before(at: number, rest: ReadRest): string {
    let closer = this.tracker.closerHere(this.commentsOnly, at, rest);
    // The Markdown closer is read by the HTML reader as text (a `-->` after a blank line is
    // `--&gt;`, ending nothing): what it leaves open is closed below, once more if need be.
    this.tracker.feed(closer);
    this.runs.feed(asText(closer));
    if (closer !== "") this.lastFed = closer[closer.length - 1] as string;
    // A run no reader shows (`<template>`, `<div hidden>`) or a start tag left open around your
    // words, whether or not the template closes it: closed, your words a paragraph of their own.
    // Each closer ends one run or tag, so a few suffice (`<div hidden title="`: the quote, the tag, the element).
    let ran = "";
    if (this.runs.closer() !== "") {
      // In a fence the template closes after your words the HTML closers would be code (rev61a
      // F5): the fence is closed first; your words after the closers are yours.
      if (this.tracker.inFence()) {
        const fence = this.tracker.closerHere(false, at, rest);
        this.tracker.feed(fence);
        this.runs.feed(asText(fence));
        if (fence !== "") this.lastFed = fence[fence.length - 1] as string;
        closer += fence;
      }
      // Fed as the Markdown reads them: still in a fence, they are text and close nothing.
      const code = this.tracker.inFence();
      // On a line of its own after an empty comment: an HTML block a Markdown renderer passes on
      // as it is (not after a backslash, not in a paragraph where `"` is `&quot;`).
      ran = `${this.lastFed === "\n" ? "" : "\n"}${EMPTY_COMMENT}`;
      this.take(ran, code);
      for (let i = 0; i < MAX_RUN_CLOSERS; i++) {
        const run = this.runs.closer();
        if (run === "") break;
        ran += run;
        this.take(run, code);
      }
      // Still open after the last closer (rev61a F9): the template's markup is read as text.
      if (this.runs.closer() !== "") this.runs.unclosable = true;
    }
    if (ran !== "") {
      this.take("\n\n");
      closer += `${ran}\n\n`;
    }
    // In a row of the template's table your words are a cell (or a row) a GFM reader drops past
    // the header's count, or splits at a `|` you type (rev92c F5): a paragraph of their own.
    // Not in a fence the template closes after them (code, no table).
    if (this.inTableBody(at) && !closer.endsWith("\n\n") && !this.tracker.inFence()) {
      const apart =
        closer.endsWith("\n") || (closer === "" && this.lastFed === "\n") ? "\n" : "\n\n";
      this.take(apart);
      closer += apart;
    }
    this.fedAhead = closer.length;
    if (closer === "") return "";
    // Placeholders come in order: count the template's lines up to this one once, each line's
    // end found once (many placeholders on one long line each broke out of it).
    if (this.lineEnd < 0) this.lineEnd = this.endOfLine(0);
    while (this.lineEnd < at) {
      this.line++;
      this.lineEnd = this.endOfLine(this.lineEnd + 1);
    }
    if (this.lines[this.lines.length - 1] !== this.line) this.lines.push(this.line);
    return closer;
  }

  /**
   * Whether the template's offset `at` (a placeholder printing a value) is in a row of its
   * table's body, in either reading; asked in order.
   */
  private inTableBody(at: number): boolean {
    // Read with a word at each placeholder: your words' own rows are yours. A default that may
    // print a delimiter row may be one, its lines each (rev93h F1: `${9:-| --- |}`).
    this.bodies ??= tableBodies(placeholdersAsRows(this.content, ROW_MARK), (line) =>
      line.includes(ROW_MARK),
    );
    while ((this.bodies[this.body + 1] ?? Number.POSITIVE_INFINITY) <= at) this.body += 2;
    if ((this.bodies[this.body] ?? Number.POSITIVE_INFINITY) <= at) return true;
    return this.inPrintedTableBody(at);
  }

  /**
   * Whether the value of the placeholder at `at` is in a row of a table's body in the
   * expansion as it prints for your words ({@link printedPlaces}): a placeholder printing
   * nothing or its default writes the template's delimiter row as much as its text does
   * (rev96e F3: `$9| --- |`, `| -$9-- |`, `${9:-}| --- |`, `${9:-|} --- |` with fewer than 9
   * words), which the reading with a word at each placeholder cannot see. Exact for the words
   * typed, each expansion judged on its own; asked in order.
   */
  private inPrintedTableBody(at: number): boolean {
    if (this.printed === undefined) {
      const printed = printedPlaces(this.content, this.args, this.maxChars);
      this.printed = {
        bodies: printed === undefined ? [] : tableBodies(printed.text),
        ats: printed?.ats ?? [],
        places: printed?.places ?? [],
      };
    }
    const { bodies, ats, places } = this.printed;
    while ((ats[this.printedAt] ?? Number.POSITIVE_INFINITY) < at) this.printedAt++;
    if (ats[this.printedAt] !== at) return false;
    const place = places[this.printedAt] as number;
    while ((bodies[this.printedBody + 1] ?? Number.POSITIVE_INFINITY) <= place)
      this.printedBody += 2;
    return (bodies[this.printedBody] ?? Number.POSITIVE_INFINITY) <= place;
  }

  private endOfLine(from: number): number {
    const end = this.content.indexOf("\n", from);
    return end < 0 ? this.content.length : end;
  }

  diagnostics(name: string, template: Partial<Pick<PromptTemplate, "filePath">>): Diagnostic[] {
    if (this.markupAsText) {
      return [
        {
          level: "warning",
          code: "arguments-hidden",
          message: `/${name} holds markup that could hide the words you typed and that is not read through (more than ${MAX_HTML_TAGS} tags or ${MAX_HTML_CHARS} characters, a <plaintext> nothing ends, more elements that hide than its closers end, or a <table> to read past the check's budget): its markup is printed as text (&lt;), so your words reach the model as your text; check the template`,
          ...(template.filePath !== undefined ? { path: template.filePath } : {}),
          line: templateBodyLine(template),
        },
      ];
    }
    const first = this.lines[0];
    if (first === undefined) return [];
    const offset = templateBodyLine(template) - 1;
    const where = this.lines
      .slice(0, 5)
      .map((line) => line + offset)
      .join(", ");
    const more = this.lines.length > 5 ? ` and ${this.lines.length - 5} more` : "";
    return [
      {
        level: "warning",
        code: "arguments-hidden",
        message: `/${name} puts the words you typed where they would not read as your text, inside a code block, HTML block or comment it leaves open, an element no reader shows (<template>, <title>, hidden, …) or a tag's attributes, on a code fence's line, in a link reference definition, in a link's destination or title or in a table's rows (a GFM reader drops cells past its header's) (line ${where}${more}): the expansion ends that block or line before them, so they reach the model as your text; check the template`,
        ...(template.filePath !== undefined ? { path: template.filePath } : {}),
        line: first + offset,
      },
    ];
  }
}

/** `text` as the HTML reader meets text it holds: its `<`, `>` and `"` end and open nothing. */
function asText(text: string): string {
  return text.replace(/[<>"]/g, "_");
}

/**
 * The template as the HTML reader meets it ({@link markdownAsHtml}), judged for
 * any words: read with each placeholder as letters, as backticks and as a
 * backtick then letters (a backtick in your words ends or opens a code span of
 * the template's, rev61a F10), a character kept as markup by any reading kept.
 * Reading too much as markup only closes more.
 */
function templateView(content: string): string {
  const letters = markdownAsHtml(placeholdersAsLetters(content));
  // No code span of the template's for your backticks to end or open.
  if (!content.includes("`")) return letters;
  const others = [
    markdownAsHtml(placeholdersAsLetters(content, "`", "`")),
    markdownAsHtml(placeholdersAsLetters(content, "`")),
  ].filter((other) => other !== letters);
  if (others.length === 0) return letters;
  let view = "";
  let copied = 0;
  for (let i = 0; i < letters.length; i++) {
    // Muted by the first reading, kept by another (a placeholder is text in each).
    if (letters[i] === content[i]) continue;
    if (others.some((other) => other[i] === content[i])) {
      view += letters.slice(copied, i) + content[i];
      copied = i + 1;
    }
  }
  return view + letters.slice(copied);
}

/** Most raw readings of a template before every `<` its Markdown reads as text is written `&lt;`. */
const MAX_RAW_READINGS = 3;

/**
 * `content` (a template that is not yours) with the `<` of each start tag
 * that an HTML parser fed the raw expansion reads as hiding your words
 * ({@link rawHidingTagsAt}, the raw reading a repository's text is closed by)
 * and that its Markdown reads as text written `&lt;`: `` Load it with a
 * `<script>` tag. ``, a fenced `<div hidden>` or `x <div/hidden>` (no tag
 * to CommonMark) before `$ARGUMENTS` put your words in a script, a hidden
 * div or a template for that parser, with no word (review rev72c F1, F2).
 * A tag its Markdown reads as markup is closed before your words by
 * {@link HiddenArguments}. Read again after each rewrite; when it still hides
 * or cannot tell, every `<` its Markdown reads as text is written `&lt;`.
 * `line`: the first line (of `content`) rewritten, if any.
 */
function rawShownArguments(content: string): { content: string; line: number | undefined } {
  let out = content;
  let line: number | undefined;
  for (let reading = 0; reading <= MAX_RAW_READINGS; reading++) {
    const tags = rawHidingTagsAt(out, placeholderStarts(out));
    if (tags === undefined) break;
    // Read with a plain word at each placeholder: a tag another reading (a backtick in your words)
    // makes markup is read as text here, as the guard's own fallback (`markupAsText`) reads it.
    const view = markdownAsHtml(placeholdersAsLetters(out));
    const rawOnly = tags.filter((at) => view[at] !== "<");
    // Each one markup to the Markdown too: closed before your words by the guard.
    if (tags.length > 0 && rawOnly.length === 0) break;
    const escaped =
      tags.length === 0 || reading === MAX_RAW_READINGS ? textLts(out, view) : rawOnly;
    if (escaped.length === 0) break;
    const first = escaped[0] as number;
    const lineOf = out.slice(0, first).split("\n").length;
    line = line === undefined ? lineOf : Math.min(line, lineOf);
    let next = "";
    let from = 0;
    for (const at of escaped) {
      next += `${out.slice(from, at)}&lt;`;
      from = at + 1;
    }
    out = next + out.slice(from);
  }
  return { content: out, line };
}

/** The offsets of the `<` in `content` its Markdown reads as text (`view`: its HTML with a word at each placeholder). */
function textLts(content: string, view: string): number[] {
  const lts: number[] = [];
  for (let at = content.indexOf("<"); at !== -1; at = content.indexOf("<", at + 1))
    if (view[at] !== "<") lts.push(at);
  return lts;
}

/** The guard's warnings, and the raw reading's (`raw`) when the guard gave no `arguments-hidden` of its own: one warning of it. */
function guardWarnings(guard: Diagnostic[], raw: () => Diagnostic[]): Diagnostic[] {
  return guard.some((d) => d.code === "arguments-hidden") ? guard : [...guard, ...raw()];
}

/** The `arguments-hidden` warning for a template whose raw reading hid your words ({@link rawShownArguments}), at `line` of its body. */
function rawHiddenArguments(
  name: string,
  template: Partial<Pick<PromptTemplate, "filePath" | "content">>,
  line: number | undefined,
): Diagnostic[] {
  if (line === undefined) return [];
  return [
    {
      level: "warning",
      code: "arguments-hidden",
      message: `/${name} puts the words you typed inside an element an HTML parser of the raw prompt reads as hiding them (a tag in a code span or code block, or one Markdown reads as text: \`<script>\`, <div/hidden>) (line ${line + templateBodyLine(template) - 1}): that tag's "<" is written "&lt;", so they reach the model as your text; check the template`,
      ...(template.filePath !== undefined ? { path: template.filePath } : {}),
      line: line + templateBodyLine(template) - 1,
    },
  ];
}

/** Most runs and tags closed before one argument: enough for a tag, its element and one more. */
const MAX_RUN_CLOSERS = 4;

/** Most characters of the dropped words an `arguments-dropped` warning quotes. */
const DROPPED_QUOTE_CHARS = 120;

/**
 * The warning for typed arguments that no placeholder of `template` takes: pi
 * sends the expansion without them, so a project's `.pi/prompts/x.md` with no
 * `$ARGUMENTS` that replaced your own template of that name would otherwise
 * lose what you typed with no word.
 */
function droppedArguments(
  name: string,
  template: Pick<PromptTemplate, "content"> & Partial<Pick<PromptTemplate, "filePath">>,
  args: readonly string[],
): Diagnostic[] {
  const unused = unusedArguments(template.content, args.length).filter(
    (index) => args[index - 1] !== "",
  );
  if (unused.length === 0) return [];
  const words = unused.map((index) => args[index - 1]).join(" ");
  // Cut by code points, so no half of a surrogate pair ends the quote.
  const head = Array.from(words.slice(0, 2 * DROPPED_QUOTE_CHARS));
  const quoted =
    head.length > DROPPED_QUOTE_CHARS || words.length > 2 * DROPPED_QUOTE_CHARS
      ? `${head.slice(0, DROPPED_QUOTE_CHARS).join("")}…`
      : words;
  const typed = args.length;
  const which =
    unused.length < typed
      ? `${unused.length} of the ${typed} arguments you typed`
      : typed === 1
        ? "the argument you typed"
        : `the ${typed} arguments you typed`;
  return [
    {
      level: "warning",
      code: "arguments-dropped",
      message: `/${name} has no placeholder for ${which}: ${unused.length === 1 ? "it is" : "they are"} not in its expansion, as pi leaves them out: ${JSON.stringify(quoted)}; put $ARGUMENTS (or $1, $2…) in the template, or type the words after the expanded text`,
      ...(template.filePath !== undefined ? { path: template.filePath } : {}),
    },
  ];
}
