import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir } from "../api/_helpers.js";

// A trusted project's `.pi/sysprompt.yaml` may say which agent the prompt is
// for (`agent: claude-code`), and the claude-code preset leaves out the rule
// sources Claude Code loads itself, your `user:claude` folder (~/.claude/rules)
// too: by design, the agent would read them twice. But a plain `render` (the
// prompt for pi, as you use it) dropped your rule with no word on stderr; only
// `explain` said so. A warning at the project's `agent:` line now says which
// of your sources it took out and how to have them back (review rev47d F1).

const MINE = "MY-CLAUDE-USER-RULE always";

function project(projectConfig: string) {
  const base = tempDir();
  const home = join(base, "home");
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "sysprompt.yaml"), "rule-sources: [user:claude, claude, cursor]\n");
  mkdirSync(join(home, ".claude", "rules"), { recursive: true });
  writeFileSync(join(home, ".claude", "rules", "mine.md"), `${MINE}\n`);
  const cwd = join(base, "repo");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(join(cwd, ".pi"));
  writeFileSync(join(cwd, "AGENTS.md"), "# repo\n");
  writeFileSync(join(cwd, ".pi", "sysprompt.yaml"), projectConfig);
  return { cwd, home, agentDir, configFiles: true, env: {}, deadlineMs: 20_000 };
}

const notices = (r: { diagnostics: readonly { code: string }[] }) =>
  r.diagnostics.filter((d) => d.code === "config-project-agent-user-rules");

describe("hostile repository: a project's agent: that takes out your user:claude rules", () => {
  it("says so at the project's agent: line, naming your source", async () => {
    const p = project("model: x\nagent: claude-code\n");
    const r = await renderSystemPrompt(p);
    expect(r.text).not.toContain(MINE);
    expect(notices(r)).toEqual([
      {
        level: "warning",
        code: "config-project-agent-user-rules",
        message:
          "agent: claude-code (the project's) leaves out your rule sources user:claude, which claude-code loads itself: the prompt is for claude-code; for another agent, give --agent NAME (the project's agent: then does not count) and your rules are back",
        path: join(p.cwd, ".pi", "sysprompt.yaml"),
        line: 2,
      },
    ]);
  });

  it("says nothing when you chose the agent, or the project's agent keeps your rules", async () => {
    const chosen = await renderSystemPrompt({ ...project("agent: claude-code\n"), agent: "pi" });
    expect(chosen.text).toContain(MINE);
    expect(notices(chosen)).toEqual([]);
    const codex = await renderSystemPrompt(project("agent: codex\n"));
    expect(codex.text).toContain(MINE);
    expect(notices(codex)).toEqual([]);
  });
});
