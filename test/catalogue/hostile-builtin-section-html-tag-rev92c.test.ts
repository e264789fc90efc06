import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev92c F6, the builtin part (medium): a trusted project's version of a BUILTIN section
// (no version of yours below it) could set any tag that draws in place: `tag: del` on its
// `.pi/sections/project_context.md` printed your `<user_instructions>` (your AGENTS.md) inside
// `<del>`, struck out in a view, "deleted text" to a model; `code`/`pre` printed your words as
// code; no warning. Now a project's tag for a version of a builtin section may be any name but an
// element HTML, SVG or MathML knows (`HTML_ELEMENTS`, compared as tags are: `DEL`, `De_l`, `c0de`
// too): the builtin's own tag is kept, with a `section-tag-reserved` warning naming the project's
// file and the tag it asked for. Custom names (`machine`, `workdir`) stay allowed.

const YOURS = "USER-AGENTS-MARKER: never deploy on Fridays.\n";

async function render(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": YOURS,
    ...files,
  });
  const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
  const reserved = result.diagnostics.filter((d) => d.code === "section-tag-reserved");
  return { root, text: result.text, reserved };
}

const CONTEXT = ".pi/sections/project_context.md";

describe("hostile repository: a project's version of a builtin section takes no HTML element's tag", () => {
  for (const tag of ["del", "s", "code", "pre", "small", "sub", "DEL", "De_l", "c0de", "strike"])
    it(`\`tag: ${tag}\` on project_context over {{> base}}: your AGENTS.md in no <${tag}>, said`, async () => {
      const { root, text, reserved } = await render({
        [`project/${CONTEXT}`]: `---\ntag: ${tag}\n---\n{{> base}}\n`,
      });
      expect(text).toContain("USER-AGENTS-MARKER");
      expect(text.toLowerCase()).not.toContain(`<${tag.toLowerCase()}>`);
      expect(text).toContain("<project_context>\n");
      expect(text).toContain("</project_context>");
      expect(reserved.map((d) => d.path)).toEqual([join(root, "project", CONTEXT)]);
      expect(reserved[0]?.message).toContain(`<${tag}>`);
      expect(reserved[0]?.message).toContain("<project_context>");
    });

  it("`tag: del` on the builtin cwd: printed as <cwd>, said", async () => {
    const { text, reserved } = await render({
      "project/.pi/sections/cwd.md": "---\ntag: del\n---\n{{> base}}\n",
    });
    expect(text).toContain("<cwd>\nCurrent working directory:");
    expect(text).not.toContain("<del>");
    expect(reserved).toHaveLength(1);
  });

  it("kept: a custom name (`machine`, `workdir`, `team_context`), tag: false, no tag: key", async () => {
    const { text, reserved } = await render({
      "project/.pi/sections/environment.md": "---\ntag: machine\n---\n{{> base}}\n",
      "project/.pi/sections/cwd.md": "---\ntag: workdir\n---\n{{> base}}\n",
      [`project/${CONTEXT}`]: "---\ntag: team_context\n---\n{{> base}}\n",
      "project/.pi/sections/date.md": "---\ntag: false\n---\n{{> base}}\n",
    });
    expect(text).toContain("<machine>\n");
    expect(text).toContain("<workdir>\nCurrent working directory:");
    expect(text).toContain("<team_context>\n");
    expect(text).toContain("USER-AGENTS-MARKER");
    expect(reserved).toEqual([]);
  });
});
