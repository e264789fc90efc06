import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { projectFolders } from "../../src/gather/environment/system-binary.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { plant, restorePathAfterEach } from "./_planted.js";

// A hostile project folder with no .git around the working folder (a tarball, a
// zip, a copy; or a repository in src/ of such a folder): a PATH entry into it
// beside the working folder (its bin/ or .venv/bin, put on PATH by `uv run`,
// direnv's PATH_add or a Makefile) never gives the lspci or the git that runs.
// Attack review attack18: with cwd project/src and PATH project/bin, the
// environment probe ran the project's bin/lspci (no .git, so no project root
// above the working folder was left out).

const SYSTEM_PATH = process.env.PATH ?? "/usr/bin:/bin";

restorePathAfterEach();

describe("hostile-path-beside-no-git: a PATH entry beside the working folder, no .git above", () => {
  it("the environment probe does not run the folder's bin/lspci", async () => {
    const root = tempDir();
    const project = join(root, "project");
    mkdirSync(join(project, "src"), { recursive: true });
    const ran = join(root, "planted-ran");
    plant(join(project, "bin"), "lspci", ran);
    // A tarball may give its top folder the sticky bit /tmp has: not taken for /tmp.
    chmodSync(project, 0o1755);
    const PATH = [join(project, "bin"), "/nonexistent"].join(":");
    process.env.PATH = PATH;
    await renderSystemPrompt(
      pinned(root, {
        cwd: join(project, "src"),
        env: { PATH },
        machine: { platform: "linux", arch: "x64", runProbe },
        deadlineMs: 20_000,
      }),
    );
    expect(existsSync(ran)).toBe(false);
  });

  it("nor the git step its bin/git, for a repository in the folder's src/", async () => {
    const root = tempDir();
    const project = join(root, "project");
    const src = join(project, "src");
    mkdirSync(src, { recursive: true });
    execFileSync("git", ["init", "-q", "-b", "main"], {
      cwd: src,
      env: { PATH: SYSTEM_PATH, HOME: src, GIT_CONFIG_NOSYSTEM: "1" },
    });
    const ran = join(root, "planted-ran");
    plant(join(project, "bin"), "git", ran);
    const PATH = [join(project, "bin"), SYSTEM_PATH].join(":");
    const result = await renderSystemPrompt(pinned(root, { cwd: src, env: { PATH }, git: true }));
    expect(existsSync(ran)).toBe(false);
    // The system git ran instead.
    expect(result.sections.find((s) => s.name === "git")?.text).toContain("- Branch: main");
  });

  it("a working folder in /usr or /opt keeps the system's binary folders beside it", async () => {
    expect(await projectFolders(["/usr/src/linux"], ["/usr/bin"], "/home/u")).toEqual([
      "/usr/src/linux",
      ...(process.cwd() === "/" ? [] : [process.cwd()]),
    ]);
    const left = await projectFolders(["/opt/app"], ["/opt/vendor/bin"], "/home/u");
    expect(left).not.toContain("/opt");
  });
});
