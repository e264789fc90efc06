import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { homeDotNameOf } from "../../src/cli/commands/_output-file.js";
import { cli, cloneBesideProject, REPO_WORDS } from "./_output-link.js";

// Review rev101d F3 (medium): `render --untrusted -o ~/Documents/Cline/Rules/team.md` wrote into
// Cline's global rules folder, whose every Markdown file Cline loads as your rules in every
// workspace, exit 0: no dot-name on the way, no agent folder. On macOS the same through
// `~/Library/Application Support/Code/User/prompts/…` (VS Code's user prompt files) and
// `~/Library/Application Support/Claude/…`: programs' per-user configuration lies in
// `~/Library`, not in dot folders. Now Cline's global rules folders are global instructions
// places (refused for an untrusted render, --force or not; a trusted one with --force and a
// WARNING), and on darwin `~/Library` is a dot folder of your home folder (refused, no --force),
// but for the synced documents there (iCloud Drive's `Mobile Documents`, `CloudStorage`).

const fromClone = (root: string, argv: string[], platform?: string) =>
  cli(root, join(root, "evil"), argv, platform === undefined ? {} : { platform });

describe("hostile-output-home-rules-folders: -o into an agent's global rules folder or macOS's ~/Library", () => {
  it.each([
    ["~/Documents/Cline/Rules/team.md", "home/Documents/Cline/Rules/team.md"],
    ["~/Cline/Rules/team.md", "home/Cline/Rules/team.md"],
  ])(
    "%s: refused for an untrusted render, --force or not; written by a trusted one with --force and a WARNING",
    async (typed, file) => {
      const root = cloneBesideProject("home/Documents/Cline/Rules", "home/Cline/Rules");
      const argv = ["render", "--untrusted", "-o", typed];
      for (const args of [argv, [...argv, "--force"]]) {
        const run = await fromClone(root, args);
        expect([args, run.code]).toEqual([args, 2]);
        expect(run.stderr).toContain(
          "is a file of Cline's own instructions folder in your home folder",
        );
        expect(run.stderr).not.toContain("pass --force");
      }
      expect(existsSync(join(root, file))).toBe(false);
      const trusted = ["render", "-o", typed];
      expect((await fromClone(root, trusted)).code).toBe(2);
      const forced = await fromClone(root, [...trusted, "--force"]);
      expect(forced.code, forced.stderr).toBe(0);
      expect(forced.stderr).toContain("sysprompt: WARNING:");
      expect(readFileSync(join(root, file), "utf8")).toContain(REPO_WORDS);
    },
  );

  it.each([
    "~/Library/Application Support/Code/User/prompts/team.prompt.md",
    "~/Library/Application Support/Claude/notes.md",
    "~/Library/LaunchAgents/x.md",
  ])("darwin, %s: refused as a file in ~/Library, --force or not", async (typed) => {
    const root = cloneBesideProject(
      "home/Library/Application Support/Code/User/prompts",
      "home/Library/Application Support/Claude",
      "home/Library/LaunchAgents",
    );
    for (const args of [
      ["render", "--untrusted", "-o", typed],
      ["render", "--untrusted", "-o", typed, "--force"],
      ["render", "-o", typed, "--force"],
    ]) {
      const run = await fromClone(root, args, "darwin");
      expect([args, run.code]).toEqual([args, 2]);
      expect(run.stderr).toContain("a file in the folder Library in your home folder");
    }
    expect(existsSync(join(root, typed.replace("~", "home")))).toBe(false);
  });

  it("the dot-name rule's platform: ~/Library on darwin only, its synced documents aside", () => {
    const home = "/Users/me";
    const at = (p: string) => join(home, p);
    expect(homeDotNameOf(at("Library/LaunchAgents/x.md"), home, [], "darwin")).toBe(
      "a file in the folder Library",
    );
    expect(homeDotNameOf(at("library/Application Support/Claude/x.md"), home, [], "darwin")).toBe(
      "a file in the folder library",
    );
    expect(homeDotNameOf(at("Library/LaunchAgents/x.md"), home, [], "linux")).toBeUndefined();
    expect(
      homeDotNameOf(at("Library/Mobile Documents/com~apple~CloudDocs/p/x.md"), home, [], "darwin"),
    ).toBeUndefined();
    expect(
      homeDotNameOf(at("Library/CloudStorage/Dropbox/p/x.md"), home, [], "darwin"),
    ).toBeUndefined();
    expect(homeDotNameOf(at("Documents/notes.md"), home, [], "darwin")).toBeUndefined();
  });
});
