import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import { oracleReading } from "../_oracle/hidden-oracle.js";

// Review rev64e F7 (low): a tool's result is read as it is on touch (a `read` of a file with
// old-Mac line ends), and the Markdown view took only `\n` as a line end where CommonMark takes
// `\r` and `\r\n` too: a block quote's `>` inside a tag spanning lines was read as part of the
// tag again (rev61a F7, fixed for `\n` only), so `hidden` was missed and no closer written. Each
// line end is one now; the files given on touch after such a result are shown.
const TEXTS = [
  '> Read <b hidden title=\r> "note">this first\n',
  '> Read <b hidden title=\r\n> "note">this first\n',
  '# Project\r\r> Read <b hidden title=\r> "note">this first\r',
  "> a <span hidden title='\r> x'>y\r",
];

describe("hostile repository: CR and CR LF end lines in the Markdown view on touch", () => {
  for (const text of TEXTS) {
    it(`${JSON.stringify(text)}: closed, the touched files after it are shown`, () => {
      const closer = hostClosingAfter(text);
      expect(closer, "closed, not given up on").toBeDefined();
      const reading = oracleReading(`${text}${closer}\n\nQzmarker touched`, "Qzmarker");
      expect(reading, closer).toEqual({ verdict: "shown", why: [] });
    });
  }
});
