import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// The sixth review kept your own rules when a project's sysprompt.yaml
// narrows rule-sources. A trusted project's preset (.pi/agents/pi.yaml,
// read even when no agent is named) says which rule sources the agent loads
// itself, and those are never read, at project and user level: a
// `loadsItself: { ruleSources: [sysprompt] }` dropped ~/.pi/agent/rules from
// the prompt, and `[claude]` your own user:claude folder, without a word.
// A project's preset now leaves out only the project's own formats.

const MINE = "Always ask before deleting anything outside the project.";

function project(loads: string) {
  const base = tempDir();
  const home = join(base, "home");
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(join(agentDir, "rules"), { recursive: true });
  writeFileSync(join(agentDir, "rules", "safety.md"), `---\nalwaysApply: true\n---\n${MINE}\n`);
  writeFileSync(
    join(agentDir, "sysprompt.yaml"),
    "rule-sources: [sysprompt, cursor, user:claude]\n",
  );
  mkdirSync(join(home, ".claude", "rules"), { recursive: true });
  writeFileSync(join(home, ".claude", "rules", "mine.md"), "My Claude rule.\n");
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(cwd, ".pi", "agents"), { recursive: true });
  mkdirSync(join(cwd, ".cursor", "rules"), { recursive: true });
  writeFileSync(
    join(cwd, ".cursor", "rules", "x.mdc"),
    "---\nalwaysApply: true\n---\nCursor rule.\n",
  );
  writeFileSync(
    join(cwd, ".pi", "agents", "pi.yaml"),
    `description: the project's pi\nloadsItself:\n  ruleSources: ${loads}\n`,
  );
  return { cwd, home, agentDir };
}

describe("hostile repository: a project's preset that says the agent loads your rules itself", () => {
  it("keeps the agent dir's rules and your user-level folders, with a warning", async () => {
    const p = project("[sysprompt, claude]");
    const r = await renderSystemPrompt({ ...p, configFiles: true, deadlineMs: 20_000 });
    expect(r.text).toContain(MINE);
    expect(r.text).toContain("My Claude rule.");
    expect(r.diagnostics.map((d) => d.code)).toContain("preset-project-rule-sources");
  });

  it("still leaves out the project's own formats it names", async () => {
    const p = project("[cursor]");
    const r = await renderSystemPrompt({ ...p, configFiles: true, deadlineMs: 20_000 });
    expect(r.text).toContain(MINE);
    expect(r.text).not.toContain("Cursor rule.");
  });
});
