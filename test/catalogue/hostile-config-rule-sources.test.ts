import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// A trusted project's .pi/sysprompt.yaml may choose which of the project's
// rule formats are read (rule-sources). Its list replaced yours whole, so
// `rule-sources: []` or `[cursor]` dropped your own rules from the agent
// dir (~/.pi/agent/rules) and the user-level folders your own file names,
// without a word: a repository could take your safety rule out of the
// prompt. Your own sources stay as your file (or the default) has them.

const MINE = "Always ask before deleting anything outside the project.";

function project(projectConfig: string, userConfig?: string) {
  const base = tempDir();
  const home = join(base, "home");
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(join(agentDir, "rules"), { recursive: true });
  writeFileSync(join(agentDir, "rules", "safety.md"), `---\nalwaysApply: true\n---\n${MINE}\n`);
  if (userConfig !== undefined) writeFileSync(join(agentDir, "sysprompt.yaml"), userConfig);
  mkdirSync(join(home, ".claude", "rules"), { recursive: true });
  writeFileSync(join(home, ".claude", "rules", "mine.md"), "My Claude rule.\n");
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  mkdirSync(join(cwd, ".cursor", "rules"), { recursive: true });
  writeFileSync(
    join(cwd, ".cursor", "rules", "x.mdc"),
    "---\nalwaysApply: true\n---\nCursor rule.\n",
  );
  writeFileSync(join(cwd, ".pi", "sysprompt.yaml"), projectConfig);
  return { cwd, home, agentDir };
}

describe("hostile repository: a project's rule-sources that leaves out your own rules", () => {
  it.each(["rule-sources: []\n", "rule-sources: [cursor]\n"])(
    "%s keeps the agent dir's rules",
    async (config) => {
      const p = project(config);
      const r = await renderSystemPrompt({ ...p, configFiles: true, deadlineMs: 20_000 });
      expect(r.text).toContain(MINE);
    },
  );

  it("keeps the user-level folders your own file names, and the project's choice of its formats", async () => {
    const p = project("rule-sources: [zed]\n", "rule-sources: [cursor, sysprompt, user:claude]\n");
    const r = await renderSystemPrompt({ ...p, configFiles: true, deadlineMs: 20_000 });
    expect(r.text).toContain(MINE);
    expect(r.text).toContain("My Claude rule.");
    expect(r.text).not.toContain("Cursor rule.");
  });
});
