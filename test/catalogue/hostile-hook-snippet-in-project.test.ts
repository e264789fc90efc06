import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { tempDir } from "../api/_helpers.js";

// `export --hooks` prints a hook command naming the running sysprompt, and
// offers the user-wide settings for it. When that sysprompt is the project's
// own install (`npm i -D sysprompt`, then `npx sysprompt export --hooks`, as
// the README shows), the command is `<project>/node_modules/.bin/sysprompt`:
// a hook in ~/.claude/settings.json would run, in every project, whatever this
// project later puts there (its package.json picks the package behind the
// name; a committed node_modules, a pull). Attack review attack16: the
// snippet offered "~/.claude/settings.json (every project)" with no word of it.

async function exportHooks(cwd: string, self: string, agent = "claude-code") {
  let stdout = "";
  let stderr = "";
  const code = await run(["export", "--agent", agent, "--hooks"], {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: {},
    home: "/nonexistent-home",
    self,
  });
  return { code, stdout, stderr };
}

/** A project with .git and sysprompt installed in its node_modules, the .bin name a link to it. */
function projectInstall(root: string): { project: string; bin: string } {
  const project = join(root, "project");
  const cli = join(project, "node_modules", "sysprompt", "dist", "src", "cli");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(cli, { recursive: true });
  writeFileSync(join(cli, "sysprompt.cjs"), "");
  mkdirSync(join(project, "node_modules", ".bin"));
  const bin = join(project, "node_modules", ".bin", "sysprompt");
  symlinkSync(join(cli, "sysprompt.cjs"), bin);
  mkdirSync(join(project, "src"));
  return { project, bin };
}

describe("hostile-hook-snippet-in-project: a hook naming the project's own sysprompt", () => {
  it("is offered for this project's settings only, with a warning, from any folder of the project", async () => {
    const root = tempDir();
    const { project, bin } = projectInstall(root);
    for (const agent of ["claude-code", "codex", "gemini-cli", "opencode"]) {
      const out = await exportHooks(join(project, "src"), bin, agent);
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `sysprompt: warning: this sysprompt is installed inside the project (${bin})`,
      );
      expect(out.stderr).toContain("npm install -g sysprompt");
    }
  });

  it("a sysprompt outside the project gets no warning", async () => {
    const root = tempDir();
    const { project } = projectInstall(root);
    const out = await exportHooks(
      project,
      "/usr/lib/node_modules/sysprompt/dist/src/cli/sysprompt.cjs",
    );
    expect(out.code).toBe(0);
    expect(out.stderr).not.toContain("warning");
    expect(out.stderr).toContain("(every project)");
  });

  it("a sysprompt run from npm's npx cache gets a warning: the next npx may replace it", async () => {
    // npm names ~/.npm/_npx/<hash> by the spec alone: `npx sysprompt` in a project whose .npmrc
    // names its own registry reinstalls there what that registry calls the latest version.
    const root = tempDir();
    const { project } = projectInstall(root);
    const cli = join(root, "npm", "_npx", "0123456789abcdef", "node_modules", "sysprompt", "dist");
    mkdirSync(cli, { recursive: true });
    writeFileSync(join(cli, "sysprompt.cjs"), "");
    const bin = join(root, "npm", "_npx", "0123456789abcdef", "node_modules", ".bin");
    mkdirSync(bin);
    symlinkSync(join(cli, "sysprompt.cjs"), join(bin, "sysprompt"));
    const out = await exportHooks(project, join(bin, "sysprompt"));
    expect(out.code).toBe(0);
    expect(out.stderr).toContain("sysprompt: warning: this sysprompt runs from npm's npx cache");
    expect(out.stderr).toContain("npm install -g sysprompt");
  });
});
