import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./_imports.js";

// One way to resolve a real path (src/_realpath.ts): glibc's realpath, which
// node's realpath calls, walks the path again for each component and starts
// over after each link, so a repository's chain of links made one call take
// seconds on the main thread or in the thread pool. This fails when code
// outside that module calls a realpath of node:fs.

const SRC = fileURLToPath(new URL("../../src/", import.meta.url));

/** The realpath calls of node:fs in `text`: `x.realpath(`, `realpathSync(`, `.native(`, a named import. */
function realpathCalls(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\b\w+\.realpath(?:Sync)?(?:\.native)?\s*\(/g)) found.push(m[0]);
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*"node:fs(?:\/promises)?"/g)) {
    for (const part of (m[1] ?? "").split(",")) {
      const name = (part.trim().split(/\s+as\s+/)[0] ?? "").trim();
      if (name === "realpath" || name === "realpathSync") found.push(`import ${name}`);
    }
  }
  return found;
}

describe("one way to resolve a real path", () => {
  it("no code but src/_realpath.ts calls node:fs's realpath", () => {
    const outside = sourceFiles(SRC).flatMap((file) => {
      const rel = relative(SRC, file).split("\\").join("/");
      if (rel === "_realpath.ts") return [];
      return realpathCalls(readFileSync(file, "utf8")).map((call) => `${rel}: ${call}`);
    });
    expect(outside).toEqual([]);
  });

  it("the check sees each spelling of the call", () => {
    expect(realpathCalls("const a = await fsp.realpath(folder);")).toEqual(["fsp.realpath("]);
    expect(realpathCalls("fs.realpath.native(p, done);")).toEqual(["fs.realpath.native("]);
    expect(realpathCalls("fs.realpathSync.native(p)")).toEqual(["fs.realpathSync.native("]);
    expect(realpathCalls('import { lstat, realpath as rp } from "node:fs/promises";')).toEqual([
      "import realpath",
    ]);
    expect(realpathCalls("await realpathOrSelf(root.path)")).toEqual([]);
  });
});
