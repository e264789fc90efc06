import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The context step reads the user's AGENTS.md (in the agent dir) and the
// repository's, from the project root down to cwd. A cwd 250 folders deep
// made the step miss `--deadline 1000`, and its fallback (no context files)
// took the user's own file out of the prompt with the repository's. The
// agent dir's file is now read first, before any folder of the repository is
// looked at, and a late step gives it as its partial value (as the rule-files
// step gives the user's rules, catalogue/hostile-rules-timeout-user).

/** Folders of the repository's chain answer look-ups slowly: a deep path on a loaded machine. */
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const slow = <F extends (path: never, ...rest: never[]) => unknown>(f: F): F =>
    ((path: never, ...rest: never[]) => {
      if (String(path).includes("/chain/")) Atomics.wait(pause, 0, 0, 2);
      return f(path, ...rest);
    }) as F;
  const overrides = { lstatSync: slow(fs.lstatSync), statSync: slow(fs.statSync) };
  return { ...fs, default: { ...fs, ...overrides }, ...overrides };
});

const USER_CONTEXT = "Always ask me before pushing to a shared branch.";

describe("hostile repository: a late context step keeps the user's own AGENTS.md", () => {
  it("gives the agent dir's file when the repository's folders make the step late", async () => {
    const root = tempDir();
    const agentDir = join(root, "home", ".pi", "agent");
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "AGENTS.md"), `${USER_CONTEXT}\n`);
    const repo = join(root, "project");
    mkdirSync(join(repo, ".git"), { recursive: true });
    writeFileSync(join(repo, "AGENTS.md"), "The repository's own instructions.\n");
    const cwd = join(repo, "chain", ...Array.from({ length: 250 }, () => "d"));
    mkdirSync(cwd, { recursive: true });
    const options = { projectTrusted: false, agentDir };
    // What every render loads first, so the deadline is the context step's.
    await renderSystemPrompt(pinned(tempDir(), options));
    const result = await renderSystemPrompt(pinned(root, { ...options, cwd, deadlineMs: 500 }));
    // The premise: the step was late (250 folders of slow look-ups, some seconds).
    const late = result.diagnostics.find((d) => d.code === "step-timeout");
    expect(late?.message).toContain('"context"');
    expect(result.steps.find((s) => s.name === "context")?.status).toBe("timeout");
    expect(result.text).toContain(USER_CONTEXT);
    expect(result.text).not.toContain("The repository's own instructions.");
  });
});
