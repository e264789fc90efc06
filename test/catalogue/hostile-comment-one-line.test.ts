import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A file's text that leaves an HTML comment open gets a `-->` line inside its
// element; the one-line values a repository chooses did not: an on-demand
// rule's description of `<!-- hidden` (its list line), a folder named `<!--`
// holding an AGENTS.md (the AGENTS.md list) or a working directory below such
// a folder (the cwd line) left the comment open over every section after it,
// for a reader that takes a comment to run to its `-->`. A line has no room
// for a closing line: the opener is written `&lt;!--`.

/** True when the last `<!--` of `text` is never closed. */
function openComment(text: string): boolean {
  const open = text.lastIndexOf("<!--");
  return open !== -1 && text.lastIndexOf("-->") < open + 2;
}

describe("hostile repository: a one-line value cannot open an HTML comment", () => {
  it("a rule's description, a folder in the AGENTS.md list and the cwd's path open none", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/api.mdc":
        '---\ndescription: "<!-- the rest is a draft"\nglobs: "api/**"\n---\nUse REST.\n',
      "project/<!--/AGENTS.md": "Nested.\n",
      "project/work/<!--/app/index.ts": "",
    });
    for (const cwd of ["project", "project/work/<!--/app"]) {
      const result = await renderSystemPrompt(
        pinned(root, { cwd: join(root, cwd), projectTrusted: false, workspaceTree: true }),
      );
      for (const s of result.sections) {
        expect([s.name, openComment(s.text)]).toEqual([s.name, false]);
      }
      if (cwd === "project") {
        expect(result.text).toContain("(api/**): &lt;!-- the rest is a draft — ");
        expect(result.text).toContain("- &lt;!--/AGENTS.md");
      } else {
        expect(result.text).toContain("/work/&lt;!--/app");
      }
    }
  });
});
