import { chmodSync, chownSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  findSystemBinary,
  projectFolders,
  systemPathEntries,
} from "../../src/gather/environment/system-binary.js";
import { tempDir } from "../api/_helpers.js";

/** An executable script at `dir/name`, its folder created, mode 755. */
function binary(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  const path = join(dir, name);
  writeFileSync(path, "#!/bin/sh\necho hi\n", { mode: 0o755 });
  chmodSync(path, 0o755);
  return path;
}

describe("systemPathEntries: the PATH entries a probe may search", () => {
  it("keeps absolute entries in order, once; drops empty, relative and node_modules entries", () => {
    const PATH = [
      "/usr/local/bin",
      "",
      "node_modules/.bin",
      ".",
      "bin",
      "/home/u/project/node_modules/.bin",
      "/usr/bin",
      "/usr/local/bin",
      "/bin",
    ].join(":");
    expect(systemPathEntries({ PATH })).toEqual(["/usr/local/bin", "/usr/bin", "/bin"]);
  });

  it("drops entries inside an excluded folder (the project), as written", () => {
    expect(
      systemPathEntries(
        { PATH: "/work/p/bin:/work/p:/work/project2/bin:/usr/bin" },
        { exclude: ["/work/p"] },
      ),
    ).toEqual(["/work/project2/bin", "/usr/bin"]);
  });

  it("drops entries under /proc and /dev/fd: each process that looks sees its own folder there", () => {
    const PATH = "/proc/self/cwd/bin:/proc/1/root/usr/bin:/dev/fd/3:/usr/bin";
    expect(systemPathEntries({ PATH })).toEqual(["/usr/bin"]);
  });

  it("no PATH at all: no entries; Windows' Path name is found whatever its case", () => {
    expect(systemPathEntries({})).toEqual([]);
    expect(systemPathEntries({ Path: "/usr/bin" })).toEqual(["/usr/bin"]);
  });
});

describe("findSystemBinary", () => {
  it("finds the first executable on an absolute PATH entry and returns its path as found", async () => {
    const root = tempDir();
    const first = binary(join(root, "sys1"), "lspci");
    binary(join(root, "sys2"), "lspci");
    const PATH = `${join(root, "none")}:${join(root, "sys1")}:${join(root, "sys2")}`;
    expect(await findSystemBinary("lspci", { PATH })).toBe(first);
  });

  it("an empty or relative entry never finds the project's binary, whatever the current folder", async () => {
    const root = tempDir();
    const project = join(root, "project");
    binary(project, "lspci");
    binary(join(project, "node_modules", ".bin"), "lspci");
    const PATH = `:.:node_modules/.bin:${join(project, "node_modules", ".bin")}`;
    expect(await findSystemBinary("lspci", { PATH }, { exclude: [project] })).toBeUndefined();
  });

  it("refuses an excluded folder by real path: a link into the project, a PATH entry linked to it", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const planted = binary(join(project, "tools"), "lspci");
    mkdirSync(join(root, "sys"), { mode: 0o755 });
    symlinkSync(planted, join(root, "sys", "lspci"));
    symlinkSync(join(project, "tools"), join(root, "linked-bin"));
    const PATH = `${join(root, "sys")}:${join(root, "linked-bin")}`;
    expect(await findSystemBinary("lspci", { PATH }, { exclude: [project] })).toBeUndefined();
    // The control: without the exclusion both would do.
    expect(await findSystemBinary("lspci", { PATH })).toBe(join(root, "sys", "lspci"));
  });

  it("refuses what is not a plain executable, and what another user may write", async () => {
    const root = tempDir();
    mkdirSync(join(root, "dir", "lspci"), { recursive: true });
    const plain = binary(join(root, "plain"), "lspci");
    chmodSync(plain, 0o644);
    const writable = binary(join(root, "writable"), "lspci");
    chmodSync(writable, 0o757);
    const open = binary(join(root, "open"), "lspci");
    chmodSync(join(root, "open"), 0o777);
    const PATH = ["dir", "plain", "writable", "open"].map((d) => join(root, d)).join(":");
    expect(await findSystemBinary("lspci", { PATH })).toBeUndefined();
    expect(open).toBe(join(root, "open", "lspci"));
  });

  // A PATH folder or binary owned by another user (not root) was accepted when
  // no one else could write it: its owner may replace it at any time. Needs
  // root to give a file away (chown), so only runs as root.
  it.runIf(process.getuid?.() === 0)(
    "refuses a binary or a PATH folder owned by another user, not root",
    async () => {
      const root = tempDir();
      const theirs = binary(join(root, "theirs"), "lspci");
      chownSync(theirs, 4242, 4242);
      binary(join(root, "their-folder"), "lspci");
      chownSync(join(root, "their-folder"), 4242, 4242);
      const mine = binary(join(root, "mine"), "lspci");
      const PATH = ["theirs", "their-folder", "mine"].map((d) => join(root, d)).join(":");
      expect(await findSystemBinary("lspci", { PATH })).toBe(mine);
      const alone = ["theirs", "their-folder"].map((d) => join(root, d)).join(":");
      expect(await findSystemBinary("lspci", { PATH: alone })).toBeUndefined();
    },
  );

  // A binary or PATH folder that a group may write was accepted: anyone in that
  // group (a shared "users" or "staff") could plant a git there. Needs root to
  // give a file to another group (chown), so only runs as root.
  it.runIf(process.getuid?.() === 0)(
    "refuses a binary or a PATH folder a group other than root's may write",
    async () => {
      const root = tempDir();
      const theirs = binary(join(root, "group-file"), "lspci");
      chownSync(theirs, 0, 4242);
      chmodSync(theirs, 0o775);
      binary(join(root, "group-folder"), "lspci");
      chownSync(join(root, "group-folder"), 0, 4242);
      chmodSync(join(root, "group-folder"), 0o775);
      const roots = binary(join(root, "root-group"), "lspci");
      chmodSync(roots, 0o775);
      chmodSync(join(root, "root-group"), 0o775);
      const alone = ["group-file", "group-folder"].map((d) => join(root, d)).join(":");
      expect(await findSystemBinary("lspci", { PATH: alone })).toBeUndefined();
      // Group 0 is root's: writable by it is no wider than root itself.
      const PATH = `${alone}:${join(root, "root-group")}`;
      expect(await findSystemBinary("lspci", { PATH })).toBe(roots);
    },
  );

  it("a name with a separator is a caller's bug", async () => {
    await expect(findSystemBinary("./lspci", { PATH: "/usr/bin" })).rejects.toThrow(TypeError);
    await expect(findSystemBinary("", { PATH: "/usr/bin" })).rejects.toThrow(TypeError);
  });
});

