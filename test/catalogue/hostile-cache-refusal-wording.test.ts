import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
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

    // Review fx78a's leftover: `export` added its own advice after the refusal's, two in a row
    // ("set XDG_CACHE_HOME to a folder of yours; pass --out with a path of yours"). Now each
    // cause has one advice, and `export`'s --out is that advice's other way out.
    it("export: one advice per cause, --out its other way out", async () => {
      const root = tempDir();
      chmodSync(root, 0o755);
      mkdirSync(join(root, "share/cache"), { recursive: true });
      chmodSync(join(root, "share"), 0o777);
      mkdirSync(join(root, "linked"), { mode: 0o755 });
      mkdirSync(join(root, "elsewhere"), { mode: 0o700 });
      symlinkSync(join(root, "elsewhere"), join(root, "linked/sysprompt"));
      mkdirSync(join(root, "p/.git"), { recursive: true });
      writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
      for (const [cache, said] of [
        [
          "share/cache",
          `${join(root, "share")}: writable by other users (mode 0777), on the way to sysprompt's cache folder ${join(root, "share/cache/sysprompt")}; sysprompt writes and reads its caches and export files only below folders no one else can write in or owns: set XDG_CACHE_HOME to a folder of yours, or pass --out with a path of yours`,
        ],
        [
          "linked",
          `${join(root, "linked/sysprompt")}: a symbolic link; sysprompt's cache folder and the folders in it are never written through a link; pass --out with a path of yours`,
        ],
      ] as const) {
        const env = { XDG_CACHE_HOME: join(root, cache) };
        const run = await cli(root, join(root, "p"), ["export", "--agent", "codex"], {
          env,
          pinned: false,
        });
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toBe(`sysprompt: export: ${said}\n`);
      }
    });
  },
);
