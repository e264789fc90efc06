import { closeSync, cpSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_SCENARIO_BYTES, MAX_SCENARIO_ENTRIES } from "../../src/author/sandbox.js";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { FIXTURES, pinned, tempDir } from "../api/_helpers.js";

// Review rev58b F4: once an ignored artefact spent the bytes cap of the files git ignores, each
// later ignored file went into `ignoredFiles`, the list the entry cap was counted on, so
// `explain --simulate` refused 12,003 ignored files as "more than 20000 files git ignores", and
// said it again in every folder the walk went on to. The count is of files looked at, said once.

const SLOW = 240_000;

/** `<root>/project`: the small project as a git root that ignores `*.log` and `*.bin`. */
function project() {
  const root = tempDir();
  const dir = join(root, "project");
  cpSync(join(FIXTURES, "simulate", "small-project"), dir, { recursive: true });
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, ".gitignore"), "*.log\n*.bin\n");
  return { root, dir };
}

/** `count` ignored logs of 32 bytes in `dir/folder`. */
function logs(dir: string, folder: string, count: number) {
  mkdirSync(join(dir, folder));
  for (let i = 0; i < count; i++) writeFileSync(join(dir, folder, `f${i}.log`), "x".repeat(32));
}

const simulate = (root: string) =>
  simulatePrompt(pinned(root), { sandboxDir: join(root, "sandboxes"), session: false });

describe("hostile-simulate-ignored-count: the cap on files git ignores counts files looked at, once", () => {
  it(
    "files left out for bytes do not count as past the entry cap",
    async () => {
      const { root, dir } = project();
      // Copied first (`a.bin` before `logs/`), it leaves 16 bytes: every log after is over them.
      const fd = openSync(join(dir, "a.bin"), "w");
      ftruncateSync(fd, MAX_SCENARIO_BYTES - 16);
      closeSync(fd);
      logs(dir, "logs", MAX_SCENARIO_ENTRIES + 5);
      const report = await simulate(root);
      expect(report.diagnostics.filter((d) => d.code === "simulate-copy")).toEqual([]);
      expect(report.ignoredFiles.length).toBe(MAX_SCENARIO_ENTRIES + 5);
      expect(report.actions.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "past twice the entry cap the copy is refused with one error",
    async () => {
      const { root, dir } = project();
      logs(dir, "logs0", MAX_SCENARIO_ENTRIES);
      logs(dir, "logs1", MAX_SCENARIO_ENTRIES + 1);
      logs(dir, "logs2", 3);
      const report = await simulate(root);
      expect(report.diagnostics.filter((d) => d.code === "simulate-copy")).toEqual([
        {
          level: "error",
          code: "simulate-copy",
          message: `not simulated: the project is copied first, and this entry stops the copy: the project has more than ${2 * MAX_SCENARIO_ENTRIES} files git ignores: too many to look at`,
          // The 20,001st: the last of logs1 in the walk's order by name.
          path: join(dir, "logs1", "f9999.log"),
        },
      ]);
    },
    SLOW,
  );
});
