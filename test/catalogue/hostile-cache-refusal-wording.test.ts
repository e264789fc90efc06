import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev77d F3: refusing a cache folder below a 0777 folder, `snapshot --update` and
// `explain --simulate` said the advice twice ("set XDG_CACHE_HOME to a folder of yours; set
// XDG_CACHE_HOME to a folder you can write"), then a `Usage:` line though the arguments were
// fine, and `explain --simulate` spoke of "a sandbox for the scenarios" it does not have.

describe.runIf(process.getuid !== undefined)(
  "hostile-cache-refusal-wording: one line, one advice, each command's own words",
  () => {
    it("snapshot --update and explain --simulate below a 0777 folder", async () => {
      const root = tempDir();
      chmodSync(root, 0o755);
      mkdirSync(join(root, "share/cache"), { recursive: true });
      chmodSync(join(root, "share"), 0o777);
      mkdirSync(join(root, "p/.git"), { recursive: true });
      mkdirSync(join(root, "p/snapshots"));
      mkdirSync(join(root, "agent"));
      writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
      writeFileSync(join(root, "p/snapshots/a.scenario.yaml"), "agent: pi\n");
      const env = { XDG_CACHE_HOME: join(root, "share/cache") };
      const snapshot = await cli(root, join(root, "p"), ["snapshot", "--update"], {
        env,
        pinned: false,
      });
      const simulate = await cli(root, join(root, "p"), ["explain", "--simulate"], {
        env,
        pinned: false,
      });
      for (const [run, words] of [
        [snapshot, "cannot make a sandbox for the scenarios in"],
        [simulate, "cannot make a copy of the project for the simulation in"],
      ] as const) {
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toContain(words);
        expect(run.stderr).toContain(`${join(root, "share")}: writable by other users (mode 0777)`);
        expect(run.stderr).not.toContain("Usage:");
        expect(run.stderr.split("XDG_CACHE_HOME").length - 1, run.stderr).toBe(1);
        expect(run.stderr.trim().split("\n"), run.stderr).toHaveLength(1);
      }
    });
  },
);
