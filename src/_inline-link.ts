/**
 * Whether a paragraph read so far leaves an inline link's or image's
 * destination or title open (`[docs](https://x.example "…`, `![logo](<…`):
 * what follows there is no text a reader shows (a tooltip at most). Read
 * character by character, once each; a `](` that opens no real link is read
 * as one too (what follows moves out needlessly, never in).
 */

enum Part {
  Text,
  DestinationStart,
  AngleDestination,
  Destination,
  AfterDestination,
  Title,
  AfterTitle,
}

export class InlineLinkReader {
  private part = Part.Text;
  private afterBracket = false;
  /** Open parentheses of a plain destination. */
  private depth = 0;
  /** The character that ends the open title. */
  private titleEnd = 0;

  /** A new paragraph: nothing open. */
  reset(): void {
    this.part = Part.Text;
    this.afterBracket = false;
  }

  /** True when the text read so far stops inside a link's destination or title. */
  get open(): boolean {
    return this.part !== Part.Text;
  }

  /** Reads `text` from `from` to `to`. */
  feed(text: string, from = 0, to = text.length): void {
    for (let at = from; at < to; at++) this.step(text.charCodeAt(at));
  }

  private step(code: number): void {
    const space = code === 0x20 || code === 0x09 || code === 0x0a;
    switch (this.part) {
      case Part.Text:
        if (this.afterBracket && code === 0x28) this.part = Part.DestinationStart;
        this.afterBracket = code === 0x5d;
        return;
      case Part.DestinationStart:
        if (space) return;
        if (code === 0x3c) this.part = Part.AngleDestination;
        else if (code === 0x29) this.part = Part.Text;
        else {
          this.part = Part.Destination;
          this.depth = code === 0x28 ? 1 : 0;
        }
        return;
      case Part.AngleDestination:
        if (code === 0x3e) this.part = Part.AfterDestination;
        else if (code === 0x0a || code === 0x3c) this.part = Part.Text;
        return;
      case Part.Destination:
        if (space) this.part = Part.AfterDestination;
        else if (code === 0x28) this.depth++;
        else if (code === 0x29) {
          if (this.depth === 0) this.part = Part.Text;
          else this.depth--;
        }
        return;
      case Part.AfterDestination:
        if (space) return;
        if (code === 0x22 || code === 0x27) {
          this.part = Part.Title;
          this.titleEnd = code;
        } else if (code === 0x28) {
          this.part = Part.Title;
          this.titleEnd = 0x29;
        } else this.part = Part.Text;
        return;
      case Part.Title:
        if (code === this.titleEnd) this.part = Part.AfterTitle;
        return;
      default:
        if (!space) this.part = Part.Text;
    }
  }
}
