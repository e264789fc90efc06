import { pushAll } from "../_arrays.js";
import { paragraphSpans } from "./_markdown.js";

/**
 * Paragraph-level dedupe: a paragraph that a more authoritative text already
 * states is left out of a later one, which keeps its own paragraphs and gets a
 * marker line where the left-out ones stood. Context files and always rules
 * share it, so "the same text" means one thing everywhere.
 *
 * Bounded: every paragraph is looked up once in a hash map keyed by its
 * normalised text, so the work is linear in the total text (no pairwise
 * containment between files), and one dedupe splits at most
 * {@link MAX_DEDUPE_LINES} lines: the texts after the one that would pass it
 * are kept whole, unchanged (a repeated paragraph costs tokens, not meaning).
 */

/**
 * Lines one dedupe (or one {@link LineBudget}) splits into paragraphs. Linear
 * is not enough: splitting costs microseconds a line, synchronously after the
 * deadline, and the caps allow 3 MiB of context and rule text; in lines of one
 * letter and a blank line (a million paragraphs) dedupe took 2.7 s and the
 * render 5-9 s at `--deadline 500`. Hand-written instructions are hundreds
 * of lines; fifty thousand is a whole book.
 */
export const MAX_DEDUPE_LINES = 50_000;

/**
 * How many more lines may be split. Once a text does not fit, none after it
 * is taken either, so that counting stays within the budget too.
 */
export class LineBudget {
  #left: number;

  constructor(lines = MAX_DEDUPE_LINES) {
    this.#left = lines;
  }

  /** True, and the budget charged, when `text`'s lines fit in what is left. */
  take(text: string): boolean {
    if (this.#left <= 0) return false;
    let lines = 1;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) {
      if (++lines > this.#left) {
        this.#left = 0;
        return false;
      }
    }
    this.#left -= lines;
    return true;
  }
}

/** A text that may lose paragraphs, or (`fixed`) only states them. */
export interface ParagraphSource {
  /** How a marker names it: a path, "the appended prompt". */
  label: string;
  text: string;
  /** True: the text is never changed (a custom prompt); it only states paragraphs. */
  fixed?: boolean;
}

/** What dedupe did to one source. */
export interface ParagraphOutcome {
  /** The text with left-out paragraphs replaced by marker lines (the original when nothing left). */
  text: string;
  /** Paragraphs left out. */
  left: number;
  /** Labels of the sources that state them, in authority order. */
  statedIn: string[];
  /** Every paragraph is stated by earlier sources: the text adds nothing (it is not shown at all). */
  whole: boolean;
}

/** The deepest heading level Markdown has. */
const MAX_HEADING_LEVEL = 6;

/**
 * Dedupes `sources`, given most authoritative first. A source is compared
 * with the paragraphs of every source before it (never with itself: a file
 * may repeat its own paragraph). A repeated heading goes only with all of its
 * section; a run of left-out paragraphs becomes one marker line, and is kept
 * instead when the marker would be longer than the run. A source whose every
 * paragraph is stated before it is `whole`. Fixed sources come back as given,
 * and so does every source from the one past {@link MAX_DEDUPE_LINES} on.
 */
export function dedupeParagraphs(sources: readonly ParagraphSource[]): ParagraphOutcome[] {
  // Normalised paragraph -> index of the first source that states it.
  const owner = new Map<string, number>();
  const budget = new LineBudget();
  return sources.map((source, index) => {
    const unchanged = { text: source.text, left: 0, statedIn: [], whole: false };
    if (!budget.take(source.text)) return unchanged;
    const spans = paragraphSpans(source.text);
    const keys = spans.map(([from, to]) => normalize(source.text.slice(from, to)));
    const stated = keys.map((k) => {
      const o = owner.get(k);
      return o !== undefined && o !== index ? o : undefined;
    });
    for (const k of keys) if (!owner.has(k)) owner.set(k, index);
    if (source.fixed || stated.every((o) => o === undefined)) return unchanged;
    if (stated.every((o) => o !== undefined)) {
      return { ...unchanged, left: spans.length, statedIn: labels(sources, stated), whole: true };
    }
    const drop = headingAware(source.text, spans, stated);
    return rebuild(source.text, spans, stated, drop, sources) ?? unchanged;
  });
}

