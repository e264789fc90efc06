import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { codeBlocks } from "../../src/sections/user-text.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { placeOf } from "./_commonmark.js";

// Review rev57b F6 (low): a false user-text-left-out. A trusted project's
// section `> ```\n{{> base}}` prints your line after a fence opened inside a
// block quote; CommonMark ends the fence with its quote (only paragraph text
// continues lazily), so your line is a paragraph, yet codeBlocks counted the
// line that ended the quote as the fence's last and the warning said your
// section was left out. A fenced block now ends before a line that ends its
// container; only its closer's line is in it.

const NEEDLE = "Never push to main.";

/** Whether codeBlocks puts the start of `needle` in `markdown` inside code. */
function inCode(markdown: string, needle: string): boolean {
  const at = markdown.indexOf(needle);
  const blocks = codeBlocks(markdown);
  for (let i = 0; i < blocks.length; i += 2)
    if ((blocks[i] as number) <= at && at <= (blocks[i + 1] as number)) return true;
  return false;
}

const CASES = [
  "> ```\nNever push to main.\n",
  "> ```\n> code\nNever push to main.\n",
  "> > ~~~\nNever push to main.\n",
  "> ```\n\nNever push to main.\n",
  "- a\n  ```\nNever push to main.\n",
  "1. a\n   ```\n   x\nNever push to main.\n",
  "> <pre>\nNever push to main.\n",
  "> ```\n- Never push to main.\n",
  // Controls: still code to both readers.
  "```\nNever push to main.\n",
  "> ```\n> Never push to main.\n",
  "- a\n\n  ```\n  Never push to main.\n",
  "> ```\n> x\n> ```\nNever push to main.\n",
];

describe("hostile repository: a fence opened in a block quote ends with it", () => {
  it("codeBlocks reads each line as CommonMark does", () => {
    for (const markdown of CASES) {
      const code = placeOf(markdown, NEEDLE).block === "code";
      expect([markdown, inCode(markdown, NEEDLE)]).toEqual([markdown, code]);
    }
  });

  it("a project's section quoting a fence before your text gives no user-text-left-out", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/sections/mypolicy.md": `---\norder: 5\n---\n${NEEDLE}\n`,
      "project/.pi/sections/mypolicy.md": "> ```\n{{> base}}\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.text).toContain(`> \`\`\`\n${NEEDLE}\n`);
    expect(placeOf(result.text, NEEDLE).block).toBe("paragraph");
    expect(result.diagnostics.filter((d) => d.code === "user-text-left-out")).toEqual([]);
  });

  it("a fence the project leaves open at the top level still hides your text", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/sections/mypolicy.md": `---\norder: 5\n---\n${NEEDLE}\n`,
      "project/.pi/sections/mypolicy.md": "```\n{{> base}}\n",
    });
    const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
    expect(result.diagnostics.filter((d) => d.code === "user-text-left-out")).toHaveLength(1);
  });
});
