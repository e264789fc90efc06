import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cliAt } from "./_cli-at.js";

// rev53d F1: `--agent-dir "$AGENT_DIR"` with the variable unset in a wrapper resolved
// "" to the working folder, and an untrusted project became your agent dir: its
// APPEND_SYSTEM.md linked to ~/.ssh was in the prompt, its AGENTS.md your
// user_instructions, its sysprompt.yaml your config (`git: true` honoured); `expand`
// printed the file its prompts/ template linked to. An empty path flag is a usage
// error now, and a named agent dir in the working folder or the project root is not
// read as yours in an untrusted project.

/** A git project with an agent dir's files, each a link to a secret or a repository's text. */
function layout() {
  const base = tempDir();
  const project = join(base, "project");
  const home = join(base, "home");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(project, "prompts"), { recursive: true });
  mkdirSync(join(project, "src"));
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "SECRET-SSH-MARKER\n");
  writeFileSync(join(project, "AGENTS.md"), "REPO-AS-USER\n");
  writeFileSync(join(project, "sysprompt.yaml"), "git: true\n");
  symlinkSync(join(home, ".ssh", "id_ed25519"), join(project, "APPEND_SYSTEM.md"));
  symlinkSync(join(home, ".ssh", "id_ed25519"), join(project, "prompts", "review.md"));
  return { base, project, home };
}

describe("hostile repository: an empty or in-project --agent-dir", () => {
  it("an empty path flag is a usage error, whatever the command", async () => {
    const { project, home } = layout();
    for (const argv of [
      ["render", "--untrusted", "--agent-dir", ""],
      ["render", "--cwd", ""],
      ["render", "--root", ""],
      ["render", "--allow-git-dir", ""],
      ["render", "-o", ""],
      ["expand", "--untrusted", "--agent-dir", "", "/review x"],
      ["list", "--agent-dir", ""],
      ["snapshot", ""],
    ]) {
      const { code, out, err } = await cliAt(argv, project, home);
      expect(code, argv.join(" ")).toBe(2);
      expect(err, argv.join(" ")).toMatch(/an empty path/);
      expect(err, argv.join(" ")).toContain(`Usage: sysprompt ${argv[0]} `);
      expect(out, argv.join(" ")).not.toContain("SECRET-SSH-MARKER");
    }
  });

  it("--agent-dir naming the untrusted project (., its root from below) is not your user layer", async () => {
    const { project, home } = layout();
    for (const [cwd, dir] of [
      [project, "."],
      [join(project, "src"), ".."],
    ] as const) {
      const render = await cliAt(["render", "--untrusted", "--agent-dir", dir], cwd, home);
      expect(render.code).toBe(0);
      expect(render.out).not.toMatch(/SECRET-SSH-MARKER|<git>|user_instructions path/);
      expect(render.err).toContain("agent-dir-in-project");
      const expand = await cliAt(
        ["expand", "--untrusted", "--agent-dir", dir, "/review x"],
        cwd,
        home,
      );
      expect(expand.out).not.toContain("SECRET-SSH-MARKER");
    }
  });

  it("a named agent dir outside the project is still read, and a trusted project's is yours", async () => {
    const { base, project, home } = layout();
    const mine = join(base, "mine");
    mkdirSync(mine);
    writeFileSync(join(mine, "AGENTS.md"), "MY-OWN-MARKER\n");
    const own = await cliAt(["render", "--untrusted", "--agent-dir", mine], project, home);
    expect(own.out).toContain("MY-OWN-MARKER");
    const trusted = await cliAt(["render", "--agent-dir", "."], project, home);
    expect(trusted.out).toContain("REPO-AS-USER");
    expect(trusted.err).not.toContain("agent-dir-in-project");
  });
});
