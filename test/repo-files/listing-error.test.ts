import { readdirSync as fsReaddirSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";

// A folder whose open failed (gone, or not a folder) was listed again whole
// with readdirSync, only to get readdir's words for the error: a folder put
// back (or swapped in) between the two calls was read in one synchronous
// call, whatever its size, and then its listing thrown away. The error is
// now made from the first one, with the words readdir would give.

const io = vi.hoisted(() => ({ failOpen: new Set<string>(), listed: 0 }));

vi.mock("../../src/_io.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/_io.js")>();
  const opendirSync = ((path: string, options?: unknown) => {
    if (io.failOpen.delete(path)) {
      throw Object.assign(new Error("ENOENT: no such file or directory, opendir"), {
        errno: -2,
        code: "ENOENT",
        syscall: "opendir",
      });
    }
    return real.opendirSync(path, options as never);
  }) as typeof real.opendirSync;
  const readdirSync = ((path: string, options?: unknown) => {
    const entries = (real.readdirSync as (...a: unknown[]) => unknown[])(path, options);
    io.listed += entries.length;
    return entries;
  }) as typeof real.readdirSync;
  return { ...real, opendirSync, readdirSync };
});

const { readListing, readListingSync } = await import("../../src/repo-files/list-folder.js");

describe("a folder whose open failed", () => {
  it("is not listed again to word the error", async () => {
    const dir = join(tempDir(), "back");
    mkdirSync(dir);
    for (let i = 0; i < 500; i++) writeFileSync(join(dir, `f${i}`), "");
    io.failOpen.add(dir);
    io.listed = 0;
    const listed = await readListing(dir, 10, undefined);
    expect(io.listed).toBe(0);
    expect("error" in listed && listed.error.message).toBe(
      `ENOENT: no such file or directory, scandir '${dir}'`,
    );
    expect("error" in listed && listed.error.syscall).toBe("scandir");
  });

  it("has readdir's words when it is missing", () => {
    const dir = join(tempDir(), "missing");
    const listed = readListingSync(dir, 10);
    let expected = "";
    try {
      fsReaddirSync(dir);
    } catch (error) {
      expected = (error as Error).message;
    }
    expect("error" in listed && listed.error.message).toBe(expected);
    expect("error" in listed && listed.error.code).toBe("ENOENT");
  });
});
