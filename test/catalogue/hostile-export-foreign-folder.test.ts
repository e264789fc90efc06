import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheFileReadable, writeCacheFile } from "../../src/_cache-location.js";
import { tempDir } from "../api/_helpers.js";
import { IS_ROOT, NOBODY } from "./_nobody.js";
import { cli } from "./_output-link.js";

// Review rev77d F5: `export --out` and sysprompt's cache folder were taken below a folder another
// user owns (0755, writable by him alone): he may rename any entry in his folder, so he renamed
// your `mine/` away and put his own prompt at the path the printed line names, which codex reads
// at each start (the cache folder's export file, `env.json` and the hook's session files alike).
// The walk's `owners` test, the PATH search's (rev71d F1), is now asked there too; root's
// folders and yours pass.

function setUp() {
  const root = tempDir();
  chmodSync(root, 0o755);
  for (const dir of ["p/.git", "home", "agent", "bob/mine", "bob/cache"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  chownSync(join(root, "bob"), NOBODY, NOBODY);
  return root;
}

describe.runIf(IS_ROOT)(
  "hostile-export-foreign-folder: nothing exported or cached below another user's folder (needs root to play him)",
  () => {
    it("export --out below his folder is refused, nothing written; below root's it is written", async () => {
      const root = setUp();
      const out = join(root, "bob/mine/e.md");
      const run = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${join(root, "bob")}: owned by another user (uid ${NOBODY})`);
      expect(run.stdout).toBe("");
      expect(existsSync(out)).toBe(false);
      chownSync(join(root, "bob"), 0, 0);
      const ok = await cli(root, join(root, "p"), ["export", "--agent", "codex", "--out", out]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(existsSync(out)).toBe(true);
    });

    it("a cache folder below his folder is refused: no export, no cache file written or read", async () => {
      const root = setUp();
      const cache = join(root, "bob/cache");
      const run = await cli(root, join(root, "p"), ["export", "--agent", "codex"], {
        env: { XDG_CACHE_HOME: cache },
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `${join(root, "bob")}: owned by another user (uid ${NOBODY}), on the way to sysprompt's cache folder`,
      );
      expect(readdirSync(cache)).toEqual([]);
      const folder = join(cache, "sysprompt");
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(join(folder, "env.json"), "{}");
      expect(cacheFileReadable(join(folder, "env.json"))).toBe(false);
      expect(() =>
        writeCacheFile({ path: join(folder, "tree.json"), parents: true }, "{}"),
      ).toThrow(`owned by another user (uid ${NOBODY}), on the way`);
      chownSync(join(root, "bob"), 0, 0);
      expect(cacheFileReadable(join(folder, "env.json"))).toBe(true);
    });
  },
);
