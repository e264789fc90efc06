import { chmodSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cacheLocation, writeCacheFile } from "../../src/_cache-location.js";
import { GPU_CACHE_VERSION, readGpuCache } from "../../src/gather/environment/_env-cache.js";
import { readSession } from "../../src/hook/state.js";
import { tempDir } from "../api/_helpers.js";
import { cli } from "./_output-link.js";

// Review rev71d F6: sysprompt's cache folder was checked from `sysprompt/` down only. With
// `XDG_CACHE_HOME` a folder of yours (0700) below a share others may write (a team's
// `root:team 2775`, or 0777), `export --agent codex` wrote its default file there and printed the
// line naming it; a team member renamed `me/` away and put his own prompt at that path, which codex
// reads as its whole system prompt at each start, and his `env.json` or session file where
// sysprompt reads them. Now every folder from the cache folder up to `/` (as named and by real
// paths: `sharedFolderOn`, `export --out`'s walk) must be no one else's to write, for a write and
// for a read.

const UNIX = process.getuid !== undefined;

function setUp() {
  const root = tempDir();
  for (const dir of ["p/.git", "home", "agent", "share/me", "sticky/me"]) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  writeFileSync(join(root, "p/AGENTS.md"), "# P\n");
  chmodSync(join(root, "share"), 0o777);
  chmodSync(join(root, "share/me"), 0o700);
  chmodSync(join(root, "sticky"), 0o1777);
  return root;
}

const machine = {
  platform: "linux",
  arch: "x64",
  hostname: "h",
  release: "r",
  boot: "b",
};

describe("hostile-cache-below-shared-folder: no cache below a folder others may write", () => {
  it.skipIf(!UNIX)(
    "export's default file below a 0777 share is refused, nothing written",
    async () => {
      const root = setUp();
      const cache = join(root, "share/me");
      const run = await cli(root, join(root, "p"), ["export", "--agent", "codex"], {
        env: { XDG_CACHE_HOME: cache },
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(
        `${join(root, "share")}: writable by other users (mode 0777), on the way to sysprompt's cache folder`,
      );
      expect(run.stdout).toBe("");
      expect(readdirSync(cache)).toEqual([]);
    },
  );

  it.skipIf(!UNIX)("below a sticky folder of yours (as /tmp) it is written", async () => {
    const root = setUp();
    const cache = join(root, "sticky/me");
    const run = await cli(root, join(root, "p"), ["export", "--agent", "codex"], {
      env: { XDG_CACHE_HOME: cache },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `model_instructions_file=${join(cache, "sysprompt/export/codex")}`,
    );
  });

  it.skipIf(!UNIX)(
    "a share on the way of a link's target (your link to a link in the share) is refused too",
    async () => {
      const root = setUp();
      // mine -> share/l, and share/l -> sticky/me: the real cache folder is yours, but the team
      // member may swap share/l, which the name is looked up through.
      symlinkSync(join(root, "sticky/me"), join(root, "share/l"));
      symlinkSync(join(root, "share/l"), join(root, "mine"));
      const run = await cli(root, join(root, "p"), ["export", "--agent", "codex"], {
        env: { XDG_CACHE_HOME: join(root, "mine") },
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`${join(root, "share")}: writable by other users (mode 0777)`);
      expect(readdirSync(join(root, "sticky/me"))).toEqual([]);
    },
  );

  it.skipIf(!UNIX)("a cache file planted there is not read, nor one written", async () => {
    const root = setUp();
    const folder = join(root, "share/me/sysprompt");
    mkdirSync(folder, { mode: 0o700 });
    const env = join(folder, "env.json");
    const gpu = { status: "found", names: ["TEAM MEMBER GPU"] };
    writeFileSync(env, JSON.stringify({ version: GPU_CACHE_VERSION, machine, gpu }));
    expect(await readGpuCache(env, machine)).toBeUndefined();
    const session = cacheLocation("hook-s", {
      env: { XDG_CACHE_HOME: join(root, "share/me") },
      home: root,
    });
    writeFileSync(session.path, JSON.stringify({ v: 1, keys: ["/p/AGENTS.md"] }));
    expect(readSession(session).keys.size).toBe(0);
    expect(() => writeCacheFile({ path: join(folder, "tree.json"), parents: true }, "{}")).toThrow(
      /writable by other users \(mode 0777\), on the way/,
    );
    expect(existsSync(join(folder, "tree.json"))).toBe(false);
    // The same files below a folder of yours are read.
    chmodSync(join(root, "share"), 0o755);
    expect(await readGpuCache(env, machine)).toEqual(gpu);
  });
});
