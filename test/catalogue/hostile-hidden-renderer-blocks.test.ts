import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";

// Review rev61a: the HTML reader read the Markdown without the renderer's own block tags, and
// those change the tree a reader builds: `</span>` inside a paragraph ends nothing (F2), a `<p>`
// breaks out of `<math>` (F3), `</li></ul>` ends a `<?x` run an HTML block in a list item left
// open (F4); an indented code line was only half written out (F1); a block quote's `>` inside a
// tag spanning lines ended it (F7); a form feed or a no-break space in a tag (F8); the innermost
// hiding element was closed, not the outermost (F9); <progress>, <meter>, <rp> (F11). Each text is
// closed as a repository's text is, and your words after it must be shown (the oracle:
// commonmark's HTML read by parse5).
const CASES = [
  "# Project\n\n    <!-- c -->\n\n<div hidden>\n",
  "\n    <object>\n<object>",
  "x\r\r    <b>\r<b hidden>y",
  "# Project\n\n<span hidden>\n\nBuild with make.</span>\n",
  "<span hidden>\n\nSee the form: <textarea>notes\n",
  "# Project\n\n<math>\n\n<template><p>\n",
  "<svg>\n\n<select><b>",
  "<math>\n\n<a hidden><svg>",
  "# Project\n\n- <?x\n<div hidden>\n",
  "> <?x\n<div hidden>",
  "- <!X\n<span hidden>",
  '# Project\n\n> Read <b hidden title=\n> "note">this first\n',
  "Read <b\fhidden>this first",
  'Read <b title=\u00a0"note" hidden>this first',
  "<div hidden>\n<div hidden>\n<div hidden>\n<div hidden>\n<div hidden>\n\n",
  "<progress>",
  "<meter>",
];

describe("hostile repository: the renderer's own block tags around a repository's markup", () => {
  for (const text of CASES) {
    it(`${JSON.stringify(text)}: closed, your words after it are shown`, () => {
      const closed = closeOpenBlocks(text);
      expect(oracleHidden(`${closed}\n\nQzmarker words`, "Qzmarker"), closed).toBe("shown");
    });
  }
});
