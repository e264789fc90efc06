import {
  promises as fsp,
  mkdirSync,
  readdirSync,
  renameSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeFileNoFollow } from "../../src/_safe-write.js";
import { tempDir } from "../api/_helpers.js";

// eject, render -o, export and snapshot --update write a project's file by a
// temporary file beside it and a rename, the folders on the way checked
// first and again before the rename. The temporary file itself was created
// by its path: a folder on the way swapped for a link to ~/.ssh just then
// (another process, looping a rename) put it in ~/.ssh, and the second
// check, made after the swap back, let the write go on to a rename that
// failed, leaving the file there: 40 runs of `eject --force tools` against
// such a loop left 5 `.tools.md.<pid>.<hex>.tmp` files in ~/.ssh. The
// temporary file is now checked where the kernel says it was created
// (/proc/self/fd) and, when that is elsewhere, removed there and refused.

afterEach(() => {
  vi.restoreAllMocks();
});

describe("hostile repository: a folder swapped for a link while its file is written", () => {
  /** A project with an empty `.pi/sections`, and the folder a link there would lead to. */
  function project() {
    const base = tempDir();
    const outside = join(base, "home", ".ssh");
    mkdirSync(outside, { recursive: true });
    const root = join(base, "project");
    const sections = join(root, ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    const swap = () => {
      renameSync(sections, `${sections}.real`);
      symlinkSync(outside, sections);
    };
    const back = () => {
      unlinkSync(sections);
      renameSync(`${sections}.real`, sections);
    };
    return { root, sections, outside, swap, back };
  }

  /** Swaps the folder for the link from `from()` on, and back once the temporary file is made. */
  function swapUntilTempMade(p: ReturnType<typeof project>, startAtRealpath: boolean) {
    const open = fsp.open.bind(fsp);
    const realpath = fsp.realpath.bind(fsp);
    let swapped = false;
    let swaps = 0;
    const start = () => {
      if (swaps++ === 0) {
        p.swap();
        swapped = true;
      }
    };
    if (startAtRealpath) {
      vi.spyOn(fsp, "realpath").mockImplementation(async (path, ...rest) => {
        start();
        return realpath(path, ...rest);
      });
    }
    vi.spyOn(fsp, "open").mockImplementation(async (path, ...rest) => {
      if (!String(path).endsWith(".tmp")) return open(path, ...rest);
      start();
      try {
        return await open(path, ...rest);
      } finally {
        if (swapped) p.back();
        swapped = false;
      }
    });
    return () => swaps;
  }

  for (const [when, atRealpath] of [
    ["around the temporary file's creation", false],
    ["from the folder's real-path look-up to the temporary file's creation", true],
  ] as const) {
    it(`swapped ${when}: nothing is left where the link led, and the write is refused`, async () => {
      const p = project();
      const swaps = swapUntilTempMade(p, atRealpath);
      await expect(
        writeFileNoFollow(join(p.sections, "tools.md"), "Section text.\n", { within: p.root }),
      ).rejects.toMatchObject({ code: "unsafe-target" });
      expect(swaps()).toBeGreaterThan(0);
      expect(readdirSync(p.outside)).toEqual([]);
      expect(readdirSync(p.sections)).toEqual([]);
    });
  }

  it("without a swap the file is written, and no temporary file stays", async () => {
    const base = tempDir();
    const sections = join(base, "project", ".pi", "sections");
    mkdirSync(sections, { recursive: true });
    await writeFileNoFollow(join(sections, "tools.md"), "Section text.\n", {
      within: join(base, "project"),
    });
    expect(readdirSync(sections)).toEqual(["tools.md"]);
  });
});
