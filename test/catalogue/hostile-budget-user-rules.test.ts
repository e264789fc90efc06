import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// Fitting a token budget cut the always rules outermost first, by their
// path's depth alone, and took every on-demand rule's description out at
// once. Your rule folder (~/.pi/agent/rules) is shallower than a project's
// `.cursor/rules/a/b/c/d/e`: an untrusted repository whose deep rule filled
// the budget kept its rule and cut yours, and its on-demand rules took your
// rule's description out with theirs. The repository's go first now, as
// context files do.

const USER_RULE =
  "MINE: never force-push to any branch; ask before deleting files, rewriting history or running migrations against anything but a local database.";
const USER_DESCRIPTION = "MINE-DESCRIPTION: how to write SQL migrations here";

describe("hostile repository: the token budget cuts the repository's rules before yours", () => {
  it("a deep repository rule that fills the budget is cut, your shallower rule kept", async () => {
    const root = tempDir();
    const padding = Array.from({ length: 3 }, (_, i) =>
      `Paragraph ${i}: ${"alpha beta gamma delta ".repeat(15)}`.trim(),
    ).join("\n\n");
    writeFiles(root, {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.cursor/rules/a/b/c/d/e/big.mdc": `---\nalwaysApply: true\n---\n${padding}\n`,
      "project/.cursor/rules/a/b/c/d/e/sql.mdc": `---\ndescription: ${"theirs ".repeat(30)}\nglobs: "db/**"\n---\nSQL.\n`,
      "agent/rules/mine.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
      "agent/rules/sql.md": `---\ndescription: "${USER_DESCRIPTION}"\nglobs: "migrations/**"\n---\nUse reversible migrations.\n`,
    });
    const options = pinned(root, { projectTrusted: false });
    const whole = await renderSystemPrompt({ ...options, maxPromptTokens: 1_000_000 });
    expect(whole.text).toContain(USER_RULE);
    const initial = whole.budget?.initialTokens ?? 0;
    expect(initial).toBeGreaterThan(0);
    // A budget a little under the whole prompt: one rule (or the descriptions) must go.
    const fitted = await renderSystemPrompt({ ...options, maxPromptTokens: initial - 40 });
    expect(fitted.budget?.fits).toBe(true);
    expect(fitted.text).toContain(USER_RULE);
    expect(fitted.text).toContain(USER_DESCRIPTION);
    expect(fitted.text).not.toContain("Paragraph 1:");
  });
});
