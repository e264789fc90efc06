import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { ownAgentDir } from "../../src/repo-files/own-folders.js";
import { NOW, tempDir, writeFiles } from "../api/_helpers.js";

// Review rev56a F1 (medium): `--untrusted --agent-dir` naming a folder inside the project was read
// as yours (its link to ~/.ssh followed) when the working folder was named through a link from
// outside the repository into a subfolder of it: the check climbed the written paths (w/c, w, …)
// and found no repository, so the project root was taken to be cwd alone. Now the working folder
// is judged by its real path, as git finds its repository: `agent-dir-in-project`, nothing read.

const MARKER = "SECRET-SSH-MARKER-agent-dir-cwd-link";

function layout() {
  const root = tempDir();
  writeFiles(root, {
    "home/.ssh/id_ed25519": `${MARKER}\n`,
    "R/.git/HEAD": "ref: refs/heads/main\n",
    "R/sub/AGENTS.md": "project sub\n",
    "R/agent/AGENTS.md": "AGENT-DIR-FROM-PROJECT\n@key\n",
  });
  mkdirSync(join(root, "R", ".git", "objects"));
  mkdirSync(join(root, "R", ".git", "refs"));
  symlinkSync(join(root, "home", ".ssh", "id_ed25519"), join(root, "R", "agent", "key"));
  mkdirSync(join(root, "w"));
  symlinkSync("../R/sub", join(root, "w", "c"));
  symlinkSync("../R/agent", join(root, "w", "ag"));
  return { root, home: join(root, "home") };
}

describe("hostile-agent-dir-cwd-link: a named agent dir in the project is refused when cwd is named through a link", () => {
  it("render --untrusted with cwd and agent dir through links (or the agent dir by its real path) reads none of it", async () => {
    const { root, home } = layout();
    for (const agentDir of [join(root, "w", "ag"), join(root, "R", "agent")]) {
      const result = await renderSystemPrompt({
        cwd: join(root, "w", "c"),
        agentDir,
        home,
        env: {},
        now: NOW,
        machine: { platform: "linux", arch: "x64" },
        projectTrusted: false,
      });
      expect(result.text).not.toContain(MARKER);
      expect(result.text).not.toContain("AGENT-DIR-FROM-PROJECT");
      expect(result.diagnostics.map((d) => d.code)).toContain("agent-dir-in-project");
    }
  });

  it("the check itself judges a working folder given through a link by its real path", async () => {
    // Its other callers (config files, `list`, `check`) pass the working folder as given.
    const { root, home } = layout();
    const cwd = join(root, "w", "c");
    const agentDir = join(root, "w", "ag");
    const where = { cwd, home, trusted: false, named: true };
    expect((await ownAgentDir(agentDir, where)).dir).not.toBe(agentDir);
    // An agent dir of yours outside the repository stays yours.
    mkdirSync(join(home, "agent"));
    expect((await ownAgentDir(join(home, "agent"), where)).dir).toBe(join(home, "agent"));
  });
});
