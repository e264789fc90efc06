import { hiddenAt, MAX_TAG_CHARS } from "../sections/user-text.js";

/** ASCII letters lowered, the same length (as {@link hiddenAt} reads names). */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const EQUALS = 0x3d;
const GREATER = 0x3e;

type Run = NonNullable<ReturnType<typeof hiddenAt>>;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0c;
}

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
  private tags = { gt: -1, lt: -1 };
  /**
   * A start tag not yet ended (`<` and a letter, no `>` outside quotes yet):
   * its `<`, how far it was read, its quote. Past {@link MAX_TAG_CHARS}, its
   * text is let go and `long` keeps what its name opens (`hidden` is not read so far).
   */
  private tag:
    | { lt: number; at: number; quote: number; afterEquals: boolean; long?: Run | null }
    | undefined;

  feed(text: string): void {
    if (text === "") return;
    this.lower += asciiLower(text);
  }

  /** What closes the run or the start tag open at the end of the text fed: "" when none. */
  closer(): string {
    this.advance();
    if (this.open !== undefined) return this.open.tag ? `${this.open.close}>` : this.open.close;
    const tag = this.tag;
    if (tag !== undefined) return tag.quote === 0 ? ">" : `${String.fromCharCode(tag.quote)}>`;
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
    // hiddenAt keeps the `>` it found for the string it read: a longer one is read afresh.
    if (this.tags.gt !== -1) this.tags = { gt: -1, lt: -1 };
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
        this.tag = { lt, at: lt + 1, quote: 0, afterEquals: false };
        this.pos = lt;
        continue;
      }
      const run = next === 0x21 || next === 0x3f ? hiddenAt(lower, lt, this.tags) : undefined;
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
    let { at, quote, afterEquals } = tag;
    let end = -1;
    for (; at < lower.length; at++) {
      const code = lower.charCodeAt(at);
      if (quote !== 0) {
        if (code === quote) quote = 0;
      } else if (code === GREATER) {
        end = at;
        break;
      } else if (afterEquals && (code === QUOTE || code === APOSTROPHE)) quote = code;
      if (code === EQUALS && quote === 0) afterEquals = true;
      else if (!isSpace(code)) afterEquals = false;
    }
    Object.assign(tag, { at, quote, afterEquals });
    if (tag.long === undefined && at - tag.lt > MAX_TAG_CHARS) {
      // Too long for a `hidden` the section check would read: its name alone decides.
      tag.long = hiddenAt(lower.slice(tag.lt, tag.lt + 16), 0, { gt: -1, lt: -1 }) ?? null;
    }
    if (end === -1) {
      this.pos = tag.long === undefined ? tag.lt : at;
      return false;
    }
    const run =
      tag.long === undefined ? hiddenAt(lower, tag.lt, this.tags) : (tag.long ?? undefined);
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
    this.tags = { gt: -1, lt: -1 };
    if (this.tag !== undefined) {
      this.tag.lt -= cut;
      this.tag.at -= cut;
    }
  }
}
