import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";
import { swallowed } from "./_commonmark.js";

// A trusted project's literal `.pi/APPEND_SYSTEM.md` and `.pi/SYSTEM.md` went
// into the prompt as written, never closed: a ```` ``` ```` at the end of
// APPEND_SYSTEM.md put the user's own AGENTS.md and every later section in a
// code block (review rev34c, 8-trusted-layer.sh). They now get the closer
// every other repository text gets. SYSTEM.md replaces the base prompt by
// design; what follows it is still the prompt's.

const ENDINGS: Record<string, string> = {
  "a fence": "Appended by the repository.\n\n```\n",
  "a comment": "Appended by the repository.\n\n<!-- notes\n",
  "an HTML block that runs to its end tag": "Appended.\n\n<pre>\nmake\n",
};

describe("hostile repository: a trusted project's APPEND_SYSTEM.md or SYSTEM.md leaves nothing open", () => {
  for (const [name, text] of Object.entries(ENDINGS)) {
    for (const file of ["APPEND_SYSTEM.md", "SYSTEM.md"]) {
      it(`${file} that ends in ${name}`, async () => {
        const root = tempDir();
        writeFiles(root, {
          "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
          "project/.git/HEAD": "ref: refs/heads/main\n",
          "project/AGENTS.md": "Repo notes.\n",
          [`project/.pi/${file}`]: text,
        });
        const result = await renderSystemPrompt(pinned(root, { projectTrusted: true }));
        expect(result.text).toContain("Appended");
        expect(result.text).toContain("USER-AGENTS-MARKER");
        expect(swallowed(result.text, "USER-AGENTS-MARKER")).toBe(false);
        expect(swallowed(result.text, "Current working directory")).toBe(false);
      });
    }
  }
});
