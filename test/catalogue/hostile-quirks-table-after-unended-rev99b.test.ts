import { describe, expect, it } from "vitest";
import { closedOpenToYours, closeOpenBlocksOnOwnLine } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import {
  MAX_HTML_TAGS,
  quirksTableStarts,
  tablesOutOfParagraphs,
} from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

import { commonmarkHtml as commonmark, pathsAround } from "./_commonmark.js";

// Review rev99b F1 (medium): `tablesOutOfParagraphs` (a `</p>` before each `<table` start tag met
// while a `<p>` is open, rev97a F1) read a repository's text before the closers, and was not read
// again on what they returned. An unended `<![CDATA[` (a bogus comment to the first `>`) hid the
// `<table` from that reading; the closers then wrote the CDATA as text (`withoutUnendedTag`), and
// the `<table` was a live start tag with the `<p>` open: a page without a doctype opened the table
// in the `<p>`, which held the rest of the prompt. Now the final text is read again when the
// closers wrote a `<` as text (`tablesApart`, src/_fence.ts).
// Review rev99b F3 (low): the `</p>`s added can push a text over the reading's cap of 20,000 `<`,
// past which every `<table` gets one; a text read twice had each written twice. Now no `</p>` is
// added where one stands already.

const T = "<table><tr><td>y</td></tr></table>";

/** Texts whose `<table` an unended or closed construct hides until the closers write its `<` as text. */
const HIDDEN_TABLES = [
  `<p>See: <![CDATA[ ${T}`,
  `<p>See:\n<![CDATA[\n${T}`,
  `<p>See <![CDATA[ x ${T} ]]> z`,
  `<p>See <svg><![CDATA[ x ${T} ]]></svg> z`,
  `<p>See <a title='x ${T}`,
  `<p>See <a title="x ${T}`,
  `<p>See <!-- ${T}`,
  `<p>See <? ${T}`,
  `<p>See <!X ${T}`,
  `<p>See <script> ${T}`,
  `<p>See <style> ${T}`,
  `<p>See <textarea> ${T}`,
  `<p>See <pre title='x ${T}`,
  `<p>See <title> ${T}`,
];

describe("hostile repository: a `<table` an unended construct hid is out of the `<p>` after the closers (rev99b F1)", () => {
  it("a trusted project's section: your own section after it is apart in both modes", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/notes.md": `---\norder: 50\n---\nBuild notes.\n\n<p>See: <![CDATA[ ${T}\n`,
      "agent/sections/mine.md": "---\norder: 60\n---\nQzUserSection: never push to main.\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain("<notes>");
    expect(quirksTableStarts(result.text)).toEqual([]);
    const paths = pathsAround(commonmark(result.text), "QzUserSection");
    expect(paths.quirks).toBeDefined();
    expect(paths.quirks).toBe(paths.noQuirks);
    for (const name of ["notes", "p", "table"])
      expect(paths.quirks?.split(">")).not.toContain(name);
  });

  it("every closer: no `<table` start tag is left while a `<p>` is open", () => {
    for (const text of HIDDEN_TABLES) {
      for (const out of [closeOpenBlocksOnOwnLine(text), closedOpenToYours(text, " ")]) {
        expect(quirksTableStarts(`${out}\nQzAfter`), `${text}\n→ ${out}`).toEqual([]);
      }
    }
  });
});

describe("hostile repository: the `</p>` before a `<table` is written once (rev99b F3)", () => {
  it("a text at the reading's cap: read again, each `<table` keeps one `</p>`", () => {
    const tables = 10;
    const filler = "<b>x</b> ".repeat((MAX_HTML_TAGS - 4 * tables) / 2);
    const text = `${filler}\n\n${`<p>See: ${T}\n\n`.repeat(tables)}`;
    const once = tablesOutOfParagraphs(text);
    expect(once.split(`</p>${T}`).length - 1).toBe(tables);
    expect(tablesOutOfParagraphs(once)).toBe(once);
    // Past the cap the closers write every `<` as text, of the text as written: no `</p>` it never
    // had is shown (rev101b F2; before, each showed once).
    for (const out of [closeOpenBlocksOnOwnLine(text), closedOpenToYours(text, " ")]) {
      const shown = out.replaceAll("&lt;", "<");
      expect(shown).not.toContain("</p><table");
      expect(shown.split("<p>See: <table").length - 1).toBe(tables);
    }
  });
});
