import { Parser } from "commonmark";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev99b F4 (low): a trusted project's partial calling your partial block indented
// (`    {{> @partial-block}}`, standalone: Handlebars writes the four spaces before each line it
// prints) made your block an indented code block, shown as literal text: the blank line written
// before your block (rev98b F2) ended the project's paragraph, and your lines followed four
// spaces. Decided: your block is printed at column 0, as you wrote it: the blanks before its first
// line are not written, and the same blanks are taken off its later lines when each has them
// (`withoutIndent` in src/sections/render.ts).

const BODY = [
  "USER-BLOCK-BODY <kbd>always</kbd> run the tests.",
  "",
  "    USER-OWN-CODE make test",
  "",
  "- USER-ITEM one",
  "  - USER-SUBITEM nested",
  "",
  "USER-BLOCK-END last line.",
].join("\n");
const SECTION = `---\norder: 5\n---\n<my_policy>\nUSER-SECTION-MARKER keep this.\n\n{{#> policy}}\n${BODY}\n{{/policy}}\nUSER-SECTION-TAIL\n</my_policy>\n`;

async function render(policy: string, partials: Record<string, string> = {}) {
  const root = tempDir();
  const files: Record<string, string> = {
    "agent/sections/mine.md": SECTION,
    "project/.pi/partials/policy.md": policy,
  };
  for (const [name, text] of Object.entries(partials))
    files[`project/.pi/partials/${name}.md`] = text;
  writeFiles(root, files);
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

/** The CommonMark block (its type) that holds the text node or code holding `needle`. */
function blockOf(markdown: string, needle: string): string | undefined {
  const walker = new Parser().parse(markdown).walker();
  for (let event = walker.next(); event !== null; event = walker.next()) {
    const node = event.node;
    if (!event.entering || !node.literal?.includes(needle)) continue;
    if (node.type === "code_block" || node.type === "html_block") return node.type;
    let up = node.parent;
    while (up !== null && up.type !== "paragraph") up = up.parent;
    return up?.type;
  }
  return undefined;
}

describe("hostile repository: a project's partial indenting your partial block (rev99b F4)", () => {
  for (const policy of [
    "PROJECT-BEFORE\n    {{> @partial-block}}\nPROJECT-AFTER\n",
    "PROJECT-BEFORE\n\n        {{> @partial-block}}\n\nPROJECT-AFTER\n",
    "PROJECT-BEFORE\n\t{{> @partial-block}}\nPROJECT-AFTER\n",
    "    {{> @partial-block}}\n",
    // Not standalone: Handlebars indents none of its lines, the project's blanks before it are not written.
    "PROJECT-BEFORE\n    {{#if true}}{{/if}}{{> @partial-block}}\nPROJECT-AFTER\n",
  ]) {
    it(`prints it at column 0, as you wrote it (${JSON.stringify(policy)})`, async () => {
      const { text } = await render(policy);
      expect(text).toContain(`\n${BODY}\n`);
      expect(blockOf(text, "USER-BLOCK-BODY")).toBe("paragraph");
      expect(blockOf(text, "USER-BLOCK-END")).toBe("paragraph");
      expect(blockOf(text, "USER-OWN-CODE")).toBe("code_block");
    });
  }

  it("indented at two levels of the project's partials", async () => {
    const { text } = await render("PROJECT-BEFORE\n    {{> inner}}\nPROJECT-AFTER\n", {
      inner: "INNER-BEFORE\n    {{> @partial-block}}\nINNER-AFTER\n",
    });
    expect(text).toContain(`\n${BODY}\n`);
    expect(blockOf(text, "USER-BLOCK-BODY")).toBe("paragraph");
  });
});
