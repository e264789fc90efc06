import { MAX_TAG_CHARS, TagState, tagStep } from "../sections/start-tag.js";
import { hiddenAt } from "../sections/user-text.js";

/** ASCII letters lowered, the same length (as {@link hiddenAt} reads names). */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

/** No start tag read here: only a `<!`, `<?` or a tag's name is judged. */
const noTag = () => -1;

type Run = NonNullable<ReturnType<typeof hiddenAt>>;

/**
 * What an expansion printed so far leaves open that no reader shows, read
 * as it is fed: a run {@link hiddenAt} finds (the one notion of "never
 * shown" that the section check, `withoutHidden`, uses: comments, `<?…?>`,
 * `<!X…>`, CDATA, `<script>`, `<template>`, `<title>`, an element with
 * `hidden`, …), inline or across blank lines, or a start tag not yet ended
 * (your words there are its attributes or an attribute's value). Linear:
 * each character is scanned a bounded number of times; a tag is looked for
 * at most {@link MAX_TAG_CHARS} past its `<`.
 */
export class HiddenRuns {
  /** The text fed and not yet settled, ASCII letters lowered; offsets below are into it. */
  private lower = "";
  /** Scanned up to here. */
  private pos = 0;
  private open: Run | undefined;
  /**
   * A start tag not yet ended (`<` and a letter, no `>` outside quotes yet):
   * its `<`, how far it was read, its state. Past {@link MAX_TAG_CHARS}, its
   * text is let go and `long` keeps what its name opens (`hidden` is not read so far).
   */
  private tag: { lt: number; at: number; state: TagState; long?: Run | null } | undefined;

  feed(text: string): void {
    if (text === "") return;
    this.lower += asciiLower(text);
  }

  /** What closes the run or the start tag open at the end of the text fed: "" when none. */
  closer(): string {
    this.advance();
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
        const end = open.tag ? lower.indexOf(">", close) : close + open.close.length - 1;
        if (end === -1) {
          this.pos = close;
          break;
        }
        this.open = undefined;
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
      const run = next === 0x21 || next === 0x3f ? hiddenAt(lower, lt, noTag) : undefined;
      this.pos = run === undefined ? lt + 1 : lt + run.open;
      this.open = run;
    }
    this.settle();
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
    this.open = run;
    this.pos = end + 1;
    return true;
  }

  /** Drops what no later judgement reads, the text before {@link pos}, once it is half of what is kept: each character is copied a bounded number of times. */
  private settle(): void {
    const cut = this.pos;
    if (cut === 0 || cut < this.lower.length / 2) return;
    this.lower = this.lower.slice(cut);
    this.pos = 0;
    if (this.tag !== undefined) {
      this.tag.lt -= cut;
      this.tag.at -= cut;
    }
  }
}
