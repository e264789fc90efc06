import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// A 40-byte rule file whose flag is a YAML alias of itself (`alwaysApply: &a
// [*a]`) made a list that holds itself; the flag's warning quoted it with
// JSON.stringify, which threw, and the whole rule-files step failed: every
// rule went, the user's too, with no path or line. A list is no flag now:
// one located warning, the file read as not always, every other rule kept.

const USER_RULE = "MINE: never force-push to any branch.";

// Continue's `invokable` is read for its value alone (its warning is not shown).
const CASES: [string, string, string, boolean][] = [
  ["cursor alwaysApply", ".cursor/rules/x.mdc", "alwaysApply", true],
  ["continue alwaysApply", ".continue/rules/x.md", "alwaysApply", true],
  ["continue invokable", ".continue/rules/x.md", "invokable", false],
];

describe("hostile repository: a rule flag that is a list holding itself", () => {
  for (const trusted of [false, true]) {
    for (const [name, file, key, warned] of CASES) {
      it(`${name} (${trusted ? "trusted" : "untrusted"}): one located warning, your rule kept`, async () => {
        const root = tempDir();
        writeFiles(root, {
          "project/.git/HEAD": "ref: refs/heads/main\n",
          [`project/${file}`]: `---\n${key}: &a [*a]\n---\nrepository rule\n`,
          "agent/rules/mine.md": `---\nalwaysApply: true\n---\n${USER_RULE}\n`,
        });
        const result = await renderSystemPrompt(pinned(root, { projectTrusted: trusted }));
        expect(result.text).toContain(USER_RULE);
        expect(result.diagnostics.filter((d) => d.code === "step-failed")).toEqual([]);
        const flagged = result.diagnostics.filter((d) => d.code === "rule-flag-ambiguous");
        if (!warned) return expect(flagged).toEqual([]);
        expect(flagged).toEqual([
          expect.objectContaining({
            level: "warning",
            message: `${key}: a list is not true or false; read as false`,
            line: 2,
            column: 1,
          }),
        ]);
        expect(flagged[0]?.path).toMatch(new RegExp(`${file.replace(/\./g, "\\.")}$`));
      });
    }
  }
});
