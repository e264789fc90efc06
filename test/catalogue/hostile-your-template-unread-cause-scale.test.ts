import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev68e F5: your ~/.pi/agent/SYSTEM_TEMPLATE.md (a closed `<div class="mine">`, then
// `{{#each contextFiles}}{{content}}{{/each}}`) printed the repository's AGENTS.md, one paragraph of
// 15,000 code spans: the check of the render as a whole gave up (the renderer's work past its
// bound), and the warning blamed your 120-byte file: "your file is more HTML than sysprompt reads
// (over 1 MiB, 20,000 "<" or 40,000 elements)", none of which was true. The warning now says your
// template reads as closed on its own and names the repository's text printed in it, and its list
// of bounds is the check's own (512 KiB, the renderer's work).

const TEMPLATE =
  '<div class="mine">\n\nMY-TEMPLATE-MARKER\n\n</div>\n\n{{#each contextFiles}}{{content}}\n\n{{/each}}\nMY-TAIL-MARKER\n';

async function render(template: string, agents: string) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": agents,
    "agent/SYSTEM_TEMPLATE.md": template,
  });
  const out = await renderSystemPrompt(pinned(root, { projectTrusted: false, deadlineMs: 60_000 }));
  return { out, unread: out.diagnostics.filter((d) => d.code === "user-text-unread") };
}

describe("hostile repository: what your SYSTEM_TEMPLATE.md prints is not blamed on your file", () => {
  it("the repository's dense AGENTS.md printed in your template: named, your file not said to be over a MiB", async () => {
    const { out, unread } = await render(TEMPLATE, `<b>notes</b>\n\n${"`x` ".repeat(15_000)}\n`);
    expect(out.text).toContain("MY-TEMPLATE-MARKER");
    expect(out.text).toContain("MY-TAIL-MARKER");
    expect(unread).toHaveLength(1);
    const message = unread[0]?.message ?? "";
    expect(unread[0]?.path?.endsWith("SYSTEM_TEMPLATE.md")).toBe(true);
    expect(message).toContain("reads as closed on its own");
    expect(message).toMatch(/the repository's \S*project\/AGENTS\.md it prints/);
    expect(message).not.toContain("1 MiB");
    expect(message).toContain("Markdown renderer");
  });

  it("a short AGENTS.md: no warning", async () => {
    const { out, unread } = await render(TEMPLATE, "<b>notes</b>\n\nShort.\n");
    expect(unread).toEqual([]);
    expect(out.text).toContain('<div class="mine">');
  });

  it("your template that is too much on its own is still said to be yours, in the check's bounds", async () => {
    const own = `<div>\n\n${"`x` ".repeat(15_000)}\n\n</div>\n\n{{#each contextFiles}}{{content}}\n\n{{/each}}\n`;
    const { unread } = await render(own, "Short.\n");
    expect(unread).toHaveLength(1);
    const message = unread[0]?.message ?? "";
    expect(message).toMatch(/^your file is more than sysprompt's HTML check reads \(over 512 KiB/);
    expect(message).not.toContain("repository");
  });
});
