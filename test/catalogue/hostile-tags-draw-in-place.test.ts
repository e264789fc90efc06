import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev82f F1, F4. The page-tag change held start tags by name (`<body>`, `<style>`, …); a
// browser reading the prompt drew a repository's closed element OVER every text of it, yours
// too: `<div style="position:fixed;inset:0;background:white">`, `<svg overflow="visible">` with a
// large white `<rect>`, `<dialog open>` (F1); and ran its `<script>` or `onerror=` (F4). Now a
// text not yours keeps as markup only tags that draw in place (`IN_PLACE_ELEMENTS`, or a name HTML
// knows no element for) with allowed attributes (`IN_PLACE_ATTRIBUTES`): every other start tag has
// its `<` written `&lt;`, with the one `page-tag-escaped` warning per text.

type Node = DefaultTreeAdapterMap["node"];

/** Elements and attributes of `html` read as a document that draw anything but in place. */
function notInPlace(html: string): string[] {
  const found: string[] = [];
  const walk = (node: Node) => {
    if ("tagName" in node) {
      // `<rect>` outside an `<svg>` is an unknown HTML element that draws nothing.
      if (
        ["dialog", "svg", "script", "iframe", "object", "marquee"].includes(node.tagName) ||
        node.namespaceURI === "http://www.w3.org/2000/svg"
      )
        found.push(node.tagName);
      for (const a of node.attrs)
        if (
          /^(style|on.*|open|popover|hidden|overflow)$/.test(a.name) ||
          (/^(width|height)$/.test(a.name) && Number(a.value) > 2000)
        )
          found.push(`${node.tagName}[${a.name}]`);
    }
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child);
  };
  walk(parse(html));
  return found;
}

function readings(markdown: string) {
  const cm = new HtmlRenderer().render(new Parser().parse(markdown));
  return { raw: notInPlace(markdown), commonmark: notInPlace(cm) };
}

async function render(line: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "MYRULE-NEVER push to main.\n",
    "project/AGENTS.md": `# Project\n\n${line}\n\nBuild with make.\n`,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: false }));
}

function warned(result: { diagnostics: readonly { code: string; message: string }[] }) {
  return result.diagnostics
    .filter((d) => d.code === "page-tag-escaped")
    .map((d) => /\(line (\d+)/.exec(d.message)?.[1]);
}

const RECT =
  '<svg width="1" height="1" overflow="visible"><rect x="-5000" y="-20000" width="40000" height="40000" fill="white"/></svg>';

describe("hostile repository: its tags draw in place or are text (rev82f F1, F4)", () => {
  for (const [name, line] of [
    [
      "F1(a) a fixed <div> overlay",
      '<div style="position:fixed;inset:0;background:white;z-index:99999"></div>',
    ],
    [
      "F1(b) a fixed <img> in a code span",
      'Overlay: `<img src="data:," style="position:fixed;inset:0;background:white">` for demos.',
    ],
    ["F1(c) an overflowing <svg> <rect>", `Logo: ${RECT}`],
    [
      "F1(c) a <dialog open>",
      'See <dialog open><img alt="" src="x.gif" width="4000"></dialog> here.',
    ],
    ["F1(c) both", `<dialog open>${RECT}</dialog>`],
    [
      "F4 an onerror in a code span",
      'Badge: `<img src="x:" onerror="document.body.innerHTML=1">` here.',
    ],
    ["F4 a <script> block", "<script>document.documentElement.hidden=true</script>"],
    ["an unknown element's hidden", "See <https://example.com/hidden> for it."],
    ["a javascript: link", '<a href="javascript:alert(1)">x</a>'],
    [
      "an image past a screen's size",
      'Logo: <img src="logo.png" width="4000" height="20000"> here.',
    ],
    ["a javascript: link spelled with a reference", '<a href="javascript&colon;alert(1)">x</a>'],
  ] as const)
    it(`an untrusted AGENTS.md with ${name}: written as text, said at its line`, async () => {
      const result = await render(line);
      const read = readings(result.text);
      expect(read.raw, `${name}: raw`).toEqual([]);
      expect(read.commonmark, `${name}: CommonMark`).toEqual([]);
      expect(result.text).not.toMatch(/<a href="javascript/);
      expect(result.text).toContain("MYRULE-NEVER push to main.");
      expect(warned(result), name).toEqual(["3"]);
    });

  it("F1(e) a trusted project's slash template: its overlay is text", () => {
    const out = expandProjectTemplate(
      `Review this <dialog open>${RECT}</dialog> $ARGUMENTS`,
      "/t MY-ARGS",
    );
    expect(out.text).toContain("MY-ARGS");
    expect(readings(out.text)).toEqual({ raw: [], commonmark: [] });
    expect(out.diagnostics.map((d) => d.code)).toContain("page-tag-escaped");
  });

  it("a README's ordinary markup and code stay as written, with no warning", async () => {
    const line = [
      '<p align="center"><img src="https://img.shields.io/badge/a-b-green?x=1&amp;y=2" alt="badge" width="120"></p>',
      '<a href="https://example.com" target="_blank" rel="noopener">site</a> <a id="v1.0.0"></a>',
      "<details><summary>More</summary>",
      "",
      "Press <kbd>Ctrl</kbd>+<kbd>C</kbd>, H<sub>2</sub>O, x<sup>2</sup><br>",
      "",
      "</details>",
      "",
      "`Vec<String>`, `Result<T>`, `Map<K, V>`, `Array<Array<string>>`, `<Buffer 00 61>`, <https://github.com/o/r/pull/1>",
      "",
      '<example type="good" path="src/a.ts">Use make.</example>',
    ].join("\n");
    const result = await render(line);
    expect(result.text).toContain(line);
    expect(warned(result)).toEqual([]);
  });
});
