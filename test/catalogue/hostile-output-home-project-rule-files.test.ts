import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev103b F2 (medium): a project inside your home folder (`~/code/app`, a git repository)
// could not write its own rule files with -o: `.cursorrules`, `.github/copilot-instructions.md`,
// `.cursor/rules/x.mdc` were refused as your home's configuration, --force or not: the home's
// dot-name rule read a dot name anywhere below the home. Now it reads only the names from the
// home folder down to the target's project root (found as the render finds it): below a project
// root of its own they are the project's. A home kept in git (`~/.git`) is no such root:
// `~/.config/…` stays refused, as `~/.ssh/…` and `~/.bashrc`-style names do.

const MINE = "MY-PROJECT: run the tests before each commit.";

function setup(homeInGit = false) {
  const root = tempDir();
  for (const dir of [
    "agent",
    "home/code/app/.git",
    "home/code/app/.github",
    "home/code/app/.cursor/rules",
    "home/.ssh",
    "home/.config/app",
    "home/.config/nvim/.git",
    "home/notes/.hidden",
  ]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  if (homeInGit) mkdirSync(join(root, "home/.git"));
  writeFileSync(join(root, "home/code/app/AGENTS.md"), `${MINE}\n`);
  return { root, home: join(root, "home") };
}

const inApp = (root: string, argv: string[]) => cli(root, join(root, "home/code/app"), argv);

describe("hostile-output-home-project-rule-files: -o a project's own rule files, the project in your home", () => {
  it.each([".cursorrules", ".github/copilot-instructions.md", ".cursor/rules/x.mdc"])(
    "-o %s in ~/code/app: written, trusted and untrusted, without --force",
    async (file) => {
      for (const homeInGit of [false, true]) {
        for (const trust of [[], ["--untrusted"]]) {
          const { root, home } = setup(homeInGit);
          const run = await inApp(root, ["render", ...trust, "-o", file]);
          expect([homeInGit, trust, run.code]).toEqual([homeInGit, trust, 0]);
          expect(run.stderr).toContain(`sysprompt: wrote ${file}`);
          expect(readFileSync(join(home, "code/app", file), "utf8")).toContain(MINE);
        }
      }
    },
  );

  it.each([
    "~/.ssh/notes.md",
    "~/.config/app/prompt.md",
    "~/.config/nvim/prompt.md",
    "~/.bashrc.md",
    "~/notes/.hidden/prompt.md",
    "~/notes/.prompt.md",
  ])("-o %s: your home's configuration, refused, --force or not", async (target) => {
    for (const homeInGit of [false, true]) {
      const { root, home } = setup(homeInGit);
      for (const args of [
        ["render", "-o", target],
        ["render", "-o", target, "--force"],
      ]) {
        const run = await inApp(root, args);
        expect([homeInGit, args, run.code]).toEqual([homeInGit, args, 2]);
        // (`.ssh/` is said as a folder whose files ssh trusts, wherever it is.)
        expect(run.stderr).toMatch(
          /in your home folder, where such files are programs' configuration|a \.ssh\/ folder/,
        );
      }
      expect(existsSync(join(home, target.slice(2)))).toBe(false);
    }
  });
});
