import { MAX_TAG_CHARS, TagState, tagStep } from "../sections/start-tag.js";
import { endsTagName, hiddenAt, RAW_TEXT } from "../sections/user-text.js";

/** ASCII letters lowered, the same length (as {@link hiddenAt} reads names). */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

/** No start tag read here: only a `<!`, `<?` or a tag's name is judged. */
const noTag = () => -1;

type Run = NonNullable<ReturnType<typeof hiddenAt>>;

/** The closers of a comment, CDATA and a processing instruction: a reader of the Markdown may read them as text. */
export const MARKDOWN_JUDGED: ReadonlySet<string> = new Set(["-->", "]]>", "?>"]);

/**
 * What an expansion printed so far leaves open that no reader shows, read
 * as it is fed: a run {@link hiddenAt} finds (the one notion of "never
 * shown" that the section check, `withoutHidden`, uses: comments, `<?…?>`,
 * `<!X…>`, CDATA, `<script>`, `<template>`, `<title>`, an element with
 * `hidden`, …), inline or across blank lines, or a start tag not yet ended
 * (your words there are its attributes or an attribute's value). An
 * element (not a raw-text one: `<script>`, `<title>` …) ends where an HTML
 * reader ends it: its same-name elements inside are counted, and an end tag
 * in a comment, an attribute value or a raw-text element inside it, or of a
 * longer name (`</divider>`), does not end it (rev58: `<div hidden>` then
 * `<div>` was taken as closed by one `</div>`). Linear: each character is
 * scanned a bounded number of times; a tag is looked for at most
 * {@link MAX_TAG_CHARS} past its `<`.
 */
export class HiddenRuns {
  /** The text fed and not yet settled, ASCII letters lowered; offsets below are into it. */
  private lower = "";
  /** Scanned up to here. */
  private pos = 0;
  /** A comment, CDATA, `<?…`, a declaration or a raw-text element open (inside {@link element} too). */
  private open: Run | undefined;
  /** Where {@link open} starts, when it is one a Markdown reader may read as text ({@link MARKDOWN_JUDGED}). */
  private openAt = -1;
  /** The never-shown element open, and how many of its name are open inside it and itself. */
  private element: { name: string; depth: number } | undefined;
  /** Closers of {@link MARKDOWN_JUDGED} runs read as text: none of them closes later ({@link textAfterOpenRun}). */
  private readonly asText = new Set<string>();
  /**
   * A start tag not yet ended (`<` and a letter, no `>` outside quotes yet):
   * its `<`, how far it was read, its state. Past {@link MAX_TAG_CHARS}, its
   * text is let go and `long` keeps what its name opens (`hidden` is not read so far).
   */
  private tag:
    | { lt: number; at: number; state: TagState; name?: string; long?: Run | null }
    | undefined;

  feed(text: string): void {
    if (text === "") return;
    this.lower += asciiLower(text);
  }

  /**
   * What closes the innermost run or start tag open at the end of the text
   * fed, or else the never-shown element open (its end tags, as many as are
   * open): "" when none.
   */
  closer(): string {
    this.advance();
    const inner = this.innerCloser();
    return inner !== "" ? inner : this.elementCloser();
  }

  /** The end tags of the never-shown element open at the end of the text fed: "" when none. */
  elementCloser(): string {
    const element = this.element;
    return element === undefined ? "" : `</${element.name}>`.repeat(element.depth);
  }

  /**
   * Reads the {@link MARKDOWN_JUDGED} run open at the end as text from its
   * `<` on, and every later one with its closer (none closes later): what a
   * Markdown reader does with `a <?x` mid-line. False when no such run is open.
   * Each closer is read as text once: the text is read again at most three times.
   */
  textAfterOpenRun(): boolean {
    const open = this.open;
    if (open === undefined || open.tag || !MARKDOWN_JUDGED.has(open.close) || this.openAt === -1)
      return false;
    this.asText.add(open.close);
    this.open = undefined;
    this.pos = this.openAt + 1;
    this.openAt = -1;
    return true;
  }

  private innerCloser(): string {
    if (this.open !== undefined) return this.open.tag ? `${this.open.close}>` : this.open.close;
    const tag = this.tag;
    if (tag !== undefined)
      return tag.state === TagState.DoubleQuoted
        ? '">'
        : tag.state === TagState.SingleQuoted
          ? "'>"
          : ">";
    // A `<!` or `<?` at the end, not yet judged.
    const lower = this.lower;
    const lt = this.pos;
    if (lower.startsWith("<!--", lt)) return "-->";
    if (lower.startsWith("<![cdata[", lt)) return "]]>";
    if (lower.startsWith("<?", lt)) return "?>";
    const second = lower.charCodeAt(lt + 2);
    if (lower.startsWith("<!", lt) && second >= 0x61 && second <= 0x7a) return ">";
    return "";
  }

