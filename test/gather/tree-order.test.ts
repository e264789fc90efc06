import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { renderSystemPrompt } from "../../src/render-system-prompt.js";
import { pinned, tempDir } from "../api/_helpers.js";
import { makeTree } from "./_tree.js";

/**
 * File-system calls in the order they were made: the tree walk's folder
 * listings (other steps list folders too: the rules step lists cwd for Roo's
 * mode files) and file opens.
 */
const calls = vi.hoisted(() => [] as string[]);

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const record =
    <F extends (...args: never[]) => unknown>(fn: F) =>
    (...args: Parameters<F>) => {
      if (/[\\/]gather[\\/]tree[\\/]/.test(new Error().stack ?? "")) {
        // A folder checked by lstat is listed through its descriptor (/proc/self/fd/N): by the path it names.
        const at = String(args[0]);
        calls.push(`list ${at.startsWith("/proc/self/fd/") ? fs.readlinkSync(at) : at}`);
      }
      return fn(...args);
    };
  return {
    ...fs,
    readdir: record(fs.readdir as never),
    readdirSync: record(fs.readdirSync as never),
    opendirSync: record(fs.opendirSync as never),
    // Files are opened through src/_io.ts, synchronously (in slices).
    openSync: (...args: Parameters<typeof fs.openSync>) => {
      calls.push(`open ${String(args[0])}`);
      return fs.openSync(...args);
    },
  };
});

// The tree walk is long and mostly synchronous, in slices: had it started with
// the other steps, each read of theirs would have waited a slice of the walk,
// and on a large tree under a tight deadline the context files came too late.
describe("the workspace tree and the other gathering steps", () => {
  it("the walk lists no folder of the project before the context files are read", async () => {
    const root = tempDir();
    const spec: Record<string, { at: string; size: number }> = {};
    for (let i = 0; i < 20; i++) spec[`d${i}/x.txt`] = { at: "2026-01-01 00:00", size: 1 };
    const options = pinned(root, { workspaceTree: true, deadlineMs: 10_000 });
    makeTree(join(root, "project"), spec);
    writeFileSync(join(root, "project", "AGENTS.md"), "# Rules\n\nBe brief.\n");
    calls.length = 0;
    const result = await renderSystemPrompt(options);
    expect(result.steps.map((s) => `${s.name} ${s.status}`)).toContain("tree ok");
    const project = join(root, "project");
    const firstListing = calls.findIndex((c) => c.startsWith(`list ${project}`));
    const contextRead = calls.indexOf(`open ${join(project, "AGENTS.md")}`);
    expect(contextRead).toBeGreaterThanOrEqual(0);
    expect(firstListing).toBeGreaterThan(contextRead);
  });
});
