import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { expandSkillCommand } from "../../src/skills/index.js";
import { skillAt, tempDir } from "../skills/_helpers.js";

// Review rev92c F3 (medium): `/skill:name args` wrote `</skill>` on the line right after the
// skill's body. A body ending in a paragraph after a blank line (most do) made `</skill>` a lazy
// line of that paragraph for CommonMark and markdown-it, inside a `<p>` where an HTML parser
// ignores it: `<skill>` stayed open over "The user's request:" and your typed words in a
// Markdown-to-HTML view (the rev82c O1 class, which `wrappedElement` fixed for sections and
// `{{#xml}}` but the skill expansion built its element by hand). Now it is written by
// `wrappedElement` too: a blank line before `</skill>` where CommonMark reads it as a tag.

type Element = DefaultTreeAdapterMap["element"];
type ChildNode = DefaultTreeAdapterMap["childNode"];

/** The elements around the first text node holding `needle` in a CommonMark -> HTML view (html, body, p left out). */
function elementsAround(markdown: string, needle: string): string[] | undefined {
  const html = new HtmlRenderer().render(new Parser().parse(markdown));
  const found = (node: ChildNode, around: string[]): string[] | undefined => {
    if (node.nodeName === "#text" && "value" in node && node.value.includes(needle)) return around;
    if (!("childNodes" in node)) return undefined;
    const inner = "tagName" in node ? [...around, (node as Element).tagName] : around;
    for (const child of node.childNodes) {
      const hit = found(child, inner);
      if (hit) return hit;
    }
    return undefined;
  };
  for (const child of parse(html).childNodes) {
    const hit = found(child, []);
    if (hit) return hit.filter((n) => !["html", "body", "p"].includes(n));
  }
  return undefined;
}

function expand(body: string, command = "/skill:lint MY-TYPED-ARGS only src/") {
  const t = tempDir();
  const folder = join(t, "repo", ".pi", "skills", "lint");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, "SKILL.md");
  writeFileSync(file, `---\nname: lint\ndescription: Lint the code.\n---\n${body}`);
  return expandSkillCommand(command, [skillAt(file, "lint", "Lint the code.", "project")], {
    cwd: join(t, "repo"),
    home: join(t, "home"),
  });
}

describe("hostile repository: a /skill: expansion ends its <skill> before your request", () => {
  it("a body of two paragraphs: your words are outside <skill> in a CommonMark view", () => {
    const out = expand("Run the linter.\n\nThen report what it says.\n");
    expect(out).toContain("Then report what it says.\n\n</skill>\n\nThe user's request:\n");
    expect(elementsAround(out, "MY-TYPED-ARGS")).toEqual([]);
    expect(elementsAround(out, "The user's request")).toEqual([]);
    expect(elementsAround(out, "Then report")).toEqual(["skill"]);
  });

  it("a body ending in a list item: your words are outside <skill>", () => {
    const out = expand("Steps:\n\n- run the linter\n- report\n");
    expect(elementsAround(out, "MY-TYPED-ARGS")).toEqual([]);
  });

  it("a body of one paragraph (after the lead lines' blank line): a blank line before </skill>", () => {
    const out = expand("Run the linter.\n");
    expect(out).toContain("Run the linter.\n\n</skill>\n\nThe user's request:\n");
    expect(elementsAround(out, "MY-TYPED-ARGS")).toEqual([]);
  });

  it("kept: a body ending in an HTML block, where </skill> is raw HTML already", () => {
    const out = expand("Run the linter.\n\n<div>\nreport\n</div>\n");
    expect(out).toContain("</div>\n</skill>\n\nThe user's request:\n");
    expect(elementsAround(out, "MY-TYPED-ARGS")).toEqual([]);
  });
});
