import { describe, expect, it } from "vitest";
import { closeOpenBlocks, hostClosingAfter } from "../../src/_fence.js";
import { oracleReading } from "../_oracle/hidden-oracle.js";

// Review rev64e F1-F5: the Markdown view the closers are computed on (src/sections/markdown-html.ts)
// mis-read five shapes; the closers' check (hostile-hidden-closers-verified) turned each into
// markup written as text, and on touch into no files given. The view now reads them as the
// renderer writes them, so each text is closed (a closer is found: on touch the files come) and
// your words after it are shown.
const FINDINGS: [string, string[]][] = [
  // F1: the `>` put in after an HTML block finished `<!--` as `<!-->`.
  ["F1 a comment in a container's HTML block", ["> <div><!--", "- <div><!--", "> <div>\n> <!--"]],
  // F2: a one-line HTML block of kinds 1-5 inside a container was read as indented code.
  [
    "F2 a one-line HTML block in a container",
    ['> <!-- --><a title="', "- <?x?><!--", "> <!X><div hidden\n", "1. <![CDATA[x]]><div hidden"],
  ],
  // F3: the container's end tags right after the text's last character (`hidden</blockquote>`).
  ["F3 the line break before the containers' end tags", ["> <div hidden", "- > <span hidden"]],
  // F4: a paragraph a block quote interrupts was read as one with the lines after it.
  ["F4 a paragraph ended by a block quote", ["a<!--<div hidden>\n> -->", "a *b<!--<script>\n>``"]],
  // F5: `</p>` after the line break: the reader opened no formatting element again.
  [
    "F5 a paragraph's end tag before its line break",
    ["text<b hidden>\n<table>", "text<i hidden>\n<table><tr><td>", "x<a hidden>\n<textarea>"],
  ],
];

describe("hostile repository: the Markdown view reads containers and block ends as the renderer writes them", () => {
  for (const [finding, texts] of FINDINGS)
    for (const tail of texts) {
      const text = `Project notes.\n\n${tail}`;
      it(`${finding}: ${JSON.stringify(tail)} is closed, and what follows is shown`, () => {
        const closer = hostClosingAfter(text);
        expect(closer, "closed, not given up on").toBeDefined();
        const touched = oracleReading(`${text}${closer}\n\nQzmarker touched`, "Qzmarker");
        expect(touched, closer).toEqual({ verdict: "shown", why: [] });
        const closed = closeOpenBlocks(text);
        // Closers appended, or the tag a raw HTML reading is still in at the end (`<span hidden`,
        // text to CommonMark) written `&lt;` (rev70a F2: it took the prompt's next `>`), judged
        // before the closers, which would complete it (rev72e F5).
        const unended = text.replace(/<((?:span|div) hidden\n?|a title=")$/, "&lt;$1");
        // A `<div>` left open keeps a raw reader's next end tag from ending anything: its `<` is
        // written `&lt;` (rev74c F2).
        const captor = text.replace("<div>", "&lt;div>");
        expect(
          closed.startsWith(text) || closed === unended || closed.startsWith(captor),
          closed,
        ).toBe(true);
        const words = oracleReading(`${closed}\n\nQzmarker words`, "Qzmarker");
        expect(words, closed).toEqual({ verdict: "shown", why: [] });
      });
    }
});
