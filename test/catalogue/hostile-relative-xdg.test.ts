import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withoutRelativeXdg } from "../../src/_paths.js";
import { gitEnv } from "../../src/gather/git/index.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";

// A relative XDG_CONFIG_HOME (or HOME) reached git as it was, and git runs in
// the project (`git -C`): `XDG_CONFIG_HOME=cfg` made the project's
// `cfg/git/config` your own git settings, which may say what a repository's
// own config may not (`safe.directory`, a `core.excludesFile` that hides every
// file from the counts). The XDG spec says a relative value is invalid and
// must be ignored: sysprompt ignores it everywhere (one helper, xdgFolder),
// passes none to git or a probe, and gives git the user database's home
// folder for a relative HOME.

const SYSTEM_PATH = process.env.PATH ?? "/usr/bin:/bin";

function git(dir: string, ...args: string[]): void {
  execFileSync("git", args, {
    cwd: dir,
    env: {
      PATH: SYSTEM_PATH,
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "T",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "T",
      GIT_COMMITTER_EMAIL: "t@example.com",
    },
  });
}

/**
 * A repository with one commit and one untracked file, and two git settings
 * files of its own, at `cfg/git/config` and `h/.gitconfig`, that hide every
 * file from git status (a `core.excludesFile` of `*`).
 */
function project(root: string): string {
  const dir = join(root, "project");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  writeFileSync(join(dir, "a.txt"), "a\n");
  git(dir, "add", ".");
  git(dir, "commit", "-q", "-m", "One");
  writeFileSync(join(dir, "new.txt"), "new\n");
  writeFileSync(join(dir, "hide-all"), "*\n");
  const settings = `[core]\n\texcludesFile = ${join(dir, "hide-all")}\n`;
  mkdirSync(join(dir, "cfg", "git"), { recursive: true });
  writeFileSync(join(dir, "cfg", "git", "config"), settings);
  mkdirSync(join(dir, "h"));
  writeFileSync(join(dir, "h", ".gitconfig"), settings);
  return dir;
}

const untracked = (text: string | undefined) =>
  text?.split("\n").find((l) => l.includes("ntracked"));

describe("hostile repository: relative XDG folders and HOME", () => {
  for (const [name, env] of [
    ["XDG_CONFIG_HOME=cfg", { XDG_CONFIG_HOME: "cfg" }],
    ["HOME=h", { HOME: "h" }],
  ] as const) {
    it(`${name}: git does not take the project's settings file for yours`, async () => {
      const root = tempDir();
      project(root);
      mkdirSync(join(root, "home"));
      const result = await renderSystemPrompt(
        pinned(root, { env: { PATH: SYSTEM_PATH, HOME: join(root, "home"), ...env }, git: true }),
      );
      const section = result.sections.find((s) => s.name === "git")?.text;
      // new.txt, hide-all, cfg/ and h/: none hidden by the project's excludesFile.
      expect(untracked(section)).toBe("- Files: 0 staged, 0 changed but not staged, 4 untracked");
    });
  }

  it("git's environment: an absolute XDG_CONFIG_HOME and HOME as given, relative ones not", () => {
    expect(
      gitEnv({ HOME: "/home/u", XDG_CONFIG_HOME: "/home/u/.config" }, [], "/db/home"),
    ).toMatchObject({
      HOME: "/home/u",
      XDG_CONFIG_HOME: "/home/u/.config",
    });
    const relative = gitEnv({ HOME: "h", XDG_CONFIG_HOME: "cfg" }, [], "/db/home");
    expect([relative.HOME, "XDG_CONFIG_HOME" in relative]).toEqual(["/db/home", false]);
  });

  it("a probe's or opener's environment: relative XDG folders left out, absolute ones kept", () => {
    expect(
      withoutRelativeXdg({
        XDG_CONFIG_HOME: "cfg",
        XDG_CACHE_HOME: "./c",
        XDG_DATA_HOME: "/home/u/.local/share",
        LANG: "C",
      }),
    ).toEqual({ XDG_DATA_HOME: "/home/u/.local/share", LANG: "C" });
  });

  it("the cache folder: a relative XDG_CACHE_HOME is ignored, nothing made in the project", async () => {
    const root = tempDir();
    const dir = join(root, "project");
    mkdirSync(join(root, "home"), { recursive: true });
    await renderSystemPrompt(
      pinned(root, {
        env: { XDG_CACHE_HOME: "rel-cache" },
        machine: { platform: "linux", arch: "x64", runProbe: async () => ({ status: "missing" }) },
      }),
    );
    expect(existsSync(join(dir, "rel-cache"))).toBe(false);
  });
});
