import type * as Io from "../../src/_io.js";

// Your own skills slow to open: each `agent/skills/myNN/SKILL.md` waits `ms` before it opens
// while `slow.on`, answered each time (so the own-first gate's idle wait never opens). For a
// test's `vi.mock("../../src/_io.js", …)` factory, imported inside it (vi.mock is hoisted).

/** `_io` with `open` slowed by `ms()` for your skills while `slow.on` (read at call time: the test's constants are set after the hoisted mock). */
export function withSlowSkillOpens(
  io: typeof Io,
  slow: { on: boolean },
  ms: () => number,
): typeof Io {
  return {
    ...io,
    open: async (path: string, flags: number) => {
      if (slow.on && /\/agent\/skills\/my\d+\/SKILL\.md$/.test(path)) {
        await new Promise((done) => setTimeout(done, ms()));
      }
      return io.open(path, flags);
    },
  };
}

/** `count` skills of yours, `agent/skills/my00` on, each described `USER-SKILL-NN does things`. */
export function ownSkillFiles(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(2, "0");
    files[`agent/skills/my${n}/SKILL.md`] =
      `---\nname: my${n}\ndescription: USER-SKILL-${n} does things\n---\nbody\n`;
  }
  return files;
}
