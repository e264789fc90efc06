import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { expandProjectTemplate } from "./_expand-project.js";

// Review rev72c F1, F2 at scale: thousands of tags a raw HTML reading takes before placeholders
// (nested `<b hidden>` in code spans, `<div/hidden>`, one `<script>` after another on one line;
// `<details>` for each since rev82f F1, F4 writes the others `&lt;`)
// are each written as text within a bound, and none of your typed words is left hidden. Before,
// every one (or most) of them was hidden for that reading.

type Node = DefaultTreeAdapterMap["node"];

/** How many of `marker` an HTML parser fed `text` raw puts under an element that hides. */
function hiddenCount(text: string, marker: string): number {
  let hidden = 0;
  const stack: [Node, boolean][] = [[parse(text), false]];
  while (stack.length > 0) {
    const [node, inHidden] = stack.pop() as [Node, boolean];
    if (node.nodeName === "#text") {
      if (inHidden)
        hidden += (node as DefaultTreeAdapterMap["textNode"]).value.split(marker).length - 1;
      continue;
    }
    const hides =
      inHidden ||
      ("tagName" in node &&
        (node.attrs.some((a) => a.name === "hidden") ||
          ["template", "script", "style", "title", "textarea", "details"].includes(node.tagName)));
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : [])
      stack.push([child, hides]);
    const content = (node as { content?: Node }).content;
    if (content !== undefined) stack.push([content, hides]);
  }
  return hidden;
}

describe("hostile repository: a slash template's raw-read tags at scale (rev72c F1, F2)", () => {
  it("thousands of them: each written as text, within a CPU bound", () => {
    for (const [content, code] of [
      // Since rev82f F1, F4 a tag that draws nothing in place is written `&lt;` wherever it
      // stands, with page-tag-escaped; a `<details>` is kept, and closed before your words.
      ["`<b hidden>` $1\n".repeat(4000), "page-tag-escaped"],
      ["<div/hidden> $1\n".repeat(4000), "page-tag-escaped"],
      ["`<script>` $1 ".repeat(5000), "page-tag-escaped"],
      ["`<b hidden>` $1\n".repeat(20000), "page-tag-escaped"],
      ["`<details>` $1\n".repeat(4000), "arguments-hidden"],
      ["<details/x> $1\n".repeat(4000), "arguments-hidden"],
      ["`<details>` $1 ".repeat(5000), "arguments-hidden"],
      ["`<details>` $1\n".repeat(20000), "arguments-hidden"],
    ] as const) {
      const started = process.cpuUsage();
      const out = expandProjectTemplate(content, "/t QzScaleMarker");
      const used = process.cpuUsage(started);
      // 0.1-0.5 s each here; before, 0.15-0.8 s with the words hidden.
      expect((used.user + used.system) / 1e6).toBeLessThan(4);
      expect(hiddenCount(out.text, "QzScaleMarker"), content.slice(0, 40)).toBe(0);
      expect(out.diagnostics.map((d) => d.code)).toContain(code);
    }
  });
});
