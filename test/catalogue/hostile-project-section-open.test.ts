import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// Review rev43c (F3, low-medium): a trusted project's new section, or its
// partial over one of yours, that ends with a fence, a comment or `<pre>`
// left open put every section after it (your AGENTS.md, rules, skills, the
// working directory) in one code block, comment or HTML block, with no
// word; a project's SYSTEM.md was closed already. Now a project's section
// and partial are closed at their end too, and a `project-section-open`
// warning names the file. A section's tags stay raw: a trusted project's
// body may write them by design.

// A `<script>` start tag is written `&lt;` since rev82f F4 (it draws nothing in place), with
// page-tag-escaped: nothing is left open. `<details>`, kept, is left open and closed.
const ENDINGS = ["```", "~~~~", "<!--", "<pre>", "<details>", "<script>"];

/** The warning a text ending in `ending` gets: the closers', or the draw-in-place reading's. */
const said = (ending: string) =>
  ending === "<script>" ? "page-tag-escaped" : "project-section-open";

async function render(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
    ...files,
  });
  return renderSystemPrompt(pinned(root, { projectTrusted: true }));
}

function unclosedComment(text: string): boolean {
  const open = text.lastIndexOf("<!--");
  return open !== -1 && text.indexOf("-->", open) === -1;
}

describe("hostile repository: a trusted project's section or partial leaves nothing open", () => {
  for (const tag of ["tag: false", "tag: team"]) {
    it.each(ENDINGS)(`a project's section (${tag}) that ends with %j`, async (ending) => {
      const result = await render({
        "project/.pi/sections/psec.md": `---\norder: 5\n${tag}\n---\nTeam conventions follow.\n\n${ending}\n`,
      });
      expect(result.text).toContain("Team conventions follow.");
      for (const needle of ["USER-AGENTS-MARKER", "Current working directory"])
        expect(swallowed(result.text, needle), needle).toBe(false);
      expect(unclosedComment(result.text)).toBe(false);
      const warning = result.diagnostics.find((d) => d.code === said(ending));
      expect(warning?.path).toMatch(/psec\.md$/);
    });
  }

  it.each(ENDINGS)("a project's partial over yours that ends with %j", async (ending) => {
    const result = await render({
      "agent/sections/usec.md": "---\norder: 5\n---\nTeam:\n\n{{> notes}}\n\nEnd of team notes.\n",
      "agent/partials/notes.md": "Your notes.\n",
      "project/.pi/partials/notes.md": `Project notes.\n\n${ending}\n`,
    });
    expect(result.text).toContain("Project notes.");
    for (const needle of ["End of team notes.", "USER-AGENTS-MARKER", "Current working directory"])
      expect(swallowed(result.text, needle), needle).toBe(false);
    expect(unclosedComment(result.text)).toBe(false);
    const warning = result.diagnostics.find((d) => d.code === said(ending));
    if (ending === "<script>") expect(warning?.path).toMatch(/notes\.md$/);
    else expect(warning?.message).toContain('partial "notes"');
  });

  it("your own section that ends with a fence is yours: no warning, printed as written", async () => {
    const result = await render({
      "agent/sections/usec.md": "---\norder: 5\n---\nMine.\n\n```\n",
    });
    expect(result.text).toContain("Mine.\n\n```\n</usec>");
    expect(result.diagnostics.some((d) => d.code === "project-section-open")).toBe(false);
  });
});
