import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { homeFolder } from "../../src/_paths.js";
import { tempDir } from "../api/_helpers.js";
import { BUILT_CLI, ensureBuilt } from "./_built.js";

// os.homedir() is $HOME as it is, and a relative $HOME (HOME=home, HOME=.)
// was read from the working folder: the project's. Its `home/.pi/agent` was
// then your agent dir, whose files follow links anywhere (they are yours),
// so `render --untrusted` in a project with `home/.pi/agent/AGENTS.md`, a
// link to ~/.ssh/id_rsa, put the key in the prompt. A relative $HOME now
// stands for the user database's home folder.

beforeAll(() => ensureBuilt(), 120_000);

describe("hostile repository: a relative $HOME", () => {
  it("is not read from the working folder", () => {
    const saved = process.env.HOME;
    try {
      process.env.HOME = "home";
      expect(isAbsolute(homeFolder())).toBe(true);
      process.env.HOME = "/somewhere/else";
      expect(homeFolder()).toBe("/somewhere/else");
    } finally {
      process.env.HOME = saved;
    }
  });

  it("gives the project no agent dir: its link to a key is not followed", () => {
    const base = tempDir();
    const secret = join(base, "secret", "id_rsa");
    mkdirSync(join(base, "secret"));
    writeFileSync(secret, "MARKER-SSH\n");
    const project = join(base, "project");
    mkdirSync(join(project, ".git"), { recursive: true });
    mkdirSync(join(project, "home", ".pi", "agent"), { recursive: true });
    symlinkSync(secret, join(project, "home", ".pi", "agent", "AGENTS.md"));
    const run = spawnSync(process.execPath, [BUILT_CLI, "render", "--untrusted"], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: "home" },
      encoding: "utf8",
    });
    expect(run.stdout).not.toContain("MARKER-SSH");
    expect(run.stdout).toContain("<cwd>");
  });
});
