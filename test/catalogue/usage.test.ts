import { spawnSync } from "node:child_process";
import { mkdirSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_CURRENT_FOLDER } from "../../src/_paths.js";
import { checkProject } from "../../src/author/check/check.js";
import { run } from "../../src/cli/main.js";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import type { SyspromptError } from "../../src/types.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { usageHint } from "../cli/_run.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// A working directory that does not exist is the caller's mistake, not a bad
// file: the API throws a SyspromptError that names it, the CLI exits 2 with
// the same words. That holds for a cwd passed in, and for a current folder
// that was deleted under the process (the shell is still "in" it).

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const asValue = (error: unknown) => ({
  name: (error as Error).name,
  code: (error as SyspromptError).code,
  message: (error as Error).message,
});

async function cli(argv: string[], cwd: string) {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    cwd,
    env: {},
    home: cwd,
    machine: { platform: "linux", arch: "x64" },
  });
  return { code, stdout, stderr };
}

describe("catalogue: a cwd that does not exist", () => {
  it("cwd-missing: renderSystemPrompt and checkProject throw a SyspromptError; the CLI exits 2", async () => {
    const root = tempDir();
    const missing = join(root, "no-such-folder");
    const expected = {
      name: "SyspromptError",
      code: "bad-option",
      message: `cwd: there is no folder at ${missing}; pass the project's folder`,
    };
    expect(asValue(await rejection(renderSystemPrompt(pinned(root, { cwd: missing }))))).toEqual(
      expected,
    );
    expect(asValue(await rejection(checkProject({ cwd: missing })))).toEqual(expected);
    for (const command of ["render", "sections", "check", "list"]) {
      expect(await cli([command, "--cwd", missing], root)).toEqual({
        code: 2,
        stdout: "",
        stderr: `sysprompt: ${expected.message}\n${usageHint(command)}`,
      });
    }
  });

  it("cwd-is-a-file: the same, with 'not a folder'", async () => {
    const root = tempDir();
    const file = join(root, "file.md");
    writeFileSync(file, "x");
    expect(asValue(await rejection(renderSystemPrompt(pinned(root, { cwd: file }))))).toEqual({
      name: "SyspromptError",
      code: "bad-option",
      message: `cwd: not a folder at ${file}; pass the project's folder`,
    });
    expect((await cli(["render", "--cwd", file], root)).code).toBe(2);
  });
});

describe("catalogue: the current folder was deleted", () => {
  beforeAll(ensureBuilt, 120_000);

  /** Runs the built CLI from a folder that is removed just before node starts. */
  function fromDeletedFolder(args: string[]) {
    const root = tempDir();
    const gone = join(root, "gone");
    mkdirSync(gone);
    mkdirSync(join(root, "project"));
    const child = spawnSync(
      "sh",
      [
        "-c",
        'cd "$1" && rmdir "$1" && shift && exec "$@"',
        "sh",
        gone,
        process.execPath,
        BUILT_CLI,
        ...args,
      ],
      { encoding: "utf8", env: { PATH: process.env.PATH ?? "", HOME: root, PWD: gone }, cwd: root },
    );
    return { root, gone, code: child.status, stdout: child.stdout, stderr: child.stderr };
  }

  it("cwd-deleted: the CLI exits 2 and says the folder is gone; with --cwd it renders", () => {
    const bare = fromDeletedFolder(["render", "--now", "2026-01-15"]);
    expect({ code: bare.code, stdout: bare.stdout, stderr: bare.stderr }).toEqual({
      code: 2,
      stdout: "",
      // An absolute $PWD that is no longer the process's folder names nothing (rev66d F2).
      stderr: `sysprompt: ${NO_CURRENT_FOLDER}\n${usageHint("render")}`,
    });
    const given = fromDeletedFolder(["render", "--now", "2026-01-15", "--cwd", "/"]);
    expect(given.code).toBe(0);
    expect(given.stdout).toContain("Current working directory: /\n");
  });

  it("cwd-deleted: renderSystemPrompt without a cwd throws a SyspromptError, not ENOENT", async () => {
    const root = tempDir();
    const gone = join(root, "gone");
    mkdirSync(gone);
    const back = process.cwd();
    process.chdir(gone);
    try {
      rmdirSync(gone);
      const { cwd: _cwd, ...options } = pinned(root);
      expect(asValue(await rejection(renderSystemPrompt(options)))).toEqual({
        name: "SyspromptError",
        code: "bad-option",
        message:
          "cwd: the current folder no longer exists (it was deleted or moved); change to an existing folder, or pass cwd",
      });
    } finally {
      process.chdir(back);
    }
  });
});
