import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { pinned, tempDir } from "../api/_helpers.js";

// The skills step reads the repository's skill folders, then the user's. A
// trusted project's thousand SKILL.md of dense frontmatter made the step miss
// the deadline, and its fallback (no skills) took the user's own skills out of
// the prompt with the repository's (issue 24). The user's folders are now read
// first, and a late step gives their skills as its partial value, as the
// context and rule-files steps do (catalogue/hostile-context-timeout-user).

/** The repository's skill folders answer look-ups slowly: a big tree on a loaded machine. */
vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const slow = <F extends (path: never, ...rest: never[]) => unknown>(f: F): F =>
    ((path: never, ...rest: never[]) => {
      if (String(path).includes("/project/.agents/skills/")) Atomics.wait(pause, 0, 0, 5);
      return f(path, ...rest);
    }) as F;
  const overrides = {
    lstatSync: slow(fs.lstatSync),
    statSync: slow(fs.statSync),
    openSync: slow(fs.openSync),
  };
  return { ...fs, default: { ...fs, ...overrides }, ...overrides };
});

const USER_SKILL = "USER-SKILL deploys my servers.";

describe("hostile repository: a late skills step keeps the user's own skills", () => {
  it("lists the agent dir's skills when the repository's skills make the step late", async () => {
    const root = tempDir();
    const agentDir = join(root, "agent");
    mkdirSync(join(agentDir, "skills", "zz-mine"), { recursive: true });
    writeFileSync(
      join(agentDir, "skills", "zz-mine", "SKILL.md"),
      `---\nname: zz-mine\ndescription: ${USER_SKILL}\n---\nbody\n`,
    );
    const repo = join(root, "project");
    mkdirSync(join(repo, ".git"), { recursive: true });
    for (let i = 0; i < 200; i++) {
      const dir = join(repo, ".agents", "skills", `s${i}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "SKILL.md"),
        `---\nname: s${i}\ndescription: REPO-SKILL ${i}\n---\nbody\n`,
      );
    }
    const options = { projectTrusted: true, agentDir };
    // What every render loads first, so the deadline is the skills step's.
    await renderSystemPrompt(pinned(tempDir(), options));
    const result = await renderSystemPrompt(pinned(root, { ...options, deadlineMs: 500 }));
    // The premise: the step was late (200 skills of slow look-ups, about 2 s).
    expect(result.steps.find((s) => s.name === "skills")?.status).toBe("timeout");
    expect(result.text).toContain(USER_SKILL);
    expect(result.text).not.toContain("REPO-SKILL");
  });
});
