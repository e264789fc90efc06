import fs, { mkdirSync, readdirSync, renameSync, symlinkSync, unlinkSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cacheLocation, writeCacheFile } from "../../src/_cache-location.js";
import { tempDir } from "../api/_helpers.js";

// sysprompt's caches (env.json, tree.json, the hook's state) are written by a
// temporary file and a rename in its cache folder, which may be in a project
// (XDG_CACHE_HOME set to a folder in a checkout, as CI jobs do). The folder is
// checked to be a real folder of the user's (hostile-cache-folder-link), but
// the temporary file was then made by its path: the project's
// `.cache/sysprompt` swapped for a link to ~/.ssh just then (another process,
// looping a rename) put it in ~/.ssh. It is now checked where the kernel made
// it (/proc/self/fd), as a project file's write checks its own
// (hostile-write-temp-race), and removed there when that is elsewhere.

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

describe("hostile repository: the cache folder swapped for a link while a cache file is written", () => {
  function project() {
    const base = tempDir();
    const outside = join(base, "home", ".ssh");
    mkdirSync(outside, { recursive: true });
    const cache = join(base, "project", ".cache");
    const folder = join(cache, "sysprompt");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const swap = () => {
      renameSync(folder, `${folder}.real`);
      symlinkSync(outside, folder);
    };
    const back = () => {
      unlinkSync(folder);
      renameSync(`${folder}.real`, folder);
    };
    return {
      env: { XDG_CACHE_HOME: cache },
      home: join(base, "home"),
      folder,
      outside,
      swap,
      back,
    };
  }

  /**
   * Swaps the folder for the link around the temporary file's creation (an
   * openSync, or a writeFileSync as the cache was written before).
   */
  function swapAroundTempCreation(p: ReturnType<typeof project>) {
    let swaps = 0;
    const around = <T>(path: unknown, make: () => T): T => {
      if (!String(path).endsWith(".tmp")) return make();
      swaps++;
      p.swap();
      try {
        return make();
      } finally {
        p.back();
      }
    };
    const open = fs.openSync;
    const write = fs.writeFileSync;
    vi.spyOn(fs, "openSync").mockImplementation((path, ...rest) =>
      around(path, () => open(path, ...rest)),
    );
    vi.spyOn(fs, "writeFileSync").mockImplementation((path, ...rest) =>
      around(path, () => write(path, ...rest)),
    );
    syncBuiltinESMExports();
    return () => swaps;
  }

  it.skipIf(process.platform !== "linux")(
    "swapped around the temporary file's creation: nothing is left where the link led, and the write fails",
    () => {
      const p = project();
      const swaps = swapAroundTempCreation(p);
      for (const name of ["env", "tree"]) {
        expect(() =>
          writeCacheFile(cacheLocation(name, { env: p.env, home: p.home }), "{}\n"),
        ).toThrow(/the folder changed while it was written/);
      }
      expect(swaps()).toBe(2);
      expect(readdirSync(p.outside)).toEqual([]);
      expect(readdirSync(p.folder)).toEqual([]);
    },
  );

  it("without a swap the cache file is written, and no temporary file stays", () => {
    const p = project();
    writeCacheFile(cacheLocation("env", { env: p.env, home: p.home }), '{"a":1}\n');
    expect(readdirSync(p.folder)).toEqual(["env.json"]);
    expect(fs.readFileSync(join(p.folder, "env.json"), "utf8")).toBe('{"a":1}\n');
  });
});
