import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { hostClosingAfter } from "../../src/_fence.js";
import type { TouchedFile } from "../../src/gather/context/index.js";
import { appendTouched } from "../../src/integrations/pi/on-touch.js";
import type { Diagnostic } from "../../src/types.js";

// Review rev82c F3 (high), on touch: a tool result (a repository file pi's or opencode's read
// printed) that ends in a tokenizer state other than data, inside an attribute value
// (`<a href='`, in a code span or a fence too: a raw reader reads them as markup), a bogus
// comment (`<!x`, `<?x`), an end tag (`</a`), a start tag (`<a b`) or CDATA in `<svg>`, got no
// closer: the raw reading found the probe in no text node, and "cannot be told" was taken as
// "keep as is". For an HTML parser fed the raw string, your glob rule appended after it was in
// the attribute's value, or its `<instructions>` start tag was eaten. Now the tokenizer's own
// ending comes first (`'>`, `">`, `>`, `]]>`), the result is read again as any other, and where
// no closer is confirmed nothing is appended (`tool-result-markup-as-text`).

type Node = DefaultTreeAdapterMap["node"];

const RULE = "QzGlobRuleWords";

const FILES: TouchedFile[] = [
  {
    path: "/home/u/.pi/agent/rules/g.md",
    content: `${RULE}: never touch prod.`,
    kind: "rule",
    name: "g",
  },
];

const RESULTS = [
  "Link the docs: <a href='",
  "Use `<a href='` for the docs link.",
  "```html\n<a href='\n```",
  'Set <img alt="',
  "x <a href='\n",
  "x <!x",
  "x </a",
  "x <?x",
  "x <a b",
  "x <svg><![CDATA[",
];

/** The names of the elements around `marker`'s text node for a raw HTML parser; undefined when in none. */
function around(html: string, marker: string): string[] | undefined {
  let found: string[] | undefined;
  const walk = (node: Node, path: string[]) => {
    if (found !== undefined) return;
    if (node.nodeName === "#text") {
      if ((node as DefaultTreeAdapterMap["textNode"]).value.includes(marker)) found = path;
      return;
    }
    const next = "tagName" in node ? [...path, node.tagName] : path;
    for (const child of "childNodes" in node ? (node.childNodes as Node[]) : []) walk(child, next);
  };
  walk(parse(html), []);
  return found;
}

describe("hostile repository: a tool result ending inside a tag gets the tokenizer's ending first, or nothing after it (rev82c F3, touch)", () => {
  it("pi: your glob rule is in its own <instructions> element, or not appended with a warning", () => {
    for (const result of RESULTS) {
      const said: Diagnostic[] = [];
      const patch = appendTouched({ content: [{ type: "text", text: result }] }, FILES, "/p", (d) =>
        said.push(d),
      );
      if (patch === undefined) {
        expect(
          said.map((d) => d.code),
          result,
        ).toContain("tool-result-markup-as-text");
        continue;
      }
      const joined = (patch.content ?? [])
        .flatMap((c) => (c.type === "text" ? [c.text] : []))
        .join("\n");
      const path = around(joined, RULE);
      expect(path, `${result}\n->\n${joined}`).toBeDefined();
      expect(path?.at(-1), `${result}\n->\n${joined}`).toBe("instructions");
      expect(path?.filter((n) => n === "instructions").length, joined).toBe(1);
    }
  });

  it("the closer ends the tag first: the host's next words are shown after it", () => {
    for (const result of RESULTS) {
      const closer = hostClosingAfter(`${result}\n`);
      expect(closer, result).toBeDefined();
      const prompt = `<tool_result>${result}\n${closer}</tool_result>\n\n<file path="b.md">\nQzHostNextWords\n</file>\n`;
      expect(around(prompt, "QzHostNextWords")?.at(-1), `${result}\n->\n${prompt}`).toBe("file");
    }
  });

  it("a plain result still gets nothing", () => {
    expect(hostClosingAfter("Notes: plain\n")).toBe("");
    expect(hostClosingAfter("a < b and c > d\n")).toBe("");
  });
});
