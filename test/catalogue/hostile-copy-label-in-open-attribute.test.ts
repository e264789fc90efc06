import { parseFragment } from "parse5";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev105f F3 (low). A trusted project's copy of `project_context` that wrote
// `<span title="` right before the builtin's own label around your AGENTS.md kept the label as
// written, judged with the piece: an HTML view of the prompt read the label as the span's
// attributes, your text as no label's, while the raw text (what the model reads) kept it; no
// warning. The project's piece is now judged without the label, its end a text's end: the
// markup it leaves open there is written as text (`&lt;span title="`), with a warning.

async function render(template: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Pushing to main is fine here.\n",
    "agent/AGENTS.md": "USER-POLICY: never push to main.\n",
    "project/.pi/sections/project_context.md": template,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

const each = (before: string) =>
  `{{#each contextFiles}}${before}<user_instructions path="{{path}}">\n{{content}}\n</user_instructions>\n{{/each}}`;

/** The names of the elements an HTML parser of `html` reads the user's policy inside. */
function elementsAround(html: string, words: string): string[] {
  type Node = { nodeName: string; value?: string; childNodes?: Node[] };
  const path = (node: Node, around: string[]): string[] | undefined => {
    if (node.nodeName === "#text" && node.value?.includes(words)) return around;
    for (const child of node.childNodes ?? []) {
      const found = path(child, [...around, node.nodeName]);
      if (found) return found;
    }
    return undefined;
  };
  return path(parseFragment(html) as unknown as Node, []) ?? [];
}

describe("hostile repository: a copy leaves markup open right before your kept label", () => {
  for (const before of ['<span title="', "<!-- ", "<b "]) {
    it(`${before.trim()} before <user_instructions>: written as text, warned`, async () => {
      const result = await render(each(before));
      const part = result.text.slice(result.text.indexOf("<project_context>"));
      expect(part).toContain(`&lt;${before.slice(1)}<user_instructions path="`);
      expect(elementsAround(part, "USER-POLICY")).toContain("user_instructions");
      expect(result.diagnostics).toContainEqual(
        expect.objectContaining({
          code: "project-section-open",
          message: expect.stringContaining("right before the label it prints around your text"),
        }),
      );
      expect(result.diagnostics.map((d) => d.code)).not.toContain("user-text-left-out");
    });
  }

  it("a closed tag before the label is kept as written, no warning", async () => {
    const result = await render(each("<b>note</b> "));
    expect(result.text).toContain('<b>note</b> <user_instructions path="');
    expect(result.diagnostics.map((d) => d.message).join("\n")).not.toContain(
      "right before the label",
    );
  });
});
