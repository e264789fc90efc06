import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyConfigFiles } from "../../src/config/apply.js";
import { DEFAULT_DEADLINE_MS } from "../../src/gather/deadline.js";
import { tempDir } from "../api/_helpers.js";

// The deadline is what bounds a render's time on a repository's files (the
// README's Trust section: a project never keeps the process busy past it).
// A trusted project's `.pi/sysprompt.yaml` set `deadline: 600000` and the
// render took it: ten minutes for whatever the repository makes slow. A
// shorter one was then kept, until `deadline: 1` left out every text of yours
// (hostile-project-config-bounds.test.ts): a project's file sets no deadline;
// the user's file and the option still do.

function project(projectYaml: string, userYaml?: string) {
  const root = tempDir();
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  writeFileSync(join(cwd, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(cwd, ".pi"), { recursive: true });
  writeFileSync(join(cwd, ".pi", "sysprompt.yaml"), projectYaml);
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  if (userYaml !== undefined) writeFileSync(join(home, ".pi", "agent", "sysprompt.yaml"), userYaml);
  return { cwd, home, file: join(cwd, ".pi", "sysprompt.yaml") };
}

describe("hostile repository: a project's sysprompt.yaml setting the deadline", () => {
  it("a deadline past the default is left out with a warning at its line", async () => {
    const long = project(`tools: [read]\ndeadline: 600000\n`);
    const got = await applyConfigFiles({ cwd: long.cwd, home: long.home, configFiles: true });
    expect(got.options.deadlineMs).toBeUndefined();
    expect(got.options.tools).toEqual(["read"]);
    expect(
      got.diagnostics
        .filter((d) => d.code === "config-project-deadline")
        .map((d) => [d.level, d.path, d.line]),
    ).toEqual([["warning", long.file, 2]]);
  });

  it("so is a shorter one, and one at the default", async () => {
    for (const ms of [0, 1000, DEFAULT_DEADLINE_MS]) {
      const p = project(`deadline: ${ms}\n`);
      const got = await applyConfigFiles({ cwd: p.cwd, home: p.home, configFiles: true });
      expect(got.options.deadlineMs).toBeUndefined();
      expect(got.diagnostics.map((d) => [d.code, d.line])).toEqual([
        ["config-project-deadline", 1],
      ]);
    }
  });

  it("the user's own file may lengthen or shorten it, under a project's", async () => {
    for (const ms of [600_000, 1000]) {
      const p = project("deadline: 1\n", `deadline: ${ms}\n`);
      const got = await applyConfigFiles({ cwd: p.cwd, home: p.home, configFiles: true });
      expect(got.options.deadlineMs).toBe(ms);
    }
  });
});
