import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { findSystemBinary, projectFolders } from "../../src/gather/environment/system-binary.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { plant, restorePathAfterEach } from "./_planted.js";

// The home folder inside a checkout (a CI job's HOME=$PWD/.home, a container's
// home in the mounted repository) and a PATH entry into the checkout's bin/
// from a folder below its root: the project root was looked for only below the
// first folder that is the home folder or holds it, and the checkout holds it,
// so no root was left out. Attack review attack18: HOME=project/.home, cwd
// project/src, PATH=project/bin:/usr/bin:/bin, render --git ran
// project/bin/lspci and project/bin/git (strace execve, markers written).

const SYSTEM_PATH = process.env.PATH ?? "/usr/bin:/bin";

/** A repository at `root/project` with a home folder inside it. */
function project(root: string): { dir: string; home: string } {
  const dir = join(root, "project");
  mkdirSync(join(dir, "src"), { recursive: true });
  const home = join(dir, ".home");
  mkdirSync(home);
  execFileSync("git", ["init", "-q", "-b", "main"], {
    cwd: dir,
    env: { PATH: SYSTEM_PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" },
  });
  return { dir, home };
}

restorePathAfterEach();

describe("hostile-home-in-project: a home folder inside the checkout leaves its root the project's", () => {
  it("the checkout's root is left out, and its bin/git is not found", async () => {
    const { dir, home } = project(tempDir());
    const bin = join(dir, "bin");
    plant(bin, "git", join(dir, "ran"));
    expect(await projectFolders([join(dir, "src")], [bin], home)).toContain(dir);
    const exclude = await projectFolders([join(dir, "src")], [bin], home);
    expect(await findSystemBinary("git", { PATH: bin }, { exclude, home })).toBeUndefined();
  });

  it("render --git runs the system git, and the probe not the checkout's lspci", async () => {
    const root = tempDir();
    const { dir, home } = project(root);
    const ran = join(root, "planted-ran");
    plant(join(dir, "bin"), "git", ran);
    plant(join(dir, "bin"), "lspci", ran);
    const PATH = [join(dir, "bin"), SYSTEM_PATH].join(":");
    process.env.PATH = PATH;
    const result = await renderSystemPrompt(
      pinned(root, {
        cwd: join(dir, "src"),
        home,
        env: { PATH, HOME: home },
        git: true,
        machine: { platform: "linux", arch: "x64", runProbe },
        deadlineMs: 20_000,
      }),
    );
    expect(existsSync(ran)).toBe(false);
    expect(result.sections.find((s) => s.name === "git")?.text).toContain("- Branch: main");
  });

  it("a dotfiles home is no project root around a clone of its own in it", async () => {
    const root = tempDir();
    const home = join(root, "home");
    mkdirSync(join(home, ".git"), { recursive: true });
    mkdirSync(join(home, "work", ".git"), { recursive: true });
    expect(await projectFolders([join(home, "work")], [join(home, "bin")], home)).not.toContain(
      home,
    );
    // With no repository nearer than its own, the home folder is the project (its ~/bin is
    // left out: see hostile-home-around-project).
    mkdirSync(join(home, "notes"));
    expect(await projectFolders([join(home, "notes")], [join(home, "bin")], home)).toContain(home);
  });
});
