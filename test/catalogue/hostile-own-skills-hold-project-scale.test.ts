import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/index.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { ownSkillFiles } from "./_slow-own-skills.js";

// rev51a F3: at a short deadline, your own skills answering calls all along (a cold, loaded
// start; 300-1,500 skills) held the own-first gate shut until the deadline, so the project's
// parts started then and its AGENTS.md was cut whole, with only a generic step-timeout.
// Now the gate opens at half the render's budget at the latest, and the late-steps warning
// names the gate and what it waited for. Here each of your 20 SKILL.md takes 60 ms to open
// (1.2 s in all, answered, so the idle wait never opens the gate); the deadline is 600 ms.

const OPEN_MS = 60;
const SKILLS = 20;
const slow = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const { withSlowSkillOpens } = await import("./_slow-own-skills.js");
  return withSlowSkillOpens(await importOriginal(), slow, () => OPEN_MS);
});

describe("your own skills slower than the deadline do not cost the project its AGENTS.md", () => {
  it("the gate opens at half the budget; the warning names it", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/AGENTS.md": "# PROJECT-AGENTS-MARKER\n",
      "agent/AGENTS.md": "# USER-AGENTS-MARKER\n",
    };
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
    const r = await renderSystemPrompt({ ...paths, deadlineMs: 600 }).finally(() => {
      slow.on = false;
    });
    // The project's context file is read once the gate opens, 300 ms before the deadline.
    expect(r.text).toContain("PROJECT-AGENTS-MARKER");
    expect(r.text).toContain("USER-AGENTS-MARKER");
    const late = r.diagnostics.find((d) => d.code === "step-timeout")?.message ?? "";
    expect(late).toContain('"skills"');
    expect(late).not.toContain('"context"');
    expect(late).toMatch(/waited \d+ ms at the own-first gate for your skills to be read first/);
    // Your skills are still read first, one by one, in order: the first ones are kept.
    const listed = [...new Set(r.text.match(/USER-SKILL-\d+/g))];
    expect(listed.length).toBeGreaterThan(0);
    expect(listed).toEqual(listed.map((_, i) => `USER-SKILL-${String(i).padStart(2, "0")}`));
  }, 20_000);
});
