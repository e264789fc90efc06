import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeXml } from "../../helpers/xml.js";
import { eachLine, freshReading, type Reading, readLine } from "../../src/_blocks.js";
import { closeOpenBlocks } from "../../src/_fence.js";
import { closedDescription } from "../../src/skills/format.js";
import { placeOf } from "../catalogue/_commonmark.js";

// The block reader behind the closers (src/_blocks.ts) against CommonMark's
// reference parser, on random texts of the lines that move blocks: list
// markers, block quotes, indents with tabs, fences, HTML block openers and
// closers, headings and breaks, link reference definitions, and lines of
// dozens of containers. 1. What it says is open at a text's end
// (containers and leaf) is where the parser puts a line written inside those
// containers. 2. After the text closed as the prompt closes it, a heading is a
// heading at the top level whatever line the text follows in a template.

const INDENTS = ["", "", "", " ", "  ", "   ", "    ", "      ", "\t", " \t", "  \t", "\t\t"];
const MARKERS = [
  ...["", "", "", "> ", ">", ">\t", ">>", "> > ", "> - ", "> 1. "],
  ...["- ", "* ", "+ ", "-", "-\t", "-\t\t", "- - ", "*    ", "-      "],
  ...["1. ", "2) ", "10. ", "1.", "1)\t", "01. ", "999999999. "],
];
const CONTENTS = [
  ...["```", "````", "~~~", "``` sh", "```a`", "~~~ x`", "    code", "", ""],
  ...["<!--", "-->", "<!-->", "<!--->", "<?php", "?>", "<?x?>", "<![CDATA[", "]]>", "<!DOC", ">"],
  ...["<script>", "</script>", "<pre class=x>", "<textarea>", "</TEXTAREA>", "<div>", "<DIV>"],
  ...["</div>", "<div", '<rule path="x">', "</rule>", "<a>", '<a href="x">', "<a b=c d>", "</a >"],
  ...["<a/>", "<a b='c'/>", "<a\u00a0b>", "<x-y z:w=1>", "<a =b>", "<ab b= >"],
  ...["text", "more text", "# h", "#", "####### x", "---", "===", "***", "- - -", "_ _ _"],
];

const line = fc
  .tuple(
    fc.constantFrom(...INDENTS),
    fc.constantFrom(...MARKERS),
    fc.constantFrom(...INDENTS),
    fc.constantFrom(...MARKERS),
    fc.constantFrom(...CONTENTS),
  )
  .map((parts) => parts.join(""));

const text = fc
  .tuple(
    fc.array(line, { minLength: 1, maxLength: 12 }),
    fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"),
    fc.boolean(),
  )
  .map(([lines, eol, final]) => lines.join(eol) + (final ? eol : ""));

/** Texts of whole lines only, so that a fence's closing line is often the last. */
const plainText = fc
  .array(
    fc.constantFrom("```", "~~~", "````", "text", "", "# h", "<div>", "<!--", "-->", "- a", "> b"),
    { minLength: 1, maxLength: 8 },
  )
  .map((lines) => lines.join("\n"));

/**
 * Link reference definitions, whole or over lines (a label across a line
 * break, the destination or title on the next line, a title left open or
 * with more after it), and what follows them: a setext underline is none
 * after definitions only, and the fence after it opens or does not.
 */
const DEFINITION_LINES = [
  ...["[a]: /u", "[a]:", "/u", "<v w>", "[b]: <v w> 'title'", "'title'", '"ti', 'tle"', "(t)"],
  ...[
    "[a] x",
    "[a",
    "b]: /u",
    "[\\]]: /u 'x' y",
    "[a]: /u 'x' y",
    "[ ]: /u",
    "[a]: (u) ",
    "[a]:\t/u",
  ],
  ...["[a]: <u", "[a]: u(", '[a]: /u"', "===", "---", "-", "= =", "```", "~~~", "text", "", "# h"],
  ...["> [a]: /u", "- [a]: /u", "  [c]: /u", "> ===", "  ===", "<div>", "</x>"],
];

