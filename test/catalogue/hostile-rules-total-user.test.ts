import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// Rule files of every source share one byte total (1 MiB) and one count
// (1,000), decided in prompt order, where a project's Cursor rules come
// before the user's Claude rules. An untrusted project's four Cursor rules
// of 256 KiB filled the total, and the user's own ~/.claude/rules/safety.md
// was left unread (rule-over-cap): the repository took the user's rule out
// of the prompt. The user's files now take their part of the totals first.

const USER_RULE = "Never run terraform apply without asking me first.";

function world(): string {
  const root = tempDir();
  const files: Record<string, string> = {
    "home/.claude/rules/safety.md": `${USER_RULE}\n`,
    "project/.git/HEAD": "ref: refs/heads/main\n",
  };
  for (let i = 0; i < 5; i++) {
    files[`project/.cursor/rules/r${i}.mdc`] =
      `---\nalwaysApply: true\n---\n${`rule ${i} words. `.repeat(20_000)}\n`;
  }
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("hostile repository: the project's rule files cannot use up the user's part of the totals", () => {
  for (const projectTrusted of [false, true]) {
    it(`${projectTrusted ? "trusted" : "untrusted"}: the user's rule is read, a project file is left out`, async () => {
      const root = world();
      const result = await renderSystemPrompt(
        pinned(root, { projectTrusted, ruleSources: ["cursor", "user:claude"] }),
      );
      const rules = result.sections.find((s) => s.name === "project_rules")?.text ?? "";
      expect(rules).toContain(USER_RULE);
      const overCap = result.diagnostics.filter((d) => d.code === "rule-over-cap");
      expect(overCap.map((d) => d.path)).not.toContain(join(root, "home/.claude/rules/safety.md"));
      expect(overCap.length).toBeGreaterThan(0);
    });
  }
});
