import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runProbe } from "../../src/gather/environment/probe.js";
import { gatherGit } from "../../src/gather/git/index.js";
import { tempDir } from "../api/_helpers.js";
import { repoAt, SYSTEM } from "../gather/_git.js";

// A PATH entry under /proc names a different folder in each process that
// looks: /proc/self/cwd/bin is the bin/ of whoever reads it. The git step
// leaves the process's own folder out when it finds git (projectFolders), but
// passed the entry on in git's own PATH, where git, after -C, reads it as the
// project's bin/ (and findSystemBinary, for a caller that does not leave the
// process's folder out, vouched for the path /proc/self/cwd/bin/git as that
// folder's git, which spawn from / then resolved to /bin/git). Such entries
// are now never searched nor passed on (systemPathEntries).

/** An executable `git` in `dir` that leaves `marker` behind when run. */
function planted(dir: string, marker: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, "git"), `#!/bin/sh\ntouch '${marker}'\nexit 1\n`, { mode: 0o755 });
  chmodSync(join(dir, "git"), 0o755);
}

describe("hostile repository: the git binary and PATH entries under /proc", () => {
  it("a /proc/self/cwd/bin entry never finds the process folder's git", async () => {
    const root = tempDir();
    const host = join(root, "host");
    const marker = join(root, "ran");
    planted(join(host, "bin"), marker);
    const cwd = repoAt(join(root, "project"), "main", "first");
    const saved = process.cwd();
    process.chdir(host);
    try {
      const env = { PATH: `/proc/self/cwd/bin:${SYSTEM.PATH}` };
      const ran: { binary: string; path: string | undefined }[] = [];
      const result = await gatherGit({
        cwd,
        env,
        exclude: [cwd],
        run: (binary, args, o) => {
          ran.push({ binary, path: o.env?.PATH });
          return runProbe(binary, args, o);
        },
      });
      expect(existsSync(marker)).toBe(false);
      expect(ran.length).toBeGreaterThan(0);
      for (const { binary, path } of ran) {
        expect(binary.startsWith("/proc/")).toBe(false);
        expect(path?.split(":").filter((e) => e.startsWith("/proc/"))).toEqual([]);
      }
      expect(result.diagnostics).toEqual([]);
      expect(result.git?.branch).toBe("main");
    } finally {
      process.chdir(saved);
    }
  }, 30_000);
});
