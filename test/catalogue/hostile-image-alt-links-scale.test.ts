import { describe, expect, it } from "vitest";
import { closeOpenBlocks, hostClosingAfter } from "../../src/_fence.js";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev68e F2: inside an image's alt text commonmark's renderer writes no tag, yet each link
// there still has its destination and title escaped (`link()` computes the `href` that `tag()`
// then drops): one definition `[x]: /` + 40,000 `&`, used 20,000 times in images' alt text,
// escaped 8e8 characters while the meter counted only what was written. A 100 KB tool result
// held `hostClosingAfter` 16.6 s of CPU; a trusted project's section of the shape the render
// 17.9 s. The meter now counts what a link in alt text escapes against the HTML bound: such a
// text is not verified. Bounds are generous for CI load: each case took 6-18 s before.
const altLinks = (length: number, uses: number, images: number) =>
  `[x]: /${"&".repeat(length)}\n\n${`![${"[x]".repeat(uses)}](y)\n\n`.repeat(images)}`;

describe("hostile repository: links in an image's alt text cost the meter what they escape", () => {
  closeOpenBlocks("a <!X\n\n<div hidden>"); // warmed: the renderer's first load is not the bound

  it("a tool result in pi or opencode, 100 KB: under 1 s of CPU, nothing appended", async () => {
    const result = `${altLinks(40_000, 100, 200)}<div hidden>\n`;
    const { cpuMs, value } = await cpuTimed(() => hostClosingAfter(result));
    expect(cpuMs).toBeLessThan(1000);
    expect(value).toBeUndefined();
  });

  it("a trusted project's section, 60 KB: the render under 2 s of CPU, its markup as text", async () => {
    const plain = tempDir();
    writeFiles(plain, { "project/.git/HEAD": "ref: refs/heads/main\n" });
    await renderSystemPrompt(pinned(plain, { projectTrusted: true })); // warmed
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/notes.md": `${altLinks(30_000, 100, 100)}<b>REPO-BOLD</b>\n`,
    });
    const { cpuMs, value } = await cpuTimed(() =>
      renderSystemPrompt(pinned(root, { projectTrusted: true })),
    );
    expect(cpuMs).toBeLessThan(2000);
    expect(value.text).not.toContain("<b>REPO-BOLD");
    expect(value.diagnostics.map((d) => d.code)).toContain("project-section-markup-as-text");
  });

  it("a few links in alt text with short destinations are verified", () => {
    const text = `[x]: /a&b "t&t"\n\n![see [x] and [y](/z)](i.png)\n\n<b>x</b>\n`;
    expect(hostClosingAfter(text)).toBe("");
  });
});
