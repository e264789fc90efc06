import { describe, expect, it } from "vitest";
import { closeOpenBlocks } from "../../src/_fence.js";
import { withoutHidden } from "../../src/sections/user-text.js";
import { oracleHidden } from "../_oracle/hidden-oracle.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Reviews rev58c F5 and rev58f F5 (low): the hand lists of what no HTML reader
// shows missed `<div popover>` (shown only when a script opens it), `<canvas>`
// and `<datalist>` content, `visibility:collapse`, and a hiding style spelled
// with CSS escapes or a comment (`display:n\one`, `display:\6e one`,
// `display:/**/none`). A repository rule ending `<div popover>` was left open
// over your skills and later sections, a slash template putting `$ARGUMENTS`
// in one kept your words there with no `arguments-hidden`, and the section
// check counted your text inside one as shown. A style is now read as CSS
// reads it (comments dropped, escapes decoded) before it is matched.

const YOURS = "USER-SECTION-MARKER line one.";

/** Each opener of an element no reader shows that the lists missed, with its end tag. */
const MISSED: [open: string, close: string][] = [
  ["<div popover>", "</div>"],
  ['<aside popover="manual">', "</aside>"],
  ["<canvas>", "</canvas>"],
  ["<datalist>", "</datalist>"],
  ['<div style="visibility:collapse">', "</div>"],
  ['<div style="display:n\\one">', "</div>"],
  ['<div style="display:\\6e one">', "</div>"],
  ['<div style="display:\\00004E ONE">', "</div>"],
  ['<div style="display:/**/none">', "</div>"],
  ['<div style="display/* x */:/*y*/none">', "</div>"],
  ['<div style="visibility:hi\\64 den">', "</div>"],
];

describe("hostile repository: popover, canvas, datalist and hiding styles in CSS escapes are never shown", () => {
  it("the section check reads your text inside them as not shown", () => {
    for (const [open, close] of MISSED) {
      // On a line of its own (an HTML block): inline in a paragraph, a phrasing element
      // (`<canvas>`) is ended by the paragraph's `</p>`, and what follows is shown.
      const text = `PROJ\n\n${open}\n\n${YOURS}\n\n${close} replaced`;
      expect(withoutHidden(text), open).not.toContain(YOURS);
      expect(oracleHidden(text, "USER-SECTION-MARKER"), open).not.toBe("shown");
    }
  });

  it("shown still: a style that shows, an escape of another word, a popover's invoker", () => {
    for (const text of [
      `<div style="display:\\62 lock">${YOURS}</div>`,
      `<div style="display:n\\6f x; color: red">${YOURS}</div>`,
      `<div style="/* display:none */ color: red">${YOURS}</div>`,
      `<button popovertarget="p">${YOURS}</button>`,
      `<div style="visibility:visible">${YOURS}</div>`,
    ]) {
      expect(withoutHidden(text), text).toContain(YOURS);
    }
  });

  it("a slash template cannot wrap your arguments in them: written &lt; since rev82f F1 (page-tag-escaped), your words shown", () => {
    // Each is a start tag that draws nothing in place (`popover`, `style`, `<canvas>`,
    // `<datalist>`): its `<` is written `&lt;` wherever it stands in a text not yours.
    for (const [open, close] of MISSED) {
      const content = `Review this.\n${open}\n$ARGUMENTS\n${close}\nDone.\n`;
      const out = expandProjectTemplate(content, "/t do NOT touch the database");
      expect(out.text, content).toContain(`&lt;${open.slice(1)}\ndo NOT touch the database`);
      expect(oracleHidden(out.text, "NOT"), content).toBe("shown");
      expect(
        out.diagnostics.map((d) => d.code),
        content,
      ).toEqual(["page-tag-escaped"]);
    }
  });

  it("a repository text (context file, rule, section) that leaves one open is closed at its end", () => {
    // Judged by the oracle (commonmark's HTML read by parse5): what follows the closed text is
    // shown, whatever closes it (a `<canvas>` that continues the paragraph is ended by its `</p>`).
    for (const [open] of MISSED) {
      const closed = closeOpenBlocks(`Project rule.\n\n${open}\n`);
      expect(oracleHidden(`${closed}\n\nQzmarker words`, "Qzmarker"), closed).toBe("shown");
      expect(oracleHidden(`Project rule.\n\n${open}\n\nQzmarker words`, "Qzmarker"), open).not.toBe(
        "shown",
      );
    }
  });
});
