import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadContextFiles } from "../../src/gather/context/context-files.js";
import { tempDir } from "../api/_helpers.js";

/** `<root>/home/.ssh/id_rsa` (the user's key) and `<root>/agent`, beside whatever the test builds. */
function world(): { root: string; home: string; agent: string } {
  const root = tempDir();
  const home = join(root, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----");
  writeFileSync(join(home, "notes.md"), "The user's notes.");
  const agent = join(root, "agent");
  mkdirSync(agent);
  return { root, home, agent };
}

const outside = (path: string, written: string, target: string, where: string) => ({
  level: "warning",
  code: "import-outside",
  message: `${written}: not imported: it resolves to ${target}, outside ${where}; left as written`,
  path,
  line: 1,
  column: 1,
});

describe("context files above the project root", () => {
  for (const projectTrusted of [true, false]) {
    it(`an archive without .git cannot import from home (${projectTrusted ? "trusted" : "untrusted"})`, async () => {
      const { root, home, agent } = world();
      const evil = join(root, "evil");
      mkdirSync(join(evil, "sub"), { recursive: true });
      writeFileSync(join(evil, "AGENTS.md"), "@~/.ssh/id_rsa\n");
      const result = await loadContextFiles({
        cwd: join(evil, "sub"),
        agentDir: agent,
        home,
        projectTrusted,
      });
      expect(result).toEqual({
        files: [{ path: `${evil}/AGENTS.md`, content: "@~/.ssh/id_rsa", origin: "project" }],
        diagnostics: [
          outside(
            join(evil, "AGENTS.md"),
            "@~/.ssh/id_rsa",
            join(home, ".ssh", "id_rsa"),
            `the project root ${evil}`,
          ),
        ],
      });
    });
  }

  it("a superproject's AGENTS.md seen from a submodule (a .git file) stays in the superproject", async () => {
    const { root, home, agent } = world();
    const repo = join(root, "repo");
    mkdirSync(join(repo, ".git", "modules", "sub"), { recursive: true });
    mkdirSync(join(repo, "sub"));
    writeFileSync(join(repo, "sub", ".git"), "gitdir: ../.git/modules/sub\n");
    mkdirSync(join(repo, "docs"));
    writeFileSync(join(repo, "docs", "style.md"), "Tabs, not spaces.");
    writeFileSync(join(repo, "AGENTS.md"), "@~/notes.md\n@./docs/style.md\n");
    writeFileSync(join(repo, "sub", "AGENTS.md"), "@../docs/style.md\n");
    const result = await loadContextFiles({ cwd: join(repo, "sub"), agentDir: agent, home });
    expect(result).toEqual({
      files: [
        {
          path: `${repo}/AGENTS.md`,
          content: "@~/notes.md\nTabs, not spaces.",
          origin: "project",
        },
        { path: `${repo}/sub/AGENTS.md`, content: "@../docs/style.md", origin: "project" },
      ],
      diagnostics: [
        outside(
          join(repo, "AGENTS.md"),
          "@~/notes.md",
          join(home, "notes.md"),
          `the project root ${repo}`,
        ),
        outside(
          join(repo, "sub", "AGENTS.md"),
          "@../docs/style.md",
          join(repo, "docs", "style.md"),
          `the project root ${join(repo, "sub")}`,
        ),
      ],
    });
  });

  it("the user's own file in the agent dir still imports from home", async () => {
    const { root, home, agent } = world();
    writeFileSync(join(agent, "AGENTS.md"), "@~/notes.md\n");
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    const result = await loadContextFiles({
      cwd: project,
      agentDir: agent,
      home,
      projectTrusted: false,
    });
    expect(result).toEqual({
      files: [{ path: `${agent}/AGENTS.md`, content: "The user's notes.", origin: "user" }],
      diagnostics: [],
    });
  });
});
