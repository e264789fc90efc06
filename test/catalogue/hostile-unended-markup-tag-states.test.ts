import { type DefaultTreeAdapterMap, parse, parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { closeOpenBlocks, closeOpenBlocksOnOwnLine } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { unendedMarkupAt, withCheckBudget } from "../../src/sections/html-reading.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev72e F1, F2, F3, F5: `unendedMarkupAt` (what an HTML parser of the raw prompt is still in
// at a repository text's end) read `<b ==">` as a tag ended at `>` (HTML takes the first `=` as an
// attribute's NAME, and the second opens a quoted value over the rest of the prompt, F1); ended
// `<![CDATA[` in `<svg>` at its first `>` and read a comment past its `]]>` (F2); looked for `]]>` from
// each `<![CDATA[` over the whole rest of the text (83 s of CPU for 2 MiB, F3); and judged the text
// after the closers, whose `-->` completed a cut `<title a<!--` (F5). Now the tag states are the
// tokenizer's, a CDATA section is written as text (which reading holds needs the tree), and the text
// is judged before its closers too.

type Node = DefaultTreeAdapterMap["node"];

/** Whether `probe` is in a text node of parse5's reading of `html` (the tokenizer was in a data state before it). */
function inText(html: string, probe: string): boolean {
  const walk = (node: Node): boolean => {
    if (node.nodeName === "#text")
      return (node as DefaultTreeAdapterMap["textNode"]).value.includes(probe);
    if (node.nodeName === "template")
      return walk((node as DefaultTreeAdapterMap["template"]).content as unknown as Node);
    return ("childNodes" in node ? (node.childNodes as Node[]) : []).some(walk);
  };
  return walk(parseFragment(html) as unknown as Node);
}

/** Whether `probe` is in a text node of parse5's reading of the whole `html` that no raw-text, `<template>` or `hidden` element holds. */
function shownRaw(html: string, probe: string): boolean {
  const raw =
    /^(template|title|textarea|script|style|xmp|iframe|noembed|noframes|noscript|plaintext)$/;
  const walk = (node: Node, hidden: boolean): boolean => {
    if (node.nodeName === "#text")
      return !hidden && (node as DefaultTreeAdapterMap["textNode"]).value.includes(probe);
    const hides =
      hidden ||
      raw.test(node.nodeName) ||
      ("attrs" in node && node.attrs.some((a) => a.name === "hidden"));
    if (node.nodeName === "template") return false;
    return ("childNodes" in node ? (node.childNodes as Node[]) : []).some((c) => walk(c, hides));
  };
  return walk(parse(html) as unknown as Node, false);
}

async function render(files: Record<string, string>, append?: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/mine.md": "---\norder: 95\n---\nQZ-MINE: never push to main.\n",
    ...files,
  });
  return renderSystemPrompt(
    pinned(root, {
      projectTrusted: true,
      configFiles: true,
      ...(append === undefined ? {} : { appendSystemPrompt: append }),
    }),
  );
}

describe("hostile repository: unended markup read in the HTML tokenizer's own states (rev72e F1, F2, F3, F5)", () => {
  it("F1: an `=` before an attribute's name is its name; the next `=` opens a value", () => {
    for (const text of [
      'See <span hidden=x =="y>',
      'x <b ==">',
      '<b/==">',
      "<b///=='>",
      'x <b ==">\n',
      '<b a=b/ =="c>',
    ])
      expect(unendedMarkupAt(text), text).toBe(text.indexOf("<"));
    // Ended tags stay ended: an `=` in a tag's name, an unquoted value's `=` and quotes.
    for (const text of ['<b="x>', '<b a=b="c>', '<b a = "x">', "<b a='x'b>", "<b a=>", "<b =>"])
      expect(unendedMarkupAt(text), text).toBe(-1);
  });

  it("F1: a trusted project's AGENTS.md and APPEND_SYSTEM.md ending `<span hidden=x ==\"y>`: your words are shown", async () => {
    const result = await render(
      {
        "project/AGENTS.md": '# Project\n\nBuild with care. See <span hidden=x =="y>\n',
        "project/.pi/APPEND_SYSTEM.md": 'Project notes. See <b ==">',
      },
      "QZ-APPEND: keep it short.",
    );
    expect(result.text).toContain('See &lt;span hidden=x =="y>');
    expect(result.text).toContain('See &lt;b ==">');
    for (const marker of ["QZ-MINE", "QZ-APPEND", "Current working directory"])
      expect(inText(result.text, marker), marker).toBe(true);
    // Both tags are unended start tags: written `&lt;` by the draw-in-place reading (rev82f F1, F4).
    expect(result.diagnostics.filter((d) => d.code === "page-tag-escaped").length).toBe(2);
  });

  it("F2: a CDATA section in `<svg>` holding `>` and `<!--`: the tag after its `]]>` is written as text", async () => {
    const text = 'Intro <svg><![CDATA[ a > b <!-- x\n\nMore ]]> <span hidden title="x -->\n';
    expect(unendedMarkupAt(text)).toBe(text.indexOf("<!["));
    const result = await render({ "project/AGENTS.md": text });
    for (const marker of ["QZ-MINE", "Current working directory"])
      expect(inText(result.text, marker), marker).toBe(true);
  });

  it("F3: 512 KiB of `<![CDATA[]]x>` (a check's whole budget) is read in one linear pass", () => {
    const text = `x ${"<![CDATA[]]x>".repeat(40_000)} ]]>`;
    const started = process.hrtime.bigint();
    const at = unendedMarkupAt(text);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Idle: under 1 ms; the look-ahead per `<![CDATA[` took 11.6 s here (2.4 s at half this size).
    expect(ms).toBeLessThan(2500);
    expect(at).toBe(2);
    // As a printed text is closed: every `<` written as text.
    const closed = withCheckBudget(() => closeOpenBlocksOnOwnLine(text));
    expect(closed.startsWith("x &lt;![CDATA[]]x>&lt;![CDATA[")).toBe(true);
  });

  it("F5: the closers' `-->` does not complete a cut `<title a<!--`, `<textarea a<!--` or `<xmp a`", async () => {
    for (const cut of ["<title a<!-- done.", "<textarea a<!-- done.", "<xmp a\n\n<!-- done."]) {
      const text = `# Project\n\nBuild with make. Notes: ${cut}\n`;
      expect(closeOpenBlocks(text, "either"), cut).toContain(`Notes: &lt;${cut.slice(1, 5)}`);
      const result = await render({ "project/AGENTS.md": text });
      for (const marker of ["QZ-MINE", "Current working directory"])
        expect(shownRaw(result.text, marker), `${cut}: ${marker}`).toBe(true);
    }
    // A comment left open is still the closers' to end.
    expect(closeOpenBlocks("Notes <!-- later")).toBe("Notes <!-- later\n-->");
  });
});
