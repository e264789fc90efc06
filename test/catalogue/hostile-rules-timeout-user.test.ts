import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { denseFile } from "./_dense-yaml.js";

// The rule-files step reads the user's rules and the project's together; a
// repository's rule files of dense YAML frontmatter (32 of 32 KiB, within
// every cap: seconds of parsing) made the step miss the deadline, and its
// fallback (no rules) took the user's own always rule out of the prompt with
// the project's. The user's files are now parsed first, and a late step
// gives what it has of them.

const USER_RULE = "Never push to main without asking me.";

describe("hostile repository: slow rule files do not take the user's rules out with them", () => {
  it("a rule-files step late on the project's files keeps the user's always rule", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "home/.pi/agent/rules/own.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
      "project/.git/HEAD": "ref: refs/heads/main\n",
    };
    for (let i = 0; i < 32; i++) {
      files[`project/.cursor/rules/r${i}.mdc`] = denseFile("alwaysApply: true\n", `Rule ${i}.`);
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const options = { projectTrusted: false, agentDir: join(root, "home/.pi/agent") };
    // What every render loads first (the YAML parser among it), so the deadline is the rules'.
    await renderSystemPrompt(pinned(tempDir(), options));
    // Seconds of the project's parsing against a deadline of one: the user's file is parsed in ms.
    const result = await renderSystemPrompt(pinned(root, { ...options, deadlineMs: 1000 }));
    // The premise: the step was late.
    const late = result.diagnostics.find((d) => d.code === "step-timeout");
    expect(late?.message).toContain('"rule-files"');
    expect(result.text).toContain(USER_RULE);
  });
});