/** Whitespace runs as one space, ends trimmed: how two paragraphs are compared. */
function normalize(paragraph: string): string {
  return paragraph.replace(/\s+/g, " ").trim();
}

/** The level of a paragraph that is one ATX heading line (`## Title`), else 0. */
function headingLevel(paragraph: string): number {
  const p = paragraph.trim();
  if (p.includes("\n")) return 0;
  let n = 0;
  while (p[n] === "#") n++;
  return n >= 1 && n <= MAX_HEADING_LEVEL && (p[n] === " " || p.length === n) ? n : 0;
}

/**
 * Which stated paragraphs go. A heading goes only when everything in its
 * section (up to the next heading of its level or higher) goes too, so that
 * a kept paragraph never loses the heading above it. One backward pass:
 * `rest[l]` says whether everything from here to the next heading of level
 * `l` or higher goes.
 */
function headingAware(
  text: string,
  spans: readonly [number, number][],
  stated: readonly (number | undefined)[],
): boolean[] {
  const drop: boolean[] = new Array(spans.length).fill(false);
  const rest: boolean[] = new Array(MAX_HEADING_LEVEL + 1).fill(true);
  for (let i = spans.length - 1; i >= 0; i--) {
    const [from, to] = spans[i] ?? [0, 0];
    const level = headingLevel(text.slice(from, to));
    const goes = stated[i] !== undefined && (level === 0 || rest[level] === true);
    drop[i] = goes;
    for (let l = 1; l <= MAX_HEADING_LEVEL; l++) {
      // A heading of level `level` ends the sections of its level and deeper.
      rest[l] = level !== 0 && l >= level ? true : rest[l] === true && goes;
    }
  }
  return drop;
}

function labels(
  sources: readonly ParagraphSource[],
  stated: readonly (number | undefined)[],
): string[] {
  const at = [...new Set(stated.filter((o): o is number => o !== undefined))].sort((a, b) => a - b);
  return at.map((i) => sources[i]?.label ?? "?");
}

/** The marker line that stands where `count` paragraphs were left out. */
export function paragraphMarker(count: number, statedIn: readonly string[]): string {
  const what = count === 1 ? "1 paragraph" : `${count} paragraphs`;
  return `[${what} left out here: already stated in ${statedIn.join(", ")}]`;
}

/** The text without the dropped runs, each replaced by its marker; undefined when no run is worth it. */
function rebuild(
  text: string,
  spans: readonly [number, number][],
  stated: readonly (number | undefined)[],
  drop: readonly boolean[],
  sources: readonly ParagraphSource[],
): ParagraphOutcome | undefined {
  const parts: string[] = [];
  const statedIn: (number | undefined)[] = [];
  let left = 0;
  let i = 0;
  while (i < spans.length) {
    if (!drop[i]) {
      parts.push(paragraphText(text, spans[i]));
      i++;
      continue;
    }
    let j = i;
    while (j < spans.length && drop[j]) j++;
    const run = spans.slice(i, j).map((s) => paragraphText(text, s));
    const owners = stated.slice(i, j);
    const marker = paragraphMarker(j - i, labels(sources, owners));
    // A marker longer than what it replaces saves nothing: the run stays.
    if (Buffer.byteLength(marker) >= Buffer.byteLength(run.join("\n\n"))) pushAll(parts, run);
    else {
      parts.push(marker);
      left += j - i;
      pushAll(statedIn, owners);
    }
    i = j;
  }
  if (left === 0) return undefined;
  return { text: parts.join("\n\n"), left, statedIn: labels(sources, statedIn), whole: false };
}

/** A paragraph's lines without the blank lines around it; its first line keeps its indent. */
function paragraphText(text: string, span: readonly [number, number] | undefined): string {
  const [from, to] = span ?? [0, 0];
  return text
    .slice(from, to)
    .replace(/^(?:[ \t]*\r?\n)+/, "")
    .trimEnd();
}
