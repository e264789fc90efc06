import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { ReadHandle } from "../../src/_io.js";

const bufferSizes: number[] = [];

vi.mock("../../src/_io.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/_io.js")>();
  return {
    ...real,
    open: async (path: string, flags: number): Promise<ReadHandle> => {
      const handle = await real.open(path, flags);
      const read = handle.read.bind(handle) as (
        ...args: unknown[]
      ) => ReturnType<ReadHandle["read"]>;
      (handle as { read: unknown }).read = (buffer: Uint8Array, ...rest: unknown[]) => {
        bufferSizes.push(buffer.length);
        return read(buffer, ...rest);
      };
      return handle;
    },
  };
});

const { readCappedText } = await import("../../src/repo-files/capped-read.js");

// A repository can hold 20,000 one-byte rule files; each read at once must
// not hold a buffer of the 256 KiB cap (that took 3 GB and 29 s).
describe("readCappedText's buffer", () => {
  it("fits the file, not the cap", async () => {
    const dir = mkdtempSync(join(tmpdir(), "capped-buffer-"));
    writeFileSync(join(dir, "small.md"), "x");
    bufferSizes.length = 0;
    const out = await readCappedText(join(dir, "small.md"), 256 * 1024);
    expect(out.ok && out.text).toBe("x");
    expect(Math.max(...bufferSizes)).toBeLessThanOrEqual(4096);
  });

  it("still reads a file that is larger than its size said, up to the cap", async () => {
    const dir = mkdtempSync(join(tmpdir(), "capped-buffer-"));
    writeFileSync(join(dir, "big.md"), "y".repeat(100_000));
    const out = await readCappedText(join(dir, "big.md"), 50_000);
    expect(out.ok && out.text.length).toBe(50_000);
    expect(out.ok && out.omitted).toBe(50_000);
  });

  it("reads /proc files, whose size is 0", async () => {
    const out = await readCappedText("/proc/self/status", 256 * 1024);
    expect(out.ok && out.text).toMatch(/^Name:/);
  });
});
