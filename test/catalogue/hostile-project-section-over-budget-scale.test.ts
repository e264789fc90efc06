import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev66e F7: a trusted project's sections past the sections' check budget (three of 262 KB,
// nothing left open) had every `<` written `&lt;` and got a false `project-section-open` ("leaves a
// fenced code block, an HTML block, a comment or an element no reader shows open at its end"),
// with no word of the budget. A section or partial its fallback wrote as text now says so, in the
// budget's wording when the budget was spent; only a real closer gives project-section-open.

const body = (name: string) =>
  `---\norder: 5\ntag: false\n---\n${`Project words ${name} <b>here</b>.\n`.repeat(9_000)}`;

describe("hostile repository: a project's section past the check's budget is not said to be open", () => {
  it("three 262 KB sections, nothing left open", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/sections/pa.md": body("a"),
      "project/.pi/sections/pb.md": body("b"),
      "project/.pi/sections/pc.md": body("c"),
    });
    const out = await renderSystemPrompt(
      pinned(root, { projectTrusted: true, deadlineMs: 60_000 }),
    );
    expect(out.text).toContain("&lt;b>here");
    expect(out.diagnostics.filter((d) => d.code === "project-section-open")).toEqual([]);
    const said = out.diagnostics.filter((d) => d.code === "project-section-markup-as-text");
    expect(said.length).toBeGreaterThan(0);
    // The last one is past the budget, and says so; one before it may fall back by the renderer's meter.
    expect(said.at(-1)?.message).toContain("spent its budget");
    expect(said.at(-1)?.message).toContain('section "pc"');
  }, 60_000);
});