const definitionText = fc
  .array(fc.constantFrom(...DEFINITION_LINES), { minLength: 1, maxLength: 8 })
  .map((lines) => lines.join("\n"));

/** A line of many markers (the closer then starts the line, under no container), and a few lines after it. */
const deepText = fc
  .tuple(
    fc.array(fc.constantFrom(">", "> ", "- ", "-\t", "1. ", "  ", " > "), {
      minLength: 30,
      maxLength: 80,
    }),
    fc.constantFrom("```", "~~~~", "<!--", "<pre>", "text", "[a]: /u"),
    fc.array(line, { maxLength: 4 }),
  )
  .map(([markers, leaf, rest]) => [markers.join("") + leaf, ...rest].join("\n"));

const anyText = fc.oneof(text, plainText, definitionText, deepText);

function read(markdown: string): Reading {
  const reading = freshReading();
  eachLine(markdown, (from, to) => readLine(reading, markdown, from, to));
  return reading;
}

const endsLine = (s: string) => s === "" || s.endsWith("\n") || s.endsWith("\r");

/** Lines a template writes an element's text after. */
const CONTEXTS = [
  "Intro.\n\n",
  'Intro.\n\n<repository_instructions path="x">\n',
  'Intro.\n\n<rule name="a" path="x">\n',
];

/** What a skill's description follows on its line in the index: a paragraph, or an HTML block a closed fence left. */
const DESCRIPTION_CONTEXTS = [
  "Intro.\n\n<available_skills>\n  <skill>\n    <description>",
  "Intro.\n\n```\n```\n</description>\n  <skill>\n    <description>",
];

describe("the block reader agrees with CommonMark's reference parser", () => {
  it("what is open at a text's end is where the parser puts a line written inside it", () => {
    fc.assert(
      fc.property(anyText, (markdown) => {
        const reading = read(markdown);
        let prefix = "";
        for (const c of reading.containers) prefix += c.quote ? "> " : " ".repeat(c.indent);
        const place = placeOf(
          `${markdown}${endsLine(markdown) ? "" : "\n"}${prefix}# MARKER`,
          "MARKER",
        );
        const leaf = reading.leaf;
        const block =
          leaf?.kind === "fence" ? "code" : leaf?.kind === "html" ? `html${leaf.type}` : "heading";
        const containers = reading.containers.map((c) => (c.quote ? "quote" : "item"));
        expect(place).toEqual({ block, containers });
      }),
      { numRuns: 4000 },
    );
  });

  it("after a closed text, a heading is a top-level heading after every line it may follow", () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...CONTEXTS), (markdown, context) => {
        const closed = closeOpenBlocks(markdown);
        // After a blank line (every element's closing tag has one after it) nothing is left.
        expect(placeOf(`${context}${closed}\n\n# MARKER`, "MARKER")).toEqual({
          block: "heading",
          containers: [],
        });
        // On the next line only an HTML block of kind 6 or 7 goes on (to that blank line).
        const next = placeOf(`${context}${closed}\n# MARKER`, "MARKER");
        if (next.block !== "html6" && next.block !== "html7")
          expect(next).toEqual({ block: "heading", containers: [] });
      }),
      { numRuns: 4000 },
    );
  });

  it("after a skill's description closed as the index closes it, the index goes on as written", () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...DESCRIPTION_CONTEXTS), (markdown, context) => {
        const description = escapeXml(closedDescription(markdown));
        const index = `${context}${description}</description>\n    <location>x</location>\n  </skill>`;
        const place = placeOf(`${index}\n</available_skills>\n\n# MARKER`, "MARKER");
        expect(place).toEqual({ block: "heading", containers: [] });
        // (`    <location>` may read as indented code after a heading: the index's own indent.)
        expect(placeOf(index, "</skill>").block).not.toBe("code");
      }),
      { numRuns: 4000 },
    );
  });
});
