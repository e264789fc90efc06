import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A rule file whose name is not UTF-8 comes out of the listing with U+FFFD and
// opens nothing: it was "rule file not read: gone while being read", sending
// the user looking for a race. Skills, partials and templates of such a name
// say name-not-utf8 and "rename it"; a rule file says the same now.

describe("hostile repository: a rule file whose name is not UTF-8", () => {
  it("is name-not-utf8 at its path, as a skill's is, and the other rules stay", async () => {
    const root = tempDir();
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/good.mdc": "---\nalwaysApply: true\n---\nGOOD-RULE\n",
    });
    const rules = join(root, "project/.cursor/rules");
    mkdirSync(rules, { recursive: true });
    writeFileSync(
      Buffer.concat([Buffer.from(`${rules}/r`), Buffer.from([0xff]), Buffer.from(".mdc")]),
      "---\nalwaysApply: true\n---\nbad-name rule\n",
    );
    const result = await renderSystemPrompt(pinned(root));
    expect(result.text).toContain("GOOD-RULE");
    const about = result.diagnostics.filter((d) => d.path?.includes("r\ufffd.mdc"));
    expect(about).toEqual([
      {
        level: "warning",
        code: "name-not-utf8",
        message:
          "the name of this file is not valid UTF-8 (shown with U+FFFD), so it cannot be opened by that name; rename it",
        path: join(rules, "r\ufffd.mdc"),
      },
    ]);
  });
});
