import { HtmlRenderer, Parser } from "commonmark";
import { type DefaultTreeAdapterMap, parse } from "parse5";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt, type SystemPromptOptions } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev82c O1. A section is written `<tag>\n…\n</tag>`. CommonMark reads `</tag>` alone
// on its line as an HTML block (kind 7) only where it does not go on a paragraph, which kind 7
// cannot interrupt: after a section whose text holds a blank line and ends in a paragraph's
// text, the end tag was that paragraph's text. In a commonmark.js -> HTML view it stood in a
// `<p>`, where an HTML parser ignores it, so every later section was inside the element: a
// project's skill made the skills section end `</available_skills>` (no tag to CommonMark)
// then `</skills>`, and your working directory, environment, date and own sections were inside
// `<skills>`; a project's APPEND_SYSTEM.md of two paragraphs put them inside `<addendum>`; a
// project's value of two paragraphs in your `{{#xml "notes"}}` put your words after it inside
// `<notes>`. Now the end tag comes after a blank line there (`wrappedElement`, src/_fence.ts).

const MINE = "QzMyOwnLaterSection: the user's last words.";

async function render(files: Record<string, string>, extra: SystemPromptOptions = {}) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/zzmine.md": `---\norder: 990\ntag: mine\n---\n${MINE}\n`,
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true, configFiles: true, ...extra }));
}

type Element = DefaultTreeAdapterMap["element"];
type ChildNode = DefaultTreeAdapterMap["childNode"];

/** The names of the elements around the first text node holding `needle` in the HTML view. */
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
  const doc = parse(html);
  for (const child of doc.childNodes) {
    const hit = found(child, []);
    if (hit) return hit.filter((n) => !["html", "body", "p"].includes(n));
  }
  return undefined;
}

/** Text of later sections, and the one element each stands in: its own section's. */
const LATER: [string, string][] = [
  ["Current working directory", "cwd"],
  ["Today's date", "date"],
  [MINE, "mine"],
];

describe("hostile repository: a section ending in a paragraph keeps its end tag out of it", () => {
  it("a project's skill: the later sections are not inside <skills>", async () => {
    const result = await render({
      "project/.pi/skills/pdf/SKILL.md":
        "---\nname: pdf\ndescription: Extract text from PDF files.\n---\nSteps.\n",
    });
    expect(result.text).toContain("</available_skills>");
    for (const [needle, own] of LATER)
      expect(elementsAround(result.text, needle), needle).toEqual([own]);
  });

  it("a project's APPEND_SYSTEM.md of two paragraphs: the later sections are not inside <addendum>", async () => {
    const result = await render({
      "project/.pi/APPEND_SYSTEM.md": "Project notes.\n\nMore project notes.\n",
    });
    expect(result.text).toContain("More project notes.");
    for (const [needle, own] of LATER)
      expect(elementsAround(result.text, needle), needle).toEqual([own]);
  });

  it("a project's value of two paragraphs in your {{#xml}} element: your words after it are not inside it", async () => {
    const result = await render({
      "agent/sections/zznotes.md": `---\norder: 980\n---\n{{#xml "notes"}}\n{{vars.notes}}\n{{/xml}}\n\nQzMyAfterNotes: mine.\n`,
      "project/.pi/sysprompt.yaml": 'vars:\n  notes: "Team notes.\\n\\nMore team notes."\n',
    });
    expect(result.text).toContain("More team notes.");
    expect(elementsAround(result.text, "QzMyAfterNotes"), "after notes").toEqual(["zznotes"]);
    expect(elementsAround(result.text, MINE), MINE).toEqual(["mine"]);
  });
});