describe("findSystemBinary and /proc/self/cwd", () => {
  it("a PATH entry through /proc/self/cwd is inside the process's folder by real path", async () => {
    const root = tempDir();
    binary(join(root, "bin"), "lspci");
    const saved = process.cwd();
    process.chdir(root);
    try {
      const PATH = "/proc/self/cwd/bin";
      expect(await findSystemBinary("lspci", { PATH }, { exclude: [root] })).toBeUndefined();
      // Not searched at all: what it names depends on the process that looks (a child's is its own).
      expect(await findSystemBinary("lspci", { PATH })).toBeUndefined();
      expect(await findSystemBinary("lspci", { PATH: join(root, "bin") })).toBe(
        join(root, "bin", "lspci"),
      );
    } finally {
      process.chdir(saved);
    }
  });
});

describe("projectFolders: what a project controls, for exclude", () => {
  it("adds each folder above that holds a .git and one of the paths near, up to the home folder", async () => {
    const root = tempDir();
    const home = join(root, "home");
    const outer = join(home, "src", "outer");
    const inner = join(outer, "vendor", "inner");
    for (const dir of [
      join(home, ".git"),
      join(outer, ".git"),
      join(inner, ".git"),
      join(inner, "a"),
    ]) {
      mkdirSync(dir, { recursive: true });
    }
    const cwd = join(inner, "a");
    const near = [join(outer, "bin"), join(home, "bin"), "/usr/bin", "bin"];
    const folders = await projectFolders([cwd], near, home);
    // The outer repository holds outer/bin; the home folder (a dotfiles repository) is never one.
    expect(folders).toContain(outer);
    expect(folders).not.toContain(home);
    // The inner root holds none of the paths: not needed, not looked at.
    expect(folders).not.toContain(inner);
    expect(folders[0]).toBe(cwd);
    expect(folders).toContain(process.cwd());
  });

  // A process in / (a service's default working folder) left / out, so every PATH entry with it:
  // no git, no probe, no opener was ever found there.
  it("the process's folder, unless it is the file system's root (it names no project)", async () => {
    const project = join(tempDir(), "project");
    mkdirSync(project);
    const saved = process.cwd();
    try {
      process.chdir("/");
      expect(await projectFolders([project], ["/usr/bin"], "/nonexistent-home")).toEqual([project]);
      process.chdir(project);
      expect(await projectFolders([], ["/usr/bin"], "/nonexistent-home")).toEqual([project]);
    } finally {
      process.chdir(saved);
    }
  });

  it("a root reached only by the real path of a linked working folder counts", async () => {
    const root = tempDir();
    const project = join(root, "real", "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "sub"));
    symlinkSync(project, join(root, "link"));
    const folders = await projectFolders(
      [join(root, "link", "sub")],
      [join(project, "bin")],
      "/nonexistent-home",
    );
    expect(folders).toContain(project);
  });
});

describe("findSystemBinary and the project root above the excluded folders", () => {
  it("refuses a binary linked into, or an entry inside, the project root above the working folder", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "sub"));
    binary(join(project, "bin"), "tool");
    mkdirSync(join(root, "sys"), { mode: 0o755 });
    symlinkSync(join(project, "bin", "tool"), join(root, "sys", "tool"));
    const options = { exclude: [join(project, "sub")], home: "/nonexistent-home" };
    expect(await findSystemBinary("tool", { PATH: join(root, "sys") }, options)).toBeUndefined();
    expect(await findSystemBinary("tool", { PATH: join(project, "bin") }, options)).toBeUndefined();
    // The same tool outside any project is found (root stands for the home folder: the folder
    // holding both the project and elsewhere/ would be one the working folder shares with a PATH
    // entry, and left out, below it).
    const other = binary(join(root, "elsewhere"), "tool");
    expect(
      await findSystemBinary(
        "tool",
        { PATH: [join(root, "sys"), join(root, "elsewhere")].join(":") },
        { ...options, home: root },
      ),
    ).toBe(other);
  });
});
