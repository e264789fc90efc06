import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  namedSafeDirectory,
  protectedConfigFiles,
  safeDirectoryEntries,
} from "../../src/repo-files/safe-directory.js";
import { tempDir } from "../api/_helpers.js";

// git's safe.directory as git (2.46 on) reads it, from your protected config
// only (review rev64f F2).

describe("safeDirectoryEntries: the [safe] directory values of one config file", () => {
  it("reads [safe] directory in any case, quoted, escaped, commented, and a key with no value", () => {
    const text = [
      "[user]",
      "\tname = x",
      "\tdirectory = /not/safe",
      "[Safe]",
      "\tDirectory = /a/b # a comment",
      '\tdirectory = "/with space/x" ; another',
      "\tdirectory = /c\\",
      "/d",
      "\tdirectory",
      "\tdirectory =",
      '[safe "sub"]',
      "\tdirectory = /sub",
      "[safe.other]",
      "\tdirectory = /other",
      "[safe] directory = *",
    ].join("\n");
    expect(safeDirectoryEntries(text)).toEqual(["/a/b", "/with space/x", "/c/d", null, "", "*"]);
  });

  it("gives undefined for a file git refuses (an unknown escape, an open quote, an open section)", () => {
    expect(safeDirectoryEntries("[safe]\n\tdirectory = /a\\q\n")).toBeUndefined();
    expect(safeDirectoryEntries('[safe]\n\tdirectory = "/a\n')).toBeUndefined();
    expect(safeDirectoryEntries("[safe\n\tdirectory = *\n")).toBeUndefined();
    expect(safeDirectoryEntries("[safe]\n\t=x\n")).toBeUndefined();
  });
});

describe("protectedConfigFiles: the system and global files, in git's order", () => {
  it("system then XDG then ~/.gitconfig; GIT_CONFIG_GLOBAL alone; GIT_CONFIG_NOSYSTEM drops the system file", () => {
    expect(protectedConfigFiles({ HOME: "/h" })).toEqual([
      "/etc/gitconfig",
      "/h/.config/git/config",
      "/h/.gitconfig",
    ]);
    expect(
      protectedConfigFiles({ HOME: "/h", XDG_CONFIG_HOME: "/x", GIT_CONFIG_SYSTEM: "/s" }),
    ).toEqual(["/s", "/x/git/config", "/h/.gitconfig"]);
    expect(
      protectedConfigFiles({ HOME: "/h", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/g" }),
    ).toEqual(["/g"]);
  });
});

describe("namedSafeDirectory: whether your safe.directory list names a repository's folder", () => {
  function world(lines: string[]) {
    const root = tempDir();
    const home = join(root, "home");
    const repo = join(root, "work/repo");
    mkdirSync(home, { recursive: true });
    mkdirSync(repo, { recursive: true });
    writeFileSync(
      join(home, ".gitconfig"),
      `[safe]\n${lines.map((l) => `\tdirectory = ${l}\n`).join("")}`,
    );
    const env = { HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
    return { root, home, repo, env };
  }

  it("takes *, the exact path, its real path, ~/, and a folder above with /*", async () => {
    for (const [value, expected] of [
      ["*", true],
      ["REPO", true],
      ["REPO/", true],
      ["ROOT/work/*", true],
      ["ROOT/*", true],
      ["ROOT/work", false],
      ["REPO/*", false],
      ["work/repo", false],
      ["%(prefix)/x", false],
      ["/nowhere", false],
    ] as const) {
      const w = world([]);
      const text = value.replace("REPO", w.repo).replace("ROOT", w.root);
      writeFileSync(join(w.home, ".gitconfig"), `[safe]\n\tdirectory = ${text}\n`);
      expect([value, await namedSafeDirectory(w.repo, w.env)]).toEqual([value, expected]);
    }
    const w = world([]);
    symlinkSync(w.repo, join(w.root, "link"));
    writeFileSync(join(w.home, ".gitconfig"), `[safe]\n\tdirectory = ${join(w.root, "link")}\n`);
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(true);
    writeFileSync(join(w.home, ".gitconfig"), "[safe]\n\tdirectory = ~/../work/repo\n");
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(true);
  });

  it("an empty value (or none) clears what came before; a later entry counts again", async () => {
    const w = world(["*", ""]);
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(false);
    writeFileSync(
      join(w.home, ".gitconfig"),
      `[safe]\n\tdirectory = *\n\tdirectory =\n\tdirectory = ${w.repo}\n`,
    );
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(true);
    const again = w;
    writeFileSync(join(again.home, ".gitconfig"), "[safe]\n\tdirectory = *\n\tdirectory\n");
    expect(await namedSafeDirectory(again.repo, again.env)).toBe(false);
  });

  it("the system file first, then the global one, then GIT_CONFIG_COUNT's entries", async () => {
    const w = world([""]);
    const system = join(w.root, "system");
    writeFileSync(system, "[safe]\n\tdirectory = *\n");
    expect(await namedSafeDirectory(w.repo, { HOME: w.home, GIT_CONFIG_SYSTEM: system })).toBe(
      false,
    );
    writeFileSync(join(w.home, ".gitconfig"), "");
    expect(await namedSafeDirectory(w.repo, { HOME: w.home, GIT_CONFIG_SYSTEM: system })).toBe(
      true,
    );
    const count = {
      ...w.env,
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "safe.directory",
      GIT_CONFIG_VALUE_0: w.repo,
    };
    expect(await namedSafeDirectory(w.repo, count)).toBe(true);
  });

  it("never a file in the repository: a global config inside the checkout (HOME there) is not read", async () => {
    const w = world([]);
    writeFileSync(join(w.repo, ".gitconfig"), "[safe]\n\tdirectory = *\n");
    expect(await namedSafeDirectory(w.repo, { HOME: w.repo, GIT_CONFIG_NOSYSTEM: "1" })).toBe(
      false,
    );
    // Nor the repository's own .git/config.
    mkdirSync(join(w.repo, ".git"));
    writeFileSync(join(w.repo, ".git/config"), "[safe]\n\tdirectory = *\n");
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(false);
  });

  it("a config git cannot parse makes it no: git then takes no repository", async () => {
    const w = world([]);
    writeFileSync(join(w.home, ".gitconfig"), "[safe]\n\tdirectory = *\n\tbad = \\q\n");
    expect(await namedSafeDirectory(w.repo, w.env)).toBe(false);
  });
});
