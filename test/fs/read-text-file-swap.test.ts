import { execFileSync } from "node:child_process";
import type { Stats } from "node:fs";
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { tempDir } from "../api/_helpers.js";

// readTextFile stats a path, then reads it. A file swapped in between (a FIFO
// for a regular file, a larger file for a small one) must neither block nor be
// read past the limit: the open file is checked again and read with a cap.
// Here the stat is made to lie, as a swap right after it would.

/** Paths whose stat is answered with this regular file's stat instead of their own. */
const lies = vi.hoisted(() => new Map<string, Stats>());

vi.mock("../../src/_io.js", async (importOriginal) => {
  const io = await importOriginal<typeof import("../../src/_io.js")>();
  return {
    ...io,
    stat: async (path: string) => lies.get(path) ?? io.stat(path),
  };
});

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const statSync = ((path: string, options?: object) =>
    lies.get(String(path)) ?? real.statSync(path, options as never)) as typeof real.statSync;
  return { ...real, default: { ...real, statSync }, statSync };
});

const { readTextFile, readTextFileSync } = await import("../../src/_fs.js");

function smallFile(dir: string): Stats {
  const path = join(dir, "small.md");
  fs.writeFileSync(path, "small\n");
  return fs.statSync(path);
}

describe.skipIf(process.platform === "win32")("a text file swapped after its stat", () => {
  it.each([
    ["readTextFile", readTextFile],
    ["readTextFileSync", async (path: string, max?: number) => readTextFileSync(path, max)],
  ])("%s does not wait on a FIFO put in its place", async (_name, read) => {
    const dir = tempDir();
    const fifo = join(dir, "AGENTS.md");
    execFileSync("mkfifo", [fifo]);
    lies.set(fifo, smallFile(dir));
    const result = await read(fifo);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.diagnostics.map((d) => d.path)).toEqual([fifo]);
  });

  it.each([
    ["readTextFile", readTextFile],
    ["readTextFileSync", async (path: string, max?: number) => readTextFileSync(path, max)],
  ])("%s reads no more than its limit of a larger file put in its place", async (_name, read) => {
    const dir = tempDir();
    const big = join(dir, "AGENTS.md");
    fs.writeFileSync(big, "x".repeat(5000));
    lies.set(big, smallFile(dir));
    const result = await read(big, 1000);
    expect(result).toMatchObject({ ok: false, reason: "too-large" });
    expect(result.ok ? "" : result.diagnostics[0]?.message).toMatch(/over the 1000-byte limit/);
  });

  it("reads a regular file whole, as before", async () => {
    const dir = tempDir();
    const path = join(dir, "AGENTS.md");
    const text = "é".repeat(3000);
    fs.writeFileSync(path, text);
    expect(await readTextFile(path)).toMatchObject({ ok: true, text });
    expect(readTextFileSync(path)).toMatchObject({ ok: true, text });
    expect(await readTextFile(path, 100)).toMatchObject({ ok: false, reason: "too-large" });
  });
});
