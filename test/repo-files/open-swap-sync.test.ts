import type { PathLike } from "node:fs";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";

// The synchronous door (a skill's expansion, loadPromptTemplatesSync) as
// open-swap.test.ts does the async one: a folder on the way flipped to a
// link to ~/.ssh at the stat, a real folder at the realpath, the link again
// at the open, passed the device and inode check; the descriptor's own path
// (/proc/self/fd) now has to be the checked real path.

/** Armed swaps, each run once: just before this path is resolved, or opened. */
const armed = vi.hoisted(() => ({
  realpath: new Map<string, () => void>(),
  open: new Map<string, () => void>(),
}));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const fire = (map: Map<string, () => void>, path: unknown) => {
    const swap = map.get(String(path));
    if (swap === undefined) return;
    map.delete(String(path));
    swap();
  };
  const realpathSync = Object.assign(
    (path: PathLike, options?: unknown) => {
      fire(armed.realpath, path);
      return fs.realpathSync(path, options as never);
    },
    { native: fs.realpathSync.native },
  ) as typeof fs.realpathSync;
  // The real path is learnt by an O_PATH open (src/_realpath.ts): that open is the resolve.
  const O_PATH = 0o10000000;
  const openSync = ((path: PathLike, ...rest: unknown[]) => {
    fire(rest[0] === O_PATH ? armed.realpath : armed.open, path);
    return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
  }) as typeof fs.openSync;
  return { ...fs, default: { ...fs, realpathSync, openSync }, realpathSync, openSync };
});

const { projectReachSync, readRepoTextSync } = await import("../../src/repo-files/index.js");

describe.runIf(process.platform === "linux")(
  "the sync door: a folder flipped to a link around the check",
  () => {
    it("is not read", () => {
      const dir = tempDir();
      const ssh = join(dir, "home", ".ssh");
      mkdirSync(ssh, { recursive: true });
      writeFileSync(join(ssh, "id_rsa"), "MARKER-SECRET private key\n");
      const project = join(dir, "project");
      mkdirSync(join(project, ".git"), { recursive: true });
      const d = join(project, "d");
      symlinkSync(ssh, d);
      const file = join(d, "id_rsa");
      const reach = projectReachSync({ start: project, home: join(dir, "home") });
      armed.realpath.set(file, () => {
        rmSync(d);
        mkdirSync(d);
        writeFileSync(file, "harmless\n");
      });
      armed.open.set(file, () => {
        rmSync(d, { recursive: true });
        symlinkSync(ssh, d);
      });
      const read = readRepoTextSync(file, { reach });
      expect(armed.realpath.size + armed.open.size).toBe(0);
      expect(read.ok).toBe(false);
      expect(read.diagnostics.map((x) => x.code)).toEqual(["file-outside-project"]);
    });
  },
);
