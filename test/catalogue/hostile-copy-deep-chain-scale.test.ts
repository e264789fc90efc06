import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_COPY_DEPTH, MAX_READ_BELOW } from "../../src/author/sandbox.js";
import { simulatePrompt } from "../../src/author/simulate/simulate.js";
import { runSnapshots } from "../../src/author/snapshot/snapshot.js";
import { MAX_TREE_DEPTH } from "../../src/gather/tree/depth.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { cpuTimed } from "../gather/_timed.js";

// Review rev96b F1: a project that is one chain of 3,000 folders (`a/a/a/…`, a
// file at the bottom) kept `explain --simulate` busy 25.7 s against its 20 s
// copy budget, 11.6 s of CPU: the copy opens each entry by its whole path, so
// each level cost more than the one before, and the partial copy's removal had
// no budget. The copy now goes no deeper than a render's readers do
// (MAX_COPY_DEPTH, or as far below a deeper cwd as they look), says the folders
// it leaves out once, and a removal slower than MAX_REMOVE_WAIT_MS goes on
// without the command. `snapshot` copies the same way: a scenario folder that
// deep is refused.

const SLOW = 240_000;
const CHAIN = 3000;

/**
 * `dir/a/a/…`, `levels` folders, with `files` (by the depth of the folder
 * holding them) written on the way, made one folder at a time from the one
 * above (a path 3,000 folders deep is past PATH_MAX).
 */
function chain(dir: string, levels: number, files: Record<number, string> = {}): void {
  const script = `const fs = require("node:fs");
const files = ${JSON.stringify(files)};
for (let i = 0; i <= ${levels}; i++) {
  if (files[i] !== undefined) fs.writeFileSync(files[i], "export {};\\n");
  if (i === ${levels}) break;
  fs.mkdirSync("a");
  process.chdir("a");
}
fs.writeFileSync("f.txt", "");`;
  execFileSync(process.execPath, ["-e", script], { cwd: dir });
}

/** `rm -rf`: it walks a tree past PATH_MAX one folder at a time, where `rmSync` names each by its whole path. */
const removeDeep = (dir: string) => execFileSync("rm", ["-rf", dir]);

const at = (dir: string, levels: number) => join(dir, ...Array.from({ length: levels }, () => "a"));

/** A git project `root/project` that is one chain of `levels` folders, `x.ts` in the deepest one copied. */
function deepProject(levels = CHAIN) {
  const root = tempDir();
  const dir = join(root, "project");
  mkdirSync(join(dir, ".git"), { recursive: true });
  writeFileSync(join(dir, "AGENTS.md"), "# Rules\n\nBe brief.\n");
  chain(dir, levels, { [MAX_COPY_DEPTH]: "x.ts" });
  return { root, dir };
}

const simulate = (root: string, cwd?: string) =>
  simulatePrompt(pinned(root, cwd === undefined ? {} : { cwd }), {
    sandboxDir: join(root, "sandboxes"),
    session: false,
  });

describe("hostile repository: a chain of 3,000 folders under explain --simulate and snapshot", () => {
  it("the readers' depth is what the copy keeps", () => {
    expect(MAX_READ_BELOW).toBeGreaterThanOrEqual(MAX_TREE_DEPTH);
    expect(MAX_COPY_DEPTH).toBe(256 + 20);
  });

  it(
    "simulate copies no deeper than the readers, says it once, and a file within the cap is simulated",
    async () => {
      const { root, dir } = deepProject();
      try {
        // 1.6 s of CPU at a load of 13 on 2 cores, the renders included. Before: the copy ran
        // to its 20 s budget (or to ENAMETOOLONG at ~2,000 folders), then removed what it had
        // made: 8.5 s of CPU, and nothing was simulated.
        const { cpuMs, value: report } = await cpuTimed(() => simulate(root));
        expect(report.diagnostics.filter((d) => d.code === "simulate-copy")).toEqual([
          {
            level: "info",
            code: "simulate-copy",
            message: `the copy leaves out the folders deeper than ${MAX_COPY_DEPTH} below the project root: the context files, rules and tree of a render read none that deep, and a skill or an @import there is left out of the simulated renders`,
            path: at(dir, MAX_COPY_DEPTH + 1),
          },
        ]);
        // The source file edited is the one in the deepest folder copied.
        const edit = report.actions.find((a) => a.action === "source-edited");
        expect(edit?.detail).toBe(`${"a/".repeat(MAX_COPY_DEPTH)}x.ts`);
        expect(report.actions.length).toBeGreaterThan(3);
        expect(cpuMs).toBeLessThan(5_000);
        // The copy is gone once the report is back.
        expect(readdirSync(join(root, "sandboxes"))).toEqual([]);
      } finally {
        removeDeep(root);
      }
    },
    SLOW,
  );

  it(
    "a cwd deeper than the cap is copied, and as far below it as the readers look",
    async () => {
      // Each render from a cwd that deep costs ~1 s of CPU (the chain's look-ups): no more than needed.
      const { root, dir } = deepProject(MAX_COPY_DEPTH + 30 + MAX_READ_BELOW + 10);
      try {
        const cwd = at(dir, MAX_COPY_DEPTH + 30);
        const report = await simulate(root, cwd);
        expect(report.diagnostics.filter((d) => d.code === "simulate-copy")).toEqual([
          expect.objectContaining({
            level: "info",
            path: at(dir, MAX_COPY_DEPTH + 30 + MAX_READ_BELOW + 1),
          }),
        ]);
        expect(report.actions.length).toBeGreaterThan(3);
      } finally {
        removeDeep(root);
      }
    },
    SLOW,
  );

  it(
    "snapshot refuses a scenario folder deeper than the cap, with one problem",
    async () => {
      const base = tempDir();
      const dir = join(base, "snapshots");
      mkdirSync(dir);
      writeFileSync(join(dir, "p.scenario.yaml"), "tools: [read]\n");
      chain(dir, CHAIN);
      try {
        const { cpuMs, value: report } = await cpuTimed(() =>
          runSnapshots(dir, { sandboxDir: join(base, "cache") }),
        );
        expect(report.scenarios.map((s) => s.errors)).toEqual([
          [
            {
              path: at(dir, MAX_COPY_DEPTH + 1),
              message: `deeper than ${MAX_COPY_DEPTH} folders below the scenario folder, which no render reads; keep the fixtures shallower`,
            },
          ],
        ]);
        // 0.36 s of CPU at load. Before: 6.7 s, the copy to ENAMETOOLONG at ~2,000 folders.
        expect(cpuMs).toBeLessThan(2_000);
      } finally {
        removeDeep(base);
      }
    },
    SLOW,
  );
});
