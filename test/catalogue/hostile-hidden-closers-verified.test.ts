import { describe, expect, it } from "vitest";
import { closeOpenBlocks, hostClosingAfter } from "../../src/_fence.js";
import { oracleReading } from "../_oracle/hidden-oracle.js";

// Review rev64e F1-F5 (medium): the closers at a repository text's end were computed on a
// prediction of what the Markdown renderer writes (src/sections/markdown-html.ts), and five
// mis-readings of it left your words after an AGENTS.md, a rule file or a tool's output in a
// comment, an attribute or a hidden element. The closers are now verified with the real
// pipeline (commonmark's HTML, parse5's tree): a paragraph after the closed text must be shown,
// else the text's markup is written as text (and that is checked too).
const TEXTS = [
  // F1: a `>` stand-in finished `<!--` as `<!-->`.
  "Project notes.\n\n> <div><!--",
  "Project notes.\n\n- <div><!--",
  "Project notes.\n\n> <div>\n> <!--",
  // F2: a one-line HTML block in a container read as indented code.
  'Project notes.\n\n> <!-- --><a title="',
  "Project notes.\n\n- <?x?><!--",
  "Project notes.\n\n> <!X><div hidden\n",
  // F3: the container's end tags right after the text's last character.
  "Project notes.\n\n> <div hidden",
  // F4: a paragraph a block quote interrupts read as one with it.
  "Project notes.\n\na<!--<div hidden>\n> -->",
  "Project notes.\n\na *b<!--<script>\n>``",
  // F5: a hiding formatting element before an HTML block.
  "Project notes.\n\ntext<b hidden>\n<table>",
  "Project notes.\n\ntext<i hidden>\n<table><tr><td>",
];

describe("hostile repository: the closers at a text's end are checked by a real renderer and tree builder", () => {
  for (const text of TEXTS) {
    it(`${JSON.stringify(text)}: your words after it are shown`, () => {
      const closed = closeOpenBlocks(text);
      const reading = oracleReading(`${closed}\n\nQzmarker words`, "Qzmarker");
      expect(reading, closed).toEqual({ verdict: "shown", why: [] });
    });

    it(`${JSON.stringify(text)} as a tool's output: the touched files after it are shown, or none are given`, () => {
      const closer = hostClosingAfter(text);
      if (closer === undefined) return;
      const reading = oracleReading(`${text}${closer}\n\nQzmarker touched`, "Qzmarker");
      expect(reading, closer).toEqual({ verdict: "shown", why: [] });
    });
  }
});
