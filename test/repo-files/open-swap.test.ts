import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";

// readCappedText (the reader of the git section's path files, alternates and
// an untrusted project's .gitignore files) checked the file by name, then
// opened it by name again: following a link, and never asking whether the
// file opened was the one checked. A .git file checked as a regular file
// (follow: false) and swapped for a link before the open was read through
// the link; a file replaced by another was read as the one checked. The
// file system is wrapped so the swap lands exactly in that gap.

/** Armed swaps: just before this path is opened, this runs once. */
const swaps = vi.hoisted(() => new Map<string, () => void>());
/** Armed swaps: just before this path is resolved, this runs once. */
const beforeRealpath = vi.hoisted(() => new Map<string, () => void>());

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  const open = async (path: string, flags: number) => {
    const swap = swaps.get(path);
    if (swap !== undefined) {
      swaps.delete(path);
      swap();
    }
    return io.open(path, flags);
  };
  const realpath = async (path: string) => {
    const swap = beforeRealpath.get(path);
    if (swap !== undefined) {
      beforeRealpath.delete(path);
      swap();
    }
    return io.realpath(path);
  };
  return { ...io, open, realpath };
});

const { readCappedText } = await import("../../src/repo-files/capped-read.js");
const { NO_DEADLINE, projectReach, readRepoText } = await import("../../src/repo-files/index.js");

// The door checked a file's real path, then opened that path without
// following a final link and compared the descriptor's device and inode
// with the file's first stat. A folder on the way flipped twice — a link to
// ~/.ssh at the stat, a real folder at the realpath, the link again at the
// open — passed both: the open followed the folder link to the very file
// the stat had seen. The descriptor's own path (/proc/self/fd) now has to
// be the real path that was checked.
describe.runIf(process.platform === "linux")(
  "the door: a folder flipped to a link around the check",
  () => {
    const setUp = () => {
      const dir = tempDir();
      const ssh = join(dir, "home", ".ssh");
      mkdirSync(ssh, { recursive: true });
      writeFileSync(join(ssh, "id_rsa"), "MARKER-SECRET private key\n");
      const project = join(dir, "project");
      mkdirSync(join(project, ".git"), { recursive: true });
      const d = join(project, "d");
      symlinkSync(ssh, d);
      const file = join(d, "id_rsa");
      const asFolder = () => {
        rmSync(d);
        mkdirSync(d);
        writeFileSync(file, "harmless\n");
      };
      const asLink = () => {
        rmSync(d, { recursive: true });
        symlinkSync(ssh, d);
      };
      return { dir, project, file, asFolder, asLink };
    };

    it("is not read", async () => {
      const t = setUp();
      const reach = await projectReach({
        signal: NO_DEADLINE,
        start: t.project,
        home: join(t.dir, "home"),
        trusted: true,
      });
      beforeRealpath.set(t.file, t.asFolder);
      swaps.set(t.file, t.asLink);
      const read = await readRepoText(t.file, { reach });
      expect(beforeRealpath.size + swaps.size).toBe(0);
      expect(read.ok).toBe(false);
      expect(read.diagnostics.map((d) => d.code)).toEqual(["file-outside-project"]);
    });
  },
);

describe("readCappedText: a file swapped between its check and its opening", () => {
  it("is not read through a link put in its place (follow: false)", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "home"));
    writeFileSync(join(dir, "home", "secret"), "gitdir: MARKER-SECRET\n");
    const file = join(dir, ".git");
    writeFileSync(file, "gitdir: ../elsewhere\n");
    swaps.set(file, () => {
      rmSync(file);
      symlinkSync(join(dir, "home", "secret"), file);
    });
    const read = await readCappedText(file, 16 * 1024, { follow: false });
    expect(swaps.size).toBe(0);
    expect(read.ok).toBe(false);
    expect(read.diagnostics.map((d) => d.message)).toEqual([
      "the file was replaced (by a link, or another file) between its check and its opening; not read",
    ]);
  });

  it("is not read when another file took its name", async () => {
    const dir = tempDir();
    const file = join(dir, "alternates");
    writeFileSync(file, "../inside\n");
    writeFileSync(join(dir, "other"), "/somewhere/else\n");
    swaps.set(file, () => renameSync(join(dir, "other"), file));
    const read = await readCappedText(file, 16 * 1024);
    expect(swaps.size).toBe(0);
    expect(read.ok).toBe(false);
  });

  it("reads a file left alone, through a link when follow is not false", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "target"), "gitdir: ../x\n");
    symlinkSync(join(dir, "target"), join(dir, "link"));
    const read = await readCappedText(join(dir, "link"), 16 * 1024);
    expect(read.ok && read.text).toBe("gitdir: ../x\n");
    const refused = await readCappedText(join(dir, "link"), 16 * 1024, { follow: false });
    expect(refused.ok).toBe(false);
  });
});
