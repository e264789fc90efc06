import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { MAX_GENERAL_RULES } from "../../src/locate/general-rules.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev50b F7 (HIGH): a trusted project's `.pi/general-rules.md` of 130,000 `- a` lines
// (520 KB, under the file's 1 MiB cap) crashed every render with `RangeError: Maximum call
// stack size exceeded`: `candidates.push(...generalRules)` passed each rule as a call argument,
// and V8's stack holds ~120,000. No list is spread into a call now (pushAll), and the file is
// read up to MAX_GENERAL_RULES rules, a `general-rules-cut` warning at the line it stopped.

describe("hostile repository: a general-rules.md of 130,000 lines", () => {
  it("renders: the first 1,000 rules, a warning at the line where reading stopped, your AGENTS.md", async () => {
    const root = tempDir();
    const distinct = Array.from({ length: 1005 }, (_, i) => `- r${i}\n`).join("");
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "agent/AGENTS.md": "USER-AGENTS-MARKER: answer in French.\n",
      "project/.pi/general-rules.md": `# ours\n${distinct}${"- a\n".repeat(130_000)}`,
    });
    const result = await renderSystemPrompt(pinned(root));
    expect(result.text).toContain("USER-AGENTS-MARKER");
    expect(result.text).toContain("\n- r999 (the repository's .pi/general-rules.md)\n");
    expect(result.text).not.toContain("\n- r1000 ");
    expect(result.diagnostics.filter((d) => d.code === "general-rules-cut")).toEqual([
      {
        level: "warning",
        code: "general-rules-cut",
        message: `more than ${MAX_GENERAL_RULES} general rules: the list is read up to here, this line and the rest of the file are left out`,
        path: join(root, "project/.pi/general-rules.md"),
        line: MAX_GENERAL_RULES + 2,
      },
    ]);
  });
});
