import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { withoutHidden } from "../../src/sections/user-text.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";

// The differential oracle (test/_oracle/: commonmark's HTML parsed by parse5) found two corners of
// the HTML reader that read the Markdown as its renderer passes it on:
// - a start tag an HTML block leaves open (`<div hidden` then a blank line) is ended by the
//   renderer's own next tag (`<hr />`, `<p>`): the element was open for a reader but not for
//   sysprompt, and the `<applet>` after it a scope boundary no closer reached past;
// - a raw-text element opened in a paragraph (`<iframe>`) takes the renderer's `</p>` as its
//   text, so after the closer's `</iframe>` that `<p>` is still open and stops `</span>`.
const YOURS = "Qzmarker your words";

describe("hostile repository: what the renderer adds around a repository's markup", () => {
  for (const text of [
    "<div hidden\n\n\n---\n<applet>",
    "<div hidden\n\n\n---\n<object>",
    "<!DOCTYPE x<span hidden><div\nhidden><script>",
    '<span style="visibility:hidden">\n\n--!><iframe>',
  ]) {
    it(`${JSON.stringify(text)}: closed, your words after it are shown`, () => {
      const closed = closeOpenBlocks(text);
      expect(oracleHidden(`${closed}\n\n${YOURS}`, "Qzmarker"), closed).toBe("shown");
    });
  }

  it("the section check reads the renderer's tag too: your words after it are not counted as shown", () => {
    const text = `<!DOCTYPE x<span hidden><div\nhidden><script>\n\n${YOURS}`;
    expect(oracleHidden(text, "Qzmarker")).not.toBe("shown");
    expect(withoutHidden(text)).not.toContain("Qzmarker");
  });
});
