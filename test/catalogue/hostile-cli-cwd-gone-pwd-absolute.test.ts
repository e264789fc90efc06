import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_CURRENT_FOLDER } from "../../src/_paths.js";
import { tempDir } from "../api/_helpers.js";
import { usageHint } from "../cli/_run.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// rev66d F2: from a deleted folder bash keeps an absolute $PWD, and the CLI took it for the
// working folder: `render --cwd /abs -o x.md` made the deleted folder again (every missing
// folder of $PWD) and wrote there, exit 0, where the shell's own `> x.md` fails; a folder
// another process made at that path since was written into as if it were yours. $PWD now
// names the working folder only while it is the process's folder (same device and inode as
// `.`); else a relative path is refused as for an empty $PWD (rev64d F4).

/** The built CLI run from `gone` (removed, and made again when `remake`), $PWD its path. */
function fromDeletedFolder(args: string[], remake: boolean) {
  const root = tempDir();
  const gone = join(root, "gone", "sub");
  mkdirSync(gone, { recursive: true });
  const again = remake ? ' && mkdir -p "$1"' : "";
  const child = spawnSync(
    "sh",
    [
      "-c",
      `cd "$1" && rm -r "$2"${again} && shift 2 && exec env PWD="$@"`,
      "sh",
      gone,
      join(root, "gone"),
      gone,
      process.execPath,
      BUILT_CLI,
      ...args,
    ],
    { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: root }, cwd: root },
  );
  return { root, gone, code: child.status, stdout: child.stdout, stderr: child.stderr };
}

describe("catalogue: the current folder was deleted and $PWD still names its path", () => {
  beforeAll(ensureBuilt, 120_000);

  it("a relative -o is refused (exit 2) and the deleted folder is not made again", () => {
    const run = fromDeletedFolder(["render", "--cwd", "/", "-o", "x.md"], false);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 2,
      stderr: `sysprompt: --output: x.md: ${NO_CURRENT_FOLDER}\n${usageHint("render")}`,
    });
    expect(existsSync(join(run.root, "gone"))).toBe(false);
  });

  it("a folder made again at $PWD since is not the working folder: refused, nothing written", () => {
    const run = fromDeletedFolder(["render", "--cwd", "/", "-o", "x.md"], true);
    expect(run.code).toBe(2);
    expect(readdirSync(run.gone)).toEqual([]);
  });

  it("without --cwd: the folder is gone (exit 2)", () => {
    const run = fromDeletedFolder(["render"], false);
    expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
      code: 2,
      stdout: "",
      stderr: `sysprompt: ${NO_CURRENT_FOLDER}\n${usageHint("render")}`,
    });
  });
});
