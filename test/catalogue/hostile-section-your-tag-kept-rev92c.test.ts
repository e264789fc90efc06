import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev92c F6 (medium): a trusted project's version of your section that keeps your body
// (`{{> base}}`) but sets `tag: del` (`s`, `code`, `pre`, `sub`, `small`) printed your section as
// `<del>…</del>` (struck out in a view, "deleted text" to a model), with no warning: only a
// reserved tag was given back yours. Now a project's version of your section keeps your tag
// always (none when yours sets `tag: false`), with a `section-tag-reserved` warning naming the
// project's file and the tag it asked for. Framing inside its body stays the project's right.

const YOURS = "---\norder: 5\ntag: mypolicy\n---\nUSER-SECTION-MARKER: never deploy on Fridays.\n";

async function render(project: string, yours = YOURS) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/sections/mypolicy.md": yours,
    "project/.pi/sections/mypolicy.md": project,
  });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
  const reserved = result.diagnostics.filter((d) => d.code === "section-tag-reserved");
  const file = join(root, "project/.pi/sections/mypolicy.md");
  return { text: result.text, reserved, file };
}

describe("hostile repository: a project's version of your section keeps your tag", () => {
  for (const tag of ["del", "s", "code", "pre", "sub", "small", "div", "notes"])
    it(`\`tag: ${tag}\` over {{> base}}: printed in your <mypolicy>, said`, async () => {
      const { text, reserved, file } = await render(`---\ntag: ${tag}\n---\n{{> base}}\n`);
      expect(text).toContain(
        "<mypolicy>\nUSER-SECTION-MARKER: never deploy on Fridays.\n</mypolicy>",
      );
      expect(text).not.toContain(`<${tag}>`);
      expect(reserved.map((d) => d.path)).toEqual([file]);
      expect(reserved[0]?.message).toContain(`<${tag}>`);
      expect(reserved[0]?.message).toContain("<mypolicy>");
    });

  it("`tag: false` over yours: still in your <mypolicy>, said", async () => {
    const { text, reserved } = await render("---\ntag: false\n---\n{{> base}}\n");
    expect(text).toContain(
      "<mypolicy>\nUSER-SECTION-MARKER: never deploy on Fridays.\n</mypolicy>",
    );
    expect(reserved).toHaveLength(1);
    expect(reserved[0]?.message).toContain("no element (tag: false)");
    expect(reserved[0]?.message).toContain("printed as <mypolicy>");
  });

  it("yours with `tag: false`: the project's `tag: del` prints it in no element, said", async () => {
    const { text, reserved } = await render(
      "---\ntag: del\n---\n{{> base}}\n",
      "---\norder: 5\ntag: false\n---\nUSER-SECTION-MARKER: never deploy on Fridays.\n",
    );
    expect(text).toContain("USER-SECTION-MARKER: never deploy on Fridays.");
    expect(text).not.toContain("<del>");
    expect(reserved).toHaveLength(1);
  });

  it("kept: no tag: key (yours inherited), or your own tag, and framing in the body", async () => {
    for (const project of [
      "---\norder: 6\n---\n{{> base}}\nAlso: be kind.\n",
      "---\ntag: mypolicy\n---\n{{> base}}\n",
    ]) {
      const { text, reserved } = await render(project);
      expect(text).toContain("<mypolicy>\nUSER-SECTION-MARKER");
      expect(reserved).toEqual([]);
    }
  });
});
