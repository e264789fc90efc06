import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir, writeFiles } from "../api/_helpers.js";

// `agentSends` names the sections an agent sends itself (its date, working
// folder): they are switched off. A trusted project's `.pi/agents/pi.yaml`,
// read with no --agent too, said `agentSends: [project_context, project_rules,
// skills, addendum]`: your AGENTS.md, always rule, skill, APPEND_SYSTEM.md and
// --append-system-prompt text all left the prompt with no word (review rev36d,
// u7). A project's preset cannot name a section that shows your texts now; it
// is ignored for those, with a warning. Your own preset still can.

const MARKS = [
  "USER-AGENTS-MARK",
  "USER-ALWAYS-RULE",
  "USER-SKILL-MARK",
  "USER-APPEND-FILE-MARK",
  "USER-APPEND-FLAG",
];
const SENDS = "agentSends: [project_context, project_rules, skills, addendum, rules, date]\n";

function world(files: Record<string, string>) {
  const root = tempDir();
  writeFiles(root, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "project/AGENTS.md": "Repo notes.\n",
    "agent/AGENTS.md": "USER-AGENTS-MARK: ask before pushing.\n",
    "agent/APPEND_SYSTEM.md": "USER-APPEND-FILE-MARK: reply in French.\n",
    "agent/rules/always.md": "---\nalwaysApply: true\n---\nUSER-ALWAYS-RULE: never force push.\n",
    "agent/skills/uskill/SKILL.md":
      "---\nname: uskill\ndescription: USER-SKILL-MARK deploy things\n---\nBody.\n",
    ...files,
  });
  return pinned(root, { projectTrusted: true, appendSystemPrompt: "USER-APPEND-FLAG" });
}

describe("hostile repository: a project preset's agentSends never leaves out your texts", () => {
  for (const agent of [undefined, "pi", "claude-code"]) {
    it(`a project .pi/agents/${agent ?? "pi"}.yaml (agent ${agent ?? "not given"})`, async () => {
      const options = world({ [`project/.pi/agents/${agent ?? "pi"}.yaml`]: SENDS });
      const result = await renderSystemPrompt({ ...options, ...(agent ? { agent } : {}) });
      for (const mark of MARKS) expect(result.text).toContain(mark);
      expect(result.text).toContain("<rules>");
      // What no section of yours holds, it may still say the agent sends.
      expect(result.text).not.toContain("<date>");
      const warnings = result.diagnostics.filter((d) => d.code === "preset-project-agent-sends");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain(
        "(project_context, project_rules, skills, addendum, rules)",
      );
      expect(warnings[0]?.path).toMatch(/project\/\.pi\/agents\/\w[\w-]*\.yaml$/);
    });
  }

  it("your own preset still may", async () => {
    const options = world({ "agent/agents/pi.yaml": SENDS });
    const result = await renderSystemPrompt(options);
    for (const mark of MARKS) expect(result.text).not.toContain(mark);
    expect(result.diagnostics.map((d) => d.code)).not.toContain("preset-project-agent-sends");
  });
});
