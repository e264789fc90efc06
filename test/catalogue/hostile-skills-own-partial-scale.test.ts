import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { ownSkillFiles } from "./_slow-own-skills.js";

// cut48's low: a render whose own skills take longer than its deadline (a cold, loaded start;
// a slow disk of yours, or one the repository's bulk let in by the gate starves) kept none of
// them: the skills step's partial value was set only once every one of your folders was read.
// Now it keeps each of your skills as it is read. Here each of your SKILL.md takes 60 ms to
// open (answered, so the gate stays closed), 20 of them, and the render's deadline is 500 ms.

const OPEN_MS = 60;
const SKILLS = 20;
const slow = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const { withSlowSkillOpens } = await import("./_slow-own-skills.js");
  return withSlowSkillOpens(await importOriginal(), slow, () => OPEN_MS);
});

describe("a skills step late on your own skills keeps those it has read", () => {
  it("lists your skills read before the deadline, in order", async () => {
    const root = tempDir();
    const files: Record<string, string> = { "project/.git/HEAD": "ref: refs/heads/main\n" };
    Object.assign(files, ownSkillFiles(SKILLS));
    writeFiles(root, files);
    const paths = {
      cwd: join(root, "project"),
      home: join(root, "home"),
      agentDir: join(root, "agent"),
    };
    // Warm: modules loaded and the builtin templates compiled, so the deadline is the reads'.
    await renderSystemPrompt(paths);
    slow.on = true;
    const r = await renderSystemPrompt({ ...paths, deadlineMs: 500 }).finally(() => {
      slow.on = false;
    });
    expect(r.diagnostics.find((d) => d.code === "step-timeout")?.message).toContain('"skills"');
    const listed = [...new Set(r.text.match(/USER-SKILL-\d+/g))];
    // Read one by one, in order: the first ones, however many the machine managed.
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.length).toBeLessThan(SKILLS);
    expect(listed).toEqual(listed.map((_, i) => `USER-SKILL-${String(i).padStart(2, "0")}`));
  }, 20_000);
});
