import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadResources } from "../../src/cli/commands/_resources.js";
import { tempDir, writeFiles } from "../api/_helpers.js";
import { ownSkillFiles } from "./_slow-own-skills.js";

// rev52a F1: gate51's cap (the own-first gate opens at half the deadline at the latest)
// reached only `render`. `list` and `expand` made the project's parts wait until your skills
// were read, so 2,000 heavy skills of yours held the project's slash-command templates past
// the loaders' deadline and `expand /ptpl` found none. Here each of your 40 SKILL.md takes
// 150 ms to open (6 s in all, each answered within the 250 ms idle wait, so that never opens
// the gate).

const OPEN_MS = 150;
const SKILLS = 40;
const slow = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const { withSlowSkillOpens } = await import("./_slow-own-skills.js");
  return withSlowSkillOpens(await importOriginal(), slow, () => OPEN_MS);
});

describe("your own skills slower than the deadline do not cost list/expand the project's templates", () => {
  it("the gate opens at half the loaders' deadline", async () => {
    const root = tempDir();
    const files: Record<string, string> = {
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.pi/prompts/ptpl.md": "---\ndescription: PROJECT-TEMPLATE\n---\nSay $ARGUMENTS\n",
    };
    Object.assign(files, ownSkillFiles(SKILLS));
    writeFiles(root, files);
    const io = {
      stdout: () => {},
      stderr: () => {},
      cwd: join(root, "project"),
      env: { XDG_CONFIG_HOME: "" },
      home: join(root, "home"),
    };
    const flags = { cwd: join(root, "project"), agentDir: join(root, "agent") };
    // Warm: modules loaded, so the deadline is the reads'.
    await loadResources(flags, io);
    slow.on = true;
    const r = await loadResources(flags, io).finally(() => {
      slow.on = false;
    });
    expect(r.templates.templates.map((t) => t.name)).toContain("ptpl");
    // Your skills are still read first, in order: the first ones are kept.
    const names = r.skills.skills.map((s) => s.name).filter((n) => n.startsWith("my"));
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual(names.map((_, i) => `my${String(i).padStart(2, "0")}`));
  }, 30_000);
});