  private advance(): void {
    const lower = this.lower;
    for (;;) {
      const open = this.open;
      if (open !== undefined) {
        const close = lower.indexOf(open.close, this.pos);
        if (close === -1) {
          this.pos = Math.max(this.pos, lower.length - open.close.length + 1);
          break;
        }
        const after = close + open.close.length;
        if (open.tag && after >= lower.length) {
          this.pos = close;
          break;
        }
        if (open.tag && !endsTagName(lower.charCodeAt(after))) {
          // `</scriptx`: not its end tag.
          this.pos = close + 1;
          continue;
        }
        const end = open.tag ? lower.indexOf(">", close) : after - 1;
        if (end === -1) {
          this.pos = close;
          break;
        }
        this.open = undefined;
        this.openAt = -1;
        this.pos = end + 1;
        continue;
      }
      if (this.tag !== undefined) {
        if (!this.readTag()) break;
        continue;
      }
      const lt = lower.indexOf("<", this.pos);
      if (lt === -1) {
        this.pos = lower.length;
        break;
      }
      const next = lower.charCodeAt(lt + 1);
      const element = this.element;
      if (element !== undefined && next === 0x2f) {
        const ended = this.endTag(lt, element.name);
        if (ended === undefined) {
          this.pos = lt;
          break;
        }
        if (ended !== -1 && --element.depth === 0) this.element = undefined;
        this.pos = ended === -1 ? lt + 1 : ended + 1;
        continue;
      }
      // `<!--`, `<![CDATA[` judged with their whole opener: until then, asked at the end ({@link closer}).
      if (lower.length - lt < 9 && (next === 0x21 || Number.isNaN(next))) {
        this.pos = lt;
        break;
      }
      if (next >= 0x61 && next <= 0x7a) {
        this.tag = { lt, at: lt + 1, state: TagState.Name };
        this.pos = lt;
        continue;
      }
      const found = next === 0x21 || next === 0x3f ? hiddenAt(lower, lt, noTag) : undefined;
      const run = found !== undefined && this.asText.has(found.close) ? undefined : found;
      this.pos = run === undefined ? lt + 1 : lt + run.open;
      this.open = run;
      this.openAt = run !== undefined && MARKDOWN_JUDGED.has(run.close) ? lt : -1;
    }
    this.settle();
  }

  /**
   * The `>` of the end tag of element `name` at `lt` (`</name`, then `>`, a
   * space or `/`), -1 when it is not one, undefined when the text fed ends
   * before that is known.
   */
  private endTag(lt: number, name: string): number | undefined {
    const lower = this.lower;
    const after = lt + 2 + name.length;
    if (after >= lower.length)
      return lower.startsWith(`</${name}`.slice(0, lower.length - lt), lt) ? undefined : -1;
    if (!lower.startsWith(name, lt + 2) || !endsTagName(lower.charCodeAt(after))) return -1;
    const gt = lower.indexOf(">", after);
    return gt === -1 ? undefined : gt;
  }

  /**
   * Reads the start tag on to its `>` outside quotes (true) or to the end of
   * the text fed (false). Ended, it opens what {@link hiddenAt} says it does:
   * a `<template>`, an element with `hidden`.
   */
  private readTag(): boolean {
    const tag = this.tag as NonNullable<HiddenRuns["tag"]>;
    const lower = this.lower;
    let { at, state } = tag;
    let end = -1;
    for (; at < lower.length; at++) {
      state = tagStep(state, lower.charCodeAt(at));
      if (tag.name === undefined && state !== TagState.Name) tag.name = lower.slice(tag.lt + 1, at);
      if (state === TagState.End) {
        end = at;
        break;
      }
    }
    Object.assign(tag, { at, state });
    if (tag.long === undefined && at - tag.lt > MAX_TAG_CHARS) {
      // Too long for a `hidden` the section check would read: its name alone decides.
      tag.long = hiddenAt(lower.slice(tag.lt, tag.lt + 16), 0, noTag) ?? null;
    }
    if (end === -1) {
      this.pos = tag.long === undefined ? tag.lt : at;
      return false;
    }
    const run =
      tag.long === undefined ? hiddenAt(lower, tag.lt, () => end) : (tag.long ?? undefined);
    this.tag = undefined;
    this.pos = end + 1;
    const name = tag.name ?? "";
    const element = this.element;
    if (element !== undefined) {
      // Inside the element: one more of its name, or a raw-text element whose end tag is looked for.
      if (name === element.name) element.depth++;
      else if (RAW_TEXT.has(name))
        this.open = { open: 1 + name.length, close: `</${name}`, tag: true };
      return true;
    }
    if (run === undefined) return true;
    const runName = run.close.slice(2);
    if (run.tag && !RAW_TEXT.has(runName)) this.element = { name: runName, depth: 1 };
    else this.open = run;
    return true;
  }

  /** Drops what no later judgement reads, the text before {@link pos}, once it is half of what is kept: each character is copied a bounded number of times. */
  private settle(): void {
    // A run a Markdown reader may read as text is kept from its `<`, to be read again.
    const cut = this.openAt === -1 ? this.pos : Math.min(this.pos, this.openAt);
    if (cut === 0 || cut < this.lower.length / 2) return;
    this.lower = this.lower.slice(cut);
    this.pos -= cut;
    if (this.openAt !== -1) this.openAt -= cut;
    if (this.tag !== undefined) {
      this.tag.lt -= cut;
      this.tag.at -= cut;
    }
  }
}
