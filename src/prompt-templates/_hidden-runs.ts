import { HtmlReading } from "../sections/html-reading.js";

/**
 * What an expansion printed so far leaves open that hides what follows,
 * read as it is fed by an HTML tree builder ({@link HtmlReading}, the one
 * notion of "never shown" the section check and the closers at a
 * repository text's end use): a comment, a start tag not yet ended (your
 * words there are its attributes), raw text, an element that hides
 * (`<template>`, `<div hidden>` …) with the elements open inside it.
 * `unclosable`: what was fed cannot be closed (`<plaintext>`) or is more
 * than one reading takes.
 */
export class HiddenRuns {
  private readonly reading = new HtmlReading();
  unclosable = false;

  feed(text: string): void {
    if (text !== "") this.reading.feed(text);
  }

  /** What closes what is open at the end of the text fed that hides what follows: "" when nothing. */
  closer(): string {
    const closer = this.reading.closer();
    if (closer === undefined) {
      this.unclosable = true;
      return "";
    }
    return closer;
  }
}
