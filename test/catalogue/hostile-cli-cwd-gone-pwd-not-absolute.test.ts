import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_CURRENT_FOLDER } from "../../src/_paths.js";
import { tempDir } from "../api/_helpers.js";
import { usageHint } from "../cli/_run.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// rev64d F4: from a deleted folder, dash exports `PWD=` (empty), and a caller may pass
// `PWD=.` or a relative one. The CLI took $PWD whatever it held, and the first relative
// resolve asked process.cwd(), which threw an uncaught ENOENT (exit 1, a stack trace),
// even with `--cwd /abs`. Now only an absolute $PWD names the folder; without one a
// command runs at an absolute --cwd, and says the folder is gone otherwise.

/** Runs the built CLI from a folder removed before node starts, with `PWD` set to `pwd`. */
function fromDeletedFolder(pwd: string, args: string[]) {
  const root = tempDir();
  const gone = join(root, "gone");
  mkdirSync(gone);
  const child = spawnSync(
    "sh",
    [
      "-c",
      'cd "$1" && rmdir "$1" && shift && exec env PWD="$@"',
      "sh",
      gone,
      pwd,
      process.execPath,
      BUILT_CLI,
      ...args,
    ],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: root }, cwd: root },
  );
  return { root, code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("catalogue: the current folder was deleted and $PWD is empty or relative", () => {
  beforeAll(ensureBuilt, 120_000);

  it.each(["", ".", "rel"])("PWD=%j: exit 2 without --cwd, a render at --cwd /", (pwd) => {
    const bare = fromDeletedFolder(pwd, ["render", "--now", "2026-01-15"]);
    expect({ code: bare.code, stdout: bare.stdout, stderr: bare.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: ${NO_CURRENT_FOLDER}\n${usageHint("render")}`,
    });
    const given = fromDeletedFolder(pwd, ["render", "--now", "2026-01-15", "--cwd", "/"]);
    expect({ code: given.code, stderr: given.stderr }).toEqual({ code: 0, stderr: "" });
    expect(given.stdout).toContain("Current working directory: /\n");
  });

  it("a relative -o names nothing there: exit 2, nothing written; an absolute one is written", () => {
    const relative = fromDeletedFolder("", ["render", "--cwd", "/", "-o", "out.md"]);
    expect({ code: relative.code, stderr: relative.stderr }).toEqual({
      code: 2,
      stderr: `sysprompt: --output: out.md: ${NO_CURRENT_FOLDER}\n${usageHint("render")}`,
    });
    const root = tempDir();
    const out = join(root, "out.md");
    const absolute = fromDeletedFolder("", ["render", "--cwd", "/", "-o", out]);
    expect({ code: absolute.code, stderr: absolute.stderr }).toEqual({
      code: 0,
      stderr: `sysprompt: wrote ${out}\n`,
    });
  });
});
